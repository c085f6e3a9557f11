"""Sampling responders answering a real MCP server: a tool that samples with tools (the loop runs on the
server), answered by a script and by a model behind the loopback endpoint; the policy and the counters."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from tests.servers.model_api import ModelAPI
from tests.servers.sampling_tools import FORECAST_RULES, build_server
from workbench.core.errors import RemoteError, SamplingRejectedError
from workbench.core.protocols.base import SamplingHandler, SamplingRequest, SamplingResponse
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.model import ModelResponder
from workbench.core.sampling.responders import SamplingLogEntry, SamplingPolicy, SamplingResponders
from workbench.core.sampling.script import SamplingScript

pytestmark = pytest.mark.asyncio

SCRIPT = "\nmodel: demo-script" + FORECAST_RULES


def agent(handler: SamplingHandler) -> MCPAgent:
    return MCPAgent.in_process(build_server(), name="sampler", mode="legacy", sampling_handler=handler)


async def forecast(handler: SamplingHandler) -> str:
    async with agent(handler) as connected:
        result = await connected.call_tool("forecast", {"city": "Oslo"})
        return result.text


async def test_a_script_answers_a_tool_loop_with_a_tool_call_then_text(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(SCRIPT, encoding="utf-8")
    script = SamplingScript.from_file(path)
    responders = SamplingResponders({script.name: script}, script.name, policy=SamplingPolicy.AUTO)
    seen: list[SamplingLogEntry] = []
    responders.subscribe(seen.append)
    text = await forecast(responders)
    assert text == "Forecast: sunny in Oslo (rounds: 2, model: demo-script)"
    assert [e.outcome for e in seen] == ["answered", "answered"]
    assert seen[0].response is not None and seen[0].response.stop_reason == "toolUse"
    assert seen[0].request.tools and seen[0].request.tools[0].name == "get_weather"
    assert responders.ledger.by_responder == {"script:demo.yaml": 2}


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_model_answers_a_tool_loop_and_its_tokens_are_counted(model_api: ModelAPI, kind: str) -> None:
    base = model_api.base_url(kind)
    endpoint = ModelEndpoint(name="loop", api=kind, base_url=base, model="weather", input_price=1.0, output_price=2.0)  # type: ignore[arg-type]
    model = ModelResponder(endpoint, SecretStr("k-123"))
    responders = SamplingResponders({model.name: model}, model.name)
    text = await forecast(responders)
    assert text == "It is sunny in Oslo (rounds: 2, model: weather)"
    ledger = responders.ledger
    assert ledger.requests == 2 and ledger.input_tokens > 0 and ledger.output_tokens > 0 and ledger.cost > 0
    assert model_api.seen[-1].body["messages"][-1]  # the tool result went back to the model


async def test_a_model_calling_a_tool_not_offered_fails_the_sampling_request_not_the_session(
    model_api: ModelAPI,
) -> None:
    endpoint = ModelEndpoint(name="ghost", api="openai", base_url=model_api.openai_url, model="ghost-tool")
    responders = SamplingResponders({"model:ghost": ModelResponder(endpoint, None)}, "model:ghost")
    async with agent(responders) as connected:
        with pytest.raises(RemoteError) as caught:  # the server's tool fails: the client answered with an error
            await connected.call_tool("forecast", {"city": "Oslo"})
        assert caught.value.details["remote_code"] == -32603
        assert connected.connected  # the session goes on
    assert responders.ledger.entries[-1].outcome == "failed"
    assert responders.ledger.entries[-1].error is not None
    assert responders.ledger.entries[-1].error.code == "sampling-unknown-tool"


async def test_deny_refuses_without_asking_anyone() -> None:
    asked: list[SamplingRequest] = []

    async def person(request: SamplingRequest) -> SamplingResponse:
        asked.append(request)
        return SamplingResponse(text="hi")

    responders = SamplingResponders({"person": person}, "person", policy=SamplingPolicy.DENY)
    with pytest.raises(SamplingRejectedError):
        await responders(SamplingRequest(messages=[], max_tokens=1))
    assert asked == [] and responders.ledger.entries[-1].outcome == "rejected"


async def test_ask_shows_a_scripts_draft_to_the_person_who_may_edit_or_reject_it() -> None:
    script = SamplingScript.from_data({"rules": [{"reply": "draft"}]})
    drafts: list[str] = []
    verdicts = iter([SamplingResponse(text="edited", responder="person"), None])

    async def approve(request: SamplingRequest, draft: SamplingResponse) -> SamplingResponse | None:
        drafts.append(draft.text)
        return next(verdicts)

    responders = SamplingResponders({"script": script}, "script", policy=SamplingPolicy.ASK, approver=approve)
    request = SamplingRequest(messages=[], max_tokens=1)
    assert (await responders(request)).text == "edited"
    with pytest.raises(SamplingRejectedError):
        await responders(request)
    assert drafts == ["draft", "draft"]
    no_one = SamplingResponders({"script": script}, "script", policy=SamplingPolicy.ASK)
    with pytest.raises(SamplingRejectedError):
        await no_one(request)


async def test_a_request_may_choose_another_responder() -> None:
    canned = SamplingScript.from_data({"rules": [{"reply": "from the script"}]})
    other = SamplingScript.from_data({"model": "b", "rules": [{"reply": "from the other"}]})
    responders = SamplingResponders(
        {"a": canned, "b": other}, "a", choose=lambda r: "b" if (r.metadata or {}).get("pick") == "b" else None
    )
    assert (await responders(SamplingRequest(messages=[], max_tokens=1))).text == "from the script"
    picked = await responders(SamplingRequest(messages=[], max_tokens=1, metadata={"pick": "b"}))
    assert picked.text == "from the other"
    assert [e.responder for e in responders.ledger.entries] == ["a", "b"]


@pytest.mark.everything
async def test_server_everythings_sampling_tool_is_answered_by_a_model(
    model_api: ModelAPI, everything_http_url: str
) -> None:
    endpoint = ModelEndpoint(name="echo", api="anthropic", base_url=model_api.url, model="echo")
    responders = SamplingResponders({"model:echo": ModelResponder(endpoint, SecretStr("k"))}, "model:echo")
    async with MCPAgent(
        everything_http_url, name="everything", mode="legacy", sampling_handler=responders
    ) as connected:
        result = await connected.call_tool("trigger-sampling-request", {"prompt": "hello model", "maxTokens": 42})
    assert "echo: Resource trigger-sampling-request context: hello model" in result.text
    assert model_api.seen[-1].body["max_tokens"] == 42
    assert responders.ledger.requests == 1 and responders.ledger.output_tokens == 9
