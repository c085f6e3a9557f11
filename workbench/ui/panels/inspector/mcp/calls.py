"""Tool calls from the inspector: each connection's running call (progress, elapsed time, cancel) and history."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Literal, Protocol

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import ProtocolError, RemoteError, WorkbenchError
from workbench.core.protocols.base import Completed, Failed, LogMessage, ProgressReported
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.safe_text import json_line, neutralise_line
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord, MCPConnectionViewModel

MAX_CALL_LOG_LINES = 500
"""Log messages kept per call (the wire log keeps every one)."""
MAX_LOG_LINE = 2000
"""Characters kept of one log message."""


class CallHost(Protocol):
    """What tool calls need of the inspector they run for (``viewmodel.MCPInspectorViewModel``)."""

    @property
    def connection_id(self) -> str | None:
        """The connection on show."""

    @property
    def state(self) -> MCPConnectionViewModel | None:
        """The connection on show's own view model."""

    def state_of(self, connection_id: str) -> MCPConnectionViewModel:
        """A connection's own view model."""

    @property
    def ctx(self) -> PanelContext:
        """The window's context (its connections and the tool-call gate)."""

    @property
    def agent(self) -> RemoteAgent | None:
        """The connection on show's agent while it is connected."""

    def tool(self, name: str) -> ToolSpec | None:
        """One tool of the connection on show, by name."""

    def report(
        self, area: Literal["call"], error: WorkbenchError, doing: str, *, connection_id: str | None = None
    ) -> ErrorView:
        """Show ``error`` where the user looks and return how it was put."""


CANCELLED_STATES = frozenset({"cancelled", "canceled"})
"""A task's state once it was cancelled (MCP spells it ``cancelled``, an agent result ``canceled``)."""


def ended_as_cancelled(error: WorkbenchError) -> bool:
    """Whether ``error`` says the call's task was cancelled (from the Tasks tab, or by the server), not that it failed.

    A tool call the server runs as a task ends, once its task is cancelled, with the peer's error whose
    data carries the task's final ``status``; that call reads as cancelled, as one cancelled with the
    page's own Cancel does, and is no error to report.
    """
    data = error.remote_data if isinstance(error, RemoteError) else None
    return isinstance(data, dict) and data.get("status") in CANCELLED_STATES


def log_line(event: LogMessage) -> str:
    """One log notification as one plain line: ``info · demo.tools: booked for 2`` (peer text neutralised)."""
    data = event.data if isinstance(event.data, str) else json_line(event.data, default=str)
    text = neutralise_line(data)
    if len(text) > MAX_LOG_LINE:
        text = text[:MAX_LOG_LINE] + "…"
    where = f" · {neutralise_line(event.logger)}" if event.logger else ""
    return f"{neutralise_line(event.level)}{where}: {text}"


