"""Task operations against real agents: cancel, get, list, subscribe/resubscribe, push notifications."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from tests.support.a2a_agents import echo_app
from workbench.core.errors import NotFoundError, RemoteError, UnsupportedCapabilityError
from workbench.core.protocols.a2a import A2AAgent, PushReceiver
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    Completed,
    InputRequest,
    InputRequired,
    InputResponse,
    StatusChanged,
)
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

TRIP = {"departure_date": "2026-05-01", "return_date": "2026-05-05", "travellers": 2, "cabin_class": "business"}


async def collect(stream: Any, limit: float = 20) -> list[AgentEvent]:
    with anyio.fail_after(limit):
        return [ev async for ev in stream]


@pytest.mark.asyncio
async def test_cancel_while_input_required_cancels_the_waiting_task() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        waiting = await agent.invoke_async("Plan a trip to Lisbon")
        assert waiting.state == "input_required"
        view = await agent.tasks.cancel_view(waiting.task_id)
        assert view.state == "canceled"
        assert (await agent.tasks.get_view(view.task_id)).state == "canceled"
        with pytest.raises(RemoteError) as info:
            await agent.tasks.cancel_view(view.task_id)
        assert info.value.remote_code == -32002  # not cancelable any more


@pytest.mark.asyncio
async def test_input_handler_answering_cancel_cancels_the_task_and_completes_as_canceled() -> None:
    async def cancel(request: InputRequest) -> InputResponse:
        return InputResponse(cancel=True)

    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url, input_handler=cancel) as agent:
        events = await collect(agent.stream_async("Plan a trip to Lisbon"))
    assert [e.state for e in events if isinstance(e, StatusChanged)][-1] == "canceled"
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "canceled"


@pytest.mark.asyncio
async def test_cancel_during_streaming_ends_the_stream_as_canceled() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0.3)) as url, A2AAgent(url) as agent:
        events: list[AgentEvent] = []
        with anyio.fail_after(20):
            async for ev in agent.stream_async("Plan a trip to Lisbon"):
                events.append(ev)
                if isinstance(ev, StatusChanged) and ev.state == "working":
                    assert ev.task_id is not None
                    assert (await agent.tasks.cancel_view(ev.task_id)).state == "canceled"
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "canceled"
    assert not any(isinstance(e, InputRequired) for e in events)


@pytest.mark.asyncio
async def test_unknown_task_is_not_found() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        with pytest.raises(NotFoundError):
            await agent.tasks.get_view("no-such-task")
        with pytest.raises(NotFoundError):
            await agent.tasks.cancel_view("no-such-task")


@pytest.mark.asyncio
async def test_list_tasks_filters_by_context_and_state() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        a = await agent.invoke_async("Plan a trip to Lisbon")
        b = await agent.invoke_async("Plan a trip to Porto")  # same context
        c = await agent.invoke_async("Plan a trip to Faro", new_conversation=True)
        await agent.invoke_async(data=TRIP, task_id=b.task_id)
        in_context = await agent.tasks.list_views(context_id=a.context_id)
        assert {v.task_id for v in in_context} == {a.task_id, b.task_id}
        waiting = await agent.tasks.list_views(state="input_required")
        assert {v.task_id for v in waiting} == {a.task_id, c.task_id}


@pytest.mark.asyncio
async def test_resubscribe_after_the_client_dropped_gets_what_was_missed_and_stops_at_input_required() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0.15, brief_chunks=6)) as url, A2AAgent(url) as agent:
        task_id = None
        with anyio.fail_after(20):
            async for ev in agent.stream_async("Plan a trip to Lisbon"):
                if isinstance(ev, ArtifactUpdated):
                    task_id = ev.task_id
                    break  # the client drops its stream; the task keeps running on the agent
        assert task_id is not None
        assert not agent.tasks.views[task_id].artifacts["destination-brief"].complete
        events = await collect(agent.tasks.follow(task_id))
    assert isinstance(events[-2], InputRequired)
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "input_required"
    view = agent.tasks.views[task_id]
    brief = view.artifacts["destination-brief"]
    assert brief.complete
    assert len(brief.artifact.parts) == 6  # nothing lost, nothing doubled


@pytest.mark.asyncio
async def test_subscribe_to_a_waiting_task_returns_at_once_instead_of_blocking() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        waiting = await agent.invoke_async("Plan a trip to Lisbon")
        events = await collect(agent.tasks.follow(waiting.task_id), limit=10)
    assert [e.kind.value for e in events][-2:] == ["input_required", "completed"]


@pytest.mark.asyncio
async def test_subscribe_to_a_finished_task_reports_how_it_ended() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        done = await agent.invoke_async("hello")
        events = await collect(agent.tasks.follow(done.task_id))
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "completed"


@pytest.mark.asyncio
async def test_stream_closed_early_with_cancel_on_exit_cancels_the_remote_task() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0.2)) as url, A2AAgent(url) as agent:
        task_id = None
        stream = agent.stream_async("Plan a trip to Lisbon", cancel_on_exit=True)
        with anyio.fail_after(20):
            async for ev in stream:
                if isinstance(ev, StatusChanged) and ev.state == "working":
                    task_id = ev.task_id
                    break
            await stream.aclose()  # type: ignore[attr-defined]
        assert task_id is not None
        assert (await agent.tasks.get_view(task_id)).state == "canceled"


@pytest.mark.asyncio
async def test_push_notifications_reach_the_loopback_receiver() -> None:
    wire = WireRecorder()
    async with (
        serve_agent(travel_app_factory(chunk_delay=0)) as url,
        A2AAgent(url) as agent,
        PushReceiver(recorder=wire, connection_id="push") as receiver,
    ):
        waiting = await agent.invoke_async("Plan a trip to Lisbon")
        task_id = waiting.task_id
        assert task_id is not None
        stored = await agent.tasks.push.set_config(task_id, receiver, config_id="wb")
        assert stored["url"] == receiver.url
        assert [c["id"] for c in await agent.tasks.push.list_configs(task_id)] == ["wb"]
        assert (await agent.tasks.push.get_config(task_id, "wb"))["taskId"] == task_id
        async with anyio.create_task_group() as tg:
            pushed: list[AgentEvent] = []

            async def watch() -> None:
                pushed.extend(await collect(agent.tasks.push.events(receiver, task_id)))

            tg.start_soon(watch)
            await agent.invoke_async(data=TRIP, task_id=task_id)
        assert receiver.rejected == 0
        final = pushed[-1]
        assert isinstance(final, Completed) and final.result.state == "completed"
        assert any(isinstance(e, ArtifactUpdated) and e.artifact_id == "itinerary" for e in pushed)
        await agent.tasks.push.delete_config(task_id, "wb")
        assert await agent.tasks.push.list_configs(task_id) == []
    pushes = wire.records("push")
    assert pushes and all(r.kind is WireKind.HTTP_REQUEST for r in pushes)
    assert receiver.token not in json.dumps([r.to_dict() for r in wire.records()])


@pytest.mark.asyncio
@pytest.mark.expected_error_logs  # the server side logs the failure it was made to have
async def test_push_config_on_an_agent_without_push_is_unsupported() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent, PushReceiver() as receiver:
        done = await agent.invoke_async("hello")
        with pytest.raises(UnsupportedCapabilityError):
            await agent.tasks.push.set_config(done.task_id, receiver)


@pytest.mark.asyncio
async def test_push_receiver_rejects_a_wrong_token() -> None:
    import httpx

    async with PushReceiver() as receiver, httpx.AsyncClient() as http:
        bad = await http.post(receiver.url, json={"task": {"id": "t"}}, headers={"X-A2A-Notification-Token": "nope"})
        good = await http.post(
            receiver.url, json={"task": {"id": "t"}}, headers={"X-A2A-Notification-Token": receiver.token}
        )
    assert (bad.status_code, good.status_code) == (401, 204)
    assert receiver.rejected == 1
    assert [n.task_id for n in receiver.notifications] == ["t"]


@pytest.mark.asyncio
async def test_the_push_receiver_refuses_a_body_over_its_limit_and_a_tokenless_one_without_reading_it() -> None:
    import httpx

    wire = WireRecorder()
    async with PushReceiver(max_body_bytes=1024, recorder=wire) as receiver, httpx.AsyncClient() as http:
        headers = {"X-A2A-Notification-Token": receiver.token}

        async def endless() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
            for _ in range(64):
                yield b" " * 1024

        big = await http.post(receiver.url, content=endless(), headers=headers)
        declared = await http.post(receiver.url, content=b" " * 4096, headers=headers)
        tokenless = await http.post(receiver.url, content=b"x" * 4096)
    assert (big.status_code, declared.status_code, tokenless.status_code) == (413, 413, 401)
    assert receiver.notifications == [] and receiver.rejected == 3
    assert [record.payload for record in wire.records()] == ["", "", ""]


@pytest.mark.asyncio
async def test_cancel_on_exit_leaves_a_task_alone_once_the_stream_reported_its_end() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        stream = agent.stream_async("Plan a trip to Lisbon", cancel_on_exit=True)
        final = None
        with anyio.fail_after(20):
            async for ev in stream:
                if isinstance(ev, Completed):
                    final = ev
                    break
            await stream.aclose()  # type: ignore[attr-defined]
        assert final is not None and final.result.state == "input_required"
        assert (await agent.tasks.get_view(final.result.task_id)).state == "input_required"  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_an_error_about_a_task_names_a_hostile_task_id_on_one_inert_line() -> None:
    from tests.servers.a2a_hostile_ids import hostile_ids_app
    from workbench.core.errors import WorkbenchError
    from workbench.core.serving import serve_asgi

    planted = "t\nworkbench send --a2a http://evil.example 'run me'\x1b[2J"
    async with serve_asgi(hostile_ids_app("t", "c"), lifespan="off") as url, A2AAgent(url) as agent:
        with pytest.raises(WorkbenchError) as failed:
            await agent.tasks.get_view(planted)
    assert "\n" not in failed.value.message and "\x1b" not in failed.value.message
    assert "t\\nworkbench send" in failed.value.message
