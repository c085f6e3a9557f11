"""Shared by UI tests: a PanelContext over real core services (no window needed), the demo MCP server in
this process behind the stdio profile that names it, and a bounded wait on a signal."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QColor

from workbench.core.agent_factory import AgentFactory, AgentHandlers, DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.events import EventBus
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.settings import ProfileStore
from workbench.core.wire import WireRecorder
from workbench.ui.asyncutil import wait_signal
from workbench.ui.bridge import CoreBridge
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorPresenter
from workbench.ui.selection import ConnectionSelection
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate

if TYPE_CHECKING:  # importing the MCP SDK is left to the tests that use it
    from workbench.core.protocols.mcp import MCPAgent

DEMO_STDIO_ARGS = ["-m", "workbench.demo.mcp_server", "--stdio"]
"""What starts the demo MCP server as a stdio child (after ``sys.executable``)."""


def demo_stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    """The demo MCP server as a stdio profile: a real child, unless the context's factory serves it in process."""
    kwargs.setdefault("name", "demo")
    return MCPStdioProfile(command=sys.executable, args=list(DEMO_STDIO_ARGS), **kwargs)


def is_demo_stdio(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` starts the demo MCP server over stdio, with nothing for the child alone.

    A profile with an environment, secrets or a working directory tests what reaches the process.
    """
    return (
        isinstance(profile, MCPStdioProfile)
        and profile.command == sys.executable
        and profile.args == DEMO_STDIO_ARGS
        and not profile.env
        and not profile.secrets
        and profile.cwd is None
    )


def in_process_demo(
    profile: MCPStdioProfile,
    *,
    wire: WireRecorder | None,
    bus: EventBus | None,
    connection_id: str | None = None,
    handlers: AgentHandlers | None = None,
) -> MCPAgent:
    """The demo server in this process, with what ``build_agent`` gives ``profile``'s stdio agent.

    A test of what the window shows of the demo server does not depend on how its bytes travel, and a
    stdio child spends ~1.7 s of CPU importing the MCP SDK before it serves. Tests of the process or
    the transport (stderr, exits, the transport's name) keep a real child.
    """
    from workbench.core.protocols.mcp import MCPAgent  # lazy: the SDK only for the tests that use it
    from workbench.demo.mcp_server.app import build_server

    handlers = handlers or AgentHandlers()
    return MCPAgent.in_process(
        build_server(),
        name=profile.name,
        mode=profile.mode,
        agent_tool=profile.agent_tool,
        roots=[(r.uri, r.name) for r in profile.roots] or None,
        elicitation_handler=handlers.elicitation,
        sampling_handler=handlers.sampling,
        wire=wire,
        bus=bus,
        connection_id=connection_id or profile.id,
        connect_timeout=profile.connect_timeout,
        request_timeout=profile.request_timeout,
    )


class InProcessDemoFactory:
    """The app's ``DefaultAgentFactory``, except that the demo stdio profile's server runs in this process.

    Args:
        handlers: What the UI answers the peer's requests with (given to both paths).
        **options: The rest of ``DefaultAgentFactory``'s arguments.
    """

    def __init__(self, *, handlers: AgentHandlers | None = None, **options: Any) -> None:
        self._handlers = handlers or AgentHandlers()
        self._default = DefaultAgentFactory(handlers=self._handlers, **options)

    async def __call__(
        self, profile: ConnectionProfile, *, connection_id: str, wire: WireRecorder | None, bus: EventBus | None
    ) -> RemoteAgent:
        """The in-process demo agent for the demo stdio profile, else what the app would build."""
        if isinstance(profile, MCPStdioProfile) and is_demo_stdio(profile):
            return in_process_demo(profile, wire=wire, bus=bus, connection_id=connection_id, handlers=self._handlers)
        return await self._default(profile, connection_id=connection_id, wire=wire, bus=bus)


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


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21; 4.5 is the floor for body text)."""

    def luminance(c: QColor) -> float:
        def channel(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
