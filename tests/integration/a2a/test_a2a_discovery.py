"""Card discovery against real agents on loopback: well-known paths, legacy cards, bad cards, gRPC."""

from __future__ import annotations

import socket

import pytest

from tests.support.a2a_agents import (
    BEARER,
    agent_json_only_app,
    bearer_app,
    echo_app,
    grpc_only_app,
    invalid_card_app,
    legacy_agent_json_only_app,
    no_card_app,
    not_json_card_app,
)
from workbench.core.errors import (
    AgentCardError,
    AuthRequiredError,
    UnreachableError,
    UnsupportedCapabilityError,
)
from workbench.core.protocols.a2a import A2AAgent, describe_card
from workbench.demo.a2a_agents import serve_agent, travel_app_factory


@pytest.mark.asyncio
async def test_card_is_found_at_the_well_known_path_and_describes_the_agent() -> None:
    async with serve_agent(travel_app_factory()) as url, A2AAgent(url) as agent:
        assert agent.discovery.fetch.url == f"{url}/.well-known/agent-card.json"
        assert agent.name == "Travel Planner (demo)"
        caps = agent.capabilities
        assert (caps.protocol, caps.protocol_version, caps.transport, caps.era) == ("a2a", "1.0", "JSONRPC", "1.0")
        assert caps.supports_streaming and caps.supports_push_notifications
        assert caps.raw is agent.discovery.card
        assert list(agent.tools) == ["plan-trip"]
        spec = agent.tools["plan-trip"].spec
        assert spec.kind == "skill" and spec.input_schema["required"] == ["message"]
        described = describe_card(agent.discovery)
        assert described["skills"][0]["examples"] == ["Plan a trip to Lisbon", "Plan a trip to Kyoto"]
        assert [i["binding"] for i in described["interfaces"]] == ["JSONRPC", "HTTP+JSON"]
        assert described["raw_card"]["name"] == "Travel Planner (demo)"
        assert described["protocol_versions"] == ["1.0"]


@pytest.mark.asyncio
async def test_card_only_at_agent_json_is_found_by_the_fallback() -> None:
    async with serve_agent(agent_json_only_app) as url, A2AAgent(url) as agent:
        assert agent.discovery.fetch.url == f"{url}/.well-known/agent.json"
        result = await agent.invoke_async("hello")
        assert result.state == "completed"
        assert result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
async def test_v03_agent_with_a_legacy_card_is_spoken_to_through_the_compat_transport() -> None:
    async with serve_agent(legacy_agent_json_only_app) as url, A2AAgent(url) as agent:
        caps = agent.capabilities
        assert caps.era == "0.3"
        assert caps.protocol_version.startswith("0.3")
        first = await agent.invoke_async("Plan a trip to Oslo")
        assert first.state == "input_required"
        answer = {"departure_date": "2026-06-01", "return_date": "2026-06-03", "travellers": 1, "cabin_class": "first"}
        done = await agent.invoke_async(data=answer, task_id=first.task_id)
        assert done.state == "completed"
        assert done.structured["cabin_class"] == "first"
        with pytest.raises(UnsupportedCapabilityError):
            await agent.tasks.list_views()


@pytest.mark.asyncio
async def test_explicit_card_url_is_used_as_given() -> None:
    async with serve_agent(echo_app) as url:
        agent = A2AAgent("http://ignored.invalid", card_url=f"{url}/.well-known/agent-card.json")
        async with agent:
            assert agent.discovery.fetch.url == f"{url}/.well-known/agent-card.json"
            assert (await agent.invoke_async("hi")).artifacts["echo"][0].text == "hi"


@pytest.mark.asyncio
async def test_card_that_is_not_json_is_a_card_error_naming_the_url() -> None:
    async with serve_agent(not_json_card_app) as url:
        agent = A2AAgent(url)
        with pytest.raises(AgentCardError) as info:
            await agent.connect()
        assert info.value.details["url"] == f"{url}/.well-known/agent-card.json"
        assert info.value.details["problem"] == "not-json"
        await agent.aclose()


