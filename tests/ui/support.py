"""Shared by UI tests: a PanelContext over real core services (no window needed), and a bounded wait on a signal."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import SignalInstance

from workbench.core.agent_factory import AgentFactory, DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.events import EventBus
from workbench.core.settings import ProfileStore
from workbench.core.wire import WireRecorder
from workbench.ui.asyncutil import wait_signal
from workbench.ui.bridge import CoreBridge
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorPresenter
from workbench.ui.selection import ConnectionSelection
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate


def make_context(config_dir: Path, *, factory: AgentFactory | None = None) -> PanelContext:
    """A PanelContext with a fresh bus, wire recorder, connection manager and profile store."""
    bus = EventBus()
    wire = WireRecorder()
    manager = ConnectionManager(bus, wire=wire, factory=factory or DefaultAgentFactory())
    services = Services(bus=bus, wire=wire, connections=manager, profiles=ProfileStore(config_dir))
    return PanelContext(
        services=services,
        bridge=CoreBridge(bus),
        errors=ErrorPresenter(),
        selection=ConnectionSelection(),
        links=LinkGate(),
    )


async def wait_until(predicate: Callable[[], bool], signal: SignalInstance, timeout: float = 30.0) -> None:
    """Re-check ``predicate`` each time ``signal`` fires, until it holds or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while not predicate():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("condition not reached")
        await wait_signal(signal, remaining)
