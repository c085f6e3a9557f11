"""The connection sidebar against real servers: the demo MCP server over stdio and Streamable HTTP, demo A2A agents.

The demo server's stdio profile is served in process (``InProcessDemoFactory``) where what is tested is the
sidebar, not the child: a stdio child spends ~1.7 s of CPU importing the SDK. The tests that name stdio keep
a real child (``child_ctx``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from pydantic import SecretStr
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from tests.support.demo_mcp import DEMO_STDIO_ARGS, InProcessDemoFactory, demo_stdio_profile
from tests.support.keyrings import RefusingKeyring
from tests.support.panel_context import make_context, reported_errors
from tests.support.signals import wait_until
from tests.support.windows import plain_window
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPStdioProfile, SecretKind, SecretRef
from workbench.core.profiles.credential_keys import secret_key
from workbench.core.profiles.service import SecretChanges
from workbench.core.profiles.store import ProfileStore
from workbench.demo.a2a_agents import run_demo_agents
from workbench.demo.mcp_server import serve_http
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.viewmodel import SidebarViewModel
from workbench.ui.panels.sidebar.widget import SidebarWidget

S = ConnectionState
BOUND = 30.0
DEMO_ARGS = DEMO_STDIO_ARGS


def stdio_demo(profile_id: str = "demo", name: str = "demo stdio") -> MCPStdioProfile:
    return demo_stdio_profile(id=profile_id, name=name)


async def wait_state(vm: SidebarViewModel, profile_id: str, state: ConnectionState, timeout: float = BOUND) -> None:
    """Wait (bounded) until the row of ``profile_id`` shows ``state``."""
    await wait_until(
        lambda: (item := vm.item(profile_id)) is not None and item.state is state, vm.item_changed, timeout
    )


class StateLog:
    """Every state text a row showed, in order (a row that changed otherwise, e.g. gained an error sign, adds none)."""

    def __init__(self, vm: SidebarViewModel) -> None:
        self.texts: dict[str, list[str]] = {}

        def record(pid: str) -> None:
            texts = self.texts.setdefault(pid, [])
            text = vm.item(pid).state_text
            if not texts or texts[-1] != text:
                texts.append(text)

        vm.item_changed.connect(record)


@pytest.fixture
def ctx(tmp_path) -> PanelContext:
    """The demo server's stdio profile served in process."""
    return make_context(tmp_path, factory=InProcessDemoFactory())


@pytest.fixture
def child_ctx(tmp_path) -> PanelContext:
    """Every profile as the app connects it: the demo server's stdio profile starts a real child."""
    return make_context(tmp_path)


def _sidebar(qtbot, ctx: PanelContext) -> SidebarWidget:
    widget = SidebarWidget(ctx)
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def sidebar(qtbot, ctx) -> SidebarWidget:
    return _sidebar(qtbot, ctx)


@pytest.fixture
def refusing_keyring() -> Iterator[RefusingKeyring]:
    """The test keyring as keyring's backend, refusing the accounts a test names; restored afterwards."""
    previous = keyring.get_keyring()
    backend = RefusingKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.mark.asyncio
async def test_the_stdio_demo_server_goes_connecting_then_connected_with_its_protocol_version(qtbot, child_ctx):
    ctx, sidebar = child_ctx, _sidebar(qtbot, child_ctx)
    log = StateLog(sidebar.viewmodel)
    try:
        task = sidebar.add_transient(stdio_demo())
        assert task is not None
        await asyncio.wait_for(task, BOUND)
        conn = ctx.services.connections.get("demo")
        assert conn is not None and conn.state is S.CONNECTED
        version = conn.protocol_version
        assert version
        assert log.texts["demo"] == ["connecting…", f"connected · {version}"]
        index = sidebar.model.index(sidebar.model.row_of("demo"))
        assert index.data(SidebarRole.STATE) == S.CONNECTED.value
        assert index.data(SidebarRole.STATE_TEXT) == f"connected · {version}"
        assert index.data(SidebarRole.KIND) == "MCP stdio"
        assert "workbench.demo.mcp_server" in index.data(SidebarRole.DETAIL)
        assert [p.id for p in ctx.services.profiles.load()] == ["demo"]  # saved (persist defaults to True)
    finally:
        await ctx.services.connections.aclose()
    assert log.texts["demo"][-1] == "closed"


