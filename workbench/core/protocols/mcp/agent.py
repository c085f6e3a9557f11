"""``MCPAgent``: an MCP server (stdio, Streamable HTTP or legacy SSE) behind the ``RemoteAgent`` contract.

A thin façade over parts with one job each; three of them are public, reached by a property::

    MCPAgent
    ├── config      _config.MCPConfig            what it was given: one frozen value, checked once
    ├── server_features  _features.MCPServerFeatures  resources, prompts, completions, logging, roots, ping
    │   └── skills       skills.MCPSkills             the skills extension: entries listed, SKILL.md verified
    ├── tasks       task_facet.MCPTaskOperations MCP tasks (2026 extension or SEP-1686): requests, neutral view
    ├── _config.LiveSettings         what changes: display name, roots offered, log level asked
    ├── _session.SessionOwner        the owner task that enters and leaves the SDK Client; loss
    ├── _funnel.RequestFunnel        every request goes out here; failures come back typed
    ├── _catalog_sync.CatalogSync    discovery on connect; one re-list per burst of list_changed
    ├── _notifications.Notifications the server's requests, logs and notifications → events
    │   └── client_tasks.ClientTaskHost  its task-augmented sampling/elicitation run as client tasks (2025-11-25)
    └── _calls.ToolCalls             tool calls, streamed progress, task-augmented when required

Names the agent had before its facets (``agent.read_resource``, ``agent.transport`` …) still answer
for one release, with a ``DeprecationWarning`` (``_deprecated.MOVED``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, Mapping
from typing import TYPE_CHECKING, Any, Literal

import httpx2

from workbench.core.errors import UsageError
from workbench.core.events import EventBus
from workbench.core.http.limits import HTTPLimits
from workbench.core.profiles.client_capabilities import ALL_ON, ClientCapabilitySwitches
from workbench.core.protocols.agent_base import AgentBase, ToolRegistry, run_sync
from workbench.core.protocols.base import (
    AgentCapabilities,
    AgentEvent,
    ElicitationHandler,
    SamplingHandler,
    ToolResult,
)
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures, LossHandler, ProgressCallback, Prompt
from workbench.core.protocols.deprecated import moved_attribute
from workbench.core.protocols.mcp._calls import ToolCalls
from workbench.core.protocols.mcp._catalog_sync import CatalogSync
from workbench.core.protocols.mcp._config import MODES, LiveSettings, MCPConfig, Mode, Transport
from workbench.core.protocols.mcp._deprecated import MOVED
from workbench.core.protocols.mcp._features import MCPServerFeatures
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp._notifications import Notifications
from workbench.core.protocols.mcp._session import SessionOwner
from workbench.core.protocols.mcp.apps_ext import apps_extension
from workbench.core.protocols.mcp.stdio import StdioProcessInfo
from workbench.core.protocols.mcp.task_facet import MCPTaskOperations
from workbench.core.protocols.snapshot import AgentSnapshot
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:
    from mcp.client import ClientExtension

    from workbench.core.auth_steps import StepCallback
    from workbench.core.credentials import CredentialStore
    from workbench.core.http.browser import BrowserOpener
    from workbench.core.oauth_options import OAuth

__all__ = ["MODES", "MCPAgent", "MCPConfig", "MCPServerFeatures", "MCPTaskOperations", "Mode", "Transport"]


class MCPAgent(AgentBase):
    """An MCP server used as an agent and as a tool provider.

    What it was given is ``agent.config`` (an ``MCPConfig``); resources, prompts, completions,
    logging, roots and ping are ``agent.server_features``; MCP tasks are ``agent.tasks``.

    Args:
        target: Streamable HTTP or SSE URL (``transport`` says which); ``None`` for stdio.
        transport: ``streamable-http`` (default), ``sse`` (legacy HTTP+SSE) or ``stdio``.
        command: stdio: the executable.
        args: stdio: its arguments.
        env: stdio: extra environment for the child only (merged over a minimal safe set).
        cwd: stdio: working directory.
        name: Display name (defaults to the server's name once known, else the target).
        mode: Protocol era: ``auto`` (probe, fall back to the handshake), ``legacy``
            (handshake era, 2025-11-25) or ``2026-07-28``.
        headers: HTTP headers for every request (secret values are registered for redaction).
        agent_tool: Name of the tool that makes this server an agent (``agent("…")`` calls it).
        roots: Roots offered to the server, as ``(uri, name)`` pairs. ``None`` (the default): the
            client does not declare the roots capability (a server cannot ask); ``[]`` declares it
            with no roots yet, so ``set_roots`` can offer some later.
        elicitation_handler: Answers elicitations; without one they are declined.
        sampling_handler: Answers sampling requests; without one they are refused.
        wire: Wire recorder (one is created if omitted).
        connection_id: Id used in wire records and events.
        bus: Core event bus for stderr lines, process exits and list changes.
        connect_timeout: Seconds allowed for spawn/handshake/discovery.
        request_timeout: Seconds per request (``None``: no limit; users answering forms take time).
        log_level: Server log level requested on connect (``None`` leaves the server's default).
        auth: HTTP only: an ``httpx2.Auth`` for every request, e.g. the OAuth provider from
            ``workbench.core.protocols.mcp.oauth``.
        server: ``in-process`` only: an MCP SDK ``Server`` / ``MCPServer`` object, reached over
            in-memory JSON-RPC streams (wire-tapped like stdio) — a seam for tests and embedding.
        sdk_transport: ``in-process`` only, instead of ``server``: any MCP SDK ``Transport``
            (an async context manager yielding the read and write streams); it is wire-tapped.
        http_transport: HTTP only: the ``httpx2`` transport under the wire tap that really talks
            HTTP (default: a plain one) — e.g. ``Httpx2CredentialGuard``, which keeps the profile's
            credentials to the origins the user configured, or a test's in-process app.
        limits: HTTP only: response size limits (default ``HTTPLimits()``: 64 MiB per message or
            event, 128 MiB per request's event stream); a refusal is a ``ProtocolError`` naming it.
        oauth: HTTP only: log in with OAuth 2.1 as ``OAuth(...)`` says (client identity, grant,
            scopes) when the server asks (401); tokens are reused and refreshed from ``credentials``.
            The OAuth requests go through the same credential guard and https checks as
            ``workbench login``; each step is an ``AuthStep`` naming its wire records. Not with ``auth``.
        credentials: Where OAuth tokens and registrations live (default: the OS keyring,
            ``KeyringCredentialStore()``; ``MemoryCredentialStore()`` for tests and scripts).
        open_browser: Shows the authorization URL to a person (``system_browser_opener``) or follows
            it (``follow_redirects_opener``); ``None``: a login that is needed raises
            ``AuthRequiredError`` (``details["oauth"] == "login-required"``) and stored tokens are used only.
        on_auth_step: Receives each OAuth ``AuthStep`` as it finishes (also published on ``bus``).
        client_capabilities: Which client capabilities may be advertised (default: all); one that is
            off is left out of the handshake and the server's requests for it are refused.
        renders_apps: The caller shows MCP Apps: the client advertises ``io.modelcontextprotocol/ui``
            (unless ``client_capabilities.apps`` is off).
    """

    protocol: Literal["mcp"] = "mcp"

    def __init__(
        self,
        target: str | None = None,
        *,
        transport: Transport = "streamable-http",
        command: str | None = None,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        name: str | None = None,
        mode: str = "auto",
        headers: dict[str, str] | None = None,
        agent_tool: str | None = None,
        roots: list[tuple[str, str | None]] | None = None,
        elicitation_handler: ElicitationHandler | None = None,
        sampling_handler: SamplingHandler | None = None,
        wire: WireRecorder | None = None,
        connection_id: str | None = None,
        bus: EventBus | None = None,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        request_timeout: float | None = None,
        log_level: str | None = "info",
        auth: httpx2.Auth | None = None,
        server: Any = None,
        sdk_transport: Any = None,
        http_transport: httpx2.AsyncBaseTransport | None = None,
        limits: HTTPLimits | None = None,
        oauth: OAuth | None = None,
        credentials: CredentialStore | None = None,
        open_browser: BrowserOpener | None = None,
        on_auth_step: StepCallback | None = None,
        client_capabilities: ClientCapabilitySwitches | None = None,
        renders_apps: bool = False,
    ) -> None:
        wire = wire if wire is not None else WireRecorder()
        connection_id = connection_id or f"mcp-{uuid.uuid4().hex[:8]}"
        if oauth is not None:
            # Imported here: the OAuth layer (the SDK's auth models) costs ~0.25 s to import.
            from workbench.core.protocols.mcp.oauth import oauth_http

            auth, http_transport = oauth_http(
                target,
                transport,
                oauth,
                given_auth=auth,
                given_transport=http_transport,
                headers=headers,
                wire=wire,
                connection_id=connection_id,
                bus=bus,
                credentials=credentials,
                open_browser=open_browser,
                on_auth_step=on_auth_step,
            )
        self._config = config = MCPConfig(
            transport=transport,
            wire=wire,
            connection_id=connection_id,
            url=target,
            command=command,
            args=tuple(args or ()),
            env=dict(env or {}),
            cwd=cwd,
            mode=mode,
            headers=dict(headers or {}),
            agent_tool=agent_tool,
            roots=tuple(roots) if roots is not None else None,
            elicitation_handler=elicitation_handler,
            sampling_handler=sampling_handler,
            bus=bus,
            connect_timeout=connect_timeout,
            request_timeout=request_timeout,
            log_level=log_level,
            auth=auth,
            server=server,
            sdk_transport=sdk_transport,
            http_transport=http_transport,
            limits=limits if limits is not None else HTTPLimits(),
            name=name,
            client_capabilities=client_capabilities if client_capabilities is not None else ALL_ON,
            renders_apps=renders_apps,
        )
        self.connection_id = config.connection_id
        self._live = live = LiveSettings.starting_from(config)
        subscriptions: set[str] = set()
        self._sync = CatalogSync(config, live)
        notes = Notifications(
            config, live, on_list_changed=self._sync.changed, on_fault=lambda exc: self._session.note_fault(exc)
        )
        self._session = session = SessionOwner(
            config,
            live,
            client_kwargs=lambda: {**notes.client_kwargs(), "extensions": self._extensions()},
            shape_capabilities=notes.shape_capabilities,
            client_tasks=notes.client_task_host,
            negotiate=self._sync.negotiate,
            discover=self._sync.discover,
            keep_fresh=self._sync.keep_fresh,
            subscriptions=lambda: sorted(subscriptions),
            on_closed=notes.finish_calls,
        )
        funnel = RequestFunnel(session, self)
        self._server_features = MCPServerFeatures(funnel, session, self._sync, notes, subscriptions, self._discovered)
        self._tasks = MCPTaskOperations(funnel, self._sync)
        self._calls = ToolCalls(funnel, self._sync, notes, self._tasks)

    def _extensions(self) -> list[ClientExtension]:
        """The extensions a new session advertises: Tasks and Apps, as the switches and the host allow."""
        extensions: list[ClientExtension] = []
        if self._config.client_capabilities.tasks:
            extensions.append(self._tasks.extension())
        if self._config.advertises_apps:
            extensions.append(apps_extension())
        return extensions

    # ------------------------------------------------------------------ construction helpers

    @classmethod
    def stdio(cls, command: str, args: list[str] | None = None, **kwargs: Any) -> MCPAgent:
        """An MCP server started as a child process speaking over stdin/stdout."""
        return cls(None, transport="stdio", command=command, args=args, **kwargs)

    @classmethod
    def in_process(cls, server: Any, **kwargs: Any) -> MCPAgent:
        """An MCP SDK server object in this process, over in-memory JSON-RPC streams (wire-tapped)."""
        return cls(None, transport="in-process", server=server, **kwargs)

    @classmethod
    def sse(cls, url: str, **kwargs: Any) -> MCPAgent:
        """An MCP server over the legacy HTTP+SSE transport."""
        return cls(url, transport="sse", **kwargs)

    @property
    def config(self) -> MCPConfig:
        """What this agent was given, checked once: one frozen value."""
        return self._config

    @property
    def name(self) -> str:
        """Display name: the one given, else the server's once known, else the target."""
        return self._live.name

    @name.setter
    def name(self, value: str) -> None:
        self._live.name = value

    if not TYPE_CHECKING:  # the old names answer at run time; type checkers see only the current ones

        def __getattr__(self, name: str) -> Any:
            return moved_attribute(self, name, MOVED)

    # ------------------------------------------------------------------ lifecycle

    @property
    def connected(self) -> bool:
        """Whether a session is open and the peer has not gone away."""
        return self._session.connected

    async def __aenter__(self) -> MCPAgent:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def connect(self) -> None:
        """Open the session and discover everything; idempotent.

        Raises:
            ConnectError: (or a subclass) the server could not be started, reached or handshaken with
                (also: ``mode="2026-07-28"`` and the server refuses ``server/discover``).
            RequestTimeoutError: the handshake took longer than ``connect_timeout``.
        """
        await self._session.connect(self)

    async def aclose(self) -> None:
        """Close the session (the stdio child is stopped and reaped); safe to call twice."""
        await self._session.aclose()

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        """Be told once, with a ``ConnectionLostError``, when the server goes away (exit, session ended)."""
        self._session.set_loss_handler(handler)

    @property
    def stdio_process(self) -> StdioProcessInfo | None:
        """pid, exit code and stderr tail of the stdio child (``None`` for HTTP)."""
        stdio = self._session.stdio
        return stdio.info if stdio is not None else None

    # ------------------------------------------------------------------ what the server offers

    def _discovered(self) -> AgentCapabilities:
        caps = self._sync.capabilities
        if caps is not None:
            return caps
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            run_sync(self.connect())
            caps = self._sync.capabilities
            assert caps is not None
            return caps
        raise UsageError(
            f"{self.name!r} is not connected yet.", hint="'await agent.connect()' (or 'async with agent:') first"
        )

    @property
    def capabilities(self) -> AgentCapabilities:
        """The server's capabilities (connects first when used synchronously)."""
        return self._discovered()

    @property
    def tools(self) -> ToolRegistry:
        """The server's tools by name; ``agent.tools["x"](a=1)`` calls one synchronously."""
        self._discovered()
        return ToolRegistry(self, self._sync.catalog.tools)

    @property
    def features(self) -> AgentFeatures:
        """Tools with full results and server features; chat when a tool is the agent entry point."""
        caps = self._sync.capabilities
        chat = caps is not None and self._sync.catalog.entry_point(self._config.agent_tool) is not None
        tasks = caps is not None and caps.supports_tasks and self._config.client_capabilities.tasks
        return AgentFeatures(chat=chat, tasks=tasks, server_features=True, tool_results=True)

    @property
    def server_features(self) -> MCPServerFeatures:
        """Resources, prompts, completions, logging (and its log messages), roots, ping, re-listing tools."""
        return self._server_features

    @property
    def tasks(self) -> MCPTaskOperations:
        """MCP tasks (2026 Tasks extension or SEP-1686): the requests and the ``TaskOperations`` view.

        ``features.tasks`` says if offered; ``await agent.tasks.shape()`` which shape the server negotiated.

        ``start``, ``run``, ``get``, ``result``, ``list_all`` and ``cancel`` speak MCP tasks;
        ``known_tasks``, ``list_tasks``, ``get_task``, ``cancel_task`` and ``follow`` are the contract's.
        """
        return self._tasks

    def tool_specs(self) -> list[ToolSpec]:
        """The server's tools, in the order it listed them."""
        return self.tools.specs()

    def describe(self) -> AgentSnapshot:
        """Everything discovered, as a snapshot (``to_dict()`` is what ``workbench inspect --json`` prints)."""
        return self._sync.snapshot(self._discovered())

    # ------------------------------------------------------------------ tools and the agent face

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        meta: dict[str, Any] | None = None,
    ) -> ToolResult:
        """Call a tool and return its full result (content, structured content, is_error, schema problems).

        A tool that requires task execution (``execution.taskSupport: "required"``) is run as a task
        and its result awaited. Cancelling the awaiting task cancels the call on the server.

        Raises:
            RemoteError: The server answered with a JSON-RPC error (a tool failure is ``is_error``).
            RequestTimeoutError: No answer within ``timeout`` (the call is cancelled on the server).
            ConnectionLostError: The server went away.
        """
        return await self._calls.call(name, arguments, timeout=timeout, on_progress=on_progress, meta=meta)

    def call_tool_stream(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Call a tool, yielding progress, logs, elicitation/sampling requests, then ``Completed``.

        A tool that requires task execution is run as a task: its status changes come as
        ``StatusChanged`` events. Closing the iterator early (or cancelling its consumer) cancels the
        call on the server.
        """
        return self._calls.stream(name, dict(arguments or {}), timeout=timeout)

    def stream_async(
        self,
        prompt: Prompt = None,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        data: Any = None,
        new_conversation: bool = False,
        cancel_on_exit: bool = False,
        arguments: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Ask the server as an agent, through its agent entry point tool.

        Args:
            prompt: The text for the entry point's string argument.
            task_id: Not used (MCP has no tasks to continue).
            context_id: Not used (MCP has no conversations).
            data: A JSON object merged into the tool's arguments.
            new_conversation: Not used (every call stands alone).
            cancel_on_exit: Not used (closing the stream always cancels the call on the server).
            arguments: More arguments for the entry point tool.
            timeout: Seconds for the call (``None``: the agent's request timeout).

        Raises:
            UnsupportedCapabilityError: The server has no agent entry point (use ``.tools[...]``).
        """
        extra = dict(arguments or {})
        if isinstance(data, Mapping):
            extra.update(data)
        text = prompt if isinstance(prompt, str) else (None if prompt is None else str(prompt))
        return self._calls.stream_as_agent(text, extra, timeout)

    def new_conversation(self) -> None:
        """MCP has no conversations: every call stands alone."""

    async def cancel(self, task_id: str) -> None:
        """Cancel an MCP task (SEP-1686) the server runs.

        Raises:
            UnsupportedCapabilityError: The server does not run tasks.
        """
        await self._tasks.cancel(task_id)
