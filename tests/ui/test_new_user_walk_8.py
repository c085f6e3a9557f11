"""A new user's walk of the window (8): "Go to <tool>" on another tool's page when the list's filter hides
the tool whose call runs; the field that keeps the focus after a call stays in view.

Clicks and keys go to the widgets as a person's would.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.support.mcp_inspector import activate, click_row, inspector
from tests.support.signals import SignalLog
from tests.support.tool_page import click_call, click_cancel_once_running
from tests.support.windows import demo_window

WAIT = 30.0
SLOW = {"n": 2000, "delay": 0.05}
"""slow_count's arguments for a call that runs until it is cancelled (100 s)."""
PLAN_TRIP = {
    "destination": "Lisbon",
    "dates": {"start": "2026-12-04", "end": "2026-12-06"},
    "travellers": [{"name": "Ada Lovelace", "age": 36, "email": "ada@example.com"}],
    "cabin": "business",
}


@pytest.mark.asyncio
async def test_go_to_the_running_tool_shows_it_when_the_filter_hides_it(qtbot: Any, tmp_path: Path) -> None:
    # the user filters the list to reach another tool while slow_count runs, then asks to go back to it
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        finished = click_call(qtbot, it, "slow_count", SLOW)
        tools = it.widget.tools
        qtbot.mouseClick(tools.list.filter_edit, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(tools.list.filter_edit, "echo")
        click_row(qtbot, tools.list, "echo")
        call = tools.detail.call
        assert call.go_to_running.isVisible()
        qtbot.mouseClick(call.go_to_running, Qt.MouseButton.LeftButton)
        assert tools.list.current_key == "slow_count"
        assert tools.list.model.row_of("slow_count") >= 0  # listed, so the user sees which tool is shown
        assert call.cancel_button.isEnabled() and not call.go_to_running.isVisible()
        await click_cancel_once_running(qtbot, it)
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "cancelled"


@pytest.mark.asyncio
async def test_a_field_that_keeps_the_focus_after_ctrl_enter_stays_in_view_when_the_result_takes_room(
    qtbot: Any, tmp_path: Path
) -> None:
    # on a small screen the result pane takes room from the form when the call ends: the field the user
    # pressed Ctrl+Enter in keeps the focus, so it must stay on screen (a Space would act on it)
    async with demo_window(tmp_path, qtbot) as bench:
        window = bench.window
        bench.ctx.selection.select("demo-mcp-stdio")
        window.resize(QSize(1280, 692))
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None and mcp.tools.select_tool("plan_trip")
        call = mcp.tools.detail.call
        assert call.form is not None
        call.form.set_value(PLAN_TRIP)
        QApplication.processEvents()
        fields, _ = call.form.tab_stops()
        last = fields[-1]
        last.setFocus(Qt.FocusReason.TabFocusReason)
        call.form.form_area.ensureWidgetVisible(last)
        finished = SignalLog(mcp.vm.calls.finished)
        QTest.keyClick(last, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "ok"
        for _ in range(5):
            await asyncio.sleep(0.02)
            QApplication.processEvents()
        assert last.hasFocus()
        viewport = call.form.form_area.viewport()
        top = last.mapTo(viewport, QPoint(0, 0)).y()
        assert top >= 0 and top + last.height() // 2 <= viewport.height(), (top, last.height(), viewport.height())
