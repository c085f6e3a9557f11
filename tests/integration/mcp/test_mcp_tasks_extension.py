"""The 2026-07-28 Tasks extension (SEP-2663) against the demo server, and the 2025-11-25 fallback on a legacy wire.

The demo server offers ``io.modelcontextprotocol/tasks`` on 2026-07-28 connections: ``task_count``,
``task_confirm`` (an elicitation inside the task) and ``task_forever`` answer with a task handle.
In process over in-memory JSON-RPC (tapped), so the wire log is checked too.
"""

from __future__ import annotations

import json

import pytest

from workbench.core.errors import NotFoundError, RequestTimeoutError, UnsupportedCapabilityError
from workbench.core.protocols.base import Completed, ElicitationRequest, ElicitationResponse, StatusChanged
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.protocols.mcp.tasks import SHAPE_2026
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.mcp_server.app import build_server

pytestmark = pytest.mark.asyncio


def demo(**kwargs: object) -> MCPAgent:
    return MCPAgent.in_process(build_server(), **kwargs)  # type: ignore[arg-type]


async def test_the_extension_is_negotiated_and_a_task_is_started_followed_and_read() -> None:
    async with demo() as agent:
        assert agent.features.tasks
        assert await agent.tasks.shape() == SHAPE_2026
        started = await agent.tasks.start("task_count", {"n": 3, "pause_ms": 5})
        assert started.status == "working" and started.shape == SHAPE_2026
        result = await agent.tasks.result(started.task_id, timeout=30)
        assert result.text == "counted to 3"
        info = await agent.tasks.get(started.task_id)
        assert info.status == "completed" and info.outcome is not None
        listed = await agent.tasks.list_tasks()  # no tasks/list in this shape: the tasks seen here
        assert [(row.task_id, row.tool, row.state) for row in listed] == [(started.task_id, "task_count", "completed")]


async def test_a_plain_tool_call_answered_with_a_task_returns_the_tasks_result_and_lists_it() -> None:
    async with demo() as agent:
        result = await agent.call_tool("task_count", {"n": 2, "pause_ms": 5}, timeout=30)
        assert result.text == "counted to 2"
        [row] = agent.tasks.known_tasks()
        assert (row.tool, row.state) == ("task_count", "completed")
        snapshot = agent.tasks.known_task(row.task_id)
        assert snapshot is not None
        assert json.loads(snapshot.json)["shape"] == SHAPE_2026
        assert {s.title for s in snapshot.sections} == {"Task", "Result"}


async def test_run_reports_status_changes_and_the_input_request_reaches_the_handler_once() -> None:
    asked: list[ElicitationRequest] = []

    async def agree(request: ElicitationRequest) -> ElicitationResponse:
        asked.append(request)
        return ElicitationResponse("accept", {"ok": True})

    async with demo(elicitation_handler=agree) as agent:
        events = [e async for e in agent.tasks.run("task_confirm", {"question": "Deploy?"})]
    states = [e.state for e in events if isinstance(e, StatusChanged)]
    assert states[0] == "working" and "completed" in states
    done = events[-1]
    assert isinstance(done, Completed) and done.result.text == "confirmed"
    assert [r.message for r in asked] == ["Deploy?"]


async def test_cancel_reaches_the_task_and_its_result_is_a_typed_remote_error() -> None:
    async with demo() as agent:
        started = await agent.tasks.start("task_forever")
        snapshot = await agent.tasks.cancel_task(started.task_id)
        assert snapshot.summary.state == "cancelled"
        with pytest.raises(Exception) as ended:
            await agent.tasks.result(started.task_id, timeout=30)
        assert getattr(ended.value, "remote_code", None) == -32800


async def test_a_task_that_never_ends_times_out_typed_is_cancelled_and_the_wire_log_keeps_the_polls() -> None:
    wire = WireRecorder()
    async with demo(wire=wire) as agent:
        with pytest.raises(RequestTimeoutError):
            await agent.call_tool("task_forever", timeout=0.5)
        [row] = agent.tasks.known_tasks()
        started = await agent.tasks.start("task_forever")
        with pytest.raises(RequestTimeoutError) as waited:
            await agent.tasks.result(started.task_id, timeout=0.3)
        assert waited.value.details["task_id"] == started.task_id
        await agent.tasks.cancel(started.task_id)
    methods = [r.method for r in wire.records() if r.kind is WireKind.JSONRPC and r.direction == "out"]
    assert methods.count("tasks/get") >= 2
    assert methods.count("tasks/cancel") == 2  # the call gave up and cancelled; then the explicit cancel
    answers = [r.payload for r in wire.records() if r.kind is WireKind.JSONRPC and r.direction == "in"]
    assert any('"status":"working"' in p.replace(" ", "") and row.task_id in p for p in answers)


async def test_an_unknown_task_id_is_not_found() -> None:
    async with demo() as agent:
        with pytest.raises(NotFoundError):
            await agent.tasks.get("no-such-task")


async def test_a_legacy_connection_to_the_same_server_offers_no_tasks() -> None:
    async with demo(mode="legacy") as agent:
        assert not agent.features.tasks
        with pytest.raises(UnsupportedCapabilityError):
            await agent.tasks.shape()
        result = await agent.call_tool("task_count", {"n": 1, "pause_ms": 1})  # run inline by the server
        assert result.text == "counted to 1"
