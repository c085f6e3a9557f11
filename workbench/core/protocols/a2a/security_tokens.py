"""How an A2A OAuth security scheme gets a token: the client identity, the endpoints, and which grant runs.

The grants are the shared OAuth layer's (``workbench.core.oauth``), sent by ``TokenEndpoint``:

- a stored refresh token is tried first (``refresh_token``; a refusal means: sign in again);
- an ``oauth2-client-credentials`` scheme runs ``client_credentials`` with the client's own
  authentication at the token endpoint;
- ``oauth2-authorization-code`` and ``openid-connect`` run the browser flow with PKCE.

The client is the one the agent was given (``A2AAgent(oauth_client=...)``: a ``PreRegisteredClient``
with its ``token_endpoint_auth_method``, or a ``PrivateKeyJWTClient``), else the client id and
secret stored for the scheme, sent as ``client_secret_post`` (a public client without a secret).
A private key client's assertion is for the authorization server's issuer, read from its RFC 8414
metadata when it publishes any (the token endpoint otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.auth_steps import AuthStage
from workbench.core.errors import AuthRequiredError
from workbench.core.http.browser import BrowserOpener
from workbench.core.oauth.forms import client_credentials_form, refresh_token_form
from workbench.core.oauth.tokens import TokenSet
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import OAuthClient, PreRegisteredClient
from workbench.core.protocols.a2a.security import CredentialNeed
from workbench.core.protocols.a2a.security_oauth import TokenEndpoint, authorization_code_flow

__all__ = ["BROWSER_FLOWS", "SchemeLogin", "needs_secret", "obtain", "renew"]

BROWSER_FLOWS = ("oauth2-authorization-code", "openid-connect")
"""The need types whose token only a person in a browser can get."""


def needs_secret(client: OAuthClient) -> bool:
    """Whether ``client`` cannot run ``client_credentials``: a public client (no secret, no key)."""
    return isinstance(client, PreRegisteredClient) and not client.client_secret


@dataclass(frozen=True, slots=True)
class SchemeLogin:
    """What one OAuth scheme's login needs: who the client is and where its authorization server is.

    Attributes:
        need: The scheme as the card declares it.
        client: Who the client is at the token endpoint.
        authorization_url: The authorization endpoint (browser flows).
        token_url: The token endpoint.
        issuer: The authorization server's issuer, when its metadata named it.
    """

    need: CredentialNeed
    client: OAuthClient
    authorization_url: str | None
    token_url: str | None
    issuer: str | None = None

    @property
    def client_id(self) -> str:
        """The client's id (in the authorization request)."""
        assert isinstance(self.client, PreRegisteredClient | PrivateKeyJWTClient)
        return self.client.client_id

    @property
    def scopes(self) -> tuple[str, ...]:
        """The scopes to ask for (``openid`` first for OpenID Connect)."""
        scopes = self.need.scopes
        if self.need.type == "openid-connect" and "openid" not in scopes:
            scopes = ("openid", *scopes)
        return scopes


async def renew(endpoint: TokenEndpoint, login: SchemeLogin, refresh_token: str) -> TokenSet | None:
    """New tokens for a refresh token (the old refresh token kept when no new one comes).

    Returns:
        The tokens, or ``None`` when the server refused the refresh token (sign in again).

    Raises:
        OAuthRefusedError: The answer is no usable token response.
    """
    need = login.need
    url = need.refresh_url or login.token_url
    if not url:
        return None
    request = refresh_token_form(url, refresh_token=refresh_token, scope=need.scopes)
    try:
        fresh = await endpoint.request(request, login.client, audience=login.issuer, stage=AuthStage.REFRESH)
    except AuthRequiredError as exc:
        if exc.details.get("oauth") == "token-refused":
            return None
        raise
    if fresh.refresh_token is None:
        fresh = TokenSet(
            fresh.access_token, fresh.obtained_at, fresh.expires_at, refresh_token, fresh.scope, fresh.token_type
        )
    return fresh


async def obtain(
    endpoint: TokenEndpoint,
    login: SchemeLogin,
    *,
    interactive: bool,
    opener: BrowserOpener,
    timeout: float,
) -> TokenSet | None:
    """Tokens from the scheme's grant: ``client_credentials``, or the browser flow when ``interactive``.

    Returns:
        The tokens, or ``None`` when they cannot be had now: a public client for client credentials,
        a browser flow without ``interactive``, or an endpoint the card does not name.

    Raises:
        AuthRequiredError: The authorization server or the user refused.
        OAuthRefusedError: A check of the flow failed (see ``TokenEndpoint.request``).
        RequestTimeoutError: A browser sign-in did not come back in time.
    """
    need = login.need
    if not login.token_url:
        return None
    if need.type == "oauth2-client-credentials":
        if needs_secret(login.client):
            return None
        request = client_credentials_form(login.token_url, scope=need.scopes)
        return await endpoint.request(request, login.client, audience=login.issuer)
    if not interactive or not login.authorization_url or need.type not in BROWSER_FLOWS:
        return None
    secret = login.client.client_secret if isinstance(login.client, PreRegisteredClient) else None
    return await authorization_code_flow(
        endpoint.http,
        scheme=need.scheme,
        authorization_url=login.authorization_url,
        token_url=login.token_url,
        client_id=login.client_id,
        client_secret=secret,
        scopes=login.scopes,
        opener=opener,
        timeout=timeout,
        clock=endpoint.clock,
        client=login.client,
        endpoint=endpoint,
        issuer=login.issuer,
    )
