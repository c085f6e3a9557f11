"""Logins without a browser (client credentials, JWT bearer, enterprise-managed) and DPoP, for the MCP OAuth provider.

``WorkbenchOAuthProvider`` (``oauth.py``) runs the SDK's flow: discovery of the protected resource
and its authorization server, the issuer and https checks, the steps on record. What differs by
grant is only the request that gets the tokens, and that is built here (``MachineGrant``):

- ``client_credentials`` (OAuth 2.1 §4.2) with ``client_secret_basic``/``_post`` (the SDK's
  ``prepare_token_auth``) or ``private_key_jwt`` (RFC 7523 §2.2: an assertion the SDK's
  ``SignedJWTParameters`` signs with PyJWT, audience the issuer);
- the JWT bearer grant (RFC 7523 §2.1) with a workload's JWT (SEP-1933), checked for audience and
  expiry before it is sent. The SDK has no provider for it: its ``PrivateKeyJWTOAuthProvider``
  sends ``client_credentials``, its ``IdentityAssertionOAuthProvider`` needs a client secret and a
  configured issuer;
- enterprise-managed authorization (SEP-990): an RFC 8693 token exchange at the IdP for an ID-JAG
  (checked for audience and resource), then the JWT bearer grant with it. Both legs go through the
  provider's flow, so both are wire records and auth steps.

``DPoPSession`` puts a DPoP proof (``workbench.core.http.dpop``) on every token request and, with a
DPoP-bound token, ``Authorization: DPoP`` and a proof with ``ath`` on every request to the MCP
server; it answers one ``use_dpop_nonce`` per request with the server's nonce. The SDK models only
``Bearer`` tokens, so a token response of type ``DPoP`` reaches it as ``Bearer`` and the session
remembers which tokens are bound.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any

import httpx2
import jwt
from mcp.client.auth.extensions.client_credentials import SignedJWTParameters
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError, OAuthRefusedError
from workbench.core.http.dpop import DPoPKey, DPoPNonces, nonce_challenge
from workbench.core.http.oauth_endpoints import check_oauth_endpoint
from workbench.core.oauth_grant_options import ClientCredentials as ClientCredentialsGrant
from workbench.core.oauth_grant_options import EnterpriseManaged, JWTBearer, PrivateKeyJWTClient
from workbench.core.oauth_options import DPoP, OAuthClient, OAuthGrant, PreRegisteredClient
from workbench.core.profiles.credential_keys import OAUTH_DPOP_BOUND_KIND as DPOP_BOUND_KIND
from workbench.core.profiles.credential_keys import OAUTH_DPOP_KEY_KIND as DPOP_KEY_KIND
from workbench.core.profiles.credential_keys import oauth_client_key_key
from workbench.core.protocols.mcp._oauth_steps import classify
from workbench.core.safe_text import neutralise_line
from workbench.core.wire.redaction import Redactor

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = [
    "MACHINE_GRANTS",
    "DPoPSession",
    "MachineGrant",
    "check_client",
    "dpop_bound_tokens",
    "dpop_key",
    "profile_key_client",
]

MACHINE_GRANTS = (ClientCredentialsGrant, JWTBearer, EnterpriseManaged)
"""The grants this module runs (no browser, no person)."""

TOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
_FORM = "application/x-www-form-urlencoded"
_THEN = "workbench.oauth_then"
"""Request extension: builds the next request of a two-leg grant from this one's response."""
_NO_PROOF = "workbench.oauth_no_dpop"
"""Request extension: a token request that must not carry a DPoP proof (the IdP's token exchange)."""


def _refuse(steps: StepLog, stage: AuthStage, reason: str, why: str, hint: str) -> OAuthRefusedError:
    steps.step(stage, "failed", f"{reason}: {why}")
    return OAuthRefusedError(
        f"The OAuth login stopped at the {stage.value} step: {why}.",
        hint=hint,
        details={"oauth": reason, "step": stage.value},
    )


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def _grant_type(grant: OAuthGrant) -> str:
    return "client_credentials" if isinstance(grant, ClientCredentialsGrant) else JWT_BEARER_GRANT_TYPE


