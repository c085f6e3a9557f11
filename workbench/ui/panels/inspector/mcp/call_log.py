"""The log messages a server sent during the tool call on show, in a pane under its result."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from workbench.ui.panels.inspector.mcp.calls import MAX_CALL_LOG_LINES
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label

CALL_LOG_MIN_LINES = 5
"""Lines of the call's log kept in view when the result above needs more room than there is."""


class _Sized(Protocol):
    """The result pane above the log, as the split reads it."""

    def content_height(self) -> int: ...


class CallLogWidget(QWidget):
    """A call's log messages as plain text under a count; hidden while the call on show has none.

    The split between the result and the log follows their content: the result as tall as it needs
    (its parts, banners and buttons), the log the rest, and never fewer than ``CALL_LOG_MIN_LINES``
    of its lines (a long result scrolls). Once the user drags the handle, their split is kept.

    Args:
        split: The splitter it shares with the result (it adds itself there, under the result).
        result: The result pane (the splitter's first), asked how tall its content is.
    """

    def __init__(self, split: QSplitter, result: _Sized) -> None:
        super().__init__(split)
        self._split = split
        self._result = result
        self.title = plain_label("", self, selectable=False)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("callLog")
        self.text.setReadOnly(True)
        self.text.setMaximumBlockCount(MAX_CALL_LOG_LINES)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)
        self._column = layout
        self.setVisible(False)
        self.record: CallRecord | None = None
        """The call whose log is on show."""
        split.addWidget(self)
        self._user_split = False
        split.splitterMoved.connect(self.on_split_splitter_moved)
        split.installEventFilter(self)
        # The result's new content is laid out in the same pass as the log's: fit once both are in.
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit)

    def show_record(self, record: CallRecord | None) -> None:
        """Show the log messages the server sent during ``record`` (hidden when it sent none).

        The log already on show stays as it is, scrolled where the reader left it (its lines arrive one by
        one through ``on_calls_logged``): the end of a call (Cancel, a result) does not reset it. Another
        call's log starts at its top, or at its end while that call is still running (the newest lines).
        """
        self._fit_timer.start()  # the result on show changes with the record: share the room out again
        if record is not None and record is self.record:
            self._sync_title()
            return
        self.record = record
        lines = record.logs if record is not None else []
        self.text.setPlainText("\n".join(lines))
        if record is not None and record.outcome == "running":
            bar = self.text.verticalScrollBar()
            bar.setValue(bar.maximum())
        self._sync_title()

    def on_calls_logged(self, record: CallRecord, line: str) -> None:
        """A log message arrived during the call shown: add it as it comes."""
        if record is not self.record:
            return
        self.text.appendPlainText(line)
        self._sync_title()

    def on_split_splitter_moved(self, pos: int, index: int) -> None:
        """The user dragged the handle: keep their split from now on."""
        self._user_split = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Share the split out again when it changes size."""
        if watched is self._split and event.type() == QEvent.Type.Resize:
            self._fit_timer.start()
        return False

    def fit(self) -> None:
        """Give the result the height of its content and the log the rest (at least ``CALL_LOG_MIN_LINES``)."""
        total = sum(self._split.sizes())
        if self._user_split or self.isHidden() or total <= 0:
            return
        log_floor = self._height_for(min(self.text.blockCount(), CALL_LOG_MIN_LINES))
        result = max(min(self._result.content_height(), total - log_floor), 0)
        if self._split.sizes()[0] != result:
            self._split.setSizes([result, total - result])

    def _height_for(self, lines: int) -> int:
        """Pixels the pane needs for its title and ``lines`` lines of log."""
        body = text_pane_height(self.text, lines)
        return self.title.sizeHint().height() + self._column.spacing() + body

    def _sync_title(self) -> None:
        count = self.text.blockCount() if self.text.toPlainText() else 0
        self.title.setText(f"Server log during this call ({count} message{'s' if count != 1 else ''})")
        shown = count > 0
        if shown and self.isHidden():
            self._fit_timer.start()
        self.setVisible(shown)
