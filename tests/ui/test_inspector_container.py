"""The inspector dock follows the selection and connection states: placeholder, MCP or A2A inspector."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.support.a2a_inspector import BOUND, settled
from tests.support.panel_context import make_context
from tests.support.signals import until
from workbench.core.errors import ConnectError
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile, MCPHTTPProfile
from workbench.demo.a2a_agents import run_demo_agents
from workbench.demo.mcp_server.http import serve_http
from workbench.ui.context import PanelContext
from workbench.ui.errors import describe_error
from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget
from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget
from workbench.ui.panels.inspector.widget import InspectorWidget


@pytest.fixture
def ctx(tmp_path: Path, qapp: Any) -> PanelContext:
    return make_context(tmp_path)


def make_inspector(ctx: PanelContext, qtbot: Any) -> InspectorWidget:
    widget = InspectorWidget(ctx)
    qtbot.addWidget(widget)
    return widget


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_with_nothing_selected_the_inspector_asks_for_a_selection(ctx: PanelContext, qtbot: Any) -> None:
    ctx.services.profiles.upsert(A2AProfile(id="saved", name="agent", url="http://127.0.0.1:9"))
    widget = make_inspector(ctx, qtbot)
    assert widget.current_inspector is None
    assert widget.placeholder.title_label.text() == "Select a connection"
    assert widget.placeholder.connect_button.isHidden()


def test_on_a_first_run_the_inspector_says_how_to_add_a_connection(ctx: PanelContext, qtbot: Any) -> None:
    widget = make_inspector(ctx, qtbot)
    assert widget.placeholder.title_label.text() == "No connections yet"
    assert "workbench demo" in widget.placeholder.detail_label.text()


def test_a_saved_profile_that_is_not_connected_says_so_and_connect_asks_the_window(
    ctx: PanelContext, qtbot: Any
) -> None:
    ctx.services.profiles.upsert(A2AProfile(id="saved", name="My <b>agent</b>", url="http://127.0.0.1:9"))
    widget = make_inspector(ctx, qtbot)
    asked: list[str] = []
    widget.connect_requested.connect(asked.append)
    ctx.selection.select("saved")
    assert widget.current_inspector is None
    assert widget.placeholder.title_label.text() == "My <b>agent</b>: not connected"
    assert widget.placeholder.detail_label.text() == "Connect to inspect."
    assert not widget.placeholder.connect_button.isHidden()
    widget.placeholder.connect_button.click()
    assert asked == ["saved"]
    ctx.selection.select(None)
    assert widget.placeholder.title_label.text() == "Select a connection"


@pytest.mark.asyncio
async def test_a_connected_a2a_agent_shows_the_a2a_inspector_and_disconnecting_brings_back_the_placeholder(
    ctx: PanelContext, qtbot: Any
) -> None:
    widget = make_inspector(ctx, qtbot)
    async with settled():
        try:
            async with run_demo_agents(chunk_delay=0.0) as urls:
                profile = A2AProfile(id="travel", name="travel", url=urls["travel"])
                ctx.selection.select("travel")
                assert widget.placeholder.title_label.text() == "travel: not connected"
                seen: list[str] = []
                ctx.bridge.connection_state_changed.connect(
                    lambda _: seen.append(widget.placeholder.title_label.text())
                )
                conn = await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
                assert "travel: connecting…" in seen
                a2a = widget.current_inspector
                assert isinstance(a2a, A2AInspectorWidget)
                assert a2a.card_widget.name_label.text() == "Travel Planner (demo)"

                result = await asyncio.wait_for(conn.connected_agent().invoke_async("Plan a trip to Lisbon"), BOUND)
                widget.refresh()  # the window calls this when a chat turn completes
                assert [r.task_id for r in a2a.tasks_widget.model.rows()] == [result.task_id]

                await asyncio.wait_for(ctx.services.connections.disconnect("travel"), BOUND)
                assert widget.current_inspector is None
                assert widget.placeholder.title_label.text() == "travel: not connected"
                assert a2a.vm.agent is None  # released: no subscription or agent kept

                await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
                assert widget.current_inspector is a2a
                assert a2a.vm.agent is ctx.services.connections.get("travel").agent  # type: ignore[union-attr]
                assert a2a.tasks_widget.model.rowCount() == 0  # a new client has seen no task yet
                await until(a2a.vm.refreshed, lambda: a2a.tasks_widget.model.rowCount() == 1)  # the agent lists it
        finally:
            await asyncio.wait_for(ctx.services.connections.aclose(), BOUND)


@pytest.mark.asyncio
async def test_a_failed_connection_shows_why_and_offers_to_connect_again(ctx: PanelContext, qtbot: Any) -> None:
    widget = make_inspector(ctx, qtbot)
    async with settled():
        ctx.selection.select("gone")
        try:
            profile = A2AProfile(id="gone", name="Gone", url=f"http://127.0.0.1:{free_port()}")
            with pytest.raises(ConnectError):
                await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
            conn = ctx.services.connections.get("gone")
            assert conn is not None and conn.state is ConnectionState.FAILED and conn.error is not None
            assert widget.current_inspector is None
            assert widget.placeholder.title_label.text() == "Gone: connection failed"
            assert widget.placeholder.detail_label.text() == describe_error(conn.error).message
            assert not widget.placeholder.connect_button.isHidden()
        finally:
            await asyncio.wait_for(ctx.services.connections.aclose(), BOUND)


@pytest.mark.asyncio
async def test_switching_between_an_mcp_server_and_an_a2a_agent_swaps_the_protocol_inspector(
    ctx: PanelContext, qtbot: Any
) -> None:
    widget = make_inspector(ctx, qtbot)
    async with settled():
        try:
            async with serve_http() as mcp_url, run_demo_agents(chunk_delay=0.0) as urls:
                await asyncio.wait_for(
                    ctx.services.connections.connect(MCPHTTPProfile(id="demo", name="demo", url=mcp_url)), BOUND
                )
                await asyncio.wait_for(
                    ctx.services.connections.connect(A2AProfile(id="travel", name="travel", url=urls["travel"])),
                    BOUND,
                )
                ctx.selection.select("demo")
                mcp = widget.current_inspector
                assert isinstance(mcp, MCPInspectorWidget)
                assert mcp.vm.agent is ctx.services.connections.get("demo").agent  # type: ignore[union-attr]
                ctx.selection.select("travel")
                a2a = widget.current_inspector
                assert isinstance(a2a, A2AInspectorWidget)
                assert a2a.vm.connection_id == "travel"
                assert mcp.vm.agent is None  # the MCP inspector let go of its connection
                ctx.selection.select("demo")
                assert widget.current_inspector is mcp
                assert a2a.vm.agent is None
                assert widget.inspector("a2a") is a2a and widget.inspector("mcp") is mcp
        finally:
            await asyncio.wait_for(ctx.services.connections.aclose(), BOUND)
