"""CSV results as a table (bounded, with a note of what was cut, copy) and HTML results sanitised in a text browser.

The decisions (which rows, which columns, which tags) are ``workbench.core.documents``'; these views
show what it kept. Cells and HTML text went through ``neutralise`` there or go through ``shown`` here;
the HTML browser is a ``SafeTextBrowser``: it loads nothing and hands every link click to the window,
which asks the user with the full URL before anything opens (as for markdown).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QHBoxLayout, QTableView, QToolButton, QVBoxLayout, QWidget

from workbench.core.documents import CSV_MAX_ROWS, CSVTable, SanitisedHTML, sanitise_html
from workbench.ui.panels.inspector.results.frame import TEXT_VIEW_HEIGHT
from workbench.ui.panels.inspector.results.rendered_source import RenderedWithSource
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label, shown

CSV_VIEW_HEIGHT = 320
"""Height of a CSV table, in pixels."""

_Index = QModelIndex | QPersistentModelIndex


class CSVTableModel(QAbstractTableModel):
    """The rows ``parse_csv`` kept, with the first row as the header or as data (the user's choice)."""

    def __init__(self, table: CSVTable, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.header_row = table.has_header

    def set_header_row(self, header: bool) -> None:
        """Use the first row as the column titles (``True``) or show it as data."""
        if header != self.header_row and self.table.header is not None:
            self.beginResetModel()
            self.header_row = header
            self.endResetModel()

    def _rows(self) -> list[list[str]]:
        if self.table.header is not None and not self.header_row:
            return [self.table.header, *self.table.rows[: CSV_MAX_ROWS - 1]]
        return self.table.rows

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Rows shown."""
        return 0 if parent.isValid() else len(self._rows())

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Columns shown."""
        return 0 if parent.isValid() else self.table.shown_columns

    def cell(self, row: int, column: int) -> str:
        """The text of one cell (empty past the end of a short row)."""
        cells = self._rows()[row]
        return cells[column] if column < len(cells) else ""

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """A cell's text, shown literally."""
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) and index.isValid():
            return shown(self.cell(index.row(), index.column()))
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        """Column titles from the header row (else numbers); rows numbered from 1."""
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and self.header_row and self.table.header is not None:
            header = self.table.header
            return shown(header[section]) if section < len(header) else ""
        return str(section + 1)


class CSVView(QWidget):
    """A CSV document as a table: "First row is a header", a note of what was cut, and "Copy"."""

    def __init__(self, table: CSVTable, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = CSVTableModel(table, self)
        self.table_view = QTableView(self)
        self.table_view.setObjectName("csvTable")
        self.table_view.setModel(self.model)
        self.table_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table_view.setWordWrap(False)
        self.table_view.setFixedHeight(CSV_VIEW_HEIGHT)
        self.table_view.horizontalHeader().setDefaultSectionSize(120)
        self.note = plain_label(table.note(), self, wrap=True)
        self.note.setObjectName("documentNote")
        set_tone(self.note, "muted")
        self.note.setVisible(bool(table.note()))
        self.header_box = QCheckBox("First row is a header", self)
        self.header_box.setChecked(self.model.header_row)
        self.header_box.setEnabled(table.header is not None)
        self.header_box.toggled.connect(self.on_header_box_toggled)
        self.copy_button = QToolButton(self)
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip(
            "Copy the selected cells (all shown cells when none are selected) as tab-separated text"
        )
        self.copy_button.clicked.connect(self.copy)
        QShortcut(QKeySequence.StandardKey.Copy, self.table_view, self.copy, context=Qt.ShortcutContext.WidgetShortcut)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.header_box)
        row.addWidget(self.copy_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addLayout(row)
        layout.addWidget(self.table_view)

    def on_header_box_toggled(self, checked: bool) -> None:
        """Show the first row as column titles or as data."""
        self.model.set_header_row(checked)

    def selected_text(self) -> str:
        """The selected cells (all shown cells when none are) as tab-separated lines, header first when shown."""
        indexes = self.table_view.selectionModel().selectedIndexes()
        if indexes:
            rows = sorted({i.row() for i in indexes})
            columns = sorted({i.column() for i in indexes})
            chosen = {(i.row(), i.column()) for i in indexes}
            lines = ["\t".join(self.model.cell(r, c) if (r, c) in chosen else "" for c in columns) for r in rows]
            return "\n".join(lines)
        columns = list(range(self.model.columnCount()))
        lines = []
        if self.model.header_row and self.model.table.header is not None:
            header = self.model.table.header
            lines.append("\t".join(header[c] if c < len(header) else "" for c in columns))
        lines += ["\t".join(self.model.cell(r, c) for c in columns) for r in range(self.model.rowCount())]
        return "\n".join(lines)

    def copy(self) -> None:
        """Put ``selected_text`` on the clipboard."""
        QGuiApplication.clipboard().setText(self.selected_text())


class HTMLView(RenderedWithSource):
    """An HTML document sanitised (``sanitise_html``) and rendered, what was removed named above it, and its source."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, "renderedHTML", parent)
        self.sanitised: SanitisedHTML = sanitise_html(text)
        self.note = plain_label(self.sanitised.note(), self, wrap=True)
        self.note.setObjectName("documentNote")
        set_tone(self.note, "muted")
        self.note.setVisible(bool(self.sanitised.note()))
        self.column.insertWidget(0, self.note)
        self.show_rendered()
        self.browser.setFixedHeight(TEXT_VIEW_HEIGHT[1])

    def show_rendered(self) -> None:
        """Show the sanitised rendering."""
        self.browser.setHtml(self.sanitised.html)
