"""OAuth logins of saved profiles, the use cases the window and the command line share.

- ``login`` / ``logout``: the OAuth login and logout of an MCP HTTP/SSE profile with ``auth="oauth"``
  (the browser flow, the token revocation), through the one agent factory.
- ``oauth_status``: what the credential store holds for the login (for a sidebar row or ``profile list``).

Which profiles log in this way is ``workbench.core.profiles.uses_oauth``. The MCP SDK is imported only
when a login, logout or token read really happens.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.core.errors import AuthRequiredError
from workbench.core.profiles import ConnectionProfile, MCPHTTPProfile, MCPSSEProfile, uses_oauth

if TYPE_CHECKING:
    from workbench.core.auth_steps import AuthStep
    from workbench.core.credentials import CredentialStore
    from workbench.core.http.browser import BrowserOpener
    from workbench.core.protocols.mcp.oauth import LoginResult, LogoutResult
    from workbench.core.wire.recorder import WireRecorder

OAuthProfile = MCPHTTPProfile | MCPSSEProfile
"""The profiles that can log in with OAuth."""


@dataclass(frozen=True, slots=True)
class OAuthStatus:
    """What the credential store holds for a profile's OAuth login.

    Attributes:
        logged_in: An access token is stored.
        expires_at: When it expires (epoch seconds), if known.
        refreshable: A refresh token is stored too.
        registered: The client is registered with the authorization server.
    """

    logged_in: bool
    expires_at: float | None
    refreshable: bool
    registered: bool


async def oauth_status(profile: ConnectionProfile, credentials: CredentialStore) -> OAuthStatus | None:
    """The stored login of ``profile`` (``None`` for a profile that does not use OAuth).

    Raises:
        SecureStorageUnavailableError: No secure keyring.
    """
    if not uses_oauth(profile):
        return None
    from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage  # lazy: the MCP SDK

    state = await CredentialTokenStorage(credentials, profile.id).load()
    tokens = state.tokens
    return OAuthStatus(
        logged_in=tokens is not None,
        expires_at=state.expires_at if tokens is not None else None,
        refreshable=bool(tokens is not None and tokens.refresh_token),
        registered=state.client is not None,
    )


async def login(
    profile: OAuthProfile,
    credentials: CredentialStore,
    *,
    opener: BrowserOpener,
    wire: WireRecorder | None = None,
    on_step: Callable[[AuthStep], None] | None = None,
    timeout: float | None = None,
    resolve_secret: Callable[[Any], Awaitable[str | None]] | None = None,
    connection_id: str | None = None,
) -> LoginResult:
    """Log in now: forget the saved tokens (the registration stays), connect, and let the flow run.

    Stored tokens with a refresh token are not refreshed: a ``refresh`` step, ``skipped``, says they
    were set aside.

    Args:
        profile: An ``auth="oauth"`` HTTP/SSE profile.
        credentials: The credential store.
        opener: Shows the authorization URL (``system_browser_opener``, a GUI's, or a printer).
        wire: Records the exchanges (a fresh recorder if omitted).
        on_step: Receives each ``AuthStep`` as it finishes.
        timeout: Seconds for the whole login, the person in the browser included (default 300).
        resolve_secret: Looks up the profile's other secrets (e.g. an API key header).
        connection_id: Wire records and steps carry this id (the window passes the profile's, so the
            login's exchanges sit with the connection); a fresh ``oauth-login-…`` id by default.

    Raises:
        AuthRequiredError: The login failed or was refused, or the server let us in without one.
        RequestTimeoutError: Nobody came back from the browser in time.
        ConnectError: The server could not be reached.
    """
    from workbench.core.agent_factory import build_agent
    from workbench.core.auth_steps import AuthStage, StepLog
    from workbench.core.protocols.mcp.oauth import LOGIN_TIMEOUT, LoginResult  # lazy: the MCP SDK
    from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
    from workbench.core.wire.recorder import WireRecorder

    timeout = LOGIN_TIMEOUT if timeout is None else timeout
    wire = wire if wire is not None else WireRecorder()
    connection_id = connection_id or f"oauth-login-{uuid.uuid4().hex[:8]}"
    storage = CredentialTokenStorage(credentials, profile.id)
    stored = (await storage.load()).tokens
    await storage.forget_tokens()
    steps: list[AuthStep] = []

    def collect(step: AuthStep) -> None:
        steps.append(step)
        if on_step is not None:
            on_step(step)

    if stored is not None and stored.refresh_token:
        # Said as a step, so --explain and the Login view show why no refresh happens.
        StepLog(connection_id, wire, collect).step(
            AuthStage.REFRESH,
            "skipped",
            "a refresh token was stored; a login signs in afresh instead: the stored tokens are set aside "
            "(not revoked), the client registration is kept",
            subject="refresh_token",
        )

    # The person in the browser needs time: the connect waits for the login too.
    patient = profile.with_changes(connect_timeout=min(3600.0, profile.connect_timeout + timeout))
    agent = await build_agent(
        patient,
        connection_id=connection_id,
        wire=wire,
        resolve_secret=resolve_secret,
        credentials=credentials,
        oauth_opener=opener,
        on_auth_step=collect,
        oauth_login_timeout=timeout,
    )
    try:
        await agent.connect()
    finally:
        await agent.aclose()
    state = await CredentialTokenStorage(credentials, profile.id).load()
    if state.tokens is None:
        raise AuthRequiredError(
            f"{profile.url} let the workbench in without a login; nothing was stored.",
            hint="this server may not need OAuth: set the profile's auth to 'none'",
            details={"oauth": "not-required"},
        )
    return LoginResult(tuple(steps), state.expires_at, state.tokens.scope, state.redirect_port or 0)


async def logout(
    profile: OAuthProfile,
    credentials: CredentialStore,
    *,
    wire: WireRecorder | None = None,
    on_step: Callable[[AuthStep], None] | None = None,
    connection_id: str | None = None,
) -> LogoutResult:
    """Revoke the profile's tokens where the server can, and forget them; see ``mcp.oauth.logout``."""
    from workbench.core.protocols.mcp import oauth  # lazy: the MCP SDK

    return await oauth.logout(profile, credentials, wire=wire, on_step=on_step, connection_id=connection_id)
