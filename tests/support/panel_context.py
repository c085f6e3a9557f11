"""A ``PanelContext`` over real core services, for panel and dialog tests that need no window, and the
errors reported through it."""

from __future__ import annotations

from pathlib import Path

from workbench.core.agent_factory import AgentFactory, DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.events import EventBus
from workbench.core.profiles.store import ProfileStore
from workbench.core.wire.recorder import WireRecorder
from workbench.ui.bridge import CoreBridge
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorPresenter, ErrorView
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


def reported_errors(ctx: PanelContext) -> list[ErrorView]:
    """A list that collects every error reported to ``ctx``'s ErrorPresenter from now on."""
    seen: list[ErrorView] = []
    ctx.errors.error_reported.connect(seen.append)
    return seen
