"""The window's Roots editor (added, picked and removed roots reach the server at once and stay in the profile) and
the connection dialog's client-capability check boxes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.panel_context import make_context
from workbench.core.agent_factory import AgentHandlers
from workbench.core.connection import Connection
from workbench.core.profiles import A2AProfile, MCPHTTPProfile
from workbench.core.profiles.client_capabilities import ALL_ON
from workbench.core.wire.records import Direction, WireKind
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.inspector.mcp.roots import RootsWidget
from workbench.ui.panels.inspector.mcp.roots_vm import OFFERED, SAVED_ONLY
from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget

BOUND = 30.0


def test_the_dialog_shows_and_saves_which_client_capabilities_a_profile_advertises(qtbot: Any) -> None:
    switches = ALL_ON.without(["sampling", "apps"])
    profile = MCPHTTPProfile(name="remote", url="http://127.0.0.1:8000/mcp", client_capabilities=switches)
    dialog = ConnectionDialog(profile)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.client_capabilities.isVisible()
    boxes = dialog.client_capabilities.boxes
    assert not boxes["sampling"].isChecked() and not boxes["apps"].isChecked()
    assert boxes["roots"].isChecked() and not boxes["sampling_tools"].isEnabled()  # tools need sampling
    qtbot.mouseClick(boxes["elicitation_url"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(boxes["sampling"], Qt.MouseButton.LeftButton)
    assert boxes["sampling_tools"].isEnabled()
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.mouseClick(dialog.ok_button(), Qt.MouseButton.LeftButton)
    saved = dialog.profile()
    assert isinstance(saved, MCPHTTPProfile)
    assert saved.client_capabilities == ALL_ON.without(["elicitation-url", "apps"])
    a2a = ConnectionDialog(A2AProfile(name="agent", url="http://127.0.0.1:8001/"))
    qtbot.addWidget(a2a)
    a2a.show()
    assert not a2a.client_capabilities.isVisible()  # an A2A agent is not an MCP client's peer


def list_changed(ctx: Any) -> int:
    return sum(
        1
        for r in ctx.services.wire.records()
        if r.kind is WireKind.JSONRPC
        and r.direction is Direction.OUT
        and r.method == "notifications/roots/list_changed"
    )


async def offered(agent: Any) -> list[str]:
    result = await agent.call_tool("show_roots", {})
    roots: list[str] = result.structured_content["result"]
    return roots


@contextlib.asynccontextmanager
async def roots_editor(
    qtbot: Any, tmp_path: Path, **profile_options: Any
) -> AsyncIterator[tuple[PanelContext, Connection, RootsWidget]]:
    """The Roots editor of an inspector connected to a saved demo-server profile (in process, on a legacy wire)
    whose client edits its roots; ``profile_options`` change the profile."""
    ctx = make_context(tmp_path / "config", factory=InProcessDemoFactory(handlers=AgentHandlers(edits_roots=True)))
    try:
        profile = demo_stdio_profile(name="demo", mode="legacy", **profile_options)
        ctx.services.profiles.upsert(profile)
        conn = await ctx.services.connections.connect(profile)
        widget = MCPInspectorWidget(ctx)
        qtbot.addWidget(widget)
        widget.show_connection(conn.id)
        yield ctx, conn, widget.roots
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()


@pytest.mark.asyncio
async def test_roots_added_typed_and_removed_in_the_window_reach_the_server_at_once_and_stay_saved(
    qtbot: Any, tmp_path: Path
) -> None:
    async with roots_editor(qtbot, tmp_path) as (ctx, conn, roots):
        assert roots.note.text() == OFFERED and roots.list.topLevelItemCount() == 0
        folder = tmp_path / "project"
        qtbot.keyClicks(roots.uri_edit, str(folder))
        qtbot.mouseClick(roots.add_button, Qt.MouseButton.LeftButton)
        assert roots.vm.pending is not None
        await asyncio.wait_for(roots.vm.pending, BOUND)
        qtbot.keyClicks(roots.uri_edit, "file:///data")
        qtbot.keyClicks(roots.name_edit, "shared data")
        qtbot.keyClick(roots.uri_edit, Qt.Key.Key_Return)
        await asyncio.wait_for(roots.vm.pending, BOUND)
        assert [roots.list.topLevelItem(i).text(0) for i in range(2)] == ["project", "shared data"]
        assert await offered(conn.agent) == [folder.as_uri(), "file:///data"]
        assert list_changed(ctx) == 2
        roots.list.setCurrentItem(roots.list.topLevelItem(0))
        qtbot.mouseClick(roots.remove_button, Qt.MouseButton.LeftButton)
        await asyncio.wait_for(roots.vm.pending, BOUND)
        assert await offered(conn.agent) == ["file:///data"]
        assert list_changed(ctx) == 3
        [saved] = ctx.services.profiles.load()
        assert [(r.uri, r.name) for r in saved.roots] == [("file:///data", "shared data")]
        qtbot.keyClicks(roots.uri_edit, "https://example.org/not-a-folder")
        qtbot.mouseClick(roots.add_button, Qt.MouseButton.LeftButton)
        assert not roots.error.isHidden() and roots.error.error is not None
        assert roots.error.error.code == "config"
        assert list_changed(ctx) == 3


@pytest.mark.asyncio
async def test_with_the_roots_capability_off_the_editor_saves_and_says_the_server_is_not_told(
    qtbot: Any, tmp_path: Path
) -> None:
    async with roots_editor(qtbot, tmp_path, client_capabilities=ALL_ON.without(["roots"])) as (ctx, _, roots):
        assert roots.note.text() == SAVED_ONLY
        qtbot.keyClicks(roots.uri_edit, "file:///data")
        qtbot.mouseClick(roots.add_button, Qt.MouseButton.LeftButton)
        await asyncio.wait_for(roots.vm.pending, BOUND)  # type: ignore[arg-type]
        assert list_changed(ctx) == 0
        [saved] = ctx.services.profiles.load()
        assert [r.uri for r in saved.roots] == ["file:///data"]
