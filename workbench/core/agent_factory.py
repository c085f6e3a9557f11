"""Turn a connection profile into an agent: secret references resolved, UI handlers injected.

The protocol adapters are imported inside the functions that build them, so importing this module
(and the connection manager) never loads the MCP or A2A SDK.

How secret references become values (``resolve_secret`` returns ``None`` when a value is missing;
that secret is then left out and the peer's own error — usually "auth required" — tells the user)::

    bearer   MCP: header "Authorization: Bearer <v>"      A2A: bearer_token=<v>
    api-key  header <name or X-API-Key>: <v>
    header   header <name>: <v>                           (the value is sent exactly as stored)
    env      environment variable <name>=<v>              (stdio servers only)
    query    query parameter <name>=<v> on the URL        (HTTP: MCP on its URL, A2A on every request)
    cookie   cookie <name>=<v> in the Cookie header       (HTTP; joined with a plain Cookie header)

A profile's plain headers (``--header``) count as credentials too: their values are redacted like
secrets and go only to the origins the user configured or approved.

An HTTP MCP profile with ``auth="oauth"`` gets the OAuth provider of
``workbench.core.protocols.mcp.oauth`` instead: its tokens come from the credential store, and a
login that is needed opens ``oauth_opener`` (without one it fails with ``AuthRequiredError``).
An A2A profile's OAuth client (pre-registered with its stored secret, or private key JWT) and DPoP go
to the agent for its card's OAuth schemes (``profiles.oauth_client.a2a_oauth_options``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from workbench.core.errors import ConfigError
from workbench.core.events import EventBus
from workbench.core.log_redaction import protect_logs
from workbench.core.profiles import (
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
)
from workbench.core.profiles.secret_values import (
    ResolvedSecrets,
    SecretResolver,
    credential_values,
    request_headers,
    resolve_secrets,
    with_query,
)
from workbench.core.protocols.base import ElicitationHandler, InputHandler, SamplingHandler
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.shell_quote import command_line
from workbench.core.wire.redaction import Redactor

if TYPE_CHECKING:
    from workbench.core.auth_steps import AuthStep
    from workbench.core.credentials import CredentialStore
    from workbench.core.http.origins import CredentialBoundary, OriginApprover
    from workbench.core.oauth_options import DPoP, OAuthClient
    from workbench.core.protocols.mcp.oauth import WorkbenchOAuthProvider
    from workbench.core.wire.recorder import WireRecorder

OAuthOpener = Callable[[str], Awaitable[None]]
"""Shows the user an OAuth authorization URL (opens a browser)."""


@dataclass(frozen=True, slots=True)
class AgentHandlers:
    """Callbacks the UI or CLI supplies for requests the peer makes during a session.

    Attributes:
        elicitation: Answers MCP elicitations.
        sampling: Answers MCP sampling requests.
        input: Answers A2A ``input-required`` / ``auth-required`` pauses.
        origin_approval: Asked before a profile's credentials go to an origin the user did not
            configure (``None``: refused with ``CredentialOriginError``); it persists a "yes".
        renders_apps: The host shows MCP Apps, so an MCP connection advertises them (when the
            profile's ``apps`` switch is on).
        edits_roots: The host can change the roots while connected, so an MCP connection declares the
            ``roots`` capability (when its switch is on) even with no roots yet; otherwise only with some.
    """

    elicitation: ElicitationHandler | None = None
    sampling: SamplingHandler | None = None
    input: InputHandler | None = None
    origin_approval: OriginApprover | None = None
    renders_apps: bool = False
    edits_roots: bool = False


class AgentFactory(Protocol):
    """Builds the (not yet connected) agent for a profile; the connection manager calls it."""

    async def __call__(
        self,
        profile: ConnectionProfile,
        *,
        connection_id: str,
        wire: WireRecorder | None,
        bus: EventBus | None,
    ) -> RemoteAgent:
        """Return a new agent for ``profile`` (``connect`` not yet called)."""
        ...


async def build_agent(
    profile: ConnectionProfile,
    *,
    connection_id: str | None = None,
    wire: WireRecorder | None = None,
    bus: EventBus | None = None,
    handlers: AgentHandlers | None = None,
    resolve_secret: SecretResolver | None = None,
    credentials: CredentialStore | None = None,
    oauth_opener: OAuthOpener | None = None,
    on_auth_step: Callable[[AuthStep], None] | None = None,
    oauth_login_timeout: float | None = None,
    peer_names_itself: bool = False,
) -> RemoteAgent:
    """Build the agent ``profile`` describes (not connected yet).

    Args:
        profile: What to connect to.
        connection_id: Id for wire records and events (default: the profile id).
        wire: Wire recorder to tap the traffic into.
        bus: Event bus for stderr lines and process exits (MCP).
        handlers: Elicitation, sampling and input handlers.
        resolve_secret: Looks up secret references; ``None`` sends none.
        credentials: The credential store holding OAuth tokens (needed for ``auth="oauth"``); for
            A2A profiles also the values the card's security schemes need (asked for on 401/403).
        oauth_opener: Opens the authorization URL when an OAuth login is needed; ``None``: a needed
            login fails with ``AuthRequiredError`` (``details["oauth"] == "login-required"``).
        on_auth_step: Receives each OAuth ``AuthStep`` (they are also published on ``bus``), an MCP
            login's and an A2A card's OAuth scheme's alike.
        oauth_login_timeout: Seconds an OAuth login waits for the browser (default: the provider's).
        peer_names_itself: The agent takes the name the server or card gives (a transient profile's
            name is only a label for its target); otherwise it keeps the profile's name.

    Returns:
        An ``MCPAgent`` or ``A2AAgent``.

    Raises:
        ConfigError: An OAuth profile without a credential store, or an A2A profile's OAuth client
            without its secret or key (``details["oauth"]``).
        WorkbenchError: When a secret cannot be looked up.
    """
    handlers = handlers or AgentHandlers()
    cid = connection_id or profile.id
    secrets = await resolve_secrets(profile, resolve_secret)
    if values := credential_values(profile, secrets):
        # Neither the wire log nor any log record may show a secret, wherever it turns up (an echoed
        # env var, an error, an SDK logging the URL that carries an API key).
        redactor = wire.redactor if wire is not None else Redactor()
        for value in values:
            redactor.add_secret(value)
        protect_logs(redactor)
    name = None if peer_names_itself else profile.name
    if isinstance(profile, A2AProfile):
        from workbench.core.profiles.oauth_client import a2a_oauth_options

        client, dpop = await a2a_oauth_options(profile, credentials)
        sink = _auth_step_sink(bus, on_auth_step)
        return _build_a2a(profile, cid, name, wire, handlers, secrets, credentials, oauth_opener, sink, client, dpop)
    auth = None
    if isinstance(profile, MCPHTTPProfile | MCPSSEProfile) and profile.auth == "oauth":
        if credentials is None:
            raise ConfigError(
                f"The profile {profile.name!r} logs in with OAuth; no credential store was given for its tokens.",
                hint="pass credentials= (the keyring store) when building the agent",
            )
        if wire is None:
            from workbench.core.wire.recorder import WireRecorder

            wire = WireRecorder()
        auth = await _oauth_provider(
            profile, cid, wire, bus, credentials, oauth_opener, on_auth_step, oauth_login_timeout
        )
    return _build_mcp(profile, cid, name, wire, bus, handlers, secrets, auth)


async def _oauth_provider(
    profile: MCPHTTPProfile | MCPSSEProfile,
    connection_id: str,
    wire: WireRecorder,
    bus: EventBus | None,
    credentials: CredentialStore,
    opener: OAuthOpener | None,
    on_auth_step: Callable[[AuthStep], None] | None,
    login_timeout: float | None = None,
) -> WorkbenchOAuthProvider:
    from workbench.core.protocols.mcp.oauth import LOGIN_TIMEOUT, build_oauth_provider  # lazy: keeps the SDK out

    return await build_oauth_provider(
        profile,
        credentials,
        wire=wire,
        connection_id=connection_id,
        opener=opener,
        on_step=_auth_step_sink(bus, on_auth_step),
        login_hint=_login_hint(profile),
        login_timeout=LOGIN_TIMEOUT if login_timeout is None else login_timeout,
    )


def _auth_step_sink(
    bus: EventBus | None, on_auth_step: Callable[[AuthStep], None] | None
) -> Callable[[AuthStep], None]:
    """Where a login's steps go: the caller's callback and the bus (the Login view listens there)."""

    def emit(step: AuthStep) -> None:
        if on_auth_step is not None:
            on_auth_step(step)
        if bus is not None:
            bus.publish(step)

    return emit


def _login_hint(profile: MCPHTTPProfile | MCPSSEProfile) -> str:
    """The command that logs in to ``profile``, safe to paste (its id when no command line can carry its name)."""
    try:
        return f"log in again: {command_line('workbench', 'login', profile.name)}"
    except ValueError:
        return f"log in again: {command_line('workbench', 'login', profile.id)}"


def _build_mcp(
    profile: MCPStdioProfile | MCPHTTPProfile | MCPSSEProfile,
    connection_id: str,
    name: str | None,
    wire: WireRecorder | None,
    bus: EventBus | None,
    handlers: AgentHandlers,
    secrets: ResolvedSecrets,
    auth: WorkbenchOAuthProvider | None = None,
) -> RemoteAgent:
    from workbench.core.protocols.mcp import MCPAgent  # lazy: keeps the SDK out until needed

    roots: list[tuple[str, str | None]] | None = [(r.uri, r.name) for r in profile.roots]
    if not roots and not handlers.edits_roots:
        roots = None  # a one-shot run offers no roots later: the capability is declared only with some
    if isinstance(profile, MCPStdioProfile):
        target: str | None = None
        transport: Literal["streamable-http", "sse", "stdio"] = "stdio"
        headers = None
    else:
        target = with_query(profile.url, secrets.query)
        transport = "streamable-http" if isinstance(profile, MCPHTTPProfile) else "sse"
        headers = request_headers(profile.headers, secrets) or None
    stdio = profile if isinstance(profile, MCPStdioProfile) else None
    guard, limits = None, None
    if not isinstance(profile, MCPStdioProfile):
        from workbench.core.http.httpx2_transport import Httpx2CredentialGuard

        limits = profile.http_limits()
        # Credentials go only to the origins the user configured or approved (redirects included).
        guard = Httpx2CredentialGuard(credential_boundary(profile, secrets, wire, handlers.origin_approval))
    return MCPAgent(
        target,
        transport=transport,
        command=stdio.command if stdio else None,
        args=list(stdio.args) if stdio else None,
        env=({**stdio.env, **secrets.env} or None) if stdio else None,
        cwd=stdio.cwd if stdio else None,
        name=name,
        mode=profile.mode,
        headers=headers,
        agent_tool=profile.agent_tool,
        roots=roots,
        elicitation_handler=handlers.elicitation,
        sampling_handler=handlers.sampling,
        wire=wire,
        connection_id=connection_id,
        bus=bus,
        connect_timeout=profile.connect_timeout,
        request_timeout=profile.request_timeout,
        auth=auth,
        http_transport=guard,
        limits=limits,
        client_capabilities=profile.client_capabilities,
        renders_apps=handlers.renders_apps,
    )


def _build_a2a(
    profile: A2AProfile,
    connection_id: str,
    name: str | None,
    wire: WireRecorder | None,
    handlers: AgentHandlers,
    secrets: ResolvedSecrets,
    credentials: CredentialStore | None = None,
    oauth_opener: OAuthOpener | None = None,
    on_auth_step: Callable[[AuthStep], None] | None = None,
    oauth_client: OAuthClient | None = None,
    dpop: DPoP | None = None,
) -> RemoteAgent:
    from workbench.core.http.httpx_transport import HttpxCredentialGuard
    from workbench.core.protocols.a2a import A2AAgent  # lazy: keeps the SDK out until needed

    agent = A2AAgent(
        profile.url,
        name=name,
        card_url=profile.card_url,
        headers=request_headers(profile.headers, secrets) or None,
        query_params=secrets.query or None,
        bearer_token=secrets.bearer_token,
        binding=profile.binding,
        protocol_version=profile.protocol_version,
        streaming=profile.streaming,
        input_handler=handlers.input,
        wire=wire,
        connection_id=connection_id,
        connect_timeout=profile.connect_timeout,
        request_timeout=profile.request_timeout,
        stream_idle_timeout=profile.stream_idle_timeout,
        # The card's security schemes: values under "<profile id>/a2a:<scheme>:<field>" in the store.
        credentials=credentials,
        credential_id=profile.id,
        oauth_opener=oauth_opener,
        on_auth_step=on_auth_step,  # the card's OAuth logins, step by step (the Login view shows them)
        oauth_client=oauth_client,  # the profile's client for the card's OAuth schemes (None: each scheme's own)
        dpop=dpop,
        # Credentials go only to the origins the user configured or approved (not where the card points).
        http_transport=HttpxCredentialGuard(credential_boundary(profile, secrets, wire, handlers.origin_approval)),
        limits=profile.http_limits(),
    )
    return agent


def credential_boundary(
    profile: A2AProfile | MCPHTTPProfile | MCPSSEProfile,
    secrets: ResolvedSecrets,
    wire: WireRecorder | None,
    approver: OriginApprover | None = None,
) -> CredentialBoundary:
    """The origins ``profile``'s credentials may go to, and the values that count as credentials.

    The values are ``credential_values``: the profile's secrets and its plain headers' values.
    """
    from workbench.core.http.origins import CredentialBoundary

    return CredentialBoundary(
        profile.credential_origins(),
        credential_values(profile, secrets),
        allow_insecure=profile.allow_insecure_credentials,
        redactor=wire.redactor if wire is not None else None,
        approver=approver,
        profile_id=profile.id,
        profile_name=profile.name,
    )


class DefaultAgentFactory:
    """The ``AgentFactory`` the app uses: ``build_agent`` with fixed handlers and secret lookup.

    Args:
        handlers: Elicitation, sampling and input handlers (from the UI or CLI).
        resolve_secret: Looks up secret references (the credential store).
        credentials: The credential store, for profiles that log in with OAuth.
        oauth_opener: Opens the authorization URL when a login is needed (``None``: never; the
            connection then fails with ``AuthRequiredError`` and the user logs in explicitly).
        on_auth_step: Receives each OAuth ``AuthStep`` (also published on the connection's bus).
    """

    def __init__(
        self,
        *,
        handlers: AgentHandlers | None = None,
        resolve_secret: SecretResolver | None = None,
        credentials: CredentialStore | None = None,
        oauth_opener: OAuthOpener | None = None,
        on_auth_step: Callable[[AuthStep], None] | None = None,
    ) -> None:
        self._handlers = handlers or AgentHandlers()
        self._resolve_secret = resolve_secret
        self._credentials = credentials
        self._oauth_opener = oauth_opener
        self._on_auth_step = on_auth_step

    async def __call__(
        self,
        profile: ConnectionProfile,
        *,
        connection_id: str,
        wire: WireRecorder | None,
        bus: EventBus | None,
    ) -> RemoteAgent:
        """Build the agent for ``profile``."""
        return await build_agent(
            profile,
            connection_id=connection_id,
            wire=wire,
            bus=bus,
            handlers=self._handlers,
            resolve_secret=self._resolve_secret,
            credentials=self._credentials,
            oauth_opener=self._oauth_opener,
            on_auth_step=self._on_auth_step,
        )
