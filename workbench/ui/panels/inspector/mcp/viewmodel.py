"""State and async commands of the MCP inspector: the shown connection, its catalog, and server requests.

The view-model follows the shown connection's state and list changes (through ``ctx.bridge``), runs
every request with ``asyncutil.spawn`` and turns a ``WorkbenchError`` into two things: a report to
``ctx.errors`` and a ``failed(area, ErrorView)`` signal the sub-panel shows inline. Tool calls live in
``calls.ToolCallViewModel`` (``self.calls``).

State is owned per connection: each connection has its own ``MCPConnectionViewModel`` (``state_of``;
the shown one is ``state``), which holds everything the user picked, typed or got back there. The rule
and how the widgets keep to it are written down in per_connection.py. Every answer from a server is
stored in its own connection's view-model and signalled only while that connection is on show.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import ConnectionLostError, WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged, ListChanged, ResourceUpdated
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.catalog import PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolSpec
from workbench.core.protocols.contract import RemoteAgent, ServerFeatures
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.mcp.calls import ToolCallViewModel
from workbench.ui.panels.inspector.mcp.per_connection import MCPConnectionViewModel, PromptOutcome, ReadOutcome

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP log levels (RFC 5424 severities), most verbose first."""

Area = Literal["server", "tools", "call", "resources", "prompts"]
"""Which sub-panel an inline error belongs to."""

CompletionKey = tuple[str, str, str]
"""``(ref_type, ref, argument)``: what a completion answer is for."""


