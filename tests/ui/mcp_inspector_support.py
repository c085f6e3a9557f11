"""Helpers for the MCP inspector tests: a connected inspector over the real demo server, signal recorders."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import SignalInstance

from tests.ui.support import InProcessDemoFactory, demo_stdio_profile, make_context
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget


def stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    """The demo server as a stdio profile (``inspector`` serves it in process unless told otherwise)."""
    return demo_stdio_profile(**kwargs)


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


@contextlib.asynccontextmanager
async def inspector(
    tmp_path: Path, qtbot: Any, profile: ConnectionProfile | None = None, *, child_process: bool = False
) -> AsyncIterator[Inspected]:
    """An inspector showing a live connection to ``profile`` (default: the demo server's stdio profile).

    The demo server's stdio profile is served in this process unless ``child_process``: what the
    inspector shows depends on the server, not on how its bytes travel, and a stdio child spends
    ~1.7 s of CPU importing the SDK per test. Every other profile gets a real connection.
    """
    ctx = make_context(tmp_path, factory=None if child_process else InProcessDemoFactory())
    try:
        conn = await ctx.services.connections.connect(profile if profile is not None else stdio_profile())
        widget = MCPInspectorWidget(ctx)
        qtbot.addWidget(widget)
        widget.resize(1200, 800)
        widget.show()
        widget.show_connection(conn.id)
        yield Inspected(ctx, widget, conn.id)
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()
