"""State and async commands of the MCP inspector: the shown connection, its catalog, and server requests.

The view-model follows the shown connection's state and list changes (through ``ctx.bridge``), runs
every request with ``asyncutil.spawn`` and turns a ``WorkbenchError`` into two things: a report to
``ctx.errors`` and a ``failed(area, ErrorView)`` signal the sub-panel shows inline. Tool calls live in
``calls.ToolCallViewModel`` (``self.calls``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import ConnectionLostError, WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged, ListChanged, ResourceUpdated
from workbench.core.models import ToolSpec
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.catalog import PromptSpec, ResourceSpec, ResourceTemplateSpec
from workbench.core.protocols.contract import RemoteAgent, ServerFeatures
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.mcp.calls import ToolCallViewModel

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP log levels (RFC 5424 severities), most verbose first."""

Area = Literal["server", "tools", "call", "resources", "prompts"]
"""Which sub-panel an inline error belongs to."""

CompletionKey = tuple[str, str, str]
"""``(ref_type, ref, argument)``: what a completion answer is for."""


class MCPInspectorViewModel(QObject):
    """The MCP connection on show and everything the inspector asks its server.

    Signals:
        shown(str | None): Another connection (or state) is on show; re-read every property.
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
        self._subscribed: dict[str, set[str]] = {}
        self._auto_reread: dict[str, set[str]] = {}
        self._updated: dict[str, set[str]] = {}
        self._completion_tasks: dict[CompletionKey, asyncio.Task[None]] = {}
        self.calls = ToolCallViewModel(self)
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        ctx.bridge.list_changed.connect(self.on_bridge_list_changed)
        ctx.bridge.resource_updated.connect(self.on_bridge_resource_updated)

    # ------------------------------------------------------------------ what is shown

    @property
    def connection_id(self) -> str | None:
        """The connection the inspector was asked to show."""
        return self._cid

    @property
    def agent(self) -> RemoteAgent | None:
        """The shown connection's agent while it is a connected MCP server, else ``None``."""
        if self._cid is None:
            return None
        conn = self.ctx.services.connections.get(self._cid)
        if conn is None or conn.state is not ConnectionState.CONNECTED or conn.agent is None:
            return None
        return conn.agent if conn.agent.server_features is not None else None

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
        """Handshake era: when the server offers logging; 2026 era: always (a per-request opt-in)."""
        caps = self.capabilities
        return caps is not None and (caps.supports_logging or caps.era != "legacy")

    def show_connection(self, connection_id: str | None) -> None:
        """Show ``connection_id`` (``None``: nothing); emits ``shown``."""
        self._cid = connection_id
        self.shown.emit(connection_id)

    # ------------------------------------------------------------------ bridge events

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """Re-show when the shown connection connects, fails or closes (a new session has no subscriptions)."""
        if event.new is not ConnectionState.CONNECTED:
            self._subscribed.pop(event.connection_id, None)
        if event.connection_id == self._cid:
            self.shown.emit(self._cid)

    def on_bridge_list_changed(self, event: ListChanged) -> None:
        """The agent has already re-listed; tell the sub-panels to re-read."""
        if event.connection_id == self._cid:
            self.catalog_changed.emit(event.what)

    def on_bridge_resource_updated(self, event: ResourceUpdated) -> None:
        """Mark the URI as updated and re-read it when the user asked for automatic re-reads."""
        self._updated.setdefault(event.connection_id, set()).add(event.uri)
        if event.connection_id != self._cid:
            return
        self.resource_updated.emit(event.uri)
        if event.uri in self._auto_reread.get(event.connection_id, set()):
            self.read_resource(event.uri)

    # ------------------------------------------------------------------ errors

    def report(self, area: Area, error: WorkbenchError, doing: str) -> ErrorView:
        """Send ``error`` to the window's presenter and show it inline in ``area``."""
        if isinstance(error, ConnectionLostError) and self._cid is not None:
            conn = self.ctx.services.connections.get(self._cid)
            if conn is not None:
                conn.report_lost(error)
        view = self.ctx.errors.report(error, doing)
        self.failed.emit(area, view)
        return view

    def _start(self, coro: Coroutine[Any, Any, None], doing: str) -> asyncio.Task[None] | None:
        if self.agent is None:
            coro.close()
            return None
        return spawn(coro, doing=doing)

    # ------------------------------------------------------------------ server

    def ping(self) -> None:
        """Ping the server; ``ping_finished(ms)`` or ``failed("server", …)``."""
        self._start(self._ping(), "pinging the server")

    async def _ping(self) -> None:
        server = self.server
        assert server is not None
        try:
            ms = await server.ping()
        except WorkbenchError as exc:
            self.report("server", exc, "pinging the server")
            return
        self.ping_finished.emit(ms)

    def set_log_level(self, level: str) -> None:
        """Ask the server to send log messages at ``level`` and above."""
        self._start(self._set_log_level(level), f"setting the log level to {level}")

    async def _set_log_level(self, level: str) -> None:
        server = self.server
        assert server is not None
        try:
            await server.set_logging_level(level)
        except WorkbenchError as exc:
            self.report("server", exc, f"setting the log level to {level}")
            return
        self.log_level_set.emit(level)

    # ------------------------------------------------------------------ resources

    def read_resource(self, uri: str, purpose: str = "resources") -> None:
        """Read ``uri``; ``resource_read(purpose, uri, contents)`` or ``resource_read_failed``.

        ``purpose`` says who asked (``resources``, ``template``, ``link``) so each shows its own answer.
        """
        self._updated.get(self._cid or "", set()).discard(uri)
        self._start(self._read(uri, purpose), f"reading {uri}")

    async def _read(self, uri: str, purpose: str) -> None:
        server = self.server
        assert server is not None
        try:
            contents = await server.read_resource(uri)
        except WorkbenchError as exc:
            view = self.report("call" if purpose == "link" else "resources", exc, f"reading {uri}")
            self.resource_read_failed.emit(purpose, uri, view)
            return
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
        return uri in self._subscribed.get(self._cid or "", set())

    def is_updated(self, uri: str) -> bool:
        """Whether ``uri`` changed since it was last read."""
        return uri in self._updated.get(self._cid or "", set())

    def set_subscribed(self, uri: str, subscribed: bool) -> None:
        """Subscribe to (or unsubscribe from) updates of ``uri``."""
        doing = f"{'subscribing to' if subscribed else 'unsubscribing from'} {uri}"
        self._start(self._set_subscribed(uri, subscribed, doing), doing)

    async def _set_subscribed(self, uri: str, subscribed: bool, doing: str) -> None:
        server, cid = self.server, self._cid
        assert server is not None and cid is not None
        try:
            if subscribed:
                await server.subscribe_resource(uri)
            else:
                await server.unsubscribe_resource(uri)
        except WorkbenchError as exc:
            self.report("resources", exc, doing)
            self.subscription_changed.emit(uri, self.is_subscribed(uri))
            return
        uris = self._subscribed.setdefault(cid, set())
        if subscribed:
            uris.add(uri)
        else:
            uris.discard(uri)
        self.subscription_changed.emit(uri, subscribed)

    def auto_reread(self, uri: str) -> bool:
        """Whether ``uri`` is re-read as soon as the server says it changed."""
        return uri in self._auto_reread.get(self._cid or "", set())

    def set_auto_reread(self, uri: str, enabled: bool) -> None:
        """Re-read ``uri`` automatically on updates (or only when the user clicks Read)."""
        if self._cid is None:
            return
        uris = self._auto_reread.setdefault(self._cid, set())
        if enabled:
            uris.add(uri)
        else:
            uris.discard(uri)

    # ------------------------------------------------------------------ prompts and completions

    def get_prompt(self, name: str, arguments: dict[str, str]) -> None:
        """Render prompt ``name``; ``prompt_received(name, result)`` or ``failed("prompts", …)``."""
        self._start(self._get_prompt(name, arguments), f"getting prompt {name}")

    async def _get_prompt(self, name: str, arguments: dict[str, str]) -> None:
        server = self.server
        assert server is not None
        try:
            result = await server.get_prompt(name, arguments)
        except WorkbenchError as exc:
            self.report("prompts", exc, f"getting prompt {name}")
            return
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

        Answers arrive as ``completions_ready((ref_type, ref, argument), values)``.
        """
        if not self.supports_completions:
            return
        key: CompletionKey = (ref_type, ref, argument)
        previous = self._completion_tasks.pop(key, None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = self._start(self._complete(key, value, dict(context or {})), f"completing {argument}")
        if task is not None:
            self._completion_tasks[key] = task

    async def _complete(self, key: CompletionKey, value: str, context: dict[str, str]) -> None:
        server = self.server
        assert server is not None
        ref_type, ref, argument = key
        area: Area = "prompts" if ref_type == "prompt" else "resources"
        try:
            result = await server.complete(ref_type, ref, argument, value, context)  # type: ignore[arg-type]
        except WorkbenchError as exc:
            self.report(area, exc, f"completing {argument}")
            return
        finally:
            if self._completion_tasks.get(key) is asyncio.current_task():
                del self._completion_tasks[key]
        self.completions_ready.emit(key, list(result.values))
