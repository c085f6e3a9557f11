"""The client runs a handshake-era server's task-augmented sampling and elicitation as tasks (2025-11-25).

Against an in-process SDK server over in-memory JSON-RPC (``mode="legacy"``) whose ``ask`` tool sends
the client any request the test names and returns the raw answer: the server side of every
exchange is the SDK's own. server-everything's ``*-async`` tools are the integration peer
(``tests/integration/mcp/test_mcp_client_tasks_everything.py``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer

from workbench.core.profiles.client_capabilities import ALL_ON
from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.protocols.mcp import client_tasks as client_tasks_module

pytestmark = pytest.mark.asyncio

STEP = 10.0
SAMPLE_PARAMS = {
    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
    "maxTokens": 20,
}
FORM_PARAMS = {
    "message": "Who are you?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
}


def task_peer() -> MCPServer:
    """A server whose ``ask`` tool sends the client a raw request and returns its answer or error code."""
    server = MCPServer("task-peer", log_level="WARNING")

    @server.tool()
    async def ask(method: str, params: dict[str, Any], ctx: Context) -> dict[str, Any]:
        # The SDK's typed send checks the answer against the plain result (no CreateTaskResult), and
        # it has no public raw channel on a tool's context: its connection is the server's own.
        connection = ctx.request_context.session._connection
        try:
            return {"result": await connection.send_raw_request(method, params)}
        except MCPError as exc:
            return {"error": exc.error.code}

    return server


class Peer:
    """The agent connected to ``task_peer``, with ``ask`` returning the client's raw answer."""

    def __init__(self, agent: MCPAgent) -> None:
        self.agent = agent

    async def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        result = await self.agent.call_tool("ask", {"method": method, "params": params})
        assert not result.is_error, result.text
        answer: dict[str, Any] = result.structured_content
        return answer

    async def create(self, method: str, params: dict[str, Any], ttl: int | None = 60_000) -> str:
        answer = await self.ask(method, {**params, "task": {"ttl": ttl}})
        task = types.CreateTaskResult.model_validate(answer["result"]).task
        assert task.status == "working"
        return task.task_id

    async def get(self, task_id: str) -> dict[str, Any]:
        return await self.ask("tasks/get", {"taskId": task_id})


def agent_for(**kwargs: Any) -> MCPAgent:
    return MCPAgent.in_process(task_peer(), mode="legacy", connect_timeout=STEP, **kwargs)


async def test_a_task_augmented_sampling_request_is_answered_with_a_task_then_its_result_when_it_ends() -> None:
    release = asyncio.Event()
    asked: list[SamplingRequest] = []

    async def sample(request: SamplingRequest) -> SamplingResponse:
        asked.append(request)
        await release.wait()
        return SamplingResponse(text="from a client task", model="m")

    with anyio.fail_after(STEP):
        async with agent_for(sampling_handler=sample) as agent:
            peer = Peer(agent)
            task_id = await peer.create("sampling/createMessage", SAMPLE_PARAMS, ttl=120_000)
            running = await peer.get(task_id)
            listed = await peer.ask("tasks/list", {})
            release.set()
            result = await peer.ask("tasks/result", {"taskId": task_id})  # blocks until the task ends
            done = await peer.get(task_id)
    assert [r.messages[0].content[0].text for r in asked] == ["hi"]
    assert running["result"]["status"] == "working"
    assert running["result"]["ttl"] == 120_000
    assert running["result"]["pollInterval"] > 0
    assert [t["taskId"] for t in listed["result"]["tasks"]] == [task_id]
    reply = types.CreateMessageResult.model_validate(result["result"])
    assert isinstance(reply.content, types.TextContent) and reply.content.text == "from a client task"
    assert result["result"]["_meta"][client_tasks_module.RELATED_TASK_META_KEY] == {"taskId": task_id}
    assert done["result"]["status"] == "completed"


async def test_cancelling_a_client_task_cancels_the_persons_dialog_and_a_second_cancel_is_refused() -> None:
    opened = asyncio.Event()
    dialog_cancelled = asyncio.Event()

    async def elicit(request: ElicitationRequest) -> ElicitationResponse:
        opened.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            dialog_cancelled.set()
            raise
        raise AssertionError("unreachable")

    with anyio.fail_after(STEP):
        async with agent_for(elicitation_handler=elicit) as agent:
            peer = Peer(agent)
            task_id = await peer.create("elicitation/create", FORM_PARAMS)
            await opened.wait()
            cancelled = await peer.ask("tasks/cancel", {"taskId": task_id})
            await dialog_cancelled.wait()
            again = await peer.ask("tasks/cancel", {"taskId": task_id})
            result = await peer.ask("tasks/result", {"taskId": task_id})
            status = await peer.get(task_id)
    assert cancelled["result"]["status"] == "cancelled"
    assert again == {"error": types.INVALID_PARAMS}
    assert result == {"error": types.INVALID_PARAMS}
    assert status["result"]["status"] == "cancelled"


