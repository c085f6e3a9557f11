"""server-everything's ``*-async`` tools send task-augmented sampling and elicitation; the client runs them as tasks.

Each tool sends its request with ``task``, expects ``CreateTaskResult``, polls the client's
``tasks/get`` every second until the task ends, then reads ``tasks/result`` and reports every step
in its text. The tools exist only for a client that declares ``tasks.requests`` for them (with the
tasks switch off they are not listed: ``test_mcp_client_capability_switches.py``).
"""

from __future__ import annotations

import pytest

from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from workbench.core.protocols.mcp import MCPAgent

pytestmark = [pytest.mark.asyncio, pytest.mark.everything]

SAMPLING_TOOL = "trigger-sampling-request-async"
ELICITATION_TOOL = "trigger-elicitation-request-async"


def tool_names(agent: MCPAgent) -> set[str]:
    return {spec.name for spec in agent.tool_specs()}


async def test_async_sampling_runs_as_a_client_task_that_the_server_polls_and_reads(everything_http_url: str) -> None:
    asked: list[SamplingRequest] = []

    async def sample(request: SamplingRequest) -> SamplingResponse:
        asked.append(request)
        return SamplingResponse(text="from a workbench task", model="workbench-script")

    async with MCPAgent(everything_http_url, mode="legacy", sampling_handler=sample) as agent:
        assert {SAMPLING_TOOL, ELICITATION_TOOL} <= tool_names(agent)
        result = await agent.call_tool(SAMPLING_TOOL, {"prompt": "hi"}, timeout=20)
    assert not result.is_error
    text = result.text
    assert text.startswith("[COMPLETED] Async sampling completed!")
    assert "Task created: " in text
    assert "Poll 1: completed" in text
    assert '"text": "from a workbench task"' in text
    assert '"io.modelcontextprotocol/related-task"' in text
    assert len(asked) == 1
    assert "hi" in (asked[0].messages[0].content[0].text or "")


async def test_async_elicitation_runs_the_persons_form_as_a_client_task(everything_http_url: str) -> None:
    asked: list[ElicitationRequest] = []

    async def elicit(request: ElicitationRequest) -> ElicitationResponse:
        asked.append(request)
        return ElicitationResponse("accept", {"name": "Ada", "favoriteColor": "Blue", "agreeToTerms": True})

    async with MCPAgent(everything_http_url, mode="legacy", elicitation_handler=elicit) as agent:
        result = await agent.call_tool(ELICITATION_TOOL, {}, timeout=20)
    assert not result.is_error
    text = result.text
    assert text.startswith("[COMPLETED] User provided the requested information!")
    assert "- Name: Ada" in text
    assert "- Favorite Color: Blue" in text
    assert "Poll 1: completed" in text
    assert len(asked) == 1
