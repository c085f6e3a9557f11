"""OAuth 2.1 for MCP servers over HTTP: login, token reuse and refresh, logout, each step on record.

Built on the SDK's ``OAuthClientProvider`` (an ``httpx2.Auth`` attached to the agent's HTTP
client, so every OAuth request goes through the wire tap). On a 401 it discovers the protected
resource metadata (RFC 9728) and the authorization server's metadata (RFC 8414), registers a client
(RFC 7591), sends the user's browser to the authorization endpoint with PKCE (S256) and receives the
redirect on a loopback port, exchanges the code, and retries. The PKCE pair, the token requests of
the code exchange and the refresh, and the reading of token responses are the shared OAuth layer's
(``workbench.core.oauth``, as for A2A). This module adds what a desktop workbench needs on top:

- tokens and registration in the ``CredentialStore`` with an absolute expiry
  (``CredentialTokenStorage``), refreshed shortly *before* they expire, also after a restart;
- one loopback redirect port per profile, kept with the registration (the registered
  ``redirect_uris`` name it);
- a pluggable opener (``BrowserOpener``): the system browser, a GUI's, or an HTTP client that
  follows the redirects for authorization servers that approve without a person
  (``follow_redirects_opener``); without one, a login that is needed fails with
  ``AuthRequiredError`` (``details["oauth"] == "login-required"``) instead of opening anything;
- ``AuthStep`` events (discovery, registration, authorize, token, refresh, revoke) naming the wire
  records of each step;
- ``login`` (forget the tokens, connect, log in) and ``logout`` (RFC 7009 revocation when the
  authorization server offers it, then forget tokens and registration).

This module is the entry point (``oauth_http`` for ``MCPAgent(url, oauth=...)``) and the names callers
import; the parts live beside it: the provider (``_oauth_provider``), its code grant and refresh on
the shared layer (``_oauth_code_flow``), the SDK pieces it adapts (``_oauth_sdk``), options and
profiles → provider (``_oauth_build``), the grants without a browser (``oauth_grants``), DPoP
(``oauth_dpop``), token storage (``oauth_storage``), logout (``_oauth_logout``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable

import anyio
import httpx2

from workbench.core.auth_steps import AuthStage, AuthStep, StepCallback
from workbench.core.credentials import CredentialStore, KeyringCredentialStore
from workbench.core.errors import ConfigError
from workbench.core.events import EventBus
from workbench.core.http.browser import BrowserOpener, follow_redirects_opener, system_browser_opener
from workbench.core.http.httpx2_transport import Httpx2CredentialGuard
from workbench.core.http.origins import CredentialBoundary
from workbench.core.oauth_options import OAuth
from workbench.core.protocols.mcp._oauth_build import build_oauth_provider, oauth_provider, profile_oauth
from workbench.core.protocols.mcp._oauth_logout import LoginResult, LogoutResult, logout
from workbench.core.protocols.mcp._oauth_provider import WorkbenchOAuthProvider
from workbench.core.protocols.mcp._oauth_sdk import CLIENT_NAME, LOGIN_TIMEOUT, REFRESH_MARGIN_MAX, pre_registered_info
from workbench.core.wire.recorder import WireRecorder

__all__ = [
    "CLIENT_NAME",
    "LOGIN_TIMEOUT",
    "REFRESH_MARGIN_MAX",
    "AuthStage",
    "AuthStep",
    "BrowserOpener",
    "DeferredOAuth",
    "LoginResult",
    "LogoutResult",
    "WorkbenchOAuthProvider",
    "build_oauth_provider",
    "follow_redirects_opener",
    "logout",
    "oauth_http",
    "oauth_provider",
    "pre_registered_info",
    "profile_oauth",
    "system_browser_opener",
]


class DeferredOAuth(httpx2.Auth):
    """An ``httpx2.Auth`` that builds its ``WorkbenchOAuthProvider`` on the first request (loading the store is async).

    ``MCPAgent(url, oauth=OAuth(...))`` attaches one, so the agent can be constructed synchronously.

    Args:
        build: Returns the provider (called once, on the first request).
    """

    requires_response_body = True

    def __init__(self, build: Callable[[], Awaitable[WorkbenchOAuthProvider]]) -> None:
        self._build = build
        self._lock = anyio.Lock()
        self.provider: WorkbenchOAuthProvider | None = None

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The provider's flow for ``request``."""
        async with self._lock:
            if self.provider is None:
                self.provider = await self._build()
        flow = self.provider.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()


def oauth_http(
    url: str | None,
    transport: str,
    options: OAuth,
    *,
    given_auth: httpx2.Auth | None,
    given_transport: httpx2.AsyncBaseTransport | None,
    headers: dict[str, str] | None,
    wire: WireRecorder,
    connection_id: str,
    bus: EventBus | None,
    credentials: CredentialStore | None,
    open_browser: BrowserOpener | None,
    on_auth_step: StepCallback | None,
) -> tuple[httpx2.Auth, httpx2.AsyncBaseTransport]:
    """The auth and guarded transport of ``MCPAgent(url, oauth=...)``.

    The transport is the caller's (a profile's credential guard) or ``Httpx2CredentialGuard`` over
    the URL's origin and the given headers' values, as ``workbench login`` builds for a profile.

    Raises:
        ConfigError: Not an HTTP transport, or ``auth`` given too.
    """
    if transport not in ("streamable-http", "sse") or not url:
        raise ConfigError("OAuth is for MCP servers over HTTP.", hint="MCPAgent('https://…/mcp', oauth=OAuth())")
    if given_auth is not None:
        raise ConfigError("Give either auth= or oauth=, not both.", hint="oauth=OAuth(...) builds the auth itself")
    store: CredentialStore = credentials if credentials is not None else KeyringCredentialStore()

    def emit(step: AuthStep) -> None:
        if on_auth_step is not None:
            on_auth_step(step)
        if bus is not None:
            bus.publish(step)

    async def build() -> WorkbenchOAuthProvider:
        return await oauth_provider(
            url, options, store, wire=wire, connection_id=connection_id, opener=open_browser, on_step=emit
        )

    if given_transport is None:
        values = list((headers or {}).values())
        given_transport = Httpx2CredentialGuard(CredentialBoundary([url], values, redactor=wire.redactor))
    return DeferredOAuth(build), given_transport
