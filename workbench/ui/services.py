"""The core services one window works with, built once by the composition root (``workbench.app``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.core.connections import ConnectionManager
from workbench.core.credentials import CredentialStore, MemoryCredentialStore
from workbench.core.events import EventBus
from workbench.core.profiles.service import ProfileService
from workbench.core.profiles.store import ProfileStore
from workbench.core.sampling.service import SamplingService
from workbench.core.tool_approval import ToolCallGate
from workbench.core.wire.recorder import WireRecorder


@dataclass(slots=True)
class Services:
    """Everything Qt-free a panel's view-model may use.

    Attributes:
        bus: Core events (connection state, stderr lines, list changes ...).
        wire: The one wire recorder shared by every connection.
        connections: Live connections (one owner task each).
        profiles: Saved connection profiles.
        credentials: Where secret values live (the OS keyring in the app; memory in tests).
        sampling: Who answers each connection's sampling requests (``None``: the window's dialog alone).
        tool_calls: Where every tool call the window makes waits for the user's yes when its profile's
            policy asks (the window sets its approver to the approval dialog).
    """

    bus: EventBus
    wire: WireRecorder
    connections: ConnectionManager
    profiles: ProfileStore
    credentials: CredentialStore = field(default_factory=MemoryCredentialStore)
    sampling: SamplingService | None = None
    tool_calls: ToolCallGate = field(default_factory=ToolCallGate)

    @property
    def profile_service(self) -> ProfileService:
        """The use cases on saved profiles: save with secrets, remove, rename, allowed origins.

        Built over ``profiles`` and ``credentials`` as they are when asked (a test may swap the
        credential store after building the services).
        """
        return ProfileService(self.profiles, self.credentials)
