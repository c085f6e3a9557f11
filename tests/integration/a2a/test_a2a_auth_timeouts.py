"""Auth (HTTP 401, in-band auth-required) and timeouts (silent streams) against real agents."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tests.support.a2a_agents import BEARER, INBAND_TOKEN, bearer_app, echo_app
from workbench.core.errors import AuthRequiredError, RequestTimeoutError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import (
    AgentEvent,
    AuthRequired,
    Completed,
    Failed,
    InputRequest,
    InputResponse,
    TextDelta,
)
from workbench.demo.a2a_agents import serve_agent


async def collect(stream: Any, limit: float = 20) -> list[AgentEvent]:
    with anyio.fail_after(limit):
        return [ev async for ev in stream]


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_401_from_an_agent_needing_a_bearer_token_is_auth_required(binding: str) -> None:
    async with serve_agent(bearer_app) as url, A2AAgent(url, binding=binding) as agent:
        events = await collect(agent.stream_async("hello"))
        final = events[-1]
        assert isinstance(final, Failed)
        assert isinstance(final.error, AuthRequiredError)
        assert final.error.details["http_status"] == 401
        with pytest.raises(AuthRequiredError):
            await agent.invoke_async("hello")


@pytest.mark.asyncio
async def test_bearer_token_is_sent_and_the_agent_answers() -> None:
    async with serve_agent(bearer_app) as url, A2AAgent(url, bearer_token=BEARER) as agent:
        result = await agent.invoke_async("hello")
    assert result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
async def test_401_asks_the_input_handler_for_a_credential_and_resumes() -> None:
    asked: list[InputRequest] = []

    async def handler(request: InputRequest) -> InputResponse:
        asked.append(request)
        return InputResponse(text=BEARER)

    async with serve_agent(bearer_app) as url, A2AAgent(url, input_handler=handler) as agent:
        events = await collect(agent.stream_async("hello"))
    assert [r.kind for r in asked] == ["auth"]
    assert asked[0].data["http_status"] == 401
    assert isinstance(events[0], AuthRequired)
    final = events[-1]
    assert isinstance(final, Completed) and final.result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
async def test_401_with_a_declined_credential_fails_with_auth_required() -> None:
    async def decline(request: InputRequest) -> InputResponse:
        return InputResponse(cancel=True)

    async with serve_agent(bearer_app) as url, A2AAgent(url, input_handler=decline) as agent:
        events = await collect(agent.stream_async("hello"))
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, AuthRequiredError)


@pytest.mark.asyncio
async def test_in_band_auth_required_surfaces_the_question_and_resumes_with_the_credential() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        events = await collect(agent.stream_async("need-auth"))
        asked = next(e for e in events if isinstance(e, AuthRequired))
        assert asked.request.kind == "auth" and asked.request.text == "Sign in first."
        final = events[-1]
        assert isinstance(final, Completed) and final.result.state == "auth_required"
        # Answering without a credential keeps it waiting; with one it completes.
        again = await agent.invoke_async(InputResponse(text="hi"), task_id=final.result.task_id)
        assert again.state == "auth_required"

    async def give_token(request: InputRequest) -> InputResponse:
        return InputResponse(text=INBAND_TOKEN)

    async with serve_agent(echo_app) as url, A2AAgent(url, input_handler=give_token) as agent:
        events = await collect(agent.stream_async("need-auth"))
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "completed"
    assert final.result.text.startswith("resumed")


@pytest.mark.asyncio
async def test_stream_silent_for_longer_than_five_seconds_is_not_an_error_by_default() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url) as agent:
        events = await collect(agent.stream_async("silent 5.5"), limit=30)
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["thinking quietly", "done after silence"]
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "completed"


@pytest.mark.asyncio
async def test_stream_idle_timeout_when_set_ends_a_silent_stream_with_a_timeout_error() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url, stream_idle_timeout=0.5) as agent:
        events = await collect(agent.stream_async("silent 1.5"))
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, RequestTimeoutError)
    assert final.task_id is not None


@pytest.mark.asyncio
async def test_request_timeout_applies_to_blocking_requests() -> None:
    async with serve_agent(echo_app) as url, A2AAgent(url, streaming=False, request_timeout=0.3) as agent:
        with pytest.raises(RequestTimeoutError):
            await agent.invoke_async("silent 1.5")
