"""The A2A wire tap with the shared recorder: HTTP, SSE as it arrives, pings, JSON-RPC, redaction."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from sse_starlette.sse import EventSourceResponse

from tests.support.a2a_agents import BEARER, bearer_app, echo_app
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import AgentEvent, ArtifactUpdated, Completed
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.demo.a2a_agents import serve_agent, travel_app_factory


async def collect(stream: Any, limit: float = 20) -> list[AgentEvent]:
    with anyio.fail_after(limit):
        return [ev async for ev in stream]


def of_kind(records: list[WireRecord], kind: WireKind) -> list[WireRecord]:
    return [r for r in records if r.kind is kind]


@pytest.mark.asyncio
async def test_sse_events_are_recorded_as_they_arrive_not_when_the_stream_ends() -> None:
    wire = WireRecorder()
    async with (
        serve_agent(travel_app_factory(chunk_delay=0.2)) as url,
        A2AAgent(url, wire=wire, connection_id="travel") as agent,
    ):
        seen_before_end: list[WireRecord] = []
        with anyio.fail_after(20):
            async for ev in agent.stream_async("Plan a trip to Lisbon"):
                if isinstance(ev, ArtifactUpdated) and not seen_before_end:
                    # The stream is still open (more chunks and the question follow).
                    seen_before_end = [r for r in of_kind(wire.records("travel"), WireKind.SSE_EVENT)]
    assert any("artifactUpdate" in r.payload for r in seen_before_end)
    assert not any("TASK_STATE_INPUT_REQUIRED" in r.payload for r in seen_before_end)
    records = wire.records("travel")
    assert all(r.protocol == "a2a" for r in records)
    requests = of_kind(records, WireKind.HTTP_REQUEST)
    assert requests[0].http is not None and requests[0].http["url"].endswith("/.well-known/agent-card.json")
    assert requests[1].http is not None and requests[1].http["method"] == "POST"
    rpc = of_kind(records, WireKind.JSONRPC)
    out = [r for r in rpc if r.direction is Direction.OUT]
    assert [r.method for r in out] == ["SendStreamingMessage"]
    answers = [r for r in rpc if r.direction is Direction.IN]
    assert len(answers) >= 6 and {r.rpc_id for r in answers} == {out[0].rpc_id}
    assert answers[0].latency_ms is not None
    sse = of_kind(records, WireKind.SSE_EVENT)
    assert len(sse) == len(answers)
    responses = of_kind(records, WireKind.HTTP_RESPONSE)
    assert [r.http["status"] for r in responses if r.http] == [200, 200]


@pytest.mark.asyncio
async def test_keep_alive_pings_are_recorded_as_sse_comments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EventSourceResponse, "DEFAULT_PING_INTERVAL", 0.1)
    wire = WireRecorder()
    async with serve_agent(echo_app) as url, A2AAgent(url, wire=wire) as agent:
        events = await collect(agent.stream_async("silent 0.6"))
    assert isinstance(events[-1], Completed)
    comments = [r for r in of_kind(wire.records(), WireKind.SSE_EVENT) if r.http and r.http["comment"]]
    assert comments and all(r.payload.startswith("ping") for r in comments)


@pytest.mark.asyncio
async def test_bearer_token_never_reaches_the_wire_log() -> None:
    wire = WireRecorder()
    async with serve_agent(bearer_app) as url, A2AAgent(url, bearer_token=BEARER, wire=wire) as agent:
        await agent.invoke_async("hello")
    dumped = json.dumps([r.to_dict() for r in wire.records()])
    assert BEARER not in dumped
    posted = [r for r in of_kind(wire.records(), WireKind.HTTP_REQUEST) if r.http and r.http["method"] == "POST"]
    assert posted and all(r.http and r.http["headers"].get("authorization", "").endswith("***") for r in posted)


@pytest.mark.asyncio
async def test_rest_binding_is_recorded_at_the_http_layer_without_jsonrpc_records() -> None:
    wire = WireRecorder()
    async with serve_agent(echo_app) as url, A2AAgent(url, binding="HTTP+JSON", wire=wire) as agent:
        await agent.invoke_async("hello")
        await agent.tasks.list_views()
    records = wire.records()
    assert not of_kind(records, WireKind.JSONRPC)
    assert any("statusUpdate" in r.payload for r in of_kind(records, WireKind.SSE_EVENT))
    bodies = [r for r in of_kind(records, WireKind.HTTP_RESPONSE) if r.http and r.http["method"] == "GET"]
    assert any('"tasks"' in r.payload for r in bodies)


@pytest.mark.asyncio
async def test_non_streamed_jsonrpc_calls_show_method_id_and_latency() -> None:
    wire = WireRecorder()
    async with serve_agent(echo_app) as url, A2AAgent(url, wire=wire, streaming=False) as agent:
        done = await agent.invoke_async("hello")
        await agent.tasks.get_view(done.task_id)
    rpc = of_kind(wire.records(), WireKind.JSONRPC)
    assert [r.method for r in rpc if r.direction is Direction.OUT] == ["SendMessage", "GetTask"]
    replies = [r for r in rpc if r.direction is Direction.IN]
    assert len(replies) == 2 and all(r.latency_ms is not None for r in replies)


@pytest.mark.asyncio
async def test_unreachable_agent_leaves_an_error_record() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    wire = WireRecorder()
    agent = A2AAgent(f"http://127.0.0.1:{port}", wire=wire)
    events = await collect(agent.stream_async("hi"))
    assert events[-1].kind.value == "failed"
    assert [r.kind for r in wire.records()] == [WireKind.HTTP_REQUEST, WireKind.ERROR]