def check_client(grant: OAuthGrant, client: OAuthClient) -> None:
    """Refuse a client identity the grant cannot use.

    A private key client signs the assertions of a grant without a browser only.

    Raises:
        ConfigError: A ``PrivateKeyJWTClient`` with the authorization code grant.
    """
    if isinstance(client, PrivateKeyJWTClient) and not isinstance(grant, MACHINE_GRANTS):
        raise ConfigError(
            f"A private_key_jwt client logs in with a grant without a browser, not {type(grant).__name__}.",
            hint="OAuth(client=PrivateKeyJWTClient(...), grant=ClientCredentials())",
            details={"oauth": "client-unsuitable"},
        )


class MachineGrant:
    """Builds the token request(s) of a grant without a browser, on the SDK's discovered context.

    Args:
        grant: ``ClientCredentials``, ``JWTBearer`` or ``EnterpriseManaged``.
        client: A ``PreRegisteredClient`` or a ``PrivateKeyJWTClient``.
        steps: Where a refusal is recorded.
        redactor: Told every assertion and ID token, so the wire log never shows them.
        clock: Seconds since the epoch (assertion expiry checks).

    Raises:
        ConfigError: The client cannot be used with the grant (no client id, a dynamic client).
    """

    def __init__(
        self,
        grant: OAuthGrant,
        client: OAuthClient,
        *,
        steps: StepLog,
        redactor: Redactor,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not isinstance(client, PreRegisteredClient | PrivateKeyJWTClient):
            raise ConfigError(
                f"The OAuth grant {type(grant).__name__} needs a client registered in advance, "
                f"not {type(client).__name__}.",
                hint="use PreRegisteredClient(id, secret) or PrivateKeyJWTClient(id, private_key_pem)",
                details={"oauth": "client-unsuitable"},
            )
        if (
            isinstance(grant, EnterpriseManaged)
            and isinstance(client, PreRegisteredClient)
            and not client.client_secret
        ):
            raise ConfigError(
                "Enterprise-managed authorization needs a confidential client (a client secret).",
                hint="PreRegisteredClient(id, secret)",
                details={"oauth": "client-unsuitable"},
            )
        self.grant = grant
        self.client = client
        self.steps = steps
        self.redactor = redactor
        self.clock = clock
        for secret in (
            getattr(client, "client_secret", None),
            getattr(grant, "idp_client_secret", None),
            *(value for value in (getattr(grant, "assertion", None), getattr(grant, "id_token", None))),
        ):
            if isinstance(secret, str) and secret:
                redactor.add_secret(secret)

    @property
    def grant_type(self) -> str:
        """The ``grant_type`` sent to the authorization server."""
        return _grant_type(self.grant)

    def client_info(self) -> OAuthClientInformationFull:
        """The SDK's registration record of the client (no redirect URI: there is no browser)."""
        client = self.client
        if isinstance(client, PrivateKeyJWTClient):
            return OAuthClientInformationFull(
                client_id=client.client_id,
                redirect_uris=None,
                grant_types=[self.grant_type],
                token_endpoint_auth_method="private_key_jwt",
            )
        assert isinstance(client, PreRegisteredClient)
        return OAuthClientInformationFull(
            client_id=client.client_id,
            client_secret=client.client_secret,
            redirect_uris=None,
            grant_types=[self.grant_type],
            token_endpoint_auth_method=client.auth_method,
        )

    # ---- the token request ---------------------------------------------------------------------

    async def token_request(self, ctx: OAuthContext) -> httpx2.Request:
        """The first request that gets the tokens, once the authorization server's metadata is known.

        Raises:
            OAuthRefusedError: No metadata was discovered, or the assertion is for another audience
                or has expired (nothing was sent).
        """
        issuer = self._issuer(ctx)
        grant = self.grant
        if isinstance(grant, EnterpriseManaged):
            return await self._token_exchange(ctx, grant, issuer)
        data: dict[str, str] = {"grant_type": self.grant_type}
        if isinstance(grant, JWTBearer):
            assertion = grant.assertion if isinstance(grant.assertion, str) else await grant.assertion(issuer)
            self.redactor.add_secret(assertion)
            self._check_assertion(assertion, audience=issuer, what="the workload's JWT")
            data["assertion"] = assertion
        return await self._authorization_server_request(ctx, data, issuer)

    def _issuer(self, ctx: OAuthContext) -> str:
        metadata = ctx.oauth_metadata
        if metadata is None or metadata.token_endpoint is None:
            raise _refuse(
                self.steps,
                AuthStage.DISCOVERY,
                "metadata-missing",
                f"{self.grant_type} needs the authorization server's metadata, and none was found",
                "the MCP server must publish protected resource metadata naming its authorization server",
            )
        return str(metadata.issuer)

    async def _authorization_server_request(
        self, ctx: OAuthContext, data: dict[str, str], issuer: str
    ) -> httpx2.Request:
        if ctx.should_include_resource_param(ctx.protocol_version):
            data["resource"] = ctx.get_resource_url()
        if ctx.client_metadata.scope:
            data["scope"] = ctx.client_metadata.scope
        headers = {"Content-Type": _FORM}
        client = self.client
        if isinstance(client, PrivateKeyJWTClient):
            signer = SignedJWTParameters(
                issuer=client.client_id,
                subject=client.client_id,
                signing_key=client.private_key_pem,
                signing_algorithm=client.algorithm,
            ).create_assertion_provider()
            try:
                assertion = await signer(issuer)
            except (ValueError, TypeError, jwt.PyJWTError) as exc:
                raise _refuse(
                    self.steps,
                    AuthStage.TOKEN,
                    "client-key-unusable",
                    f"the client's private key cannot sign {client.algorithm} ({type(exc).__name__})",
                    "give a private key of the algorithm's type (an EC P-256 key for ES256, RSA for RS256)",
                ) from None
            self.redactor.add_secret(assertion)
            data["client_id"] = client.client_id
            data["client_assertion_type"] = CLIENT_ASSERTION_TYPE
            data["client_assertion"] = assertion
        else:
            data, headers = ctx.prepare_token_auth(data, headers)
            if isinstance(client, PreRegisteredClient) and client.auth_method == "none":
                data["client_id"] = client.client_id
        assert ctx.oauth_metadata is not None
        return httpx2.Request("POST", str(ctx.oauth_metadata.token_endpoint), data=data, headers=headers)

    async def _token_exchange(self, ctx: OAuthContext, grant: EnterpriseManaged, issuer: str) -> httpx2.Request:
        """Leg 1 of SEP-990: the ID token exchanged for an ID-JAG at the IdP (RFC 8693)."""
        check_oauth_endpoint(grant.idp_token_endpoint, endpoint="token_endpoint", context="the identity provider")
        id_token = grant.id_token if isinstance(grant.id_token, str) else await grant.id_token()
        self.redactor.add_secret(id_token)
        resource = ctx.get_resource_url()
        data = {
            "grant_type": TOKEN_EXCHANGE_GRANT_TYPE,
            "requested_token_type": ID_JAG_TOKEN_TYPE,
            "subject_token": id_token,
            "subject_token_type": ID_TOKEN_TYPE,
            "audience": issuer,
            "resource": resource,
            "client_id": grant.idp_client_id,
        }
        if grant.idp_client_secret:
            data["client_secret"] = grant.idp_client_secret
        if ctx.client_metadata.scope:
            data["scope"] = ctx.client_metadata.scope
        exchange = httpx2.Request("POST", grant.idp_token_endpoint, data=data, headers={"Content-Type": _FORM})

        async def then(response: httpx2.Response) -> httpx2.Request:
            id_jag = self._id_jag(response, issuer=issuer, resource=resource)
            return await self._authorization_server_request(
                ctx, {"grant_type": JWT_BEARER_GRANT_TYPE, "assertion": id_jag}, issuer
            )

        exchange.extensions = {**exchange.extensions, _THEN: then, _NO_PROOF: True}
        return exchange

    def _id_jag(self, response: httpx2.Response, *, issuer: str, resource: str) -> str:
        try:
            body = json.loads(response.content)
        except ValueError:
            body = None
        if response.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            error = body.get("error") if isinstance(body, dict) else None
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "token-exchange-refused",
                f"the identity provider refused the token exchange (HTTP {response.status_code}"
                + (f", {neutralise_line(str(error))})" if error else ")"),
                "check the IdP client id and that the ID token is current",
            )
        id_jag: str = body["access_token"]
        self.redactor.add_secret(id_jag)
        issued = body.get("issued_token_type")
        if issued is not None and issued != ID_JAG_TOKEN_TYPE:
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "token-exchange-refused",
                f"the identity provider issued a {neutralise_line(str(issued))}, not an ID-JAG",
                "the IdP must support identity assertion grants (SEP-990)",
            )
        self._check_assertion(id_jag, audience=issuer, resource=resource, what="the ID-JAG")
        return id_jag

    def _check_assertion(self, token: str, *, audience: str, what: str, resource: str | None = None) -> None:
        """Refuse, before sending it, an assertion for another audience or resource, or one that has expired."""
        try:
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "assertion-malformed",
                f"{what} is not a JWT",
                "the assertion must be a signed JWT",
            ) from None
        aud = claims.get("aud")
        audiences = (
            [aud] if isinstance(aud, str) else [a for a in aud if isinstance(a, str)] if isinstance(aud, list) else []
        )
        if not any(_same_url(candidate, audience) for candidate in audiences):
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "assertion-audience",
                f"{what} is for another audience ({neutralise_line(', '.join(audiences) or 'none')}), "
                f"not the authorization server {audience}",
                "get a JWT whose aud is the authorization server's issuer",
            )
        claimed = claims.get("resource")
        if resource is not None and isinstance(claimed, str) and not _same_url(claimed, resource):
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "assertion-audience",
                f"{what} is for another resource ({neutralise_line(claimed)}), not {resource}",
                "ask the identity provider for a grant for this MCP server",
            )
        exp = claims.get("exp")
        if isinstance(exp, int | float) and exp <= self.clock():
            raise _refuse(
                self.steps,
                AuthStage.TOKEN,
                "assertion-expired",
                f"{what} expired {int(self.clock() - exp)} s ago",
                "get a fresh JWT from the identity provider",
            )

    async def legs(
        self, flow: AsyncGenerator[httpx2.Request, httpx2.Response]
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The SDK's flow with the second leg of a two-leg grant sent after the first one's answer.

        The SDK sees only the last leg's response, as its token response.
        """
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                then = outgoing.extensions.get(_THEN)
                if then is not None:
                    await response.aread()
                    outgoing = await then(response)
                    continue
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()


async def profile_key_client(profile: MCPHTTPProfile | MCPSSEProfile, store: CredentialStore) -> PrivateKeyJWTClient:
    """A profile's ``private_key_jwt`` client: its key from its file, else from the credential store.

    Raises:
        ConfigError: The key file cannot be read, or the store holds no key for the profile.
    """
    client_id = str(profile.oauth_client_id)
    if profile.oauth_client_key_file:
        return PrivateKeyJWTClient.from_file(
            client_id, profile.oauth_client_key_file, profile.oauth_client_key_algorithm
        )
    stored = await store.get(oauth_client_key_key(profile.id))
    if stored is None:
        raise ConfigError(
            f"The profile {profile.name!r} names a private_key_jwt client, and neither a key file nor a key "
            "in the keyring.",
            hint="set the profile's client key file, or store the PEM key in the keyring",
            details={"oauth": "client-key-missing"},
        )
    return PrivateKeyJWTClient(client_id, stored.get_secret_value(), profile.oauth_client_key_algorithm)


# --------------------------------------------------------------------------- DPoP


async def dpop_key(options: DPoP, store: CredentialStore, key_prefix: str) -> DPoPKey:
    """The login's DPoP key: the one given, else the one kept in ``store`` (made and kept on first use).

    Args:
        options: The ``DPoP`` option.
        store: The credential store of the login.
        key_prefix: The login's store key (``<prefix>/oauth:dpop-key``).

    Raises:
        ConfigError: The given or stored key is not a P-256 private key.
        SecureStorageUnavailableError: The store cannot be read or written.
    """
    if options.key_pem is not None:
        return DPoPKey.from_pem(options.key_pem)
    name = f"{key_prefix}/{DPOP_KEY_KIND}"
    stored = await store.get(name)
    if stored is not None:
        return DPoPKey.from_pem(stored.get_secret_value())
    key = DPoPKey.generate()
    await store.set(name, key.to_pem())
    return key


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def dpop_bound_tokens(store: CredentialStore, key_prefix: str, access_token: str | None) -> set[str]:
    """``{access_token}`` if the store says it was issued DPoP-bound, else the empty set."""
    if access_token is None:
        return set()
    stored = await store.get(f"{key_prefix}/{DPOP_BOUND_KIND}")
    return {access_token} if stored is not None and stored.get_secret_value() == _digest(access_token) else set()


class DPoPSession:
    """DPoP for one provider: proofs on token and resource requests, nonces, the bound tokens.

    Args:
        key: The proof key.
        steps: Where a refused nonce is recorded.
        bound: Access tokens already known to be DPoP-bound (e.g. loaded with the login).
        store: Where the digest of the latest bound token is kept (``None``: not kept).
        key_prefix: The login's store key.
    """

    def __init__(
        self,
        key: DPoPKey,
        steps: StepLog,
        bound: set[str] | None = None,
        *,
        store: CredentialStore | None = None,
        key_prefix: str = "",
    ) -> None:
        self.key = key
        self.steps = steps
        self.nonces = DPoPNonces()
        self.bound: set[str] = set(bound or ())
        self._store = store
        self._key_prefix = key_prefix

    def prove(self, outgoing: httpx2.Request, original: httpx2.Request) -> httpx2.Request:
        """Add a fresh proof to ``outgoing`` (and the ``DPoP`` scheme for a bound token); returns it."""
        url = str(outgoing.url)
        if outgoing is original:
            scheme, _, token = outgoing.headers.get("authorization", "").partition(" ")
            if scheme.lower() in ("bearer", "dpop") and token in self.bound:
                outgoing.headers["Authorization"] = f"DPoP {token}"
                outgoing.headers["DPoP"] = self.key.proof(
                    outgoing.method, url, access_token=token, nonce=self.nonces.get(url)
                )
            return outgoing
        stage, _ = classify(outgoing)
        if stage in (AuthStage.TOKEN, AuthStage.REFRESH) and not outgoing.extensions.get(_NO_PROOF):
            outgoing.headers["DPoP"] = self.key.proof(outgoing.method, url, nonce=self.nonces.get(url))
        return outgoing

    async def challenged(self, outgoing: httpx2.Request, original: httpx2.Request, response: httpx2.Response) -> bool:
        """Learn the response's nonce; whether it demands the request again with that nonce."""
        self.nonces.learn(str(outgoing.url), response.headers)
        if "DPoP" not in outgoing.headers or response.status_code not in (400, 401):
            return False
        body = b""
        if outgoing is not original or response.status_code == 400:
            body = await response.aread()
        return nonce_challenge(response.status_code, response.headers, body)

    def refuse_nonce(self, outgoing: httpx2.Request, original: httpx2.Request) -> OAuthRefusedError:
        """The error for a server that refused the nonce it had just given (expired, replayed)."""
        where = str(outgoing.url.copy_with(query=None))
        stage = AuthStage.TOKEN if outgoing is not original else None
        why = f"{where} refused the DPoP proof again with the nonce it had just sent"
        if stage is not None:
            self.steps.step(stage, "failed", f"dpop-nonce-refused: {why}")
        return OAuthRefusedError(
            f"The OAuth login stopped: {why}.",
            hint="the server's DPoP nonces expire too soon, or it keeps refusing them; see the wire log",
            details={"oauth": "dpop-nonce-refused", "step": stage.value if stage else "resource"},
        )

    async def as_sdk_sees_it(
        self, outgoing: httpx2.Request, original: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Response:
        """A ``DPoP`` token response as the SDK's ``Bearer``-only model reads it; the token is remembered as bound."""
        if outgoing is original or response.status_code != 200:
            return response
        if classify(outgoing)[0] not in (AuthStage.TOKEN, AuthStage.REFRESH) or outgoing.extensions.get(_NO_PROOF):
            return response
        await response.aread()
        try:
            body: Any = json.loads(response.content)
        except ValueError:
            return response
        if not isinstance(body, dict) or str(body.get("token_type", "")).lower() != "dpop":
            return response
        token = body.get("access_token")
        if isinstance(token, str):
            self.bound.add(token)
            if self._store is not None:
                await self._store.set(f"{self._key_prefix}/{DPOP_BOUND_KIND}", _digest(token))
        return httpx2.Response(
            200,
            headers={"Content-Type": "application/json"},
            content=json.dumps({**body, "token_type": "Bearer"}).encode(),
            request=outgoing,
        )

    async def flow(
        self, inner: AsyncGenerator[httpx2.Request, httpx2.Response], original: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """``inner`` (the provider's flow) with proofs, one nonce retry per request, and DPoP token types.

        Raises:
            OAuthRefusedError: A server asked for a nonce again right after getting it.
        """
        try:
            outgoing = await inner.__anext__()
            while True:
                response = yield self.prove(outgoing, original)
                if await self.challenged(outgoing, original, response):
                    response = yield self.prove(outgoing, original)
                    if await self.challenged(outgoing, original, response):
                        raise self.refuse_nonce(outgoing, original)
                response = await self.as_sdk_sees_it(outgoing, original, response)
                outgoing = await inner.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await inner.aclose()
