"""MCPAgent against the bundled demo server: in process, both HTTP transports and (where what crosses
the process boundary is tested) a stdio child; both protocol eras."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest

from tests.integration.mcp.conftest import WITH_STDIO
from tests.support.demo_mcp import demo_stdio_command
from workbench.core.errors import NotFoundError, SyncCallInLoopError, UnsupportedCapabilityError
from workbench.core.events import EventBus, ListChanged, ResourceUpdated
from workbench.core.protocols.base import (
    Completed,
    ElicitationRequest,
    ElicitationResponse,
    LogMessage,
    ProgressReported,
    SamplingRequest,
    SamplingResponse,
)
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.records import Direction, WireKind

pytestmark = pytest.mark.asyncio
ERAS = ["legacy", "auto"]


@WITH_STDIO
@pytest.mark.parametrize("mode", ERAS)
async def test_connect_discovers_capabilities_tools_resources_prompts(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    async with demo_agent_factory(mode=mode) as agent:
        assert isinstance(agent, RemoteAgent)
        caps = agent.capabilities
        assert caps.protocol == "mcp"
        assert caps.era == ("legacy" if mode == "legacy" else "2026-07-28")
        assert caps.agent_entry_point == "ask"
        assert {"ask", "plan_trip", "slow_count", "book_table", "handoff"} <= set(agent.tools)
        assert any(r.uri == "demo://readme" for r in agent.server_features.resources)
        assert [t.uri_template for t in agent.server_features.resource_templates] == ["demo://items/{item_id}"]
        assert {p.name for p in agent.server_features.prompts} >= {"greet", "summarize"}
        described = json.loads(json.dumps(agent.describe().to_dict()))
        assert described["protocol_version"] == caps.protocol_version


@WITH_STDIO
@pytest.mark.parametrize("mode", ERAS)
async def test_agent_call_uses_the_entry_point_and_streams_progress_and_logs(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    async with demo_agent_factory(mode=mode) as agent:
        events = [e async for e in agent.stream_async("weather in Paris")]
        assert isinstance(events[-1], Completed)
        assert "Paris" in events[-1].result.text
        assert any(isinstance(e, ProgressReported) for e in events)
        assert any(isinstance(e, LogMessage) for e in events)
        result = await agent.invoke_async("weather in Oslo")
        assert "Oslo" in result.text


async def test_tool_results_keep_structured_content_and_report_schema_mismatch(
    demo_agent_factory: Callable[..., MCPAgent],
) -> None:
    async with demo_agent_factory() as agent:
        weather = await agent.call_tool("weather", {"city": "Paris"})
        assert weather.structured_content["city"] == "Paris"
        assert weather.schema_errors == []
        broken = await agent.call_tool("broken_output", {})
        assert broken.schema_errors, "a violated outputSchema must be reported, not raised"
        failed = await agent.call_tool("fail", {"message": "boom"})
        assert failed.is_error


async def test_every_content_type_converts(demo_agent_factory: Callable[..., MCPAgent]) -> None:
    async with demo_agent_factory() as agent:
        image = await agent.call_tool("tiny_image", {})
        assert image.content[0].type == "image" and image.content[0].mime_type == "image/png"
        audio = await agent.call_tool("audio_clip", {})
        assert audio.content[0].type == "audio"
        links = await agent.call_tool("resource_link_tool", {})
        assert {p.type for p in links.content} >= {"resource_link", "resource"}


@WITH_STDIO
@pytest.mark.parametrize("mode", ERAS)
async def test_form_elicitation_goes_to_the_handler_and_its_answer_reaches_the_tool(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    seen: list[ElicitationRequest] = []

    async def answer(request: ElicitationRequest) -> ElicitationResponse:
        seen.append(request)
        return ElicitationResponse(
            "accept", {"name": "Ada", "email": "ada@example.org", "party_size": 4, "outdoor": True, "time": "20:00"}
        )

    async with demo_agent_factory(mode=mode, elicitation_handler=answer) as agent:
        result = await agent.call_tool("book_table", {})
        assert seen and seen[0].mode == "form"
        assert "party_size" in seen[0].requested_schema["properties"]
        assert "Ada" in result.text and "4" in result.text


async def test_declined_elicitation_without_a_handler_is_reported_by_the_tool(
    demo_agent_factory: Callable[..., MCPAgent],
) -> None:
    async with demo_agent_factory(mode="legacy") as agent:
        result = await agent.call_tool("book_table", {})
        assert "declin" in result.text.lower()


@WITH_STDIO
@pytest.mark.parametrize("mode", ERAS)
async def test_sampling_request_carries_agent_uri_and_reply_returns_to_the_tool(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    asked: list[SamplingRequest] = []

    async def reply(request: SamplingRequest) -> SamplingResponse:
        asked.append(request)
        return SamplingResponse(text="booked by the specialist")

    async with demo_agent_factory(mode=mode, sampling_handler=reply) as agent:
        result = await agent.call_tool("handoff", {"agent_uri": "a2a://booking", "message": "book it"})
        assert asked[0].metadata == {"agent_uri": "a2a://booking"}
        assert "booked by the specialist" in result.text


@pytest.mark.parametrize("mode", ERAS)
async def test_roots_configured_by_the_user_reach_the_server(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    roots = [("file:///home/me/project", "project")]
    async with demo_agent_factory(mode=mode, roots=roots) as agent:
        result = await agent.call_tool("show_roots", {})
        assert "file:///home/me/project" in result.text


async def test_resources_templates_prompts_and_completions(demo_agent_factory: Callable[..., MCPAgent]) -> None:
    async with demo_agent_factory() as agent:
        readme = await agent.server_features.read_resource("demo://readme")
        assert readme.parts[0].text
        item = await agent.server_features.read_resource("demo://items/42")
        assert "42" in (item.parts[0].text or "")
        prompt = await agent.server_features.get_prompt("greet", {"name": "Ada", "style": "pirate"})
        assert "Ada" in (prompt.messages[0].content[0].text or "")
        completion = await agent.server_features.complete("prompt", "greet", "style", "p")
        assert "pirate" in completion.values


@WITH_STDIO
@pytest.mark.parametrize("mode", ERAS)
async def test_list_changed_refreshes_the_tool_list(demo_agent_factory: Callable[..., MCPAgent], mode: str) -> None:
    bus = EventBus()
    changed = asyncio.Event()
    bus.subscribe(ListChanged, lambda e: e.what == "tools" and changed.set())
    async with demo_agent_factory(mode=mode, bus=bus) as agent:
        before = set(agent.tools)
        await agent.call_tool("add_tool", {})
        await asyncio.wait_for(changed.wait(), 10)
        assert set(agent.tools) - before


@pytest.mark.parametrize("mode", ERAS)
async def test_resource_subscription_delivers_updates(demo_agent_factory: Callable[..., MCPAgent], mode: str) -> None:
    bus = EventBus()
    updated = asyncio.Event()
    bus.subscribe(ResourceUpdated, lambda e: e.uri == "demo://counter" and updated.set())
    async with demo_agent_factory(mode=mode, bus=bus) as agent:
        await agent.server_features.subscribe_resource("demo://counter")
        await agent.call_tool("bump_counter", {})
        await asyncio.wait_for(updated.wait(), 10)
        assert updated.is_set()


@WITH_STDIO
async def test_cancelling_a_streamed_call_cancels_it_on_the_server(
    demo_agent_factory: Callable[..., MCPAgent],
) -> None:
    async with demo_agent_factory(mode="legacy") as agent:
        stream = agent.call_tool_stream("slow_count", {"n": 100, "delay": 0.05})
        async for event in stream:
            if isinstance(event, ProgressReported) and event.progress >= 2:
                break
        await stream.aclose()  # type: ignore[attr-defined]
        cancels = [
            r
            for r in agent.config.wire.records(agent.connection_id)
            if r.direction is Direction.OUT and r.method == "notifications/cancelled"
        ]
        assert cancels, "closing the stream must send notifications/cancelled"


@WITH_STDIO
async def test_wire_log_records_both_directions_with_latency(demo_agent_factory: Callable[..., MCPAgent]) -> None:
    async with demo_agent_factory() as agent:
        await agent.call_tool("echo", {"text": "hi"})
        records = agent.config.wire.records(agent.connection_id)
        calls = [r for r in records if r.kind is WireKind.JSONRPC and r.method == "tools/call"]
        assert calls and calls[0].direction is Direction.OUT
        response = agent.config.wire.find_response(calls[0])
        assert response is not None and response.latency_ms is not None and response.latency_ms >= 0


async def test_a_server_without_entry_point_raises_unsupported_capability_naming_what_it_offers(
    demo_agent_factory: Callable[..., MCPAgent],
) -> None:
    async with demo_agent_factory(agent_tool="no_such_tool") as agent:
        with pytest.raises(UnsupportedCapabilityError) as info:
            await agent.invoke_async("hello")
        assert "plan_trip" in info.value.details["tools"]
        with pytest.raises(NotFoundError):
            agent.tools["no_such_tool"]


async def test_sync_call_inside_a_running_loop_is_refused(demo_agent_factory: Callable[..., MCPAgent]) -> None:
    async with demo_agent_factory() as agent:
        with pytest.raises(SyncCallInLoopError):
            agent("hello")


@pytest.mark.parametrize("mode", ERAS)
async def test_url_elicitation_shows_the_url_and_the_completion_arrives_on_legacy(
    demo_agent_factory: Callable[..., MCPAgent], mode: str
) -> None:
    from workbench.core.events import ElicitationCompleted

    bus = EventBus()
    completed = asyncio.Event()
    bus.subscribe(ElicitationCompleted, lambda e: completed.set())
    asked: list[ElicitationRequest] = []

    async def agree(request: ElicitationRequest) -> ElicitationResponse:
        asked.append(request)
        return ElicitationResponse("accept")

    async with demo_agent_factory(mode=mode, elicitation_handler=agree, bus=bus) as agent:
        result = await agent.call_tool("connect_account", {})
        assert not result.is_error
        assert asked[0].mode == "url"
        assert asked[0].url.startswith("https://example.com/")
        if mode == "legacy":
            await asyncio.wait_for(completed.wait(), 10)
            assert asked[0].elicitation_id


@pytest.mark.parametrize("mode", ERAS)
async def test_cancelling_a_call_stops_the_tool_on_the_server_in_both_eras(mode: str) -> None:

    from workbench.core.events import ServerStderrLine

    bus = EventBus()
    stopped = asyncio.Event()
    bus.subscribe(ServerStderrLine, lambda e: "slow_count cancelled" in e.line and stopped.set())
    stdio = demo_stdio_command()
    async with MCPAgent.stdio(stdio[0], stdio[1:], mode=mode, bus=bus) as agent:
        call = asyncio.create_task(agent.call_tool("slow_count", {"n": 200, "delay": 0.05}))
        progressed = asyncio.Event()
        agent.server_features.add_listener(lambda e: isinstance(e, LogMessage) and progressed.set())
        await asyncio.wait_for(progressed.wait(), 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.wait_for(stopped.wait(), 10)


async def test_first_call_connects_lazily_and_new_roots_reach_the_server() -> None:
    stdio = demo_stdio_command()
    agent = MCPAgent.stdio(stdio[0], stdio[1:], mode="legacy", roots=[])
    try:
        result = await agent.call_tool("echo", {"text": "lazy"})
        assert result.text == "lazy"
        await agent.server_features.set_roots([("file:///data/new-root", "new")])
        assert "file:///data/new-root" in (await agent.call_tool("show_roots", {})).text
    finally:
        await agent.aclose()
