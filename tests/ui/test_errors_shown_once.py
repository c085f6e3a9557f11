"""An error is shown once: where the user acted when that panel shows it, else in the window's banner.

Not in the banner and the panel and the status bar at once (errors.py states the rule). Elsewhere a short
state only: a call's status line ("Done in 24 ms · tool error"), its history entry, a sidebar row ("failed").
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from tests.support.a2a_agents import echo_app
from tests.support.a2a_inspector import BOUND
from tests.support.signals import until
from tests.support.tool_calls import call_anyway
from tests.support.windows import demo_window
from workbench.app import Workbench, build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConnectError, UnreachableError
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.demo.a2a_agents import serve_agent
from workbench.ui.asyncutil import wait_signal
from workbench.ui.mainwindow import MainWindow
from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget
from workbench.ui.panels.inspector.mcp.per_connection import SCHEMA_VIOLATION
from workbench.ui.panels.sidebar.itemmodel import SidebarRole


def showing(window: MainWindow, words: str) -> list[str]:
    """Every text on screen holding ``words``: labels, combo boxes' entries and the sidebar rows' state lines."""
    texts: list[str] = []
    for widget in window.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        elif isinstance(widget, QComboBox):
            texts.append(widget.currentText())
    model = window.sidebar.model
    texts += [str(model.index(row).data(SidebarRole.STATE_TEXT) or "") for row in range(model.rowCount())]
    return [text for text in texts if words.lower() in text.lower()]


@contextlib.asynccontextmanager
async def window(tmp_path: Path, qtbot: Any) -> AsyncIterator[Workbench]:
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    qtbot.addWidget(bench.window)
    bench.window.resize(1366, 768)
    bench.window.show()
    try:
        yield bench
    finally:
        done = asyncio.ensure_future(wait_signal(bench.window.shutdown_finished, BOUND))
        bench.window.close()
        await done


@pytest.mark.asyncio
async def test_a_failure_the_tasks_tab_shows_is_not_repeated_in_the_banner_or_the_status_bar(
    qtbot: Any, tmp_path: Path
) -> None:
    async with serve_agent(echo_app) as url, window(tmp_path, qtbot) as bench:
        ctx = bench.ctx
        conn = await asyncio.wait_for(ctx.services.connections.connect(A2AProfile(id="e", name="e", url=url)), BOUND)
        task_id = ""
        async with contextlib.aclosing(conn.agent.stream_async("silent 60")) as events:
            async for event in events:
                if event.task_id:
                    task_id = event.task_id
                    break  # the task keeps running on the agent
        ctx.selection.select("e")
        workspace = bench.window.inspector.inspector("a2a")
        assert isinstance(workspace, A2AInspectorWidget)
        workspace.vm.set_poll_interval(600_000)  # nothing re-reads the task behind the test's back
        workspace.tabs.setCurrentWidget(workspace.tasks_widget)
        tasks = workspace.tasks_widget
        await until(workspace.vm.tasks_changed, lambda: tasks.model.row_of(task_id) is not None)
        row = tasks.table.visualRect(tasks.model.index(tasks.model.row_of(task_id), 0)).center()
        QTest.mouseClick(tasks.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, row)
        await until(
            workspace.vm.busy_changed, lambda: tasks.busy_label.text() == "" and tasks.cancel_button.isEnabled()
        )
        async with A2AAgent(url) as other:  # it ends elsewhere: the window's Cancel is refused
            await other.tasks.cancel_view(task_id)
        reported: list[Any] = []
        ctx.errors.error_reported.connect(reported.append)
        QTest.mouseClick(tasks.cancel_button, Qt.MouseButton.LeftButton)
        await until(workspace.vm.error_shown, lambda: tasks.error_label.isVisible())
        assert len(reported) == 1
        assert not bench.window.banner.isVisible()
        assert bench.window.statusBar().currentMessage() == ""


@pytest.mark.asyncio
async def test_a_background_failure_is_shown_in_the_banner_only(qtbot: Any, tmp_path: Path) -> None:
    async with window(tmp_path, qtbot) as bench:
        bench.ctx.errors.report(ConnectError("The server refused.", hint="start it"), "connecting to demo")
        assert bench.window.banner.isVisible()
        assert bench.window.statusBar().currentMessage() == ""


@pytest.mark.asyncio
async def test_a_tool_error_and_a_schema_violation_are_each_said_once_and_the_status_gives_the_state(
    qtbot: Any, tmp_path: Path
) -> None:
    async with demo_window(tmp_path, qtbot) as bench:
        window = bench.window
        window.resize(1366, 740)
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        call = mcp.tools.detail.call

        assert mcp.tools.select_tool("fail")
        call.form.set_value({"message": "boom"})
        await call_anyway(call, qtbot)
        assert call.history.currentData().outcome == "tool error"
        assert showing(window, "reported an error") == [call.result_view.error_banner.text()]
        assert call.status.text().endswith(" · tool error")  # the state beside the history, not the sentence

        assert mcp.tools.select_tool("broken_output")
        await call_anyway(call, qtbot)
        assert call.history.currentData().outcome == SCHEMA_VIOLATION
        assert showing(window, "does not match") == [call.result_view.schema_banner_label.text()]
        assert call.status.text().endswith(f" · {SCHEMA_VIOLATION}")
        assert SCHEMA_VIOLATION in call.history.currentText()


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.asyncio
async def test_a_failed_connect_is_said_once_in_its_workspace_and_its_sidebar_row_says_failed(
    qtbot: Any, tmp_path: Path
) -> None:
    async with window(tmp_path, qtbot) as bench:
        port = free_port()
        assert bench.window.sidebar.viewmodel.add(
            A2AProfile(id="nowhere", name="nowhere", url=f"http://127.0.0.1:{port}/")
        )
        bench.ctx.selection.select("nowhere")
        placeholder = bench.window.inspector.placeholder
        reported: list[Any] = []
        bench.ctx.errors.error_reported.connect(reported.append)
        QTest.mouseClick(placeholder.connect_button, Qt.MouseButton.LeftButton)
        await until(bench.ctx.errors.error_reported, lambda: bool(reported))
        conn = bench.ctx.services.connections.get("nowhere")
        assert conn is not None and conn.state is ConnectionState.FAILED
        error = conn.error
        assert isinstance(error, UnreachableError)
        assert error.message.count(f"127.0.0.1:{port}") == 1  # the URL once, not as where and again as what

        # said once, fully, where the user looks: the workspace of the failed connection
        assert showing(bench.window, error.message) == [placeholder.detail_label.text()]
        assert not bench.window.banner.isVisible()
        hint = placeholder.hint_label.text()
        assert placeholder.hint_label.isVisible() and hint[:1].isupper() and hint.endswith("."), hint
        assert placeholder.connect_button.isVisible() and placeholder.details_button.isVisible()
        # elsewhere a state: the sidebar row and the status bar say "failed", the row's tooltip says why
        row = bench.window.sidebar.model.index(bench.window.sidebar.model.row_of("nowhere"))
        assert row.data(SidebarRole.STATE_TEXT) == "failed"
        assert error.message in row.data(SidebarRole.TOOLTIP)
        assert bench.window.statusBar().currentMessage() == ""