@pytest.mark.asyncio
async def test_card_with_wrong_types_is_a_card_error_naming_the_url() -> None:
    async with serve_agent(invalid_card_app) as url:
        agent = A2AAgent(url)
        with pytest.raises(AgentCardError) as info:
            await agent.connect()
        assert info.value.code == "agent-card"
        assert info.value.details["url"] == f"{url}/.well-known/agent-card.json"
        assert info.value.details["problem"] == "invalid"


@pytest.mark.asyncio
async def test_missing_card_lists_every_url_tried() -> None:
    async with serve_agent(no_card_app) as url:
        agent = A2AAgent(url)
        with pytest.raises(AgentCardError) as info:
            await agent.connect()
        tried = [t["url"] for t in info.value.details["tried"]]
        assert tried == [f"{url}/.well-known/agent-card.json", f"{url}/.well-known/agent.json"]
        assert info.value.details["problem"] == "not-found"


@pytest.mark.asyncio
async def test_unreachable_agent_is_an_unreachable_error_naming_the_url() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    agent = A2AAgent(url, connect_timeout=2.0)
    with pytest.raises(UnreachableError) as info:
        await agent.connect()
    assert info.value.details["url"] == f"{url}/.well-known/agent-card.json"


@pytest.mark.asyncio
async def test_unreachable_agent_ends_the_stream_with_failed() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = A2AAgent(f"http://127.0.0.1:{port}", connect_timeout=2.0)
    events = [ev async for ev in agent.stream_async("hi")]
    assert [e.kind.value for e in events] == ["failed"]
    with pytest.raises(UnreachableError):
        await agent.invoke_async("hi")


@pytest.mark.asyncio
async def test_grpc_only_agent_gets_an_honest_unsupported_error() -> None:
    async with serve_agent(grpc_only_app) as url:
        agent = A2AAgent(url)
        with pytest.raises(UnsupportedCapabilityError) as info:
            await agent.connect()
        assert info.value.details["offered"] == ["GRPC"]


@pytest.mark.asyncio
async def test_binding_that_the_agent_lacks_is_unsupported() -> None:
    async with serve_agent(legacy_agent_json_only_app) as url:
        agent = A2AAgent(url, binding="HTTP+JSON")
        with pytest.raises(UnsupportedCapabilityError):
            await agent.connect()


@pytest.mark.asyncio
async def test_extended_card_is_fetched_when_a_credential_is_given() -> None:
    async with serve_agent(bearer_app) as url:
        async with A2AAgent(url) as anonymous:
            assert not anonymous.discovery.extended
            assert list(anonymous.tools) == ["echo"]
            assert anonymous.capabilities.extra["security_schemes"] == ["bearer"]
        async with A2AAgent(url, bearer_token=BEARER) as signed_in:
            assert signed_in.discovery.extended
            assert list(signed_in.tools) == ["echo", "secret-skill"]
            assert describe_card(signed_in.discovery)["security_schemes"]["bearer"]["type"] == "http"


@pytest.mark.asyncio
async def test_extended_card_with_a_wrong_credential_keeps_the_public_card() -> None:
    async with serve_agent(bearer_app) as url, A2AAgent(url, bearer_token="wrong-token") as agent:
        assert not agent.discovery.extended
        assert isinstance(agent.discovery.extended_error, AuthRequiredError)
        assert list(agent.tools) == ["echo"]


def _huge_card_app(base_url: str) -> object:
    """A 'card' of 50 MB streamed without a length: the client must stop reading early."""
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    sent = {"chunks": 0}

    async def body():  # type: ignore[no-untyped-def]
        yield b'{"name": "' + b"x" * (1024 * 1024 - 10)
        for _ in range(49):
            sent["chunks"] += 1
            yield b"x" * (1024 * 1024)
        yield b'"}'

    async def card(request: object) -> StreamingResponse:
        return StreamingResponse(body(), media_type="application/json")

    app = Starlette(routes=[Route("/.well-known/agent-card.json", card)])
    app.state.sent = sent
    return app


@pytest.mark.asyncio
async def test_a_50_megabyte_card_is_refused_naming_the_limit_without_reading_it_all() -> None:
    async with serve_agent(_huge_card_app) as url:  # type: ignore[arg-type]
        with pytest.raises(AgentCardError) as refused:
            async with A2AAgent(url):
                pass
    assert refused.value.details["problem"] == "too-large"
    assert refused.value.details["limit_bytes"] == 4 * 1024 * 1024
