"""TaskTableModel: a task table (A2A: id, context, state, updated, artifacts; MCP: id, tool, state, times)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from workbench.core.protocols.snapshot import TaskSummary
from workbench.ui.untrusted import shown

A2A_COLUMNS = ("ID", "Context", "State", "Updated", "Artifacts")
"""An A2A agent's task table."""
MCP_COLUMNS = ("ID", "Tool", "State", "Created", "Updated")
"""An MCP server's task table."""
TASK_ID_ROLE = Qt.ItemDataRole.UserRole + 1
"""Role under which every cell returns its row's task id."""

_Index = QModelIndex | QPersistentModelIndex


class TaskTableModel(QAbstractTableModel):
    """A table over ``TaskSummary``s; ``set_rows`` updates in place when only values changed."""

    def __init__(self, parent: Any = None, columns: tuple[str, ...] = A2A_COLUMNS) -> None:
        super().__init__(parent)
        self.columns = columns
        self._rows: list[TaskSummary] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Number of tasks."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Number of columns."""
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles."""
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text (an agent's ids and names ``shown``), the exact task id under ``TASK_ID_ROLE``."""
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            match self.columns[index.column()]:
                case "ID":
                    return shown(row.task_id)
                case "Context":
                    return shown(row.context_id)
                case "State":
                    return shown(row.state)
                case "Updated":
                    return row.updated_text
                case "Created":
                    return row.created_text
                case "Tool":
                    return shown(row.tool)
                case _:
                    return row.artifacts
        if role == TASK_ID_ROLE:
            return row.task_id
        return None

    def rows(self) -> list[TaskSummary]:
        """The rows shown."""
        return list(self._rows)

    def row_of(self, task_id: str | None) -> int:
        """The row of ``task_id``, or -1."""
        for i, row in enumerate(self._rows):
            if row.task_id == task_id:
                return i
        return -1

    def set_rows(self, rows: list[TaskSummary]) -> None:
        """Show ``rows``: a value update when the same tasks are listed in the same order, else a reset."""
        if [r.task_id for r in rows] == [r.task_id for r in self._rows]:
            if rows != self._rows:
                self._rows = list(rows)
                last = self.index(len(rows) - 1, len(self.columns) - 1)
                self.dataChanged.emit(self.index(0, 0), last, [Qt.ItemDataRole.DisplayRole])
            return
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()
