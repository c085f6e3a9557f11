"""The inspector gives room by content: a short task table leaves the rest to the task's details, a short
tool result leaves it to the server's log of the call (measured at the sizes the window gives them at 1366x768)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QTreeWidget

from tests.support.a2a_inspector import BOUND, inspector_for, settled
from tests.support.mcp_inspector import inspector
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog, until
from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.demo.a2a_agents import run_demo_agents
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp.call_log import CALL_LOG_MIN_LINES
from workbench.ui.panels.inspector.tasks.widget import ROW_HEIGHT

WORKSPACE = (1100, 430)
"""The workspace's size in the window at 1366x768 with the wire log open."""


@pytest.fixture
def ctx(tmp_path: Path, qapp: Any) -> PanelContext:
    return make_context(tmp_path)


def settle() -> None:
    for _ in range(3):  # layouts, then the splitters' sizing (queued), then their layouts
        QApplication.processEvents()


def tree_rows(tree: QTreeWidget) -> int:
    """Rows the tree shows expanded (every section and its visible children)."""
    count, item = 0, tree.topLevelItem(0)
    while item is not None:
        count += 1
        item = tree.itemBelow(item)
    return count


@pytest.mark.asyncio
async def test_a_one_row_task_table_is_as_tall_as_its_row_and_the_details_get_the_room(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, _agent),
    ):
        async with A2AAgent(urls["travel"]) as other:
            await asyncio.wait_for(other.invoke_async("Plan a trip to Lisbon"), BOUND)
        widget.resize(*WORKSPACE)
        widget.show()
        tasks = widget.tasks_widget
        widget.tabs.setCurrentWidget(tasks)
        tasks.refresh_button.click()
        await until(widget.vm.refreshed, lambda: tasks.model.rowCount() == 1)
        row = tasks.table.visualRect(tasks.model.index(0, 0)).center()
        qtbot.mouseClick(tasks.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
        await until(widget.vm.task_changed, lambda: tasks.detail_tree.topLevelItemCount() == 4)
        await until(widget.vm.busy_changed, lambda: tasks.busy_label.text() == "")  # the agent's copy is in
        settle()
        blank = tasks.table.viewport().height() - tasks.model.rowCount() * ROW_HEIGHT
        assert blank < 2 * ROW_HEIGHT  # under the only task, less than two rows' worth of empty table
        tree = tasks.detail_tree
        shown = tree.viewport().height() // tree.visualItemRect(tree.topLevelItem(0)).height()
        assert shown >= min(tree_rows(tree), 12)  # the details read whole (or 12 rows of them), not 3
        assert tasks.detail_tabs.height() > 3 * tasks.table.height()


@pytest.mark.asyncio
async def test_a_short_tool_result_leaves_the_rest_to_the_calls_server_log(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        it.widget.resize(*WORKSPACE)
        assert it.widget.tools.select_tool("slow_count")
        call = it.widget.tools.detail.call
        call.form.set_value({"n": 12, "delay": 0.001})
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        (record,) = await finished.wait_for()
        assert len(record.logs) == 12
        settle()
        view = call.result_view
        bottom = view.raw_button.mapTo(view, QPoint(0, view.raw_button.height())).y()
        assert view.height() - bottom <= 12  # no empty band between the result and the log
        log = call.call_log.text
        lines = log.viewport().height() // log.fontMetrics().lineSpacing()
        assert lines >= CALL_LOG_MIN_LINES


@pytest.mark.asyncio
async def test_a_tall_result_still_leaves_the_log_its_lines(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        it.widget.resize(*WORKSPACE)
        assert it.widget.tools.select_tool("weather")
        call = it.widget.tools.detail.call
        call.form.set_value({"city": "Atlantis"})
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        (record,) = await finished.wait_for()
        settle()
        log = call.call_log.text
        assert record.logs and log.verticalScrollBar().maximum() == 0  # the log's lines read whole
        view = call.result_view
        assert view.content_height() > view.height()  # the result scrolls instead