class ToolCallViewModel(QObject):
    """Runs tool calls for the inspector: one at a time per connection, each kept in its connection's history.

    What a connection's calls leave behind (the call under way, the history, the result on show) lives in
    that connection's ``MCPConnectionViewModel`` (per_connection.py); this object only runs them and says
    what happened. ``running``, ``current``, ``elapsed_ms``, ``call`` and ``cancel`` are about the
    connection on show.

    Signals:
        started(CallRecord): A call went out.
        progressed(float, object, str): progress, total (``None`` if unknown), message ("" if none) of the
            shown connection's call (every call's last progress is also in ``record.progress``).
        logged(CallRecord, str): The server sent a log message during the call (the line was added to
            ``record.logs``).
        finished(CallRecord): The call ended (result, failure or cancellation: see ``outcome``).
    """

    started = Signal(object)
    progressed = Signal(float, object, str)
    logged = Signal(object, str)
    finished = Signal(object)

    def __init__(self, inspector: CallHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._inspector = inspector

    @property
    def running(self) -> bool:
        """Whether a call is under way on the shown connection."""
        state = self._inspector.state
        return state is not None and state.calling

    @property
    def current(self) -> CallRecord | None:
        """The shown connection's call under way (or its last one)."""
        state = self._inspector.state
        return state.last_call if state is not None else None

    def elapsed_ms(self) -> float:
        """Milliseconds since the shown connection's running call started (its duration once done)."""
        state = self._inspector.state
        record = state.last_call if state is not None else None
        if state is None or record is None:
            return 0.0
        if record.duration_ms is not None:
            return record.duration_ms
        return (time.monotonic() - state.call_started) * 1000

    def history(self, tool: str, connection_id: str | None = None) -> list[CallRecord]:
        """The last results of ``tool`` on the shown (or given) connection, newest first."""
        cid = connection_id or self._inspector.connection_id
        state = self._inspector.state_of(cid) if cid is not None else None
        return state.calls_of(tool) if state is not None else []

    def call(self, tool: str, arguments: dict[str, Any]) -> bool:
        """Call ``tool`` on the shown server; ``False`` if that connection has a call under way or nothing is shown."""
        agent, state = self._inspector.agent, self._inspector.state
        if agent is None or state is None or state.calling:
            return False
        spec = self._inspector.tool(tool)
        record = CallRecord(
            state.connection_id,
            tool,
            dict(arguments),
            has_output_schema=spec is not None and spec.output_schema is not None,
        )
        state.add_call(record)
        state.call_started = time.monotonic()
        state.calling = True
        state.call_task = spawn(self._call(agent, record, state, spec), doing=f"calling tool {tool}")
        state.call_task.add_done_callback(lambda _task: self._end_unstarted(record, state))
        self.started.emit(record)
        return True

    def _end_unstarted(self, record: CallRecord, state: MCPConnectionViewModel) -> None:
        """End a call cancelled before its task ran (its ``finally`` never did): cancelled, like one that ran."""
        if record.duration_ms is None:
            record.cancelled = True
            record.duration_ms = (time.monotonic() - state.call_started) * 1000
            state.calling = False
            self.finished.emit(record)

    def cancel(self) -> None:
        """Cancel the shown connection's call (the agent sends the protocol's cancel to the server)."""
        state = self._inspector.state
        if state is not None and state.call_task is not None and not state.call_task.done():
            state.call_task.cancel()

    async def _call(self, agent: Any, record: CallRecord, state: MCPConnectionViewModel, spec: ToolSpec | None) -> None:
        # The call's stream (not call_tool) so that log messages sent during it land beside its result.
        try:
            if spec is not None:  # a destructive tool (or any, per the profile's policy) asks first
                services = self._inspector.ctx.services
                conn = services.connections.get(record.connection_id)
                profile = conn.profile if conn is not None else None
                await services.tool_calls.check_for(profile, spec, record.arguments, caller="you")
            async with contextlib.aclosing(agent.call_tool_stream(record.tool, record.arguments)) as events:
                async for event in events:
                    if isinstance(event, ProgressReported):
                        record.progress = (float(event.progress), event.total, event.message or "")
                        if record.connection_id == self._inspector.connection_id:
                            self.progressed.emit(*record.progress)
                    elif isinstance(event, LogMessage):
                        if len(record.logs) < MAX_CALL_LOG_LINES:
                            line = log_line(event)
                            record.logs.append(line)
                            self.logged.emit(record, line)
                    elif isinstance(event, Completed):
                        record.result = event.result.tool_result
                        if record.result is None and event.result.state in CANCELLED_STATES:
                            record.cancelled = True  # its task was cancelled: no result, and no failure
                    elif isinstance(event, Failed):
                        error = event.error
                        if not isinstance(error, WorkbenchError):
                            error = ProtocolError(event.message or str(error))
                        raise error
            if record.result is None and not record.cancelled:
                raise ProtocolError(f"The call of {record.tool!r} ended without a result.")
        except WorkbenchError as exc:
            if ended_as_cancelled(exc):
                record.cancelled = True
                return
            record.error = self._inspector.report(
                "call", exc, f"calling tool {record.tool}", connection_id=record.connection_id
            )
        except asyncio.CancelledError:
            record.cancelled = True
            raise
        finally:
            record.duration_ms = (time.monotonic() - state.call_started) * 1000
            state.calling = False
            self.finished.emit(record)
