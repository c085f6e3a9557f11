"""SidebarItemModel: the sidebar's rows as a Qt list model over ``SidebarViewModel``."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap

from workbench.core.events import ConnectionState
from workbench.ui.panels.sidebar.items import SidebarItem
from workbench.ui.panels.sidebar.viewmodel import SidebarViewModel
from workbench.ui.theme import state_color
from workbench.ui.untrusted import plain_tooltip, shown


class SidebarRole(IntEnum):
    """Data roles of ``SidebarItemModel`` beyond Qt's (display = name, tooltip, decoration = dot)."""

    ID = Qt.ItemDataRole.UserRole + 1
    NAME = Qt.ItemDataRole.UserRole + 2
    KIND = Qt.ItemDataRole.UserRole + 3
    STATE = Qt.ItemDataRole.UserRole + 4  # the ConnectionState's value ("connected" ...)
    STATE_TEXT = Qt.ItemDataRole.UserRole + 5  # "connected · 2025-11-25"
    DETAIL = Qt.ItemDataRole.UserRole + 6  # command line or URL
    TOOLTIP = Qt.ItemDataRole.UserRole + 7  # plain text, before conversion for a tooltip
    STATE_COLOUR = Qt.ItemDataRole.UserRole + 8  # QColor of the state (theme.state_color, the current theme)
    HAS_SECRETS = Qt.ItemDataRole.UserRole + 9  # bool: the profile refers to stored secrets (key icon)
    UNSEEN_ERROR = Qt.ItemDataRole.UserRole + 10  # str: a failure reported while another row was selected
    PROFILE_KIND = Qt.ItemDataRole.UserRole + 11  # the profile's kind ("mcp-http" …; KIND is its words)


def state_icon(state: ConnectionState, size: int = 12) -> QIcon:
    """A round dot in the state's colour."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(state_color(state.value))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


class SidebarItemModel(QAbstractListModel):
    """One row per profile; text roles are shown literally by item views (no rich text), through ``shown``.

    The name, state line (a server's version or error) and detail are returned escaped; ``TOOLTIP``
    is the raw text before ``plain_tooltip`` (which escapes it too).

    Args:
        viewmodel: Where the rows come from; the model follows its ``items_reset`` and ``item_changed``.
        parent: Qt parent.
    """

    def __init__(self, viewmodel: SidebarViewModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._vm = viewmodel
        self._rows: list[SidebarItem] = viewmodel.items()
        self._icons: dict[ConnectionState, QIcon] = {}
        viewmodel.items_reset.connect(self.on_viewmodel_items_reset)
        viewmodel.item_changed.connect(self.on_viewmodel_item_changed)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        """Number of profiles."""
        return 0 if parent.isValid() else len(self._rows)

    def item(self, row: int) -> SidebarItem | None:
        """The row's item, or ``None`` outside the model."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, profile_id: str) -> int:
        """The row of ``profile_id``, or -1."""
        for row, item in enumerate(self._rows):
            if item.id == profile_id:
                return row
        return -1

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The row's name, kind, state, detail or tooltip (see ``SidebarRole``)."""
        item = self.item(index.row()) if index.isValid() else None
        if item is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, SidebarRole.NAME):
            return shown(item.name)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(item.tooltip)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icon(item.state)
        if role == SidebarRole.ID:
            return item.id
        if role == SidebarRole.KIND:
            return item.kind
        if role == SidebarRole.STATE:
            return item.state.value
        if role == SidebarRole.STATE_TEXT:
            return shown(item.state_text)
        if role == SidebarRole.DETAIL:
            return shown(item.target)
        if role == SidebarRole.TOOLTIP:
            return item.tooltip
        if role == SidebarRole.STATE_COLOUR:
            return state_color(item.state.value)
        if role == SidebarRole.HAS_SECRETS:
            return item.has_secrets
        if role == SidebarRole.UNSEEN_ERROR:
            return shown(item.unseen_error)
        if role == SidebarRole.PROFILE_KIND:
            return item.profile.kind
        return None

    def on_viewmodel_items_reset(self) -> None:
        """Take the view-model's rows again."""
        self.beginResetModel()
        self._rows = self._vm.items()
        self.endResetModel()

    def on_viewmodel_item_changed(self, profile_id: str) -> None:
        """Refresh one row."""
        row = self.row_of(profile_id)
        fresh = self._vm.item(profile_id)
        if row < 0 or fresh is None:
            self.on_viewmodel_items_reset()
            return
        self._rows[row] = fresh
        index = self.index(row)
        self.dataChanged.emit(index, index)

    def _icon(self, state: ConnectionState) -> QIcon:
        icon = self._icons.get(state)
        if icon is None:
            icon = self._icons[state] = state_icon(state)
        return icon
