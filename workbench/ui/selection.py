"""Which connection the user is looking at: the sidebar sets it, the other panels follow it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class ConnectionSelection(QObject):
    """The selected connection id (a profile id), or ``None`` when nothing is selected."""

    changed = Signal(object)  # str | None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._current: str | None = None

    @property
    def current(self) -> str | None:
        """The selected connection id."""
        return self._current

    def select(self, connection_id: str | None) -> None:
        """Select ``connection_id`` (emits ``changed`` only when it differs)."""
        if connection_id != self._current:
            self._current = connection_id
            self.changed.emit(connection_id)
