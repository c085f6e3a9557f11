"""A failure of a connection that is not selected shows on its sidebar row (warning sign, error in the
tooltip) until the user selects it or it reconnects; the banner stays the selected connection's.

Against real A2A agents on loopback: the demo travel agent (selected) and a bearer-protected echo
agent without its credential, where a chat message sent just before the user selects the travel
agent fails in the background (auth required).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.a2a_agents import bearer_app
from tests.support.panel_context import make_context
from tests.support.signals import wait_until
from workbench.core.errors import AuthRequiredError
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile, MCPStdioProfile
from workbench.core.safe_text import neutralise
from workbench.demo.a2a_agents import run_demo_agents, serve_agent
from workbench.ui.asyncutil import wait_signal
from workbench.ui.banner import ErrorBanner
from workbench.ui.errors import ErrorView
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0


async def fail_in_the_background(chat: ChatWidget, ctx: Any, on: str, then_select: str) -> ErrorView:
    """Send a message ``on`` a connection, select another one at once, return the error it reports."""
    reported: list[ErrorView] = []
    ctx.errors.error_reported.connect(reported.append)
    ctx.selection.select(on)
    finished = wait_signal(chat.viewmodel.turn_finished, BOUND)
    chat.input.setPlainText("hello")
    chat.send_button.click()
    ctx.selection.select(then_select)  # the user moves on while the reply is on its way
    _, state = await finished
    assert state == "failed"
    ctx.errors.error_reported.disconnect(reported.append)
    [view] = [v for v in reported if v.connection_id == on]
    return view


@pytest.mark.asyncio
async def test_an_error_of_an_unselected_connection_marks_its_row_until_selected_or_reconnected(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    sidebar = SidebarWidget(ctx)
    chat = ChatWidget(ctx)
    banner = ErrorBanner()
    for widget in (sidebar, chat, banner):
        qtbot.addWidget(widget)
    ctx.errors.error_reported.connect(banner.show_error)  # as the window wires them
    ctx.selection.changed.connect(banner.set_connection)
    sidebar.resize(300, 400)
    sidebar.show()
    try:
        async with run_demo_agents(chunk_delay=0.0) as urls, serve_agent(bearer_app) as protected:
            for profile in (
                A2AProfile(id="a", name="Travel", url=urls["travel"]),
                A2AProfile(id="b", name="Protected echo", url=protected),  # no credential stored
            ):
                task = sidebar.add_transient(profile, persist=False)
                assert task is not None
                await asyncio.wait_for(task, BOUND)
            await check_rows(ctx, sidebar, chat, banner)
    finally:
        await ctx.services.connections.aclose()


async def check_rows(ctx: Any, sidebar: SidebarWidget, chat: ChatWidget, banner: ErrorBanner) -> None:
    vm, model = sidebar.viewmodel, sidebar.model

    def row(profile_id: str, role: int) -> Any:
        return model.index(model.row_of(profile_id)).data(role)

    view = await fail_in_the_background(chat, ctx, on="b", then_select="a")
    assert view.code == AuthRequiredError.code
    # B's row says so: a warning sign and the error (neutralised) in its tooltip
    assert row("b", SidebarRole.UNSEEN_ERROR) == "\n".join(
        neutralise(p) for p in (view.headline, view.message, view.hint) if p
    )
    assert view.message in row("b", SidebarRole.TOOLTIP)
    assert row("a", SidebarRole.UNSEEN_ERROR) == ""
    assert banner.current is None  # the banner is A's, and A is fine
    sidebar.view.viewport().repaint()  # the sign is painted (a Qt warning would fail the test)
    # selecting B shows its error in the banner and clears the row's sign
    sidebar.select("b")
    assert ctx.selection.current == "b"
    assert banner.current is not None and banner.current.connection_id == "b"
    assert row("b", SidebarRole.UNSEEN_ERROR) == ""
    assert "Error" not in row("b", Qt.ItemDataRole.ToolTipRole)
    # again, and this time B reconnects: the sign goes with the new connection
    await fail_in_the_background(chat, ctx, on="b", then_select="a")
    assert row("b", SidebarRole.UNSEEN_ERROR)
    task = vm.reconnect_profile("b")
    assert task is not None
    await asyncio.wait_for(task, BOUND)
    await wait_until(lambda: vm.item("b").state is ConnectionState.CONNECTED, vm.item_changed, BOUND)  # type: ignore[union-attr]
    assert row("b", SidebarRole.UNSEEN_ERROR) == ""
    assert ctx.selection.current == "a"


@pytest.mark.asyncio
async def test_a_connection_that_fails_to_connect_while_another_is_selected_marks_its_own_row(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    sidebar = SidebarWidget(ctx)
    banner = ErrorBanner()
    for widget in (sidebar, banner):
        qtbot.addWidget(widget)
    ctx.errors.set_connection_source(lambda: ctx.selection.current)  # as the window does
    ctx.errors.error_reported.connect(banner.show_error)
    ctx.selection.changed.connect(banner.set_connection)
    model = sidebar.model
    try:
        async with run_demo_agents(chunk_delay=0.0) as urls:
            task = sidebar.add_transient(A2AProfile(id="a", name="Travel", url=urls["travel"]), persist=False)
            assert task is not None
            await asyncio.wait_for(task, BOUND)
            sidebar.select("a")
            broken = MCPStdioProfile(id="broken", name="Broken server", command="/nonexistent/mcp-server")
            task = sidebar.add_transient(broken, persist=False)  # connects in the background
            assert task is not None
            await asyncio.wait_for(task, BOUND)
            assert sidebar.viewmodel.item("broken").state is ConnectionState.FAILED  # type: ignore[union-attr]
            unseen = model.index(model.row_of("broken")).data(SidebarRole.UNSEEN_ERROR)
            assert unseen.startswith("Connecting to 'Broken server' failed")
            assert banner.current is None  # not pinned on the travel agent the user looks at
            sidebar.select("broken")
            assert banner.current is not None and banner.current.connection_id == "broken"
    finally:
        await ctx.services.connections.aclose()
