"""Logins without a browser (client credentials, JWT bearer, enterprise-managed): their token requests.

``WorkbenchOAuthProvider`` (``_oauth_provider.py``) runs the SDK's flow: discovery of the protected resource
and its authorization server, the issuer and https checks, the steps on record. What differs by
grant is only the request that gets the tokens, and that is built here (``MachineGrant``) from the
protocol-neutral pieces of ``workbench.core.oauth`` (the A2A adapter builds its token requests from
the same pieces):

- ``client_credentials`` (OAuth 2.1 §4.2) with ``client_secret_basic``/``_post`` or ``private_key_jwt``
  (RFC 7523 §2.2: an assertion signed with PyJWT, audience the issuer), ``core.oauth.client_auth``;
- the JWT bearer grant (RFC 7523 §2.1) with a workload's JWT (SEP-1933), checked for audience and
  expiry before it is sent (``core.oauth.assertions``). The SDK has no provider for it: its
  ``PrivateKeyJWTOAuthProvider`` sends ``client_credentials``, its ``IdentityAssertionOAuthProvider``
  needs a client secret and a configured issuer;
- enterprise-managed authorization (SEP-990): an RFC 8693 token exchange at the IdP for an ID-JAG
  (checked for type, audience and resource), then the JWT bearer grant with it. Both legs go through
  the provider's flow, so both are wire records and auth steps.

DPoP proofs and bound tokens are ``oauth_dpop``'s.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING

import httpx2
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import OAuthClientInformationFull

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError
from workbench.core.http.oauth_endpoints import check_oauth_endpoint
from workbench.core.oauth.assertions import check_assertion
from workbench.core.oauth.client_auth import authenticate
from workbench.core.oauth.forms import (
    FORM_CONTENT_TYPE,
    ID_JAG_TOKEN_TYPE,
    ID_TOKEN_TYPE,
    JWT_BEARER_GRANT_TYPE,
    TokenRequest,
    client_credentials_form,
    jwt_bearer_form,
    token_exchange_form,
)
from workbench.core.oauth.refusal import refuse
from workbench.core.oauth.tokens import read_token_exchange_response
from workbench.core.oauth_grant_options import ClientCredentials as ClientCredentialsGrant
from workbench.core.oauth_grant_options import EnterpriseManaged, JWTBearer, PrivateKeyJWTClient
from workbench.core.oauth_options import OAuthClient, OAuthGrant, PreRegisteredClient
from workbench.core.profiles.credential_keys import oauth_client_key_key
from workbench.core.protocols.mcp.oauth_dpop import NO_PROOF
from workbench.core.wire.redaction import Redactor

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = ["MACHINE_GRANTS", "MachineGrant", "check_client", "profile_key_client"]

MACHINE_GRANTS = (ClientCredentialsGrant, JWTBearer, EnterpriseManaged)
"""The grants this module runs (no browser, no person)."""

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
        assert ctx.oauth_metadata is not None
        url = str(ctx.oauth_metadata.token_endpoint)
        if isinstance(grant, JWTBearer):
            assertion = grant.assertion if isinstance(grant.assertion, str) else await grant.assertion(issuer)
            self.redactor.add_secret(assertion)
            check_assertion(self.steps, self.clock, assertion, audience=issuer, what="the workload's JWT")
            return self._authorization_server_request(ctx, jwt_bearer_form(url, assertion=assertion), issuer)
        return self._authorization_server_request(ctx, client_credentials_form(url), issuer)

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

    def _authorization_server_request(self, ctx: OAuthContext, request: TokenRequest, issuer: str) -> httpx2.Request:
        """``request`` with the resource, the scope and the client's authentication, as the SDK's client sends it."""
        if ctx.should_include_resource_param(ctx.protocol_version):
            request = request.with_form(resource=ctx.get_resource_url())
        if ctx.client_metadata.scope:
            request = request.with_form(scope=ctx.client_metadata.scope)
        request = authenticate(
            request,
            self.client,
            audience=issuer,
            steps=self.steps,
            clock=self.clock,
            on_secret=self.redactor.add_secret,
        )
        return _http_request(request)

    async def _token_exchange(self, ctx: OAuthContext, grant: EnterpriseManaged, issuer: str) -> httpx2.Request:
        """Leg 1 of SEP-990: the ID token exchanged for an ID-JAG at the IdP (RFC 8693)."""
        check_oauth_endpoint(grant.idp_token_endpoint, endpoint="token_endpoint", context="the identity provider")
        id_token = grant.id_token if isinstance(grant.id_token, str) else await grant.id_token()
        self.redactor.add_secret(id_token)
        resource = ctx.get_resource_url()
        request = token_exchange_form(
            grant.idp_token_endpoint,
            subject_token=id_token,
            subject_token_type=ID_TOKEN_TYPE,
            requested_token_type=ID_JAG_TOKEN_TYPE,
            audience=issuer,
            resource=resource,
            scope=ctx.client_metadata.scope,
        )
        # The IdP knows this client by its IdP client id (and secret, sent in the form).
        request = request.with_form(client_id=grant.idp_client_id, client_secret=grant.idp_client_secret or None)
        exchange = _http_request(request)
        token_url = str(ctx.oauth_metadata.token_endpoint) if ctx.oauth_metadata is not None else issuer

        async def then(response: httpx2.Response) -> httpx2.Request:
            id_jag = self._id_jag(response, issuer=issuer, resource=resource)
            return self._authorization_server_request(ctx, jwt_bearer_form(token_url, assertion=id_jag), issuer)

        exchange.extensions = {**exchange.extensions, _THEN: then, NO_PROOF: True}
        return exchange

    def _id_jag(self, response: httpx2.Response, *, issuer: str, resource: str) -> str:
        id_jag = read_token_exchange_response(
            response.status_code, response.content, requested_token_type=ID_JAG_TOKEN_TYPE, steps=self.steps
        )
        self.redactor.add_secret(id_jag)
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


def _http_request(request: TokenRequest) -> httpx2.Request:
    """The SDK's client's request for a token request (form-encoded, the shared layer's headers)."""
    headers = {"Content-Type": FORM_CONTENT_TYPE, **request.headers}
    return httpx2.Request("POST", request.url, data=dict(request.form), headers=headers)


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
