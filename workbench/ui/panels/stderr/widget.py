"""StderrWidget: the selected stdio connection's stderr as plain text, with a clear button."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from workbench.ui.context import PanelContext
from workbench.ui.names import connection_name
from workbench.ui.panels.stderr.viewmodel import MAX_LINES, StderrViewModel
from workbench.ui.untrusted import plain_label, shown


class StderrWidget(QWidget):
    """Shows what the selected connection's server wrote to stderr (plain text only; lines are untrusted).

    Lines are kept per connection (``MAX_LINES`` each) whether or not the connection is selected;
    switching the selection shows that connection's lines. A process exit appears as a line with
    the exit code.

    Args:
        ctx: The panel context; the widget follows ``ctx.selection``.
        parent: Qt parent.
    """

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self.viewmodel = StderrViewModel(ctx, parent=self)
        self._current: str | None = None

        self.title = plain_label("No connection selected", self, selectable=False)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Forget the stderr lines of this connection")
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setMaximumBlockCount(MAX_LINES)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setUndoRedoEnabled(False)

        header = QHBoxLayout()
        header.setContentsMargins(4, 2, 4, 2)
        header.addWidget(self.title, 1)
        header.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.text)

        self.clear_button.clicked.connect(self.on_clear_button_clicked)
        self.viewmodel.lines_added.connect(self.on_viewmodel_lines_added)
        self.viewmodel.cleared.connect(self.on_viewmodel_cleared)
        ctx.selection.changed.connect(self.on_selection_changed)
        self.on_selection_changed(ctx.selection.current)

    @property
    def connection_id(self) -> str | None:
        """The connection whose lines are shown."""
        return self._current

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Show the lines of the newly selected connection."""
        self._current = connection_id
        self.clear_button.setEnabled(connection_id is not None)
        if connection_id is None:
            self.title.setText("No connection selected")
            self.text.setPlaceholderText("")
            self.text.clear()
            return
        conn = self._ctx.services.connections.get(connection_id)
        name = connection_name(self._ctx.services, connection_id)
        self.title.setText(f"stderr of {name}")
        if conn is not None and conn.profile.kind != "mcp-stdio":
            self.text.setPlaceholderText("Only servers started as a local process (stdio) have a stderr.")
        else:
            self.text.setPlaceholderText("Nothing on stderr yet.")
        self.text.setPlainText(shown("\n".join(self.viewmodel.flushed_lines(connection_id))))
        self.text.moveCursor(QTextCursor.MoveOperation.End)
        self._scroll_to_end()

    def on_viewmodel_lines_added(self, connection_id: str, lines: list[str]) -> None:
        """Append a batch of lines for the shown connection (one insert per flush)."""
        if connection_id != self._current:
            return
        bar = self.text.verticalScrollBar()
        follow = bar.value() >= bar.maximum() - 2
        cursor = QTextCursor(self.text.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        prefix = "" if self.text.document().isEmpty() else "\n"
        cursor.insertText(prefix + shown("\n".join(lines)))
        if follow:
            self._scroll_to_end()

    def on_viewmodel_cleared(self, connection_id: str) -> None:
        """Empty the view when the shown connection's lines were cleared."""
        if connection_id == self._current:
            self.text.clear()

    def on_clear_button_clicked(self) -> None:
        """Forget the shown connection's lines."""
        if self._current is not None:
            self.viewmodel.clear(self._current)

    def plain_text(self) -> str:
        """What the panel shows (for tests and copying)."""
        return self.text.toPlainText()

    def _scroll_to_end(self) -> None:
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.maximum())
