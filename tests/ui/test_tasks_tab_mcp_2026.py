"""The Tasks tab with the demo server's 2026-07-28 Tasks extension: list, status, input requests, result, cancel.

The demo server is served in process (``InProcessDemoFactory``) with an elicitation handler of the
test's own, standing in for the form dialog (tested on its own), so the tab's part is what is tested.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp_inspector import Inspected, cancel_first_task, inspector, listed_tasks
from tests.support.signals import until
from workbench.core.agent_factory import AgentHandlers
from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse
from workbench.core.protocols.mcp import MCPAgent

BOUND = 30.0


def agent_of(it: Inspected) -> MCPAgent:
    conn = it.ctx.services.connections.get(it.connection_id)
    assert conn is not None and isinstance(conn.agent, MCPAgent)
    return conn.agent


@pytest.mark.asyncio
async def test_a_tool_call_the_server_made_a_task_is_listed_with_its_tool_state_and_result(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        widget = it.widget
        tab = widget.tabs.indexOf(widget.tasks)
        assert widget.tabs.isTabEnabled(tab)  # the server offers the Tasks extension
        result = await agent_of(it).call_tool("task_count", {"n": 2, "pause_ms": 5})
        assert result.text == "counted to 2"
        tasks = await listed_tasks(widget, BOUND)
        (row,) = tasks.model.rows()
        assert (row.tool, row.state, row.terminal) == ("task_count", "completed", True)
        tasks.table.selectRow(0)
        await until(widget.tasks_vm.task_changed, lambda: bool(tasks.detail_tree.values("Result")), BOUND)
        assert tasks.detail_tree.values("Result")["Text"] == "counted to 2"
        assert tasks.detail_tree.values("Task")["Shape"] == "2026-07-28"


@pytest.mark.asyncio
async def test_cancel_in_the_tab_reaches_a_running_2026_task(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        widget = it.widget
        await agent_of(it).tasks.start("task_forever")
        tasks = await listed_tasks(widget, BOUND)
        assert tasks.model.rows()[0].state == "working"
        await cancel_first_task(widget, BOUND)
        assert tasks.detail_tree.values("Task")["Status"] == "cancelled"


@pytest.mark.asyncio
async def test_a_waiting_tasks_input_request_is_shown_then_answered_when_followed(qtbot: Any, tmp_path: Path) -> None:
    asked: list[ElicitationRequest] = []
    answered = asyncio.Event()

    async def agree(request: ElicitationRequest) -> ElicitationResponse:
        asked.append(request)
        answered.set()
        return ElicitationResponse("accept", {"ok": True})

    async with inspector(tmp_path, qtbot, handlers=AgentHandlers(elicitation=agree)) as it:
        widget = it.widget
        started = await agent_of(it).tasks.start("task_confirm", {"question": "Deploy now?"})
        tasks = await listed_tasks(widget, BOUND)
        tasks.table.selectRow(0)
        await until(widget.tasks_vm.task_changed, lambda: bool(tasks.detail_tree.values("Input requests")), BOUND)
        assert tasks.detail_tree.values("Input requests") == {"confirm": "elicitation/create: Deploy now?"}
        assert tasks.model.rows()[0].state == "input_required"
        assert not asked  # shown, not asked: the user follows the task to answer
        tasks.resubscribe_button.click()
        await asyncio.wait_for(answered.wait(), BOUND)
        await until(widget.tasks_vm.tasks_changed, lambda: tasks.model.rows()[0].state == "completed", BOUND)
        assert [r.message for r in asked] == ["Deploy now?"]
        tasks.get_button.click()
        await until(widget.tasks_vm.task_changed, lambda: bool(tasks.detail_tree.values("Result")), BOUND)
        assert tasks.detail_tree.values("Result")["Text"] == "confirmed"
        assert started.task_id == tasks.model.rows()[0].task_id
