"""Messaging with real agents on loopback: streaming and blocking, both bindings, parts, contexts."""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
import pytest

from tests.support.a2a_agents import BARE_SCHEMA, TOOL_CALLS, echo_app
from workbench.core.errors import RemoteError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    Completed,
    ContentPart,
    Failed,
    InputRequest,
    InputRequired,
    InputResponse,
    StatusChanged,
    TextDelta,
    ToolCallRequested,
)
from workbench.demo.a2a_agents import serve_agent, travel_app_factory
from workbench.demo.a2a_agents.travel import TRIP_SCHEMA

TRIP = {"departure_date": "2026-05-01", "return_date": "2026-05-05", "travellers": 2, "cabin_class": "business"}


async def collect(stream: Any) -> list[AgentEvent]:
    with anyio.fail_after(20):
        return [ev async for ev in stream]


def kinds(events: list[AgentEvent]) -> list[str]:
    return [e.kind.value for e in events]


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_travel_stream_yields_text_chunks_artifact_chunks_and_the_form(binding: str) -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url, binding=binding) as agent:
        assert agent.discovery.interface.protocol_binding == binding
        events = await collect(agent.stream_async("Plan a trip to Lisbon"))
    texts = [e.text for e in events if isinstance(e, TextDelta)]
    assert texts == ["Planning ", "a trip ", "to Lisbon."]
    states = [e.state for e in events if isinstance(e, StatusChanged)]
    assert states == ["submitted", "working", "input_required"]
    chunks = [e for e in events if isinstance(e, ArtifactUpdated)]
    assert [(c.append, c.last_chunk) for c in chunks] == [(False, False), (True, False), (True, True)]
    asked = [e for e in events if isinstance(e, InputRequired)]
    assert len(asked) == 1
    request = asked[0].request
    assert request.kind == "input" and "cabin class" in request.text
    assert request.schema == TRIP_SCHEMA
    assert request.data["form"]["values"] == {"travellers": 1, "cabin_class": "economy"}
    assert request.task_id and request.context_id
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.result.state == "input_required"
    assert (final.result.task_id, final.result.context_id) == (request.task_id, request.context_id)
    brief = "".join(p.text or "" for p in final.result.artifacts["destination-brief"])
    assert brief.startswith("# Lisbon\n## When to go\n") and brief.endswith("on foot.\n")  # its 3 chunks, in order


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
@pytest.mark.parametrize("streaming", [True, False])
async def test_input_required_is_continued_with_both_ids_and_completes(binding: str, streaming: bool) -> None:
    async with (
        serve_agent(travel_app_factory(chunk_delay=0)) as url,
        A2AAgent(url, binding=binding, streaming=streaming) as agent,
    ):
        first = await agent.invoke_async("Plan a trip to Kyoto")
        assert first.state == "input_required"
        done = await agent.invoke_async(InputResponse(data=TRIP), task_id=first.task_id)
        assert done.state == "completed"
        assert done.task_id == first.task_id and done.context_id == first.context_id
        assert done.structured == {"destination": "Kyoto", **TRIP}
        assert "".join(p.text or "" for p in done.artifacts["itinerary"]).startswith("Day 1 (2026-05-01)")
        view = agent.tasks.views[first.task_id]
        # A blocking (non-streaming) request only sees snapshots: the working state in between is not seen.
        expected = ["working", "completed"] if streaming else ["input_required", "completed"]
        assert [s.state for s in view.status_history][-2:] == expected
        local_history = [m.message_id for m in view.messages]
        server = await agent.tasks.get_view(first.task_id)
        assert server.state == "completed"
        if streaming:  # the streamed view already held everything the agent's history has
            assert [m.message_id for m in server.messages] == local_history
        assert len(server.artifacts["itinerary"].artifact.parts) == 4


@pytest.mark.asyncio
async def test_input_handler_answers_the_form_within_one_stream() -> None:
    asked: list[InputRequest] = []

    async def handler(request: InputRequest) -> InputResponse:
        asked.append(request)
        if len(asked) == 1:
            return InputResponse(data={"departure_date": "2026-05-01"})  # incomplete: the agent asks again
        return InputResponse(data=TRIP)

    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url, input_handler=handler) as agent:
        events = await collect(agent.stream_async("Plan a trip to Rome"))
    assert len(asked) == 2
    assert asked[1].data["errors"]
    assert asked[0].task_id == asked[1].task_id
    assert kinds(events).count("input_required") == 2
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "completed"


@pytest.mark.asyncio
async def test_plain_text_answer_holding_json_is_accepted_by_the_travel_agent() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        first = await agent.invoke_async("Plan a trip to Bern")
        done = await agent.invoke_async(InputResponse(text=json.dumps(TRIP)), task_id=first.task_id)
        assert done.state == "completed"


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_text_file_and_data_parts_travel_both_ways(binding: str) -> None:
    png = base64.b64encode(b"\x89PNG fake bytes").decode()
    parts = [
        ContentPart("image", blob=png, mime_type="image/png", name="a.png"),
        ContentPart("file", uri="https://example.com/f.pdf", mime_type="application/pdf", name="f.pdf"),
        ContentPart("data", data={"n": 3, "ratio": 0.5, "tags": ["a", "b"], "none": None}),
    ]
    async with serve_agent(echo_app) as url, A2AAgent(url, binding=binding) as agent:
        result = await agent.invoke_async("look at these", parts=parts)
    echoed = result.artifacts["echo"]
    assert [p.to_dict() for p in echoed] == [ContentPart("text", text="look at these").to_dict()] + [
        p.to_dict() for p in parts
    ]
    assert result.structured == {"n": 3, "ratio": 0.5, "tags": ["a", "b"], "none": None}


