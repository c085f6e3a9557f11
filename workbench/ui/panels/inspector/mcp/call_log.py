"""The log messages a server sent during the tool call on show, in a pane under its result."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from workbench.ui.panels.inspector.mcp.calls import MAX_CALL_LOG_LINES
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord
from workbench.ui.untrusted import plain_label

CALL_LOG_SHARE = 0.25
"""The share of the result area the call's log messages get when they first show (the result keeps the rest)."""


class CallLogWidget(QWidget):
    """A call's log messages as plain text under a count; hidden while the call on show has none.

    Args:
        split: The splitter it shares with the result (it adds itself there, under the result);
            the first time it shows it takes ``CALL_LOG_SHARE`` of it.
    """

    def __init__(self, split: QSplitter) -> None:
        super().__init__(split)
        self._split = split
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
        self.setVisible(False)
        self._sized = False
        self.record: CallRecord | None = None
        """The call whose log is on show."""
        split.addWidget(self)

    def show_record(self, record: CallRecord | None) -> None:
        """Show the log messages the server sent during ``record`` (hidden when it sent none).

        The log already on show stays as it is, scrolled where the reader left it (its lines arrive one by
        one through ``on_calls_logged``): the end of a call (Cancel, a result) does not reset it. Another
        call's log starts at its top, or at its end while that call is still running (the newest lines).
        """
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

    def _sync_title(self) -> None:
        count = self.text.blockCount() if self.text.toPlainText() else 0
        self.title.setText(f"Server log during this call ({count} message{'s' if count != 1 else ''})")
        shown = count > 0
        if shown and self.isHidden() and not self._sized:
            total = max(sum(self._split.sizes()), 1)
            log = int(total * CALL_LOG_SHARE)
            self._split.setSizes([total - log, log])  # the result keeps most; the user may drag
            self._sized = True
        self.setVisible(shown)
