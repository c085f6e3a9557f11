"""The shared OAuth layer's requests: PKCE, each grant's form, each way a client authenticates at the token endpoint."""

from __future__ import annotations

import base64
from urllib.parse import parse_qs, unquote, urlsplit

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.errors import ConfigError, OAuthRefusedError
from workbench.core.oauth.assertions import ASSERTION_LIFETIME, check_assertion
from workbench.core.oauth.client_auth import authenticate, basic_credentials, client_id_of, secrets_of
from workbench.core.oauth.forms import (
    CLIENT_ASSERTION_TYPE,
    ID_JAG_TOKEN_TYPE,
    ID_TOKEN_TYPE,
    JWT_BEARER_GRANT_TYPE,
    TOKEN_EXCHANGE_GRANT_TYPE,
    TokenRequest,
    authorization_code_form,
    authorization_url,
    client_credentials_form,
    jwt_bearer_form,
    refresh_token_form,
    token_exchange_form,
)
from workbench.core.oauth.pkce import pkce_pair, s256_challenge
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import DynamicClient, MetadataDocumentClient, PreRegisteredClient
from workbench.core.wire.recorder import WireRecorder

TOKEN_URL = "https://as.example/token"
ISSUER = "https://as.example"
SECRET = "s3cret:with spaces&symbols"


