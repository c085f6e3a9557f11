"""AuthStepsModel: auth steps of one connection as a Qt table (time, step, status, detail, wire records)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from workbench.core.auth_steps import AuthStep
from workbench.ui.theme import semantic_color, state_color
from workbench.ui.untrusted import plain_tooltip

STATUS_MARKS: dict[str, str] = {"ok": "✓", "failed": "✗", "skipped": "–"}
"""The mark shown before each step status."""


def status_colour(status: str) -> QColor:
    """A step status's colour on the theme in force: ok as a connected state, failed as an error, else muted."""
    if status == "ok":
        return state_color("connected")
    return semantic_color("error-text" if status == "failed" else "muted-text")


class Column(IntEnum):
    """The table's columns."""

    TIME = 0
    STAGE = 1
    STATUS = 2
    DETAIL = 3
    WIRE = 4


HEADERS = {
    Column.TIME: "Time",
    Column.STAGE: "Step",
    Column.STATUS: "Status",
    Column.DETAIL: "Detail",
    Column.WIRE: "Wire",
}


def format_time(at: float) -> str:
    """Wall-clock seconds as local ``HH:MM:SS.mmm``."""
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


def status_text(status: str) -> str:
    """``✓ ok``, ``✗ failed`` or ``– skipped``."""
    return f"{STATUS_MARKS.get(status, '?')} {status}"


def wire_text(seqs: tuple[int, ...]) -> str:
    """The wire records of a step: ``#12–#15 (4)``, ``#7``, or empty."""
    if not seqs:
        return ""
    first, last = min(seqs), max(seqs)
    return f"#{first}" if first == last else f"#{first}–#{last} ({len(seqs)})"


@dataclass(frozen=True, slots=True)
class StepRow:
    """An auth step and when it arrived.

    Attributes:
        at: Arrival time (seconds since the epoch).
        owner: The connection (profile) id it is listed under.
        step: The step.
    """

    at: float
    owner: str
    step: AuthStep


class AuthStepsModel(QAbstractTableModel):
    """The steps of the shown connection, oldest first; strings from the peer are shown literally."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[StepRow] = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        """Number of steps shown."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        """Time, stage, status, detail, wire."""
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles."""
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(Column)
        ):
            return HEADERS[Column(section)]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Display text, the detail's tooltip and the status colour."""
        row = self.row(index.row()) if index.isValid() else None
        if row is None:
            return None
        step, column = row.step, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == Column.TIME:
                return format_time(row.at)
            if column == Column.STAGE:
                return step.name
            if column == Column.STATUS:
                return status_text(step.status)
            if column == Column.DETAIL:
                return step.failure.reason if step.failure is not None else step.detail
            if column == Column.WIRE:
                return wire_text(step.wire_seqs)
        elif role == Qt.ItemDataRole.ToolTipRole:
            if column == Column.STAGE:
                return plain_tooltip(f"stage: {step.stage.value}")
            if column == Column.DETAIL:
                if step.failure is not None:
                    return plain_tooltip(f"{step.failure.reason}\nWhat to change: {step.failure.hint}")
                return plain_tooltip(step.detail)
            if column == Column.WIRE and step.wire_seqs:
                return plain_tooltip(
                    "Click to show these records in the wire log: " + " ".join(f"#{seq}" for seq in step.wire_seqs)
                )
        elif role == Qt.ItemDataRole.ForegroundRole and (column == Column.STATUS or step.status == "failed"):
            return status_colour(step.status)
        return None

    def row(self, number: int) -> StepRow | None:
        """The row ``number``, or ``None`` outside the model."""
        return self._rows[number] if 0 <= number < len(self._rows) else None

    def rows(self) -> list[StepRow]:
        """The rows shown."""
        return list(self._rows)

    def set_rows(self, rows: list[StepRow]) -> None:
        """Show ``rows`` instead."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def append(self, row: StepRow) -> None:
        """Add one step at the end."""
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n)
        self._rows.append(row)
        self.endInsertRows()
