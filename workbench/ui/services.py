"""The core services one window works with, built once by the composition root (``workbench.app``)."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.connections import ConnectionManager
from workbench.core.events import EventBus
from workbench.core.settings import ProfileStore
from workbench.core.wire import WireRecorder


@dataclass(slots=True)
class Services:
    """Everything Qt-free a panel's view-model may use.

    Attributes:
        bus: Core events (connection state, stderr lines, list changes ...).
        wire: The one wire recorder shared by every connection.
        connections: Live connections (one owner task each).
        profiles: Saved connection profiles.
    """

    bus: EventBus
    wire: WireRecorder
    connections: ConnectionManager
    profiles: ProfileStore
