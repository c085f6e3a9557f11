"""MCP's authorization code grant and its refresh on the shared OAuth layer (``workbench.core.oauth``).

What an MCP login does as A2A's does is built and read by ``core.oauth``, here as there: the PKCE
pair (S256) and the authorization request's query, the token request forms of the code exchange
and of the refresh with the client's authentication (``none``, ``client_secret_basic``,
``client_secret_post``; ``private_key_jwt`` for a machine grant's refresh), RFC 8707 ``resource``
whenever the SDK would send it, and the token response read into a ``TokenSet`` with typed
refusals (``token-refused``, ``token-response-invalid``, ``token-type-unsupported``), then handed to
the SDK as its ``OAuthToken``. Discovery, registration, the issuer and resource checks, the
callback's ``state`` and ``iss`` checks and the flow itself stay the SDK's.

``client_id`` stays in the form with ``client_secret_basic``, as the SDK sends it: the SDK's token
endpoint (``mcp.server.auth``, which servers built on it and the conformance suite's run) requires it
in every form, and RFC 6749 §2.3.1 allows it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from urllib.parse import urljoin

import httpx2
from mcp.client.auth import OAuthFlowError, OAuthTokenError, TokenStorage
from mcp.client.auth.utils import validate_authorization_response_iss
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.errors import AuthRequiredError, OAuthRefusedError
from workbench.core.oauth.client_auth import authenticate
from workbench.core.oauth.forms import TokenRequest, authorization_code_form, authorization_url, refresh_token_form
from workbench.core.oauth.pkce import pkce_pair
from workbench.core.oauth.tokens import TokenSet, read_token_response
from workbench.core.oauth_options import OAuthClient, PreRegisteredClient
from workbench.core.protocols.mcp._sdk_compat import HookedOAuthClientProvider, waiting_on_a_person
from workbench.core.protocols.mcp.oauth_dpop import DPoPSession
from workbench.core.protocols.mcp.oauth_grants import MachineGrant

__all__ = ["CodeGrantProvider", "client_of", "sdk_token"]

_SECRET_METHODS = ("client_secret_basic", "client_secret_post")
_KNOWN_METHODS = (None, "none", *_SECRET_METHODS, "private_key_jwt")


def client_of(info: OAuthClientInformationFull | None) -> PreRegisteredClient:
    """The client a registration record describes, as ``core.oauth.client_auth`` authenticates it.

    As the SDK does: a secret method without a secret, no method, and ``private_key_jwt`` (no key
    in a registration record) send only ``client_id``.

    Raises:
        OAuthTokenError: No record, or a ``token_endpoint_auth_method`` no client here knows.
    """
    if info is None or not info.client_id:
        raise OAuthTokenError("No client info available")
    method = info.token_endpoint_auth_method
    if method not in _KNOWN_METHODS:
        raise OAuthTokenError(f"Registered client uses unsupported token_endpoint_auth_method {method!r}")
    if method in _SECRET_METHODS and info.client_secret:
        basic = method == "client_secret_basic"
        return PreRegisteredClient(
            info.client_id,
            info.client_secret,
            token_endpoint_auth_method="client_secret_basic" if basic else "client_secret_post",
        )
    return PreRegisteredClient(info.client_id, None, token_endpoint_auth_method="none")


def sdk_token(issued: TokenSet, *, scope: str | None, refresh_token: str | None = None) -> OAuthToken:
    """The SDK's ``OAuthToken`` of tokens ``core.oauth`` read.

    A ``DPoP`` token is the SDK's ``Bearer`` (it models no other type; ``oauth_dpop`` keeps which
    tokens are bound).

    Args:
        issued: The tokens read.
        scope: The scope kept when the response names none (RFC 6749 §5.1, §6: unchanged).
        refresh_token: The refresh token kept when the response gives none (the server does not rotate).
    """
    expires_in = None if issued.expires_at is None else round(issued.expires_at - issued.obtained_at)
    return OAuthToken(
        access_token=issued.access_token,
        token_type="Bearer",
        expires_in=expires_in,
        scope=issued.scope or scope,
        refresh_token=issued.refresh_token or refresh_token,
    )


class CodeGrantProvider(HookedOAuthClientProvider):
    """The SDK's OAuth provider whose authorization code grant and refresh are the shared OAuth layer's.

    Args:
        server_url: The MCP endpoint.
        client_metadata: The client metadata (redirect URI, scope) as the SDK keeps it.
        storage: Where the SDK keeps tokens and the registration.
        redirect_handler: Shows the authorization URL.
        callback_handler: Waits for the redirect back.
        steps: Where a refused token response is recorded (the token or refresh step).
        clock: Seconds since the epoch (expiry, assertion lifetimes).
    """

    def __init__(
        self,
        server_url: str,
        client_metadata: OAuthClientMetadata,
        storage: TokenStorage,
        *,
        redirect_handler: Callable[[str], Awaitable[None]],
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]],
        steps: StepLog,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            server_url, client_metadata, storage, redirect_handler=redirect_handler, callback_handler=callback_handler
        )
        self.steps = steps
        self.clock = clock
        self.machine: MachineGrant | None = None
        """The grant without a browser (client credentials, JWT bearer, enterprise), if the login uses one."""
        self.dpop: DPoPSession | None = None
        """Proofs, nonces and bound tokens, if the login uses DPoP."""

    # ---- requests ----------------------------------------------------------------------------

    async def authorization_code_grant(self) -> tuple[str, str]:
        """The browser leg with ``core.oauth``'s PKCE pair and authorization URL: the code and its verifier.

        Raises:
            OAuthFlowError: No redirect URI or client; the redirect back carries another ``state``,
                another ``iss`` or none where the server promised one (RFC 9207), or no code.
        """
        ctx = self.context
        redirect_uris = ctx.client_metadata.redirect_uris
        if not redirect_uris or ctx.redirect_handler is None or ctx.callback_handler is None:
            raise OAuthFlowError("No redirect URI or handlers provided for authorization code grant")
        if ctx.client_info is None:
            raise OAuthFlowError("No client info available for authorization")
        metadata = ctx.oauth_metadata
        if metadata is not None and metadata.authorization_endpoint:
            endpoint = str(metadata.authorization_endpoint)
        else:
            endpoint = urljoin(ctx.get_authorization_base_url(ctx.server_url), "/authorize")
        verifier, challenge = pkce_pair()
        state = secrets.token_urlsafe(32)
        scope = ctx.client_metadata.scope
        url = authorization_url(
            endpoint,
            client_id=ctx.client_info.client_id,
            redirect_uri=str(redirect_uris[0]),
            state=state,
            code_challenge=challenge,
            scope=scope,
            resource=self._resource(),
        )
        if scope and "offline_access" in scope.split():
            url += "&prompt=consent"  # OpenID Connect grants offline_access only after consent
        with waiting_on_a_person():
            await ctx.redirect_handler(url)
            result = await ctx.callback_handler()
        if result.state is None or not secrets.compare_digest(result.state.encode(), state.encode()):
            raise OAuthFlowError("State parameter mismatch: the redirect back carries another state")
        validate_authorization_response_iss(result.iss, ctx.oauth_metadata)
        if not result.code:
            raise OAuthFlowError("No authorization code received")
        return result.code, verifier

    async def code_exchange_request(self, code: str, code_verifier: str) -> httpx2.Request:
        """The code and its PKCE verifier exchanged for tokens (RFC 6749 §4.1.3), the client authenticated."""
        redirect_uris = self.context.client_metadata.redirect_uris
        if not redirect_uris:
            raise OAuthFlowError("No redirect URIs provided for authorization code grant")
        form = authorization_code_form(
            self.token_endpoint(),
            code=code,
            redirect_uri=str(redirect_uris[0]),
            code_verifier=code_verifier,
            resource=self._resource(),
        )
        return self._send_as_client(form)

    async def refresh_request(self) -> httpx2.Request:
        """The refresh token exchanged for new tokens (RFC 6749 §6), the client authenticated."""
        tokens = self.context.current_tokens
        if tokens is None or not tokens.refresh_token:
            raise OAuthTokenError("No refresh token available")
        form = refresh_token_form(self.token_endpoint(), refresh_token=tokens.refresh_token, resource=self._resource())
        return self._send_as_client(form)

    def token_endpoint(self) -> str:
        """The authorization server's token endpoint (``/token`` at the server's origin when none is known)."""
        ctx = self.context
        metadata = ctx.oauth_metadata
        if metadata is not None and metadata.token_endpoint:
            return str(metadata.token_endpoint)
        return urljoin(ctx.get_authorization_base_url(ctx.server_url), "/token")

    def token_client(self) -> OAuthClient:
        """Who authenticates at the token endpoint: a machine grant's client, else the registration's.

        Raises:
            OAuthTokenError: No registration, or one with a method no client here knows.
        """
        if self.machine is not None:
            return self.machine.client
        return client_of(self.context.client_info)

    def _resource(self) -> str | None:
        """RFC 8707 ``resource``, when the SDK sends it (resource metadata found, or a 2025-06-18+ server)."""
        ctx = self.context
        return ctx.get_resource_url() if ctx.should_include_resource_param(ctx.protocol_version) else None

    def _send_as_client(self, request: TokenRequest) -> httpx2.Request:
        metadata = self.context.oauth_metadata
        authed = authenticate(
            request,
            self.token_client(),
            audience=str(metadata.issuer) if metadata is not None else request.url,
            steps=self.steps,
            clock=self.clock,
            on_secret=self.steps.wire.redactor.add_secret,
            client_id_in_form=True,
        )
        return httpx2.Request("POST", authed.url, data=dict(authed.form), headers=authed.all_headers())

    # ---- responses ---------------------------------------------------------------------------

    async def accept_token_response(self, response: httpx2.Response) -> None:
        """Keep the tokens of the code exchange (or of a machine grant).

        Raises:
            OAuthRefusedError: Refused (``token-refused``, the server's code in ``oauth_error``), no
                token response (``token-response-invalid``), or a token type this client cannot
                present (``token-type-unsupported``); ``details["step"]`` is ``token``.
        """
        issued = await self._read(response, AuthStage.TOKEN)
        await self._keep(sdk_token(issued, scope=self.context.client_metadata.scope))

    async def accept_refresh_response(self, response: httpx2.Response) -> bool:
        """Keep the refreshed tokens; ``False`` (tokens cleared, a login follows) when the refresh failed."""
        prior = self.context.current_tokens
        try:
            issued = await self._read(response, AuthStage.REFRESH)
        except OAuthRefusedError:
            self.context.clear_tokens()
            return False
        await self._keep(
            sdk_token(
                issued,
                scope=prior.scope if prior is not None else None,
                refresh_token=prior.refresh_token if prior is not None else None,
            )
        )
        return True

    async def _read(self, response: httpx2.Response, stage: AuthStage) -> TokenSet:
        """The tokens of a token endpoint's answer, or the refusal recorded at ``stage`` and raised."""
        await response.aread()
        try:
            return read_token_response(
                response.status_code,
                response.content,
                now=self.clock(),
                token_url=self.token_endpoint(),
                dpop=self.dpop is not None,
                stage=stage,
            )
        except AuthRequiredError as exc:
            # The exchange's own step already failed when its checks caught this; the log keeps one.
            self.steps.step(stage, "failed", f"{exc.details.get('oauth')}: {exc.message}")
            if isinstance(exc, OAuthRefusedError):
                raise
            raise OAuthRefusedError(exc.message, hint=exc.hint, details=exc.details) from None

    async def _keep(self, tokens: OAuthToken) -> None:
        ctx = self.context
        ctx.current_tokens = tokens
        ctx.update_token_expiry(tokens)
        await ctx.storage.set_tokens(tokens)
