"""Helpers for the MCP inspector tests: a connected inspector over the real demo server, signal recorders."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import SignalInstance

from tests.ui.support import make_context
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.core.protocols.mcp import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget


def stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    return MCPStdioProfile(
        name="demo", command=sys.executable, args=["-m", "workbench.demo.mcp_server", "--stdio"], **kwargs
    )


class SignalLog:
    """Records every emission of a signal from creation on; ``wait_for`` returns the first match."""

    def __init__(self, signal: SignalInstance) -> None:
        self.events: list[tuple[Any, ...]] = []
        self._changed = asyncio.Event()
        self._signal = signal
        signal.connect(self._on)

    def _on(self, *args: Any) -> None:
        self.events.append(args)
        self._changed.set()

    async def wait_for(self, predicate: Callable[..., bool] = lambda *a: True, timeout: float = 15) -> tuple[Any, ...]:
        async def scan() -> tuple[Any, ...]:
            seen = 0
            while True:
                for args in self.events[seen:]:
                    if predicate(*args):
                        return args
                seen = len(self.events)
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(scan(), timeout)

    def close(self) -> None:
        self._signal.disconnect(self._on)


@dataclass
class Inspected:
    ctx: PanelContext
    widget: MCPInspectorWidget
    connection_id: str


def in_process_demo(ctx: PanelContext, profile: ConnectionProfile) -> MCPAgent:
    """The demo server in this process, as the connection manager would build ``profile``'s agent.

    What the inspector shows depends on the server, not on how its bytes travel: a stdio child would
    spend ~1.7 s of CPU importing the SDK per test. The tests that pass a profile keep a real one.
    """
    return MCPAgent.in_process(
        build_server(), name=profile.name, wire=ctx.services.wire, bus=ctx.services.bus, connection_id=profile.id
    )


@contextlib.asynccontextmanager
async def inspector(tmp_path: Path, qtbot: Any, profile: ConnectionProfile | None = None) -> AsyncIterator[Inspected]:
    """An inspector showing a live connection to ``profile`` (the demo server in process by default)."""
    ctx = make_context(tmp_path)
    try:
        if profile is None:
            demo = stdio_profile()
            conn = await ctx.services.connections.connect(demo, agent=in_process_demo(ctx, demo))
        else:
            conn = await ctx.services.connections.connect(profile)
        widget = MCPInspectorWidget(ctx)
        qtbot.addWidget(widget)
        widget.resize(1200, 800)
        widget.show()
        widget.show_connection(conn.id)
        yield Inspected(ctx, widget, conn.id)
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()
