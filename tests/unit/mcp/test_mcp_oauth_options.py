"""OAuth options (``workbench.agents.OAuth``, its clients), a profile's options, and the step an SDK failure names."""

from __future__ import annotations

import pytest
from mcp.client.auth import OAuthRegistrationError, OAuthTokenError
from mcp.client.auth.utils import validate_authorization_response_iss, validate_metadata_issuer
from mcp.shared.auth import OAuthMetadata

from workbench.agents import (
    AuthorizationCode,
    ConfigError,
    DynamicClient,
    MemoryCredentialStore,
    MetadataDocumentClient,
    OAuth,
    PreRegisteredClient,
)
from workbench.core.auth_steps import AuthStage
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.credential_keys import oauth_client_secret_key
from workbench.core.protocols.mcp._oauth_steps import failure_of
from workbench.core.protocols.mcp.oauth import profile_oauth

SECRET = "unit-client-secret-5521"


def test_a_pre_registered_client_defaults_its_method_by_whether_it_has_a_secret_and_hides_the_secret() -> None:
    assert PreRegisteredClient("id", SECRET).token_endpoint_auth_method == "client_secret_basic"
    assert PreRegisteredClient("id").token_endpoint_auth_method == "none"
    assert SECRET not in repr(OAuth(client=PreRegisteredClient("id", SECRET)))


@pytest.mark.parametrize(
    "build",
    [
        lambda: PreRegisteredClient(""),
        lambda: PreRegisteredClient("id", None, "client_secret_post"),
        lambda: PreRegisteredClient("id", SECRET, "private_key_jwt"),  # type: ignore[arg-type]
        lambda: MetadataDocumentClient("http://app.example/client.json"),
        lambda: MetadataDocumentClient("https://app.example"),
        lambda: MetadataDocumentClient("ftp://app.example/client.json"),
        lambda: OAuth(client="dynamic"),  # type: ignore[arg-type]
        lambda: OAuth(grant=DynamicClient()),  # type: ignore[arg-type]
    ],
)
def test_options_that_cannot_work_are_refused_when_made(build: object) -> None:
    with pytest.raises(ConfigError):
        build()  # type: ignore[operator]


def test_a_client_metadata_document_may_be_plain_http_on_loopback_and_names_itself_with_the_redirect_uri() -> None:
    client = MetadataDocumentClient("http://127.0.0.1:8123/client.json")
    document = client.document(53682)
    assert document["client_id"] == client.url
    assert document["redirect_uris"] == ["http://127.0.0.1:53682/callback"]
    assert OAuth(client=client).key_for("https://mcp.example/mcp") == "oauth@https://mcp.example/mcp"
    assert OAuth(store_key="mine").key_for("https://mcp.example/mcp") == "mine"


@pytest.mark.asyncio
async def test_a_profiles_pre_registered_client_takes_its_secret_from_the_store_and_its_redirect_port() -> None:
    profile = MCPHTTPProfile(
        name="p",
        url="https://mcp.example/mcp",
        auth="oauth",
        oauth_client="pre-registered",
        oauth_client_id="id",
        oauth_token_auth="client_secret_post",
        oauth_redirect_port=53682,
        oauth_scopes=["read"],
    )
    store = MemoryCredentialStore({oauth_client_secret_key(profile.id): SECRET})
    options = await profile_oauth(profile, store)
    assert options.client == PreRegisteredClient("id", SECRET, "client_secret_post")
    assert options.grant == AuthorizationCode(redirect_port=53682)
    assert (options.scopes, options.store_key) == (("read",), profile.id)
    with pytest.raises(ConfigError) as missing:
        await profile_oauth(profile, MemoryCredentialStore())
    assert missing.value.details["oauth"] == "client-secret-missing"


def _metadata(**extra: object) -> OAuthMetadata:
    return OAuthMetadata.model_validate(
        {
            "issuer": "https://as.example",
            "authorization_endpoint": "https://as.example/authorize",
            "token_endpoint": "https://as.example/token",
            **extra,
        }
    )


def _raised(call: object) -> Exception:
    try:
        call()  # type: ignore[operator]
    except Exception as exc:
        return exc
    raise AssertionError("the SDK accepted it")


@pytest.mark.parametrize(
    ("error", "step", "reason"),
    [
        (
            _raised(lambda: validate_metadata_issuer(_metadata(), "https://other.example")),
            "discovery",
            "issuer-mismatch",
        ),
        (
            _raised(lambda: validate_authorization_response_iss("https://x.example", _metadata())),
            "callback",
            "iss-mismatch",
        ),
        (
            _raised(
                lambda: validate_authorization_response_iss(
                    None, _metadata(authorization_response_iss_parameter_supported=True)
                )
            ),
            "callback",
            "iss-mismatch",
        ),
        (OAuthRegistrationError("Registration failed: 400"), "registration", "registration-failed"),
        (OAuthTokenError("Token exchange failed (401)"), "token", "token-refused"),
    ],
)
def test_an_sdk_oauth_failure_names_its_step_and_reason(error: Exception, step: str, reason: str) -> None:
    assert failure_of(error, AuthStage.DISCOVERY) == (AuthStage(step), reason)
