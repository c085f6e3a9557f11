"""RowTree: a two-column tree showing ``Section``s of untrusted rows literally (item views never render HTML)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from workbench.core.protocols.snapshot import Row, Section
from workbench.ui.untrusted import plain_tooltip, shown

TOOLTIP_FROM = 60
"""Values longer than this also get a (plain) tooltip with the whole text."""


class RowTree(QTreeWidget):
    """Field / value rows grouped under section headings (``shown``); long values have plain tooltips."""

    def __init__(self, parent: QWidget | None = None, *, headers: tuple[str, str] = ("Field", "Value")) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setHeaderLabels(list(headers))
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.header().setStretchLastSection(True)
        self.setColumnWidth(0, 200)

    def set_sections(self, sections: Iterable[Section], *, expand_depth: int = 1) -> None:
        """Replace the content with ``sections`` (top-level items), expanded ``expand_depth`` levels."""
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            for section in sections:
                head = QTreeWidgetItem(self, [section.title, ""])
                font = head.font(0)
                font.setBold(True)
                head.setFont(0, font)
                self._add_rows(head, section.rows)
            self.expandToDepth(expand_depth - 1)
        finally:
            self.setUpdatesEnabled(True)

    def _add_rows(self, parent: QTreeWidgetItem, rows: Iterable[Row]) -> None:
        for row in rows:
            item = QTreeWidgetItem(parent, [shown(row.label), shown(row.value)])
            if len(row.value) > TOOLTIP_FROM or "\n" in row.value:
                item.setToolTip(1, plain_tooltip(row.value))
            if len(row.label) > TOOLTIP_FROM:
                item.setToolTip(0, plain_tooltip(row.label))
            self._add_rows(item, row.children)

    def section_item(self, title: str) -> QTreeWidgetItem | None:
        """The top-level item of section ``title``."""
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            if item is not None and item.text(0) == title:
                return item
        return None

    def values(self, title: str) -> dict[str, str]:
        """``label → value`` of a section's direct rows (for tests and copying)."""
        head = self.section_item(title)
        if head is None:
            return {}
        rows = (head.child(i) for i in range(head.childCount()))
        return {row.text(0): row.text(1) for row in rows if row is not None}
