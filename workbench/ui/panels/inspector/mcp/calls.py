"""Tool calls from the inspector: the running call (progress, elapsed time, cancel) and each tool's history."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import ProtocolError, WorkbenchError
from workbench.core.protocols.base import Completed, Failed, LogMessage, ProgressReported, ToolResult
from workbench.core.safe_text import json_line, neutralise_line
from workbench.core.timefmt import time_of_day
from workbench.ui.asyncutil import spawn
from workbench.ui.errors import ErrorView

if TYPE_CHECKING:
    from workbench.ui.panels.inspector.mcp.viewmodel import MCPInspectorViewModel

HISTORY_SIZE = 20
"""Results kept per tool (and connection)."""
MAX_CALL_LOG_LINES = 500
"""Log messages kept per call (the wire log keeps every one)."""
MAX_LOG_LINE = 2000
"""Characters kept of one log message."""


def log_line(event: LogMessage) -> str:
    """One log notification as one plain line: ``info · demo.tools: booked for 2`` (peer text neutralised)."""
    data = event.data if isinstance(event.data, str) else json_line(event.data, default=str)
    text = neutralise_line(data)
    if len(text) > MAX_LOG_LINE:
        text = text[:MAX_LOG_LINE] + "…"
    where = f" · {neutralise_line(event.logger)}" if event.logger else ""
    return f"{neutralise_line(event.level)}{where}: {text}"


@dataclass(slots=True)
class CallRecord:
    """One tool call from the inspector, running or done.

    Attributes:
        connection_id: The connection it went to.
        tool: The tool's name.
        arguments: The arguments as sent.
        started_at: Wall-clock start (``time.time()``).
        duration_ms: How long it took (``None`` while running).
        result: The result (also for ``is_error`` results).
        error: Why the call itself failed (a JSON-RPC error, timeout, lost connection).
        cancelled: The user cancelled it.
        has_output_schema: Whether the tool declared an ``outputSchema`` when it was called.
        logs: The server's log messages (``notifications/message``) that arrived during the call.
    """

    connection_id: str
    tool: str
    arguments: dict[str, Any]
    started_at: float = field(default_factory=time.time)
    duration_ms: float | None = None
    result: ToolResult | None = None
    error: ErrorView | None = None
    cancelled: bool = False
    has_output_schema: bool = False
    logs: list[str] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """``running``, ``ok``, ``tool error`` (``is_error``), ``failed`` or ``cancelled``."""
        if self.cancelled:
            return "cancelled"
        if self.error is not None:
            return "failed"
        if self.result is not None:
            return "tool error" if self.result.is_error else "ok"
        return "running"

    def label(self) -> str:
        """One line for the history list: time, outcome, duration."""
        took = f" · {self.duration_ms:.0f} ms" if self.duration_ms is not None else ""
        return f"{time_of_day(self.started_at)} · {self.outcome}{took}"


class ToolCallViewModel(QObject):
    """Runs one tool call at a time for the inspector and remembers the last results per tool.

    Signals:
        started(CallRecord): A call went out.
        progressed(float, object, str): progress, total (``None`` if unknown), message ("" if none).
        logged(CallRecord, str): The server sent a log message during the call (the line was added to
            ``record.logs``).
        finished(CallRecord): The call ended (result, failure or cancellation: see ``outcome``).
    """

    started = Signal(object)
    progressed = Signal(float, object, str)
    logged = Signal(object, str)
    finished = Signal(object)

    def __init__(self, inspector: MCPInspectorViewModel) -> None:
        super().__init__(inspector)
        self._inspector = inspector
        self._task: asyncio.Task[None] | None = None
        self._busy = False
        self._current: CallRecord | None = None
        self._started_mono = 0.0
        self._history: dict[tuple[str, str], deque[CallRecord]] = {}

    @property
    def running(self) -> bool:
        """Whether a call is under way."""
        return self._busy

    @property
    def current(self) -> CallRecord | None:
        """The call under way (or the last one)."""
        return self._current

    def elapsed_ms(self) -> float:
        """Milliseconds since the running call started (its duration once done)."""
        if self._current is not None and self._current.duration_ms is not None:
            return self._current.duration_ms
        return (time.monotonic() - self._started_mono) * 1000 if self._current is not None else 0.0

    def history(self, tool: str, connection_id: str | None = None) -> list[CallRecord]:
        """The last results of ``tool`` on the shown (or given) connection, newest first."""
        cid = connection_id or self._inspector.connection_id or ""
        return list(reversed(self._history.get((cid, tool), ())))

    def call(self, tool: str, arguments: dict[str, Any]) -> bool:
        """Call ``tool`` on the shown server; ``False`` if a call is running or nothing is shown."""
        agent, cid = self._inspector.agent, self._inspector.connection_id
        if self.running or agent is None or cid is None:
            return False
        spec = self._inspector.tool(tool)
        record = CallRecord(
            cid, tool, dict(arguments), has_output_schema=spec is not None and spec.output_schema is not None
        )
        self._current = record
        self._started_mono = time.monotonic()
        self._history.setdefault((cid, tool), deque(maxlen=HISTORY_SIZE)).append(record)
        self._busy = True
        self._task = spawn(self._call(agent, record), doing=f"calling tool {tool}")
        self.started.emit(record)
        return True

    def cancel(self) -> None:
        """Cancel the running call (the agent sends the protocol's cancel to the server)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _call(self, agent: Any, record: CallRecord) -> None:
        # The call's stream (not call_tool) so that log messages sent during it land beside its result.
        try:
            async with contextlib.aclosing(agent.call_tool_stream(record.tool, record.arguments)) as events:
                async for event in events:
                    if isinstance(event, ProgressReported):
                        if self._current is record:
                            self.progressed.emit(float(event.progress), event.total, event.message or "")
                    elif isinstance(event, LogMessage):
                        if len(record.logs) < MAX_CALL_LOG_LINES:
                            line = log_line(event)
                            record.logs.append(line)
                            self.logged.emit(record, line)
                    elif isinstance(event, Completed):
                        record.result = event.result.tool_result
                    elif isinstance(event, Failed):
                        error = event.error
                        if not isinstance(error, WorkbenchError):
                            error = ProtocolError(event.message or str(error))
                        raise error
            if record.result is None:
                raise ProtocolError(f"The call of {record.tool!r} ended without a result.")
        except WorkbenchError as exc:
            record.error = self._inspector.report("call", exc, f"calling tool {record.tool}")
        except asyncio.CancelledError:
            record.cancelled = True
            raise
        finally:
            record.duration_ms = (time.monotonic() - self._started_mono) * 1000
            self._busy = False
            self.finished.emit(record)
