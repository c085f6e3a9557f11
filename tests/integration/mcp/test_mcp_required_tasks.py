"""Tools that require task execution are called like any other; a pinned era the server refuses fails typed.

Against server-everything: ``simulate-research-query`` declares ``execution.taskSupport: "required"``
(a direct ``tools/call`` is refused), and the server does not speak the 2026-07-28 era.
"""

from __future__ import annotations

import pytest

from tests.support.everything import StdioCommand
from workbench.core.errors import ConnectError, RequestTimeoutError
from workbench.core.protocols.base import (
    Completed,
    ElicitationRequest,
    ElicitationResponse,
    StatusChanged,
    TextDelta,
)
from workbench.core.protocols.mcp import MCPAgent

pytestmark = [pytest.mark.asyncio, pytest.mark.everything]

RESEARCH = "simulate-research-query"


def stdio_agent(cmd: StdioCommand, **kwargs: object) -> MCPAgent:
    return MCPAgent.stdio(cmd.command, list(cmd.args), env=dict(cmd.env or {}), **kwargs)  # type: ignore[arg-type]


async def test_call_tool_stream_runs_a_task_required_tool_with_its_status_then_its_result(
    everything_stdio: StdioCommand,
) -> None:
    async with stdio_agent(everything_stdio) as agent:
        assert agent.tasks.supported_for(RESEARCH) == "required"
        events = [e async for e in agent.call_tool_stream(RESEARCH, {"topic": "python"})]
        statuses = [e for e in events if isinstance(e, StatusChanged)]
        assert statuses[0].state == "working"
        assert any(e.message and "Gathering sources" in e.message for e in statuses)
        assert isinstance(events[-2], TextDelta)
        done = events[-1]
        assert isinstance(done, Completed)
        assert done.result.state == "completed"
        assert done.result.tool_result is not None
        assert done.result.text.startswith("# Research Report: python")
        assert done.task_id == statuses[0].task_id
        assert [t.status for t in await agent.tasks.list_all() if t.task_id == done.task_id] == ["completed"]


async def test_call_tool_awaits_a_task_required_tool_and_its_question_reaches_the_handler(
    everything_http_url: str,
) -> None:
    asked: list[ElicitationRequest] = []

    async def elicit(request: ElicitationRequest) -> ElicitationResponse:
        asked.append(request)
        return ElicitationResponse("accept", {"interpretation": "snake"})

    async with MCPAgent(everything_http_url, elicitation_handler=elicit) as agent:
        result = await agent.call_tool(RESEARCH, {"topic": "python", "ambiguous": True})
    assert not result.is_error
    assert "snake" in result.text
    assert len(asked) == 1


async def test_a_task_required_call_that_takes_too_long_times_out_and_cancels_the_task(
    everything_stdio: StdioCommand,
) -> None:
    async with stdio_agent(everything_stdio) as agent:
        with pytest.raises(RequestTimeoutError):
            await agent.call_tool(RESEARCH, {"topic": "slow"}, timeout=0.5)
        [task] = await agent.tasks.list_all()  # the cancel was answered before the call gave up
        assert task.status == "cancelled"


async def test_pinning_2026_07_28_against_a_server_that_refuses_server_discover_fails_typed(
    everything_stdio: StdioCommand,
) -> None:
    agent = stdio_agent(everything_stdio, mode="2026-07-28", connect_timeout=20)
    with pytest.raises(ConnectError) as info:
        await agent.connect()
    assert type(info.value) is ConnectError
    assert info.value.details["mode"] == "2026-07-28"
    assert info.value.details["remote_code"] == -32601  # Method not found
    assert not agent.connected
    await agent.aclose()
