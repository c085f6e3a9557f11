"""A new user's walk of the window (8): "Go to <tool>" on another tool's page when the list's filter hides
the tool whose call runs.

Clicks and keys go to the widgets as a person's would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.mcp_inspector import activate, click_row, inspector
from tests.support.tool_page import click_call, click_cancel_once_running

WAIT = 30.0
SLOW = {"n": 2000, "delay": 0.05}
"""slow_count's arguments for a call that runs until it is cancelled (100 s)."""


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