def _pem(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


def steps() -> StepLog:
    return StepLog("oauth-test", WireRecorder(), None)


def test_the_pkce_challenge_is_the_s256_of_the_verifier_as_in_rfc_7636_appendix_b() -> None:
    assert (
        s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    )
    verifier, challenge = pkce_pair()
    assert 43 <= len(verifier) <= 128 and challenge == s256_challenge(verifier)
    assert pkce_pair()[0] != verifier


def test_the_authorization_url_carries_pkce_s256_state_scope_and_keeps_the_endpoints_own_query() -> None:
    url = authorization_url(
        "https://as.example/authorize?tenant=7",
        client_id="app",
        redirect_uri="http://127.0.0.1:5000/callback",
        state="st",
        code_challenge="ch",
        scope=("read", "write"),
        resource="https://rs.example/mcp",
    )
    query = parse_qs(urlsplit(url).query)
    assert query["tenant"] == ["7"] and query["response_type"] == ["code"]
    assert query["code_challenge"] == ["ch"] and query["code_challenge_method"] == ["S256"]
    assert query["scope"] == ["read write"] and query["resource"] == ["https://rs.example/mcp"]
    assert query["state"] == ["st"] and query["redirect_uri"] == ["http://127.0.0.1:5000/callback"]


def test_each_grant_builds_the_form_its_rfc_names() -> None:
    code = authorization_code_form(TOKEN_URL, code="c", redirect_uri="http://127.0.0.1:1/callback", code_verifier="v")
    assert dict(code.form) == {
        "grant_type": "authorization_code",
        "code": "c",
        "redirect_uri": "http://127.0.0.1:1/callback",
        "code_verifier": "v",
    }
    assert dict(refresh_token_form(TOKEN_URL, refresh_token="r", scope=["a"]).form) == {
        "grant_type": "refresh_token",
        "refresh_token": "r",
        "scope": "a",
    }
    assert dict(client_credentials_form(TOKEN_URL, scope=(), resource="https://rs").form) == {
        "grant_type": "client_credentials",
        "resource": "https://rs",
    }
    bearer = jwt_bearer_form(TOKEN_URL, assertion="a.b.c", scope="x y")
    assert bearer.grant_type == JWT_BEARER_GRANT_TYPE and bearer.form["assertion"] == "a.b.c"
    assert bearer.form["scope"] == "x y"
    exchange = token_exchange_form(
        "https://idp.example/token",
        subject_token="id",
        subject_token_type=ID_TOKEN_TYPE,
        requested_token_type=ID_JAG_TOKEN_TYPE,
        audience=ISSUER,
        resource="https://rs",
    )
    assert exchange.grant_type == TOKEN_EXCHANGE_GRANT_TYPE and "scope" not in exchange.form
    assert (exchange.form["audience"], exchange.form["resource"]) == (ISSUER, "https://rs")


def test_a_token_request_never_shows_its_form_or_headers_and_cannot_be_changed_in_place() -> None:
    request = client_credentials_form(TOKEN_URL)
    authed = authenticate(request, PreRegisteredClient("app", SECRET, "client_secret_post"), audience=ISSUER)
    assert SECRET not in repr(authed) and "client_secret" not in request.form
    with pytest.raises(TypeError):
        authed.form["x"] = "y"  # type: ignore[index]
    assert authed.all_headers()["Content-Type"] == "application/x-www-form-urlencoded"


def test_client_secret_basic_puts_the_encoded_pair_in_the_header_and_nothing_of_the_client_in_the_form() -> None:
    request = client_credentials_form(TOKEN_URL).with_form(client_id="stale", client_secret="stale")
    authed = authenticate(request, PreRegisteredClient("app id", SECRET), audience=ISSUER)
    assert "client_id" not in authed.form and "client_secret" not in authed.form
    scheme, _, encoded = authed.headers["Authorization"].partition(" ")
    user, _, password = base64.b64decode(encoded).decode().partition(":")
    assert scheme == "Basic" and (unquote(user), unquote(password)) == ("app id", SECRET)
    assert authed.headers["Authorization"] == basic_credentials("app id", SECRET)


def test_client_secret_basic_can_name_the_client_in_the_form_too_for_token_endpoints_that_require_it() -> None:
    request = client_credentials_form(TOKEN_URL).with_form(client_secret="stale")
    authed = authenticate(request, PreRegisteredClient("app id", SECRET), audience=ISSUER, client_id_in_form=True)
    assert authed.form["client_id"] == "app id" and "client_secret" not in authed.form
    assert authed.headers["Authorization"] == basic_credentials("app id", SECRET)


def test_client_secret_post_and_a_public_client_put_the_client_in_the_form() -> None:
    post = authenticate(
        client_credentials_form(TOKEN_URL), PreRegisteredClient("app", SECRET, "client_secret_post"), audience=ISSUER
    )
    assert (post.form["client_id"], post.form["client_secret"]) == (
        "app",
        SECRET,
    ) and "Authorization" not in post.headers
    public = authenticate(refresh_token_form(TOKEN_URL, refresh_token="r"), PreRegisteredClient("app"), audience=ISSUER)
    assert public.form["client_id"] == "app" and "client_secret" not in public.form and not public.headers


@pytest.mark.parametrize(
    ("algorithm", "key"),
    [("ES256", ec.generate_private_key(ec.SECP256R1())), ("RS256", rsa.generate_private_key(65537, 2048))],
)
def test_private_key_jwt_signs_a_fresh_short_assertion_for_the_audience_the_server_can_verify(
    algorithm: str, key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey
) -> None:
    client = PrivateKeyJWTClient("app", _pem(key), algorithm)  # type: ignore[arg-type]
    told: list[str] = []
    authed = authenticate(
        client_credentials_form(TOKEN_URL), client, audience=ISSUER, clock=lambda: 1_000_000, on_secret=told.append
    )
    assert authed.form["client_assertion_type"] == CLIENT_ASSERTION_TYPE and authed.form["client_id"] == "app"
    assertion = authed.form["client_assertion"]
    claims = jwt.decode(
        assertion, key.public_key(), algorithms=[algorithm], audience=ISSUER, options={"verify_exp": False}
    )
    assert claims["iss"] == claims["sub"] == "app" and claims["exp"] - claims["iat"] == ASSERTION_LIFETIME
    assert claims["iat"] == 1_000_000 and told == [assertion]
    again = authenticate(client_credentials_form(TOKEN_URL), client, audience=ISSUER)
    assert jwt.decode(again.form["client_assertion"], options={"verify_signature": False})["jti"] != claims["jti"]
    assert secrets_of(client) == (client.private_key_pem,) and client_id_of(client) == "app"


def test_a_private_key_that_cannot_sign_its_algorithm_is_refused_at_the_token_step_without_the_key() -> None:
    log = steps()
    pem = _pem(ec.generate_private_key(ec.SECP256R1()))
    with pytest.raises(OAuthRefusedError) as refused:
        authenticate(
            client_credentials_form(TOKEN_URL), PrivateKeyJWTClient("app", pem, "RS256"), audience=ISSUER, steps=log
        )
    assert (refused.value.details["oauth"], refused.value.details["step"]) == ("client-key-unusable", "token")
    assert log.steps[-1].stage is AuthStage.TOKEN and log.steps[-1].status == "failed"
    assert pem.splitlines()[1] not in str(refused.value) + log.steps[-1].detail


@pytest.mark.parametrize("client", [DynamicClient(), MetadataDocumentClient("https://app.example/client.json")])
def test_a_client_without_its_own_id_cannot_authenticate_at_a_token_endpoint(client: object) -> None:
    with pytest.raises(ConfigError) as refused:
        authenticate(TokenRequest(TOKEN_URL), client, audience=ISSUER)  # type: ignore[arg-type]
    assert refused.value.details["oauth"] == "client-unsuitable"


def _jwt(**claims: object) -> str:
    return jwt.encode(claims, "k" * 32, algorithm="HS256")


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("not-a-jwt", "assertion-malformed"),
        (_jwt(aud="https://other.example", exp=2_000), "assertion-audience"),
        (_jwt(aud=[ISSUER], exp=2_000, resource="https://elsewhere"), "assertion-audience"),
        (_jwt(aud=ISSUER + "/", exp=999), "assertion-expired"),
    ],
)
def test_an_assertion_for_another_audience_or_resource_or_expired_is_refused_before_it_is_sent(
    token: str, reason: str
) -> None:
    log = steps()
    with pytest.raises(OAuthRefusedError) as refused:
        check_assertion(log, lambda: 1_000, token, audience=ISSUER, resource="https://rs", what="the JWT")
    assert refused.value.details == {"oauth": reason, "step": "token"}
    assert log.steps[-1].stage is AuthStage.TOKEN and token not in str(refused.value)


def test_an_assertion_for_the_issuer_and_resource_that_has_not_expired_passes() -> None:
    check_assertion(
        None,
        lambda: 1_000,
        _jwt(aud=[ISSUER], exp=2_000, resource="https://rs/"),
        audience=ISSUER,
        resource="https://rs",
        what="x",
    )
