"""Model-backed sampling against the project's loopback model endpoint (OpenAI chat completions and
Anthropic messages, streamed and whole): text, tool calls, usage and cost, and the bad answers."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from tests.servers.model_api import ModelAPI
from workbench.core.errors import (
    ModelEndpointError,
    ModelResponseError,
    ModelTimeoutError,
    SamplingToolError,
)
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.model import ModelResponder

pytestmark = pytest.mark.asyncio
KEY = "sk-test-0123456789abcdef-SECRET"
APIS = ["openai", "anthropic"]
WEATHER = ToolSpec(
    name="get_weather",
    description="The weather in a city",
    input_schema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def endpoint(api: ModelAPI, kind: str, model: str, *, stream: bool = True, timeout: float = 10) -> ModelEndpoint:
    base = api.base_url(kind)
    return ModelEndpoint(
        name="loopback",
        api=kind,  # type: ignore[arg-type]
        base_url=base,
        model=model,
        stream=stream,
        timeout=timeout,
        input_price=3.0,
        output_price=15.0,
    )


def ask(text: str, *, tools: list[ToolSpec] | None = None) -> SamplingRequest:
    return SamplingRequest(
        messages=[SamplingMessage("user", [ContentPart("text", text=text)])],
        max_tokens=100,
        system_prompt="Be brief",
        tools=tools,
        agent="test",
    )


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", APIS)
async def test_a_model_answers_with_text_and_counts_tokens_and_cost(
    model_api: ModelAPI, kind: str, stream: bool
) -> None:
    deltas: list[str] = []
    responder = ModelResponder(endpoint(model_api, kind, "echo", stream=stream), SecretStr(KEY), on_text=deltas.append)
    reply = await responder(ask("hello there"))
    assert reply.text == "echo: hello there"
    assert reply.stop_reason == "endTurn"
    assert reply.responder == "model:loopback"
    assert reply.usage is not None and reply.usage.input_tokens and reply.usage.output_tokens
    expected = (reply.usage.input_tokens * 3.0 + reply.usage.output_tokens * 15.0) / 1e6
    assert reply.usage.cost == pytest.approx(expected)
    assert ("".join(deltas) == reply.text) if stream else deltas == []
    seen = model_api.seen[-1]
    assert seen.key == KEY
    assert seen.body["max_tokens"] == 100


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", APIS)
async def test_a_model_calls_an_offered_tool_and_then_reads_its_result(
    model_api: ModelAPI, kind: str, stream: bool
) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "weather", stream=stream), SecretStr(KEY))
    first = await responder(ask("weather in Oslo?", tools=[WEATHER]))
    assert first.stop_reason == "toolUse"
    (use,) = first.tool_uses
    assert use.data["name"] == "get_weather" and use.data["input"] == {"city": "Oslo"}
    sent = model_api.seen[-1].body
    assert sent["tools"][0]["name" if kind == "anthropic" else "function"]
    call_id = use.data["id"]
    result = ContentPart("tool_result", data={"type": "tool_result", "toolUseId": call_id,
                                              "content": [{"type": "text", "text": "sunny, 21 C"}]})  # fmt: skip
    follow = SamplingRequest(
        messages=[
            *ask("weather in Oslo?").messages,
            SamplingMessage("assistant", list(first.content)),
            SamplingMessage("user", [result]),
        ],
        max_tokens=100,
        tools=[WEATHER],
    )
    second = await responder(follow)
    assert second.text == "It is sunny, 21 C"
    assert second.stop_reason == "endTurn"


@pytest.mark.parametrize("kind", APIS)
async def test_a_tool_call_for_a_tool_not_offered_is_a_typed_error(model_api: ModelAPI, kind: str) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "ghost-tool"), SecretStr(KEY))
    with pytest.raises(SamplingToolError) as caught:
        await responder(ask("anything", tools=[WEATHER]))
    assert caught.value.details["tool"] == "no_such_tool"


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", APIS)
async def test_garbage_from_the_endpoint_is_a_model_response_error(
    model_api: ModelAPI, kind: str, stream: bool
) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "garbage", stream=stream), SecretStr(KEY))
    with pytest.raises(ModelResponseError):
        await responder(ask("hi"))


@pytest.mark.parametrize("kind", APIS)
async def test_a_stream_cut_short_is_a_model_response_error(model_api: ModelAPI, kind: str) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "cut"), SecretStr(KEY))
    with pytest.raises(ModelResponseError):
        await responder(ask("hi"))


@pytest.mark.parametrize("kind", APIS)
async def test_an_answer_that_never_ends_is_cut_at_the_size_bound(model_api: ModelAPI, kind: str) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "flood"), SecretStr(KEY))
    with pytest.raises(ModelResponseError):
        await responder(ask("hi"))


@pytest.mark.parametrize("kind", APIS)
async def test_an_endpoint_that_never_finishes_times_out(model_api: ModelAPI, kind: str) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "hang", timeout=0.2), SecretStr(KEY))
    with pytest.raises(ModelTimeoutError):
        await responder(ask("hi"))


@pytest.mark.parametrize("kind", APIS)
async def test_an_error_status_never_carries_the_key(model_api: ModelAPI, kind: str) -> None:
    responder = ModelResponder(endpoint(model_api, kind, "leak-key"), SecretStr(KEY))
    with pytest.raises(ModelEndpointError) as caught:
        await responder(ask("hi"))
    error = caught.value
    assert error.code == "model-endpoint" and error.details["status"] == 401
    shown = f"{error} {error.to_dict()} {responder!r}"
    assert KEY not in shown and KEY[:8] not in shown and KEY[-6:] not in shown


async def test_an_unreachable_endpoint_is_a_model_endpoint_error(model_api: ModelAPI) -> None:
    dead = ModelEndpoint(name="dead", api="openai", base_url="http://127.0.0.1:9/v1", model="echo", timeout=5)
    with pytest.raises(ModelEndpointError) as caught:
        await ModelResponder(dead, None)(ask("hi"))
    assert type(caught.value) is ModelEndpointError
