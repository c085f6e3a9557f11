"""OAuth logins of saved profiles, the use cases the window and the command line share.

- ``login`` / ``logout``: the OAuth login and logout of an MCP HTTP/SSE profile with ``auth="oauth"``
  (the browser flow, the token revocation), through the one agent factory; and of an A2A profile whose
  agent card declares an OAuth 2.0 / OpenID Connect scheme (the card fetched, each scheme's flow run
  now and its tokens stored; logout forgets them, A2A cards name no revocation endpoint).
- ``oauth_status``: what the credential store holds for the login (for a sidebar row or ``profile list``).

Which MCP profiles log in this way is ``workbench.core.profiles.uses_oauth``; any A2A profile may (its
card decides). The SDKs are imported only when a login, logout or token read really happens.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.core.oauth.results import LoginResult, LogoutResult
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile, uses_oauth
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT

if TYPE_CHECKING:
    from workbench.core.auth_steps import AuthStep, StepCollector
    from workbench.core.credentials import CredentialStore
    from workbench.core.http.browser import BrowserOpener
    from workbench.core.protocols.a2a import A2AAgent
    from workbench.core.wire.recorder import WireRecorder

OAuthProfile = MCPHTTPProfile | MCPSSEProfile | A2AProfile
"""The profiles that can log in with OAuth (an A2A one when its card declares an OAuth scheme)."""


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

    ``None`` for an A2A profile too: its tokens are kept per scheme of a card not read here.

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

    An A2A profile's login fetches the agent card and runs the flow of each OAuth scheme a call would
    use.

    Args:
        profile: An ``auth="oauth"`` HTTP/SSE profile, or an A2A profile.
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
        ConfigError: An A2A agent's card declares no OAuth scheme (``details["oauth"] == "no-oauth-scheme"``),
            or the profile's client lacks its secret or key.
    """
    from workbench.core.auth_steps import AuthStage, StepCollector, StepLog

    collect = StepCollector(on_step)
    connection_id = connection_id or f"oauth-login-{uuid.uuid4().hex[:8]}"
    if isinstance(profile, A2AProfile):
        return await _a2a_login(profile, credentials, opener, wire, collect, timeout, resolve_secret, connection_id)
    from workbench.core.agent_factory import build_agent
    from workbench.core.protocols.mcp.oauth import LOGIN_TIMEOUT  # lazy: the MCP SDK
    from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
    from workbench.core.wire.recorder import WireRecorder

    timeout = LOGIN_TIMEOUT if timeout is None else timeout
    wire = wire if wire is not None else WireRecorder()
    storage = CredentialTokenStorage(credentials, profile.id)
    stored = (await storage.load()).tokens
    await storage.forget_tokens()
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
    return state.login_result(
        collect.steps,
        f"{profile.url} let the workbench in without a login; nothing was stored.",
        hint="this server may not need OAuth: set the profile's auth to 'none'",
    )


async def logout(
    profile: OAuthProfile,
    credentials: CredentialStore,
    *,
    wire: WireRecorder | None = None,
    on_step: Callable[[AuthStep], None] | None = None,
    connection_id: str | None = None,
) -> LogoutResult:
    """Revoke the profile's tokens where the server can, and forget them; see ``mcp.oauth.logout``.

    An A2A profile's tokens are forgotten (an A2A card names no revocation endpoint).
    """
    if isinstance(profile, A2AProfile):
        return await _a2a_logout(profile, credentials, wire, on_step, connection_id)
    from workbench.core.protocols.mcp import oauth  # lazy: the MCP SDK

    return await oauth.logout(profile, credentials, wire=wire, on_step=on_step, connection_id=connection_id)


async def _a2a_login(
    profile: A2AProfile,
    credentials: CredentialStore,
    opener: BrowserOpener,
    wire: WireRecorder | None,
    collect: StepCollector,
    timeout: float | None,
    resolve_secret: Callable[[Any], Awaitable[str | None]] | None,
    connection_id: str,
) -> LoginResult:
    """Log in to the OAuth schemes of an A2A agent's card now, the stored tokens set aside (``login``).

    The agent is built as for a connection (the profile's client and DPoP, its other secrets), its
    card fetched, and each OAuth scheme a call would use signed in to: client credentials, or the
    authorization code with PKCE in the browser (``opener``). Each exchange is an ``AuthStep``;
    ``collect`` keeps them. ``timeout`` bounds a browser sign-in (default 300 s).

    Raises:
        ConfigError: The card declares no OAuth scheme, or the client lacks its secret or key.
        AuthRequiredError: The authorization server refused, or the scheme cannot be signed in to.
        OAuthRefusedError: A check of the flow failed (the step is named).
        RequestTimeoutError: Nobody came back from the browser in time.
        ConnectError: The agent could not be reached.
    """
    from workbench.core.protocols.a2a.security_login import sign_in  # lazy: the A2A SDK

    timeout = DEFAULT_LOGIN_TIMEOUT if timeout is None else timeout
    async with _connected_a2a_agent(
        profile,
        connection_id=connection_id,
        wire=wire,
        resolve_secret=resolve_secret,
        credentials=credentials,
        oauth_opener=opener,
        on_auth_step=collect,
    ) as agent:
        tokens = await sign_in(agent, timeout=timeout)
    expiries = [t.expires_at for t in tokens if t.expires_at is not None]
    scopes = [t.scope for t in tokens if t.scope]
    return LoginResult(tuple(collect.steps), min(expiries) if expiries else None, " ".join(scopes) or None, 0)


async def _a2a_logout(
    profile: A2AProfile,
    credentials: CredentialStore,
    wire: WireRecorder | None,
    on_step: Callable[[AuthStep], None] | None,
    connection_id: str | None,
) -> LogoutResult:
    """Forget the stored tokens of the OAuth schemes of an A2A agent's card (its card fetched to name them).

    The client's secret or key and the DPoP key stay (``profile remove`` forgets them).

    Raises:
        ConfigError: The card declares no OAuth scheme.
        ConnectError: The agent could not be reached.
    """
    from workbench.core.protocols.a2a.security_login import forget_tokens  # lazy: the A2A SDK

    async with _connected_a2a_agent(
        profile.with_changes(oauth_client="per-scheme", oauth_client_id=None, oauth_client_key_file=None),
        connection_id=connection_id or f"oauth-logout-{uuid.uuid4().hex[:8]}",
        wire=wire,
        credentials=credentials,
        on_auth_step=on_step,
    ) as agent:
        forgotten = await forget_tokens(agent)
    return LogoutResult(False, forgotten, ())


@contextlib.asynccontextmanager
async def _connected_a2a_agent(profile: A2AProfile, **options: Any) -> AsyncIterator[A2AAgent]:
    """The agent of ``profile``, built by ``build_agent`` with ``options`` and connected; closed on leaving."""
    from workbench.core.agent_factory import build_agent
    from workbench.core.protocols.a2a import A2AAgent  # lazy: the A2A SDK

    agent = await build_agent(profile, **options)
    assert isinstance(agent, A2AAgent)
    try:
        await agent.connect()
        yield agent
    finally:
        await agent.aclose()
