"""``workbench tasks list|get|result|cancel`` against the demo server over HTTP (2026-07-28 Tasks extension).

The server runs in this test's loop; the command runs in this process (``run_workbench``), each a
connection of its own, so the tasks are started by an agent of the test and reached by id.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.support.cli_runner import workbench
from workbench.core.protocols.mcp import MCPAgent
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def url() -> AsyncIterator[str]:
    async with serve_http() as served:
        yield served


async def test_get_and_cancel_show_a_running_task_then_its_cancellation(url: str) -> None:
    async with MCPAgent(url) as agent:
        task = await agent.tasks.start("task_forever")
        code, out, err = await workbench("tasks", "get", task.task_id, "--mcp", url)
        assert code == 0, err
        assert "  Status: working" in out.splitlines()
        assert "  Shape: 2026-07-28" in out.splitlines()
        code, out, err = await workbench("tasks", "cancel", task.task_id, "--mcp", url, "--json")
        assert code == 0, err
        [line] = out.splitlines()
        shown = json.loads(line)
        assert (shown["task_id"], shown["state"], shown["task"]["shape"]) == (task.task_id, "cancelled", "2026-07-28")


async def test_result_prints_a_finished_tasks_text(url: str) -> None:
    async with MCPAgent(url) as agent:
        task = await agent.tasks.start("task_count", {"n": 2, "pause_ms": 5})
        code, out, err = await workbench("tasks", "result", task.task_id, "--mcp", url)
        assert (code, out) == (0, "counted to 2\n"), err


async def test_result_answers_the_tasks_question_from_answer(url: str) -> None:
    async with MCPAgent(url) as agent:
        task = await agent.tasks.start("task_confirm", {"question": "Ship it?"})
        code, out, err = await workbench("tasks", "result", task.task_id, "--mcp", url, "--answer", '{"ok": true}')
        assert (code, out) == (0, "confirmed\n"), err


async def test_result_of_a_task_that_never_ends_gives_up_at_wait_with_a_timeout_error(url: str) -> None:
    async with MCPAgent(url) as agent:
        task = await agent.tasks.start("task_forever")
        try:
            code, out, _err = await workbench("tasks", "result", task.task_id, "--mcp", url, "--wait", "0.3", "--json")
            assert code == 1
            [line] = out.splitlines()
            failed = json.loads(line)
            assert (failed["kind"], failed["error"]["code"]) == ("failed", "timeout")
        finally:
            await agent.tasks.cancel(task.task_id)


async def test_list_on_a_new_connection_says_the_extension_has_no_listing_and_an_unknown_id_fails(url: str) -> None:
    code, out, err = await workbench("tasks", "list", "--mcp", url)
    assert (code, out) == (0, "")
    assert "no tasks/list" in err
    code, out, _err = await workbench("tasks", "get", "no-such-task", "--mcp", url, "--json")
    assert code == 1
    assert json.loads(out.splitlines()[0])["error"]["code"] == "not-found"


async def test_tasks_against_an_a2a_target_is_a_usage_error() -> None:
    code, out, _err = await workbench("tasks", "list", "--a2a", "http://127.0.0.1:9/", "--json")
    assert code == 2
    assert json.loads(out.splitlines()[0])["error"]["code"] == "config"