class MCPInspectorViewModel(QObject):
    """The MCP connection on show and everything the inspector asks its server.

    Signals (all about the connection on show; an answer for another connection is only stored in its
    ``MCPConnectionViewModel``):
        shown(str | None): Another connection (or state) is on show; re-read every property and redraw
            from ``state``.
        catalog_changed(str): The server's ``tools``, ``resources`` or ``prompts`` list changed.
        failed(str, ErrorView): A request failed; the first argument is the ``Area`` to show it in.
        ping_finished(float): Round-trip time in milliseconds.
        log_level_set(str): The server's log level was set.
        resource_read(str, str, ResourceContents): purpose, URI, what was read.
        resource_read_failed(str, str, ErrorView): purpose, URI, why it failed.
        subscription_changed(str, bool): URI, whether it is now subscribed.
        resource_updated(str): The server said a subscribed URI changed.
        prompt_received(str, PromptResult): prompt name, rendered prompt.
        completions_ready(tuple, list): ``CompletionKey``, suggested values.
    """

    shown = Signal(object)
    catalog_changed = Signal(str)
    failed = Signal(str, object)
    ping_finished = Signal(float)
    log_level_set = Signal(str)
    resource_read = Signal(str, str, object)
    resource_read_failed = Signal(str, str, object)
    subscription_changed = Signal(str, bool)
    resource_updated = Signal(str)
    prompt_received = Signal(str, object)
    completions_ready = Signal(object, list)

    def __init__(self, ctx: PanelContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._cid: str | None = None
        self._states: dict[str, MCPConnectionViewModel] = {}
        self._completion_tasks: dict[tuple[str, CompletionKey], asyncio.Task[None]] = {}
        self.calls = ToolCallViewModel(self, parent=self)
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        ctx.bridge.list_changed.connect(self.on_bridge_list_changed)
        ctx.bridge.resource_updated.connect(self.on_bridge_resource_updated)

    # ------------------------------------------------------------------ what is shown

    @property
    def connection_id(self) -> str | None:
        """The connection the inspector was asked to show."""
        return self._cid

    @property
    def state(self) -> MCPConnectionViewModel | None:
        """The shown connection's own view-model (``None`` when nothing is shown): see per_connection.py."""
        return self.state_of(self._cid) if self._cid is not None else None

    def state_of(self, connection_id: str) -> MCPConnectionViewModel:
        """``connection_id``'s own view-model (made empty the first time it is asked for)."""
        state = self._states.get(connection_id)
        if state is None:
            state = self._states[connection_id] = MCPConnectionViewModel(connection_id)
        return state

    def agent_of(self, connection_id: str | None) -> RemoteAgent | None:
        """``connection_id``'s agent while it is a connected MCP server, else ``None``."""
        if connection_id is None:
            return None
        conn = self.ctx.services.connections.get(connection_id)
        if conn is None or conn.state is not ConnectionState.CONNECTED or conn.agent is None:
            return None
        return conn.agent if conn.agent.server_features is not None else None

    @property
    def agent(self) -> RemoteAgent | None:
        """The shown connection's agent while it is a connected MCP server, else ``None``."""
        return self.agent_of(self._cid)

    @property
    def server(self) -> ServerFeatures | None:
        """The shown server's resources, prompts, completions, logging and ping, else ``None``."""
        agent = self.agent
        return agent.server_features if agent is not None else None

    @property
    def status_text(self) -> str:
        """Why nothing can be inspected (empty when an MCP server is on show)."""
        if self._cid is None:
            return "Select an MCP connection to inspect it."
        conn = self.ctx.services.connections.get(self._cid)
        if conn is None:
            return "This connection is not open. Connect it to inspect it."
        if conn.state is ConnectionState.CONNECTED and (conn.agent is None or conn.agent.server_features is None):
            return f"{conn.profile.name} is not an MCP server."
        if conn.state is ConnectionState.CONNECTED:
            return ""
        if conn.state is ConnectionState.CONNECTING:
            return f"Connecting to {conn.profile.name}…"
        if conn.state is ConnectionState.FAILED:
            reason = conn.error.message if conn.error is not None else "unknown reason"
            return f"{conn.profile.name} failed: {reason}"
        return f"{conn.profile.name} is {conn.state.value}. Connect it to inspect it."

    @property
    def capabilities(self) -> AgentCapabilities | None:
        """The shown server's capabilities."""
        agent = self.agent
        return agent.capabilities if agent is not None else None

    def describe(self) -> dict[str, Any] | None:
        """Everything discovered about the shown server, JSON-ready."""
        agent = self.agent
        return agent.describe().to_dict() if agent is not None else None

    def tools(self) -> list[ToolSpec]:
        """The shown server's tools."""
        agent = self.agent
        return agent.tool_specs() if agent is not None else []

    def tool(self, name: str) -> ToolSpec | None:
        """One tool by name."""
        return next((t for t in self.tools() if t.name == name), None)

    def resources(self) -> list[ResourceSpec]:
        """The shown server's resources."""
        server = self.server
        return server.resources if server is not None else []

    def templates(self) -> list[ResourceTemplateSpec]:
        """The shown server's resource templates."""
        server = self.server
        return server.resource_templates if server is not None else []

    def prompts(self) -> list[PromptSpec]:
        """The shown server's prompts."""
        server = self.server
        return server.prompts if server is not None else []

    def prompt(self, name: str) -> PromptSpec | None:
        """One prompt by name."""
        return next((p for p in self.prompts() if p.name == name), None)

    @property
    def log_level(self) -> str | None:
        """The log level the workbench asked the server for."""
        server = self.server
        return server.log_level if server is not None else None

    @property
    def can_ping(self) -> bool:
        """``ping`` exists only in the handshake era (2026-07-28 removed it)."""
        caps = self.capabilities
        return caps is not None and caps.era == "legacy"

    @property
    def can_set_log_level(self) -> bool:
        """Whether the shown server declared the ``logging`` capability (in either era).

        A server that declares no logging sends no log messages to ask a level of: the handshake era has
        no ``logging/setLevel`` then, and in the 2026 era the per-request level would be ignored.
        """
        caps = self.capabilities
        return caps is not None and caps.supports_logging

    def show_connection(self, connection_id: str | None) -> None:
        """Show ``connection_id`` (``None``: nothing); emits ``shown``.

        The view-models of connections the manager no longer knows (removed ones) are dropped here.
        """
        connections = self.ctx.services.connections
        for cid in [cid for cid in self._states if cid != connection_id and connections.get(cid) is None]:
            del self._states[cid]
        self._cid = connection_id
        self.shown.emit(connection_id)

    # ------------------------------------------------------------------ bridge events

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """Re-show when the shown connection connects, fails or closes (a new session has no subscriptions)."""
        if event.new is not ConnectionState.CONNECTED and event.connection_id in self._states:
            self._states[event.connection_id].subscribed.clear()
        if event.connection_id == self._cid:
            self.shown.emit(self._cid)

    def on_bridge_list_changed(self, event: ListChanged) -> None:
        """The agent has already re-listed; tell the sub-panels to re-read."""
        if event.connection_id == self._cid:
            self.catalog_changed.emit(event.what)

    def on_bridge_resource_updated(self, event: ResourceUpdated) -> None:
        """Mark the URI as updated and re-read it when the user asked for automatic re-reads (on any connection)."""
        state = self.state_of(event.connection_id)
        state.updated.add(event.uri)
        if event.connection_id == self._cid:
            self.resource_updated.emit(event.uri)
        if event.uri in state.auto_reread:
            self.read_resource(event.uri, connection_id=event.connection_id)

    # ------------------------------------------------------------------ errors

    def report(self, area: Area, error: WorkbenchError, doing: str, *, connection_id: str | None = None) -> ErrorView:
        """Send ``error`` to the window's presenter and show it inline in ``area`` if its connection is on show.

        Args:
            area: The sub-panel the error belongs to.
            error: What failed.
            doing: What was being done, for the presenter.
            connection_id: The connection the request went to (default: the shown one).
        """
        cid = connection_id or self._cid
        # A ConnectionLostError needs nothing more: the agent's loss handler has failed the connection.
        view = self.ctx.errors.report(error, doing, inline=True)  # the area shows it (now or when shown again)
        if cid == self._cid:
            self.failed.emit(area, view)
        return view

    def _start(self, coro: Coroutine[Any, Any, None], doing: str, cid: str | None = None) -> asyncio.Task[None] | None:
        if self.agent_of(cid or self._cid) is None:
            coro.close()
            return None
        return spawn(coro, doing=doing)

    def _server(self, cid: str) -> ServerFeatures:
        """The server of connection ``cid``.

        Raises:
            ConnectionLostError: It closed since the request was started (a disconnect between the click
                and the task's first step).
        """
        agent = self.agent_of(cid)
        if agent is None or agent.server_features is None:
            raise ConnectionLostError("The connection closed before the request was sent.", details={"connection": cid})
        return agent.server_features

    # ------------------------------------------------------------------ server

    def ping(self) -> None:
        """Ping the server; ``ping_finished(ms)`` or ``failed("server", …)``."""
        if self._cid is not None:
            self._start(self._ping(self._cid), "pinging the server")

    async def _ping(self, cid: str) -> None:
        try:
            ms = await self._server(cid).ping()
        except WorkbenchError as exc:
            self.report("server", exc, "pinging the server", connection_id=cid)
            return
        if cid == self._cid:
            self.ping_finished.emit(ms)

    def set_log_level(self, level: str) -> None:
        """Ask the server to send log messages at ``level`` and above."""
        if self._cid is not None:
            self._start(self._set_log_level(self._cid, level), f"setting the log level to {level}")

    async def _set_log_level(self, cid: str, level: str) -> None:
        try:
            await self._server(cid).set_logging_level(level)
        except WorkbenchError as exc:
            self.report("server", exc, f"setting the log level to {level}", connection_id=cid)
            return
        if cid == self._cid:
            self.log_level_set.emit(level)

    # ------------------------------------------------------------------ resources

    def read_resource(self, uri: str, purpose: str = "resources", *, connection_id: str | None = None) -> None:
        """Read ``uri``; ``resource_read(purpose, uri, contents)`` or ``resource_read_failed``.

        ``purpose`` says who asked (``resources``, ``template``, ``link``) so each shows its own answer.
        The answer is kept in the connection's view-model (``reads[purpose]``, not for links) and
        signalled only while that connection is on show.

        Args:
            uri: What to read.
            purpose: Who asked.
            connection_id: The connection to read from (default: the shown one).
        """
        cid = connection_id or self._cid
        if cid is None:
            return
        self.state_of(cid).updated.discard(uri)
        self._start(self._read(cid, uri, purpose), f"reading {uri}", cid)

    async def _read(self, cid: str, uri: str, purpose: str) -> None:
        state = self.state_of(cid)
        try:
            contents = await self._server(cid).read_resource(uri)
        except WorkbenchError as exc:
            area: Area = "call" if purpose == "link" else "resources"
            # the core's message often names the URI already ("… while reading 'demo://items/4': …"): once is enough
            doing = "reading the resource" if uri in exc.message else f"reading {uri}"
            view = self.report(area, exc, doing, connection_id=cid)
            if purpose != "link":
                state.reads[purpose] = ReadOutcome(uri, error=view)
            if cid == self._cid:
                self.resource_read_failed.emit(purpose, uri, view)
            return
        if purpose != "link":
            state.reads[purpose] = ReadOutcome(uri, contents=contents)
        if cid == self._cid:
            self.resource_read.emit(purpose, uri, contents)

    @staticmethod
    def template_variables(template: str) -> list[str]:
        """The variable names of URI template ``template`` (RFC 6570), in order.

        Raises:
            ProtocolError: The template is malformed or uses a feature the MCP SDK does not expand.
        """
        from workbench.core.protocols.mcp.uri_templates import uri_template_variables  # lazy: the MCP SDK

        return uri_template_variables(template)

    @staticmethod
    def expand_template(template: str, values: dict[str, str]) -> str:
        """The URI ``template`` expands to with ``values`` (an empty value is kept: ``{?x}`` → ``?x=``).

        Raises:
            ProtocolError: The template is malformed or uses a feature the MCP SDK does not expand.
        """
        from workbench.core.protocols.mcp.uri_templates import expand_uri_template  # lazy: the MCP SDK

        return expand_uri_template(template, values)

    def is_subscribed(self, uri: str) -> bool:
        """Whether the shown connection is subscribed to ``uri``."""
        state = self.state
        return state is not None and uri in state.subscribed

    def is_updated(self, uri: str) -> bool:
        """Whether ``uri`` changed since it was last read."""
        state = self.state
        return state is not None and uri in state.updated

    def set_subscribed(self, uri: str, subscribed: bool) -> None:
        """Subscribe to (or unsubscribe from) updates of ``uri``."""
        if self._cid is None:
            return
        doing = f"{'subscribing to' if subscribed else 'unsubscribing from'} {uri}"
        self._start(self._set_subscribed(self._cid, uri, subscribed, doing), doing)

    async def _set_subscribed(self, cid: str, uri: str, subscribed: bool, doing: str) -> None:
        server, state = self._server(cid), self.state_of(cid)
        try:
            if subscribed:
                await server.subscribe_resource(uri)
            else:
                await server.unsubscribe_resource(uri)
        except WorkbenchError as exc:
            self.report("resources", exc, doing, connection_id=cid)
            if cid == self._cid:
                self.subscription_changed.emit(uri, uri in state.subscribed)
            return
        if subscribed:
            state.subscribed.add(uri)
        else:
            state.subscribed.discard(uri)
        if cid == self._cid:
            self.subscription_changed.emit(uri, subscribed)

    def auto_reread(self, uri: str) -> bool:
        """Whether ``uri`` is re-read as soon as the server says it changed."""
        state = self.state
        return state is not None and uri in state.auto_reread

    def set_auto_reread(self, uri: str, enabled: bool) -> None:
        """Re-read ``uri`` automatically on updates (or only when the user clicks Read)."""
        state = self.state
        if state is None:
            return
        if enabled:
            state.auto_reread.add(uri)
        else:
            state.auto_reread.discard(uri)

    # ------------------------------------------------------------------ prompts and completions

    def get_prompt(self, name: str, arguments: dict[str, str]) -> None:
        """Render prompt ``name``; ``prompt_received(name, result)`` or ``failed("prompts", …)``.

        The answer is kept in the connection's view-model (``prompt_outcome``).
        """
        if self._cid is not None:
            self._start(self._get_prompt(self._cid, name, arguments), f"getting prompt {name}")

    async def _get_prompt(self, cid: str, name: str, arguments: dict[str, str]) -> None:
        state = self.state_of(cid)
        try:
            result = await self._server(cid).get_prompt(name, arguments)
        except WorkbenchError as exc:
            view = self.report("prompts", exc, f"getting prompt {name}", connection_id=cid)
            state.prompt_outcome = PromptOutcome(name, error=view)
            return
        state.prompt_outcome = PromptOutcome(name, result=result)
        if cid == self._cid:
            self.prompt_received.emit(name, result)

    @property
    def supports_completions(self) -> bool:
        """Whether the shown server answers ``completion/complete``."""
        caps = self.capabilities
        return caps is not None and caps.supports_completions

    def request_completion(
        self,
        ref_type: Literal["prompt", "resource"],
        ref: str,
        argument: str,
        value: str,
        context: dict[str, str] | None = None,
    ) -> None:
        """Ask for completions of ``argument`` (a newer request for the same argument replaces an older one).

        Answers arrive as ``completions_ready((ref_type, ref, argument), values)`` while the connection
        asked is on show.
        """
        cid = self._cid
        if cid is None or not self.supports_completions:
            return
        key: CompletionKey = (ref_type, ref, argument)
        previous = self._completion_tasks.pop((cid, key), None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = self._start(self._complete(cid, key, value, dict(context or {})), f"completing {argument}")
        if task is not None:
            self._completion_tasks[(cid, key)] = task

    async def _complete(self, cid: str, key: CompletionKey, value: str, context: dict[str, str]) -> None:
        ref_type, ref, argument = key
        area: Area = "prompts" if ref_type == "prompt" else "resources"
        try:
            result = await self._server(cid).complete(ref_type, ref, argument, value, context)  # type: ignore[arg-type]
        except ConnectionLostError:
            return  # suggestions for a form whose connection just closed: nobody waits for them
        except WorkbenchError as exc:
            self.report(area, exc, f"completing {argument}", connection_id=cid)
            return
        finally:
            if self._completion_tasks.get((cid, key)) is asyncio.current_task():
                del self._completion_tasks[(cid, key)]
        if cid == self._cid:
            self.completions_ready.emit(key, list(result.values))
