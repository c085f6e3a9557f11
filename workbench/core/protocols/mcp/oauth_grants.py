"""Logins without a browser (client credentials, JWT bearer, enterprise-managed): their token requests.

``WorkbenchOAuthProvider`` (``_oauth_provider.py``) runs the SDK's flow: discovery of the protected resource
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

DPoP proofs and bound tokens are ``oauth_dpop``'s; the JWT assertions (signed, checked) ``_oauth_assertions``'s.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING

import httpx2
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError
from workbench.core.http.oauth_endpoints import check_oauth_endpoint
from workbench.core.oauth_grant_options import ClientCredentials as ClientCredentialsGrant
from workbench.core.oauth_grant_options import EnterpriseManaged, JWTBearer, PrivateKeyJWTClient
from workbench.core.oauth_options import OAuthClient, OAuthGrant, PreRegisteredClient
from workbench.core.profiles.credential_keys import oauth_client_key_key
from workbench.core.protocols.mcp._oauth_assertions import check_assertion, refuse, sign_client_assertion
from workbench.core.protocols.mcp.oauth_dpop import NO_PROOF
from workbench.core.safe_text import neutralise_line
from workbench.core.wire.redaction import Redactor

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = ["MACHINE_GRANTS", "MachineGrant", "check_client", "profile_key_client"]

MACHINE_GRANTS = (ClientCredentialsGrant, JWTBearer, EnterpriseManaged)
"""The grants this module runs (no browser, no person)."""

TOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
_FORM = "application/x-www-form-urlencoded"
_THEN = "workbench.oauth_then"
"""Request extension: builds the next request of a two-leg grant from this one's response."""


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
            check_assertion(self.steps, self.clock, assertion, audience=issuer, what="the workload's JWT")
            data["assertion"] = assertion
        return await self._authorization_server_request(ctx, data, issuer)

    def _issuer(self, ctx: OAuthContext) -> str:
        metadata = ctx.oauth_metadata
        if metadata is None or metadata.token_endpoint is None:
            raise refuse(
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
            assertion = await sign_client_assertion(client, issuer, self.steps)
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

        exchange.extensions = {**exchange.extensions, _THEN: then, NO_PROOF: True}
        return exchange

    def _id_jag(self, response: httpx2.Response, *, issuer: str, resource: str) -> str:
        try:
            body = json.loads(response.content)
        except ValueError:
            body = None
        if response.status_code != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            error = body.get("error") if isinstance(body, dict) else None
            raise refuse(
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
            raise refuse(
                self.steps,
                AuthStage.TOKEN,
                "token-exchange-refused",
                f"the identity provider issued a {neutralise_line(str(issued))}, not an ID-JAG",
                "the IdP must support identity assertion grants (SEP-990)",
            )
        check_assertion(self.steps, self.clock, id_jag, audience=issuer, resource=resource, what="the ID-JAG")
        return id_jag

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
