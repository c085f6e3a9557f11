"""The Tasks tab with MCP servers (server-everything, SEP-1686 tasks): list, state, tool, cancel."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.everything import StdioCommand
from tests.support.mcp_inspector import cancel_first_task, inspector, listed_tasks, stdio_profile
from tests.support.signals import SignalLog, until
from workbench.core.errors import WorkbenchError
from workbench.core.profiles import MCPStdioProfile

TOOL = "simulate-research-query"  # execution.taskSupport "required"
BOUND = 60.0


def everything_profile(cmd: StdioCommand) -> MCPStdioProfile:
    return MCPStdioProfile(id="everything", name="everything", command=cmd.command, args=cmd.args, env=cmd.env)


@pytest.mark.asyncio
async def test_a_task_run_by_a_tool_call_is_listed_with_its_tool_and_state(
    qtbot: Any, tmp_path: Any, everything_stdio: StdioCommand
) -> None:
    async with inspector(tmp_path, qtbot, everything_profile(everything_stdio)) as it:
        widget = it.widget
        tab = widget.tabs.indexOf(widget.tasks)
        assert widget.tabs.isTabEnabled(tab)  # the server declares tasks
        finished = SignalLog(widget.vm.calls.finished)
        assert widget.tools.select_tool(TOOL)
        call = widget.tools.detail.call
        call.form.set_value({"topic": "python"})
        call.call_button.click()
        (record,) = await finished.wait_for(timeout=BOUND)
        assert record.outcome == "ok"
        widget.tasks_vm.set_poll_interval(50)
        widget.tabs.setCurrentWidget(widget.tasks)  # on screen: it lists by itself
        model = widget.tasks.model
        await until(widget.tasks_vm.tasks_changed, lambda: bool(model.rows()) and model.rows()[0].terminal, BOUND)
        (row,) = model.rows()
        assert (row.tool, row.state) == (TOOL, "completed")
        assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(5)] == [
            "ID",
            "Tool",
            "State",
            "Created",
            "Updated",
        ]
        assert row.created_text and row.updated_text
        assert widget.tabs.tabText(tab) == "Tasks (1)"


@pytest.mark.asyncio
async def test_cancel_in_the_tasks_tab_reaches_a_running_task(
    qtbot: Any, tmp_path: Any, everything_stdio: StdioCommand
) -> None:
    async with inspector(tmp_path, qtbot, everything_profile(everything_stdio)) as it:
        widget = it.widget
        conn = it.ctx.services.connections.get(it.connection_id)
        assert conn is not None and conn.agent is not None
        ops = conn.agent.tasks
        assert ops is not None
        # a task started by another part of the workbench (the CLI, a chat): the tab lists it from tasks/list
        running = asyncio.ensure_future(conn.agent.call_tool(TOOL, {"topic": "rust"}))
        try:
            tasks = await listed_tasks(widget, BOUND)
            assert tasks.model.rows()[0].state == "working"
            await cancel_first_task(widget, BOUND)
            assert tasks.detail_tree.values("Task")["Status"] == "cancelled"
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError, WorkbenchError):  # cancelled, or ended by the cancel
                await running


@pytest.mark.asyncio
async def test_a_server_without_tasks_has_the_tab_greyed_out(qtbot: Any, tmp_path: Any) -> None:
    # the demo server, in process, on a handshake-era wire: its tasks are the 2026 extension's only
    async with inspector(tmp_path, qtbot, stdio_profile(mode="legacy")) as it:
        tab = it.widget.tabs.indexOf(it.widget.tasks)
        assert not it.widget.tabs.isTabEnabled(tab)
        assert "does not offer tasks" in it.widget.tabs.tabToolTip(tab)
