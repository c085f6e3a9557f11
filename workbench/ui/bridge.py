"""Core events → Qt signals: the one place the core's publish/subscribe meets Qt.

Handlers on the core bus run synchronously on the loop thread (the Qt main thread under qasync), so
the bridge re-emits each event as a typed signal carrying the frozen event object itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from workbench.core.auth_steps import AuthStep
from workbench.core.events import (
    ConnectionStateChanged,
    ElicitationCompleted,
    EventBus,
    ListChanged,
    ResourceUpdated,
    ServerProcessExited,
    ServerStderrLine,
)
from workbench.core.handoff.events import HandoffEvent
from workbench.core.sampling.service import SamplingAnswered


class CoreBridge(QObject):
    """Re-emits core bus events as Qt signals (each carries the event object)."""

    connection_state_changed = Signal(object)  # ConnectionStateChanged
    stderr_line = Signal(object)  # ServerStderrLine
    process_exited = Signal(object)  # ServerProcessExited
    list_changed = Signal(object)  # ListChanged
    resource_updated = Signal(object)  # ResourceUpdated
    elicitation_completed = Signal(object)  # ElicitationCompleted
    handoff_event = Signal(object)  # HandoffEvent
    auth_step = Signal(object)  # AuthStep (OAuth discovery, registration, authorize, token, refresh, revoke)
    sampling_answered = Signal(object)  # SamplingAnswered (a connection's sampling request answered or refused)

    def __init__(self, bus: EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: list[Callable[[], None]] = [
            bus.subscribe(ConnectionStateChanged, self.connection_state_changed.emit),
            bus.subscribe(ServerStderrLine, self.stderr_line.emit),
            bus.subscribe(ServerProcessExited, self.process_exited.emit),
            bus.subscribe(ListChanged, self.list_changed.emit),
            bus.subscribe(ResourceUpdated, self.resource_updated.emit),
            bus.subscribe(ElicitationCompleted, self.elicitation_completed.emit),
            bus.subscribe(HandoffEvent, self.handoff_event.emit),
            bus.subscribe(AuthStep, self.auth_step.emit),
            bus.subscribe(SamplingAnswered, self.sampling_answered.emit),
        ]

    def detach(self) -> None:
        """Stop listening to the bus (window shutdown)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