async def test_a_declined_form_completes_its_task_and_a_refused_sampling_fails_with_the_refusal() -> None:
    async def elicit(request: ElicitationRequest) -> ElicitationResponse:
        return ElicitationResponse("decline")

    with anyio.fail_after(STEP):
        async with agent_for(elicitation_handler=elicit) as agent:  # no sampling handler: refused
            peer = Peer(agent)
            form = await peer.create("elicitation/create", FORM_PARAMS)
            sampling = await peer.create("sampling/createMessage", SAMPLE_PARAMS)
            declined = await peer.ask("tasks/result", {"taskId": form})
            refused = await peer.ask("tasks/result", {"taskId": sampling})
            failed = await peer.get(sampling)
            unknown = await peer.ask("tasks/get", {"taskId": "no-such-task"})
    assert declined["result"]["action"] == "decline"
    assert refused == {"error": types.INVALID_REQUEST}  # what the sampling request itself would have answered
    assert failed["result"]["status"] == "failed"
    assert unknown == {"error": types.INVALID_PARAMS}


async def test_a_task_whose_ttl_elapses_is_cancelled_and_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    # Long enough for the handler to start first even on a loaded machine; the wait is on its cancel.
    monkeypatch.setattr(client_tasks_module, "MAX_TTL_MS", 200)
    dialog_cancelled = asyncio.Event()

    async def sample(request: SamplingRequest) -> SamplingResponse:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            dialog_cancelled.set()
            raise
        raise AssertionError("unreachable")

    with anyio.fail_after(STEP):
        async with agent_for(sampling_handler=sample) as agent:
            peer = Peer(agent)
            task_id = await peer.create("sampling/createMessage", SAMPLE_PARAMS, ttl=None)  # capped at 200 ms
            await dialog_cancelled.wait()
            gone = await peer.get(task_id)
            listed = await peer.ask("tasks/list", {})
    assert gone == {"error": types.INVALID_PARAMS}
    assert listed["result"]["tasks"] == []


async def test_the_client_keeps_a_bounded_number_of_tasks_and_makes_room_from_finished_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client_tasks_module, "MAX_TASKS", 2)
    release = asyncio.Event()

    async def sample(request: SamplingRequest) -> SamplingResponse:
        if request.messages[0].content[0].text == "wait":
            await release.wait()
        return SamplingResponse(text="ok", model="m")

    waiting = {**SAMPLE_PARAMS, "messages": [{"role": "user", "content": {"type": "text", "text": "wait"}}]}
    with anyio.fail_after(STEP):
        async with agent_for(sampling_handler=sample) as agent:
            peer = Peer(agent)
            first = await peer.create("sampling/createMessage", waiting)
            second = await peer.create("sampling/createMessage", waiting)
            refused = await peer.ask("sampling/createMessage", {**SAMPLE_PARAMS, "task": {}})
            release.set()
            await peer.ask("tasks/result", {"taskId": first})
            await peer.ask("tasks/result", {"taskId": second})
            third = await peer.create("sampling/createMessage", SAMPLE_PARAMS)
            listed = await peer.ask("tasks/list", {})
    assert refused == {"error": types.INVALID_REQUEST}
    assert [t["taskId"] for t in listed["result"]["tasks"]] == [second, third]


async def test_with_the_tasks_switch_off_the_client_declares_no_tasks_and_answers_directly() -> None:
    async def sample(request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse(text="direct", model="m")

    seen: list[types.ClientCapabilities | None] = []
    server = task_peer()

    @server.tool()
    async def client_tasks(ctx: Context) -> str:
        seen.append(ctx.client_capabilities)
        return "ok"

    with anyio.fail_after(STEP):
        async with MCPAgent.in_process(server, mode="legacy", sampling_handler=sample) as agent:
            await agent.call_tool("client_tasks", {})
        off = ALL_ON.without(["tasks"])
        async with MCPAgent.in_process(
            server, mode="legacy", sampling_handler=sample, client_capabilities=off
        ) as agent:
            await agent.call_tool("client_tasks", {})
            direct = await Peer(agent).ask("sampling/createMessage", {**SAMPLE_PARAMS, "task": {"ttl": 1000}})
            tasks_get = await Peer(agent).ask("tasks/get", {"taskId": "x"})
    on_caps, off_caps = seen
    assert on_caps is not None and on_caps.tasks is not None
    assert on_caps.tasks.requests is not None
    assert on_caps.tasks.requests.sampling is not None and on_caps.tasks.requests.elicitation is not None
    assert off_caps is not None and off_caps.tasks is None
    assert direct["result"]["content"]["text"] == "direct"
    assert tasks_get == {"error": types.METHOD_NOT_FOUND}