@pytest.mark.asyncio
async def test_stdio_and_streamable_http_connections_are_live_at_once_and_disconnect_separately(qtbot, child_ctx):
    ctx, sidebar = child_ctx, _sidebar(qtbot, child_ctx)
    try:
        async with serve_http(transport="streamable-http") as url:
            sidebar.viewmodel.add(stdio_demo())
            sidebar.viewmodel.add(MCPHTTPProfile(id="http", name="demo http", url=url))
            sidebar.select("demo")
            assert ctx.selection.current == "demo"
            stdio_task = sidebar.connect_selected()
            sidebar.select("http")
            assert ctx.selection.current == "http"
            http_task = sidebar.connect_selected()
            assert stdio_task is not None and http_task is not None
            await asyncio.wait_for(asyncio.gather(stdio_task, http_task), BOUND)
            for pid, kind in (("demo", "MCP stdio"), ("http", "MCP HTTP")):
                item = sidebar.viewmodel.item(pid)
                assert item.state is S.CONNECTED
                assert item.kind == kind
                assert item.state_text == f"connected · {ctx.services.connections.get(pid).protocol_version}"
            assert not sidebar.actions_by_id["connect"].isEnabled()
            assert sidebar.actions_by_id["disconnect"].isEnabled()

            disconnect = sidebar.disconnect_selected()  # "http" is selected
            await asyncio.wait_for(disconnect, BOUND)
            assert sidebar.viewmodel.item("http").state_text == "closed"
            assert sidebar.viewmodel.item("demo").state is S.CONNECTED
            assert sidebar.actions_by_id["connect"].isEnabled()
            await ctx.services.connections.disconnect("demo")
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_an_a2a_demo_agent_connects_with_its_protocol_version(sidebar, ctx):
    try:
        async with run_demo_agents(chunk_delay=0) as urls:
            task = sidebar.add_transient(A2AProfile(id="travel", name="Travel", url=urls["travel"]), persist=False)
            await asyncio.wait_for(task, BOUND)
            item = sidebar.viewmodel.item("travel")
            assert item.kind == "A2A"
            assert item.state is S.CONNECTED
            assert item.state_text == f"connected · {ctx.services.connections.get('travel').protocol_version}"
            assert ctx.services.profiles.load() == []  # persist=False keeps it out of the store
            assert not item.persisted
            await ctx.services.connections.disconnect("travel")
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_an_unreachable_url_fails_with_the_reason_and_the_sidebar_keeps_working(sidebar, ctx):
    errors = reported_errors(ctx)
    log = StateLog(sidebar.viewmodel)
    try:
        bad = MCPHTTPProfile(id="bad", name="nowhere", url="http://127.0.0.1:9/mcp", connect_timeout=5)
        await asyncio.wait_for(sidebar.add_transient(bad), BOUND)
        item = sidebar.viewmodel.item("bad")
        assert item.state is S.FAILED
        conn_error = ctx.services.connections.get("bad").error
        assert conn_error is not None
        assert item.state_text == "failed"  # a state; the workspace says why, the tooltip too
        assert log.texts["bad"] == ["connecting…", "failed"]
        assert [e.code for e in errors] == [conn_error.code]
        assert conn_error.code in ("unreachable", "connect")
        index = sidebar.model.index(sidebar.model.row_of("bad"))
        assert conn_error.message in index.data(SidebarRole.TOOLTIP)

        # The app keeps going: another connection works, and the failed one may be retried.
        await asyncio.wait_for(sidebar.add_transient(stdio_demo()), BOUND)
        assert sidebar.viewmodel.item("demo").state is S.CONNECTED
        sidebar.select("bad")
        assert sidebar.actions_by_id["connect"].isEnabled()
        await asyncio.wait_for(sidebar.reconnect_selected(), BOUND)
        assert sidebar.viewmodel.item("bad").state is S.FAILED
        assert len(errors) == 2
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_a_stdio_command_that_does_not_exist_fails_with_the_reason(sidebar, ctx):
    errors = reported_errors(ctx)
    try:
        profile = MCPStdioProfile(id="ghost", name="ghost", command="/nonexistent/workbench-no-such-server")
        await asyncio.wait_for(sidebar.add_transient(profile), BOUND)
        item = sidebar.viewmodel.item("ghost")
        assert item.state is S.FAILED
        assert item.state_text == "failed"
        assert item.detail and item.detail in item.tooltip  # the reason, in the row's tooltip
        assert [e.code for e in errors] == [ctx.services.connections.get("ghost").error.code]
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_reconnect_closes_and_opens_the_connection_again(sidebar, ctx):
    log = StateLog(sidebar.viewmodel)
    try:
        await asyncio.wait_for(sidebar.add_transient(stdio_demo()), BOUND)
        sidebar.select("demo")
        await asyncio.wait_for(sidebar.reconnect_selected(), BOUND)
        version = ctx.services.connections.get("demo").protocol_version
        assert log.texts["demo"] == [
            "connecting…",
            f"connected · {version}",
            "closed",
            "connecting…",
            f"connected · {version}",
        ]
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_a_double_click_connects_the_row(sidebar, ctx, qtbot):
    try:
        sidebar.viewmodel.add(stdio_demo())
        sidebar.show()
        rect = sidebar.view.visualRect(sidebar.model.index(0))
        qtbot.mouseClick(sidebar.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(sidebar.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert ctx.selection.current == "demo"
        await wait_state(sidebar.viewmodel, "demo", S.CONNECTED)
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_remove_disconnects_and_deletes_the_saved_profile(sidebar, ctx):
    try:
        await asyncio.wait_for(sidebar.add_transient(stdio_demo()), BOUND)
        sidebar.select("demo")
        task = sidebar.remove_selected(confirm=False)
        await asyncio.wait_for(task, BOUND)
        assert sidebar.viewmodel.items() == []
        assert sidebar.model.rowCount() == 0
        assert ctx.services.connections.get("demo") is None
        assert ctx.services.profiles.load() == []
        assert ctx.selection.current is None
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_remove_keeps_the_row_and_the_profile_while_the_keyring_refuses_to_forget_its_secret(
    sidebar, ctx, refusing_keyring
):
    ctx.services.credentials = KeyringCredentialStore()
    key = secret_key("http", SecretKind.BEARER)
    profile = MCPHTTPProfile(
        id="http", name="remote", url="http://127.0.0.1:1/mcp", secrets=[SecretRef(kind=SecretKind.BEARER, key=key)]
    )
    assert await sidebar.viewmodel.save_profile(profile, SecretChanges(store={key: SecretStr("tok")})) is None
    refusing_keyring.refuse_delete.add(key)
    errors = reported_errors(ctx)
    await asyncio.wait_for(sidebar.viewmodel.remove("http"), BOUND)
    assert [e.code for e in errors] == ["no-secure-storage"]
    assert [i.id for i in sidebar.viewmodel.items()] == ["http"]
    assert ctx.services.profiles.load() == [profile]
    assert refusing_keyring.value(key) == "tok"

    refusing_keyring.refuse_delete.clear()
    await asyncio.wait_for(sidebar.viewmodel.remove("http"), BOUND)
    assert (sidebar.viewmodel.items(), ctx.services.profiles.load(), refusing_keyring.value(key)) == ([], [], None)


@pytest.mark.asyncio
async def test_remove_asks_first_and_cancel_keeps_the_profile(sidebar, ctx):
    sidebar.viewmodel.add(stdio_demo())
    sidebar.select("demo")
    task = sidebar.remove_selected()
    (box,) = await wait_signal(sidebar.dialog_opened, BOUND)
    box.reject()
    await asyncio.wait_for(task, BOUND)
    assert [p.id for p in ctx.services.profiles.load()] == ["demo"]


@pytest.mark.asyncio
async def test_add_opens_the_dialog_and_saves_and_selects_the_new_profile(sidebar, ctx):
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert dialog.isVisible()
    dialog.name_edit.setText("from dialog")
    dialog.command_edit.setText(sys.executable)
    dialog.args_edit.setPlainText(" ".join(DEMO_ARGS))
    dialog.ok_button().click()
    profile = await asyncio.wait_for(task, BOUND)
    assert profile is not None and profile.args == DEMO_ARGS
    assert [p.name for p in ctx.services.profiles.load()] == ["from dialog"]
    assert ctx.selection.current == profile.id
    assert sidebar.selected_id() == profile.id


@pytest.mark.asyncio
async def test_edit_changes_the_saved_profile_in_place(sidebar, ctx):
    sidebar.viewmodel.add(stdio_demo())
    sidebar.viewmodel.add(MCPHTTPProfile(id="http", name="second", url="http://127.0.0.1:1/mcp"))
    sidebar.select("demo")

    task = sidebar.edit_selected()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert dialog.name_edit.text() == "demo stdio"
    dialog.name_edit.setText("renamed")
    dialog.ok_button().click()
    edited = await asyncio.wait_for(task, BOUND)
    assert edited.id == "demo"
    assert [(p.id, p.name) for p in ctx.services.profiles.load()] == [("demo", "renamed"), ("http", "second")]
    assert sidebar.model.index(0).data(SidebarRole.NAME) == "renamed"


def test_duplicate_saves_a_copy_under_a_new_id(qtbot, tmp_path):
    ctx = make_context(tmp_path)
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.viewmodel.add(stdio_demo())
    sidebar.select("demo")
    copy = sidebar.duplicate_selected()
    assert copy is not None and copy.id != "demo"
    assert copy.name == "demo stdio (copy)"
    assert copy.args == DEMO_ARGS
    assert [p.id for p in ctx.services.profiles.load()] == ["demo", copy.id]
    assert ctx.selection.current == copy.id


def test_saved_profiles_are_listed_and_the_selection_follows_the_context(qtbot, tmp_path):
    ctx = make_context(tmp_path)
    ctx.services.profiles.upsert(stdio_demo())
    ctx.services.profiles.upsert(A2AProfile(id="a2a", name="agent", url="http://127.0.0.1:1/"))
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    assert [sidebar.model.index(r).data(SidebarRole.KIND) for r in range(2)] == ["MCP stdio", "A2A"]
    assert [sidebar.model.index(r).data(SidebarRole.STATE_TEXT) for r in range(2)] == ["disconnected"] * 2
    ctx.selection.select("a2a")
    assert sidebar.selected_id() == "a2a"
    assert not sidebar.actions_by_id["disconnect"].isEnabled()
    assert sidebar.actions_by_id["connect"].isEnabled()
    ctx.selection.select(None)
    assert sidebar.selected_id() is None
    assert not sidebar.actions_by_id["edit"].isEnabled()


def test_a_sync_connect_with_qtbot_reaches_connected(qtbot, qloop, tmp_path):
    ctx = make_context(tmp_path, factory=InProcessDemoFactory())
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.viewmodel.add(stdio_demo())
    sidebar.select("demo")
    with qtbot.waitSignal(ctx.bridge.connection_state_changed, timeout=int(BOUND * 1000)):
        sidebar.actions_by_id["connect"].trigger()  # what a toolbar click or a bound shortcut does
    task = sidebar.viewmodel.task("demo")
    assert task is not None
    qtbot.waitUntil(task.done, timeout=int(BOUND * 1000))
    assert sidebar.viewmodel.item("demo").state is S.CONNECTED
    closing = asyncio.ensure_future(ctx.services.connections.aclose())
    qtbot.waitUntil(closing.done, timeout=int(BOUND * 1000))
    closing.result()


def test_the_context_menu_offers_the_same_actions_for_the_row_under_the_pointer(qtbot, tmp_path):
    ctx = make_context(tmp_path)
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.viewmodel.add(stdio_demo())
    sidebar.show()
    pos = sidebar.view.visualRect(sidebar.model.index(0)).center()
    sidebar.view.customContextMenuRequested.emit(pos)
    menu = sidebar.findChild(QMenu)
    assert menu is not None
    assert ctx.selection.current == "demo"
    offered = {a for a in menu.actions() if not a.isSeparator()}
    assert offered == set(sidebar.actions_by_id.values())
    assert sidebar.actions_by_id["connect"].isEnabled()
    menu.close()


def test_a_stdio_profiles_command_is_shown_on_one_line_that_reads_back_as_its_arguments(tmp_path: Path) -> None:
    from tests.support.shell import bash_commands
    from workbench.ui.panels.sidebar.items import target_text

    argv = ["python3", "srv.py", "a b; touch pwned", "two\nlines", "\x1b[2J"]
    shown = target_text(MCPStdioProfile(name="local", command=argv[0], args=argv[1:]))
    assert "\n" not in shown and "\x1b" not in shown
    assert bash_commands(shown, cwd=tmp_path) == [argv]


@pytest.mark.asyncio
async def test_a_connect_says_connecting_in_its_row_and_its_workspace_from_the_key_press_on(qtbot, tmp_path):
    config = tmp_path / "config"
    ProfileStore(config).upsert(A2AProfile(id="nowhere", name="Nowhere", url="http://127.0.0.1:9/"))
    async with plain_window(config, qtbot) as window:
        window.resize(1366, 740)
        window.show()
        sidebar = window.sidebar
        rect = sidebar.view.visualRect(sidebar.model.index(sidebar.model.row_of("nowhere")))
        qtbot.mouseClick(sidebar.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert window.ctx.selection.current == "nowhere"
        assert window.inspector.placeholder.title_label.text().endswith("not connected")
        window.activateWindow()
        await wait_until(window.isActiveWindow, QApplication.instance().focusWindowChanged, BOUND)
        ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        QTest.keyClick(sidebar.view, Qt.Key.Key_C, ctrl_shift)  # Connection ▸ Connect; no task has run yet
        index = sidebar.model.index(sidebar.model.row_of("nowhere"))
        assert index.data(SidebarRole.STATE_TEXT) == "connecting…"  # not "disconnected" beside the centre's word
        assert window.inspector.placeholder.title_label.text() == "Nowhere: connecting…"
        await wait_state(sidebar.viewmodel, "nowhere", S.FAILED)  # nothing listens on port 9
