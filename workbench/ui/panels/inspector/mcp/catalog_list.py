"""Catalog lists: a filter box over what a server offers, and the list | detail split of a sub-tab."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QListView, QSplitter, QVBoxLayout, QWidget

from workbench.ui.panels.inspector.mcp.catalog_delegate import CatalogDelegate
from workbench.ui.panels.inspector.mcp.itemmodel import KEY_ROLE, CatalogListModel, ListRow

MIN_LIST_WIDTH = 120
"""A catalog list is never squeezed below this (names stay readable)."""


PICKING_KEYS = frozenset(
    {
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
        Qt.Key.Key_Return,
        Qt.Key.Key_Enter,
    }
)
"""Keys that pick the current row of a catalog list, as a click does."""


class CatalogView(QListView):
    """A catalog's list: an arrow key, Home/End, Page Up/Down or Enter picks the row it lands on.

    Qt makes a row current without selecting it when the list gets the focus; the row is drawn as the
    one the keys are on, yet Down on the last (or only) row moves nowhere and so picked nothing, and
    Enter never picks. Here those keys select the current row when it is not selected yet.
    """

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Let the list move, then pick the row the keys are on (the event goes on as the list left it)."""
        super().keyPressEvent(event)
        current = self.currentIndex()
        if event.key() in PICKING_KEYS and current.isValid() and not self.selectionModel().isSelected(current):
            self.selectionModel().select(current, QItemSelectionModel.SelectionFlag.ClearAndSelect)


class CatalogListWidget(QWidget):
    """Filter box + list (each name over its description's first line); ``selected(key | None)`` on a pick."""

    selected = Signal(object)

    def __init__(self, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(placeholder)
        self.filter_edit.setClearButtonEnabled(True)
        self.model = CatalogListModel(self)
        self.view = CatalogView(self)
        self.view.setModel(self.model)
        self.delegate = CatalogDelegate(self.view)
        self.view.setItemDelegate(self.delegate)
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.selectionModel().selectionChanged.connect(self.on_view_selection_changed)
        self.filter_edit.textChanged.connect(self.on_filter_edit_text_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.view, 1)
        self._current: str | None = None
        self._restoring = False

    @property
    def current_key(self) -> str | None:
        """The selected entry's key."""
        return self._current

    def set_rows(self, rows: list[ListRow]) -> None:
        """Replace the entries, keeping the selection when its key is still there."""
        keep = self._current
        self.delegate.two_lines = any(row.summary for row in rows)
        self.model.set_rows(rows)
        if keep is not None and self.model.row_of(keep) >= 0:
            self.select(keep)
        else:
            self._set_current(None)

    def restore(self, rows: list[ListRow], filter_text: str, key: str | None) -> None:
        """Show ``rows`` filtered by ``filter_text``, with ``key`` selected if it passes: emits no ``selected``.

        For an owner that redraws everything from a connection's own state (its filter and selection);
        it then shows the detail of ``current_key`` itself. The filter box still says its text changed
        (the owner's handler hears the text it restored): the line edit hides or shows its clear button
        on that signal (blocked, the last connection's filter would leave its button on an empty box).
        """
        self.blockSignals(True)
        self._restoring = True
        try:
            if self.filter_edit.text() != filter_text:  # the same text keeps the cursor where the user types
                self.filter_edit.setText(filter_text)
            self.model.set_filter(filter_text)
            self.delegate.two_lines = any(row.summary for row in rows)
            self.model.set_rows(rows)
            if key is None or not self.select(key):
                self.select(None)
        finally:
            self._restoring = False
            self.blockSignals(False)

    def select(self, key: str | None) -> bool:
        """Select the entry with ``key`` (``None`` clears); ``False`` if it is not in the (filtered) list."""
        if key is None:
            self.view.clearSelection()
            self.view.selectionModel().clearCurrentIndex()
            self._set_current(None)
            return True
        row = self.model.row_of(key)
        if row < 0:
            return False
        self.view.setCurrentIndex(self.model.index(row))
        self._set_current(key)
        return True

    def on_filter_edit_text_changed(self, text: str) -> None:
        """Filter, then keep the selection if it still passes (``restore`` filters and selects itself)."""
        if self._restoring:
            return
        keep = self._current
        self.model.set_filter(text)
        if keep is not None and self.model.row_of(keep) >= 0:
            self.select(keep)

    def on_view_selection_changed(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        """Forward the user's pick."""
        indexes = self.view.selectionModel().selectedIndexes()
        if indexes:
            self._set_current(indexes[0].data(KEY_ROLE))

    def _set_current(self, key: str | None) -> None:
        if key != self._current:
            self._current = key
            self.selected.emit(key)


def lay_out_list_and_detail(owner: QWidget, lists: QWidget, detail: QWidget, *, list_width: int = 220) -> QSplitter:
    """Fill ``owner`` edge to edge with ``lists`` on the left and ``detail`` on the right.

    Args:
        owner: The sub-tab that gets the layout.
        lists: The catalog list (or a column of them).
        detail: What shows the selected entry.
        list_width: The list's first width; the detail gets the rest (and every extra pixel).

    Returns:
        The horizontal splitter between the two.
    """
    splitter = QSplitter(Qt.Orientation.Horizontal, owner)
    splitter.addWidget(lists)
    splitter.addWidget(detail)
    splitter.setStretchFactor(0, 0)
    splitter.setStretchFactor(1, 1)
    splitter.setChildrenCollapsible(False)
    lists.setMinimumWidth(MIN_LIST_WIDTH)
    # a quarter for the list (names and a line of description readable), the rest for the detail
    splitter.setSizes([list_width, 3 * list_width])
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(splitter)
    return splitter