@pytest.mark.asyncio
async def test_context_is_kept_between_turns_unless_a_new_conversation_is_asked() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        one = await agent.invoke_async("first")
        two = await agent.invoke_async("second")
        assert two.context_id == one.context_id and two.task_id != one.task_id
        assert f"context={one.context_id}" in two.text
        three = await agent.invoke_async("third", new_conversation=True)
        assert three.context_id != one.context_id
        assert agent.context_id == three.context_id


@pytest.mark.asyncio
async def test_message_only_reply_completes_without_a_task() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        events = await collect(agent.stream_async("message-reply hi there"))
    assert kinds(events) == ["text_delta", "completed"]
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.result.text == "message-reply hi there"
    assert final.result.task_id is None


@pytest.mark.asyncio
async def test_skill_call_through_the_tool_registry_puts_the_skill_id_in_metadata() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        result = await agent.tools["echo"].call_async(message="ping")
    assert not result.is_error
    assert result.meta is not None and result.meta["a2a_state"] == "completed"
    assert "skill=echo" in result.text
    assert result.content[-1].text == "ping"


@pytest.mark.asyncio
async def test_tool_calls_in_an_input_required_data_part_become_tool_call_events() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        events = await collect(agent.stream_async("ask-tools"))
        calls = [e for e in events if isinstance(e, ToolCallRequested)]
        assert [(c.name, c.arguments, c.call_id) for c in calls] == [("lookup", {"q": "weather"}, "call-1")]
        asked = next(e for e in events if isinstance(e, InputRequired))
        assert asked.request.data == {"tool_calls": TOOL_CALLS}
        assert asked.request.schema is None
        done = await agent.invoke_async(data={"results": [{"id": "call-1", "value": "sunny"}]}, task_id=asked.task_id)
        assert done.artifacts["answer"][0].data == {"results": [{"id": "call-1", "value": "sunny"}]}


@pytest.mark.asyncio
async def test_bare_schema_data_part_becomes_the_input_request_schema() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        events = await collect(agent.stream_async("ask-schema"))
    asked = next(e for e in events if isinstance(e, InputRequired))
    assert asked.request.schema == BARE_SCHEMA


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
@pytest.mark.expected_error_logs  # the server side logs the failure it was made to have
async def test_agent_failing_mid_stream_ends_with_a_remote_error_after_earlier_events(binding: str) -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url, binding=binding) as agent:
        events = await collect(agent.stream_async("explode"))
        assert "artifact" in kinds(events)
        final = events[-1]
        assert isinstance(final, Failed)
        assert isinstance(final.error, RemoteError)
        assert final.error.remote_code == (-32603 if binding == "JSONRPC" else 500)  # internal error
        assert final.task_id is not None
        with pytest.raises(RemoteError):
            await agent.invoke_async("explode")
        view = await agent.tasks.get_view(final.task_id)
        assert view.state == "failed"


@pytest.mark.asyncio
async def test_message_to_a_finished_task_is_a_remote_error() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        done = await agent.invoke_async("hello")
        with pytest.raises(RemoteError) as info:
            await agent.invoke_async("again", task_id=done.task_id)
        assert info.value.remote_code == -32004


def test_sync_call_works_outside_an_event_loop() -> None:
    import asyncio
    import threading

    from workbench.core.protocols.agent_base import run_sync

    ready = threading.Event()
    holder: dict[str, Any] = {}

    def serve() -> None:
        async def main() -> None:
            stop = asyncio.Event()
            holder["loop"], holder["stop"] = asyncio.get_running_loop(), stop
            async with serve_agent(echo_app) as url:
                holder["url"] = url
                ready.set()
                await stop.wait()

        asyncio.run(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    agent = A2AAgent(holder["url"])
    try:
        assert agent.capabilities.name == "Echo"
        assert agent("sync hello").artifacts["echo"][0].text == "sync hello"
        assert agent.tools["echo"](message="x").meta["a2a_state"] == "completed"
    finally:
        run_sync(agent.aclose())
        holder["loop"].call_soon_threadsafe(holder["stop"].set)
        thread.join(10)


@pytest.mark.asyncio
async def test_input_handler_that_defers_ends_the_stream_with_the_task_waiting() -> None:
    from workbench.cli.answers import AnswerBook

    # text the agent cannot use (it asks again), then none; a JSON answer missing fields would not be sent at all
    book = AnswerBook(["next week"], interactive=False)
    handler = book.input
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url, input_handler=handler) as agent:
        events = await collect(agent.stream_async("Plan a trip to Rome"))
        final = events[-1]
        assert isinstance(final, Completed) and final.result.state == "input_required"
        assert kinds(events).count("input_required") == 2
        done = await agent.invoke_async(InputResponse(data=TRIP), task_id=final.result.task_id)
        assert done.state == "completed"
