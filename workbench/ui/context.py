"""PanelContext: what every panel and dialog is built with (services, signals, shared UI state)."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.ui.bridge import CoreBridge
from workbench.ui.errors import ErrorPresenter
from workbench.ui.selection import ConnectionSelection
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate


@dataclass(slots=True)
class PanelContext:
    """Shared collaborators of the window's panels; ``MainWindow`` builds one and wires them.

    Attributes:
        services: The Qt-free core (bus, wire recorder, connections, profiles).
        bridge: Core events as Qt signals.
        errors: Where failures go to be shown (never show them yourself).
        selection: The selected connection.
        links: Where clicked links in untrusted content go (the window asks before opening).
    """

    services: Services
    bridge: CoreBridge
    errors: ErrorPresenter
    selection: ConnectionSelection
    links: LinkGate
