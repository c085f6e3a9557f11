"""A filterable one-column list model for what a server lists (tools, resources, templates, prompts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from workbench.ui.untrusted import plain_tooltip, shown

KEY_ROLE = Qt.ItemDataRole.UserRole + 1
"""Role answering the row's key (the tool name, resource URI …)."""
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 2
"""Role answering the first line of the row's description (shown under its name), ``""`` when none."""
SUMMARY_CHARS = 300
"""Characters of a description's first line kept for the list (the view elides it to one line anyway)."""

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class ListRow:
    """One row: its key, the text shown, a tooltip (the description), its first line, and what the filter searches."""

    key: str
    text: str
    tooltip: str = ""
    summary: str = field(init=False, default="")
    """The description's first non-empty line, spaces collapsed (the list shows it under the name)."""

    def __post_init__(self) -> None:
        first = next((line for line in self.tooltip.splitlines() if line.strip()), "")
        object.__setattr__(self, "summary", " ".join(first[: 4 * SUMMARY_CHARS].split())[:SUMMARY_CHARS])

    @property
    def haystack(self) -> str:
        """What the filter matches against."""
        return f"{self.text}\n{self.tooltip}".lower()


class CatalogListModel(QAbstractListModel):
    """Rows shown literally (item views never render HTML); filtered with an index list (qt-async §5.1)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ListRow] = []
        self._visible: list[int] = []
        self._needle = ""

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Rows that pass the filter."""
        return 0 if parent.isValid() else len(self._visible)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Display text, escaped tooltip, the row key, or the description's first line (peer text ``shown``)."""
        if not index.isValid() or index.row() >= len(self._visible):
            return None
        row = self._rows[self._visible[index.row()]]
        if role == Qt.ItemDataRole.DisplayRole:
            return shown(row.text)
        if role == Qt.ItemDataRole.ToolTipRole:
            # the full name first (a narrow list elides it), then the description
            return plain_tooltip(f"{row.text}\n\n{row.tooltip}" if row.tooltip else row.text)
        if role == KEY_ROLE:
            return row.key
        if role == SUMMARY_ROLE:
            return shown(row.summary)
        return None

    def set_rows(self, rows: list[ListRow]) -> None:
        """Replace every row (the filter stays)."""
        self.beginResetModel()
        self._rows = list(rows)
        self._visible = self._matching()
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        """Show only rows whose text or tooltip contains ``text`` (case-insensitive)."""
        self.beginResetModel()
        self._needle = text.strip().lower()
        self._visible = self._matching()
        self.endResetModel()

    def _matching(self) -> list[int]:
        if not self._needle:
            return list(range(len(self._rows)))
        return [i for i, row in enumerate(self._rows) if self._needle in row.haystack]

    def visible_keys(self) -> list[str]:
        """Keys of the rows that pass the filter, in order."""
        return [self._rows[i].key for i in self._visible]

    def row_of(self, key: str) -> int:
        """The visible row with ``key``, or -1."""
        return next((n for n, i in enumerate(self._visible) if self._rows[i].key == key), -1)
