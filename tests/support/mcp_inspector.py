"""The MCP inspector for tests: a live inspector over the real demo server, and what its tests do to it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.panel_context import make_context
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget


def stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    """The demo server as a stdio profile (``inspector`` serves it in process unless told otherwise)."""
    return demo_stdio_profile(**kwargs)


@dataclass
class Inspected:
    """What ``inspector`` yields: the panel context, the inspector widget and the connection it shows."""

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
