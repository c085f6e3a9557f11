"""StderrViewModel: stderr lines of stdio servers, kept per connection and bounded, flushed in batches."""

from __future__ import annotations

from collections import deque

from PySide6.QtCore import QObject, QTimer, Signal

from workbench.core.events import ServerProcessExited, ServerStderrLine
from workbench.ui.context import PanelContext

MAX_LINES = 10_000
"""Lines kept per connection; older ones are dropped."""

FLUSH_INTERVAL_MS = 50
"""How often new lines are handed to the view (one batch per connection per flush)."""


def exit_line(event: ServerProcessExited) -> str:
    """The line shown when a server process ended."""
    code = event.returncode
    if code is None:
        how = "exited"
    elif code < 0:
        how = f"was killed by signal {-code}"
    else:
        how = f"exited with code {code}"
    suffix = "" if event.expected else " (unexpectedly)"
    return f"── process {event.pid} {how}{suffix} ──"


class StderrViewModel(QObject):
    """Collects ``ctx.bridge.stderr_line`` and ``process_exited`` per connection.

    Lines are stored at once (bounded by ``max_lines`` per connection) and announced every
    ``FLUSH_INTERVAL_MS`` as one batch per connection, so a chatty server costs one view update per
    flush rather than one per line.

    Args:
        ctx: The panel context (its bridge supplies the lines).
        max_lines: Lines kept per connection.
        parent: Qt parent.

    Signals:
        lines_added(str, list): A connection's new lines since the last flush (connection id, lines).
        cleared(str): A connection's lines were cleared.
    """

    lines_added = Signal(str, list)
    cleared = Signal(str)

    def __init__(self, ctx: PanelContext, *, max_lines: int = MAX_LINES, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.max_lines = max_lines
        self._lines: dict[str, deque[str]] = {}
        self._pending: dict[str, list[str]] = {}
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.flush)
        ctx.bridge.stderr_line.connect(self.on_bridge_stderr_line)
        ctx.bridge.process_exited.connect(self.on_bridge_process_exited)

    def lines(self, connection_id: str) -> list[str]:
        """Every kept line of ``connection_id`` (flushed or not), oldest first."""
        return list(self._lines.get(connection_id, ()))

    def flushed_lines(self, connection_id: str) -> list[str]:
        """The kept lines already announced by ``lines_added`` (a view shows these, then follows the signal)."""
        kept = list(self._lines.get(connection_id, ()))
        waiting = len(self._pending.get(connection_id, ()))
        return kept[: len(kept) - waiting]

    def append(self, connection_id: str, line: str) -> None:
        """Keep ``line`` for ``connection_id`` and schedule a flush."""
        kept = self._lines.get(connection_id)
        if kept is None:
            kept = self._lines[connection_id] = deque(maxlen=self.max_lines)
        kept.append(line)
        pending = self._pending.setdefault(connection_id, [])
        pending.append(line)
        if len(pending) > self.max_lines:
            del pending[: len(pending) - self.max_lines]
        if not self._timer.isActive():
            self._timer.start()

    def clear(self, connection_id: str) -> None:
        """Forget the lines of ``connection_id``."""
        self._lines.pop(connection_id, None)
        self._pending.pop(connection_id, None)
        self.cleared.emit(connection_id)

    def flush(self) -> None:
        """Announce the lines that arrived since the last flush (one ``lines_added`` per connection)."""
        pending, self._pending = self._pending, {}
        for connection_id, lines in pending.items():
            if lines:
                self.lines_added.emit(connection_id, lines)

    def on_bridge_stderr_line(self, event: ServerStderrLine) -> None:
        """A stdio server wrote a line to stderr."""
        self.append(event.connection_id, event.line)

    def on_bridge_process_exited(self, event: ServerProcessExited) -> None:
        """A stdio server's process ended: add a line saying how."""
        self.append(event.connection_id, exit_line(event))
