"""The skills tab: one row per skill (name, id, tags) and the selected skill's details as plain text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from workbench.core.protocols.snapshot import SkillInfo
from workbench.ui.untrusted import SafeTextBrowser, plain_tooltip, shown


class SkillsWidget(QWidget):
    """Skills list plus a detail pane; descriptions are never rendered (HTML and markdown show as typed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._skills: tuple[SkillInfo, ...] = ()
        self.list = QTreeWidget(self)
        self.list.setColumnCount(3)
        self.list.setHeaderLabels(["Name", "ID", "Tags"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.currentItemChanged.connect(self.on_list_current_item_changed)
        self.details = SafeTextBrowser(self)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.list)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def set_skills(self, skills: tuple[SkillInfo, ...]) -> None:
        """Show ``skills`` and select the first."""
        self._skills = skills
        self.list.clear()
        for skill in skills:
            item = QTreeWidgetItem(self.list, [shown(skill.name), shown(skill.id), shown(", ".join(skill.tags))])
            item.setToolTip(0, plain_tooltip(skill.description))
        self.details.set_untrusted_text("")
        first = self.list.topLevelItem(0)
        if first is not None:
            self.list.setCurrentItem(first)

    def on_list_current_item_changed(self, current: QTreeWidgetItem | None, previous: QTreeWidgetItem | None) -> None:
        """Show the details of the selected skill."""
        row = self.list.indexOfTopLevelItem(current) if current is not None else -1
        self.details.set_untrusted_text(self._skills[row].details_text() if 0 <= row < len(self._skills) else "")
