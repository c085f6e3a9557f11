"""A new user's walk of the window (7): the tools page while a call runs, where the focus goes when it ends,
a call cancelled from the Tasks tab, the Call button beside a short form on a wide screen, the connection
dialog's "Advertises" row, and Resubscribe on a task that has ended.

Clicks and keys go to the widgets as a person's would; distances are measured on the widgets as laid out.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from tests.support.connection_dialogs import new_connection_dialog
from tests.support.mcp_inspector import Inspected, activate, cancel_first_task, inspector, listed_tasks
from tests.support.signals import until
from tests.support.tool_page import call_then_cancel, click_call, click_cancel_once_running, pick_tool
from tests.support.windows import demo_window
from workbench.core.protocols.mcp import MCPAgent
from workbench.ui.mainwindow import MainWindow

WAIT = 30.0
SLOW = {"n": 2000, "delay": 0.05}
"""slow_count's arguments for a call that runs until it is cancelled (100 s)."""
WIDE, LAPTOP = QSize(1920, 1052), QSize(1366, 740)
"""1920×1080 and 1366×768 screens less a window's title bar."""


def _agent(it: Inspected) -> MCPAgent:
    conn = it.ctx.services.connections.get(it.connection_id)
    assert conn is not None and isinstance(conn.agent, MCPAgent)
    return conn.agent


async def _settle() -> None:
    for _ in range(4):
        await asyncio.sleep(0.02)
        QApplication.processEvents()


@pytest.mark.asyncio
async def test_another_tools_page_names_the_running_call_goes_to_it_and_offers_no_cancel_of_it(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        finished = click_call(qtbot, it, "slow_count", SLOW)
        call = pick_tool(qtbot, it, "echo")
        assert not call.call_button.isEnabled()  # one call at a time per connection
        assert call.running_note.isVisible() and "slow_count" in call.running_note.text()
        assert call.go_to_running.isVisible() and call.go_to_running.text() == "Go to slow_count"
        # this page's Cancel would stop another tool's call: not offered here, and says where it is
        assert not call.cancel_button.isEnabled()
        assert "slow_count" in call.cancel_button.toolTip()
        qtbot.mouseClick(call.go_to_running, Qt.MouseButton.LeftButton)
        assert it.widget.tools.list.current_key == "slow_count"
        assert not call.running_note.isVisible() and not call.go_to_running.isVisible()
        assert call.progress.isVisible() and call.cancel_button.isEnabled()
        await click_cancel_once_running(qtbot, it)
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "cancelled"
        call = pick_tool(qtbot, it, "echo")
        assert call.call_button.isEnabled() and not call.running_note.isVisible()


@pytest.mark.asyncio
async def test_the_focus_is_on_call_after_cancel_and_after_a_call_that_ends(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        await call_then_cancel(qtbot, it, "slow_count", SLOW, WAIT)
        call = it.widget.tools.detail.call
        assert call.call_button.hasFocus(), QApplication.focusWidget()
        finished = click_call(qtbot, it, "echo", {"text": "hi"})
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "ok"
        assert call.call_button.hasFocus(), QApplication.focusWidget()
        # from the keyboard: Space on Call calls, and the focus is back on Call when the call ends
        qtbot.keyClick(call.call_button, Qt.Key.Key_Space)
        await finished.wait_for(lambda ended: ended is not record, timeout=WAIT)
        assert call.call_button.hasFocus(), QApplication.focusWidget()


@pytest.mark.asyncio
async def test_a_call_cancelled_from_the_tasks_tab_reads_as_cancelled_on_its_tool_page(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        # the page's own Cancel, for the words and look a cancelled call has
        await call_then_cancel(qtbot, it, "slow_count", SLOW, WAIT)
        call = it.widget.tools.detail.call
        own_words, own_banner = call.status.text().split(" after ")[0], call.banner.isVisible()
        assert own_words == "Cancelled" and not own_banner

        finished = click_call(qtbot, it, "task_forever")
        await listed_tasks(it.widget, WAIT)
        await cancel_first_task(it.widget, WAIT)
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "cancelled" and record.error is None
        it.widget.tabs.setCurrentWidget(it.widget.tools)
        assert it.widget.tools.list.current_key == "task_forever"
        assert call.status.text().split(" after ")[0] == own_words
        assert call.banner.isVisible() == own_banner
        assert call.history.currentText().split(" · ")[1] == "cancelled"


def _gap_under_last_field(window: MainWindow) -> int:
    """Pixels from the bottom of the tool form's last field to the top of the Call button."""
    mcp = window.inspector.inspector("mcp")
    assert mcp is not None
    call = mcp.tools.detail.call
    assert call.form is not None
    fields, _ = call.form.tab_stops()
    last: QWidget = fields[-1]
    bottom = last.mapTo(call, QPoint(0, last.height())).y()
    return call.call_button.mapTo(call, QPoint(0, 0)).y() - bottom


@pytest.mark.asyncio
async def test_the_call_button_stays_under_a_one_field_form_on_a_wide_screen_and_a_laptop(
    qtbot: Any, tmp_path: Path
) -> None:
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        for size in (WIDE, LAPTOP):
            window.resize(size)
            await _settle()
            assert mcp.tools.select_tool("echo")
            await _settle()
            call = mcp.tools.detail.call
            lines = call.fontMetrics().lineSpacing()
            gap = _gap_under_last_field(window)
            # what is under the field is the form's JSON beside it, whole (3 lines): 28 px wide, 60 px stacked
            assert 0 <= gap <= 5 * lines, (size, gap)
            # the blank space is under the Call row: the row is not pushed to the page's foot
            assert call.call_button.mapTo(call, QPoint(0, 0)).y() < call.height() // 2, size


def test_the_connection_dialogs_advertises_row_says_what_it_is(qtbot: Any) -> None:
    dialog = new_connection_dialog(qtbot, "mcp-http", "x", "http://127.0.0.1:1/mcp")
    (label,) = [label for label in dialog.findChildren(QLabel) if label.text() == "Advertises"]
    tip = label.toolTip().lower()
    assert "capabilit" in tip and "server" in tip and "connect" in tip


@pytest.mark.asyncio
async def test_resubscribe_is_offered_only_for_a_task_that_has_not_ended(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await _agent(it).tasks.start("task_forever")
        tasks = await listed_tasks(it.widget, WAIT)
        tasks.table.selectRow(0)
        await until(it.widget.tasks_vm.task_changed, lambda: tasks.cancel_button.isEnabled(), WAIT)
        assert tasks.resubscribe_button.isEnabled()
        working_tip = tasks.resubscribe_button.toolTip()
        await cancel_first_task(it.widget, WAIT)
        await until(it.widget.tasks_vm.task_changed, lambda: not tasks.cancel_button.isEnabled(), WAIT)
        assert not tasks.resubscribe_button.isEnabled()
        tip = tasks.resubscribe_button.toolTip()
        assert tip != working_tip and "cancelled" in tip


@pytest.mark.asyncio
async def test_cancel_pressed_before_the_call_has_started_ends_it_as_cancelled(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        finished = click_call(qtbot, it, "slow_count", SLOW)
        call = it.widget.tools.detail.call
        qtbot.mouseClick(call.cancel_button, Qt.MouseButton.LeftButton)  # before the call's task has run at all
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "cancelled"
        assert not it.widget.vm.calls.running
        assert call.call_button.isEnabled() and not call.cancel_button.isEnabled()
