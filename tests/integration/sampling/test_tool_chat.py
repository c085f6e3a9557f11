"""A model chatting for the demo MCP server through its tools (core.sampling.tool_chat), against the loopback
model endpoint over both APIs: calls made and answered, destructive calls through the approval gate, the
model's mistakes answered as errors, the rounds bounded, and the endpoint's HTTP in the wire log, redacted."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import SecretStr

from tests.servers.model_api import ModelAPI
from workbench.core.errors import ModelResponseError
from workbench.core.protocols.base import AgentEvent, Completed, Failed, TextDelta, ToolCallAnswered, ToolCallRequested
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.model import ModelResponder
from workbench.core.sampling.tool_chat import ToolChat, ToolChatLimitError, ToolChatLimits, offered_tools
from workbench.core.tool_approval import ToolCallGate, ToolCallRequest
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.mcp_server.app import build_server

pytestmark = pytest.mark.asyncio
KEY = "sk-tool-chat-0123456789-SECRET"


def responder(api: ModelAPI, kind: str, model: str, *, wire: WireRecorder | None = None) -> ModelResponder:
    base = api.base_url(kind)
    endpoint = ModelEndpoint(name="loop", api=kind, base_url=base, model=model, timeout=10)  # type: ignore[arg-type]
    return ModelResponder(endpoint, SecretStr(KEY), wire=wire, connection_id="demo-conn")


async def turn(chat: ToolChat, text: str) -> list[AgentEvent]:
    return [event async for event in chat.send(text)]


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_the_model_calls_a_server_tool_and_answers_with_its_result(model_api: ModelAPI, kind: str) -> None:
    wire = WireRecorder()
    async with MCPAgent.in_process(build_server(), name="demo", wire=wire, connection_id="demo-conn") as agent:
        chat = ToolChat(agent, responder(model_api, kind, "call:echo", wire=wire), gate=ToolCallGate())
        events = await turn(chat, '{"text": "hello there"}')
    calls = [e for e in events if isinstance(e, ToolCallRequested)]
    answers = [e for e in events if isinstance(e, ToolCallAnswered)]
    assert [(c.name, c.arguments) for c in calls] == [("echo", {"text": "hello there"})]
    assert [(a.call_id, a.text, a.is_error) for a in answers] == [(calls[0].call_id, "hello there", False)]
    assert isinstance(events[-1], Completed) and "Result: hello there" in events[-1].result.text
    assert any(isinstance(e, TextDelta) for e in events)
    # the model offered the tools, app-only ones aside; the endpoint's exchanges are records of the connection
    offered = {t["function"]["name"] if kind == "openai" else t["name"] for t in model_api.seen[0].body["tools"]}
    assert "echo" in offered and "weather_app" in offered
    records = wire.records()
    assert any(r.protocol == "model" and r.connection_id == "demo-conn" for r in records)
    assert any(r.method == "tools/call" for r in records)
    assert all(KEY not in r.payload and KEY not in str(r.http or {}) for r in records)
    assert all(KEY[:8] not in str((r.http or {}).get("headers", {})) for r in records if r.protocol == "model")


async def test_app_only_tools_are_hidden_and_the_tool_list_is_bounded() -> None:
    app_only = ToolSpec("inner", meta={"ui": {"visibility": ["app"]}})
    both = ToolSpec("both", description="x" * 5000, meta={"ui": {"visibility": ["app", "model"]}})
    many = [ToolSpec(f"t{i}") for i in range(100)]
    offered = offered_tools([app_only, both, *many], ToolChatLimits(max_tools=10, max_description=50))
    assert [t.name for t in offered][:2] == ["both", "t0"] and len(offered) == 10
    assert len(offered[0].description or "") <= 50 and offered[1].input_schema == {"type": "object"}


async def test_a_destructive_call_waits_for_the_gate_and_a_refusal_is_told_to_the_model(model_api: ModelAPI) -> None:
    asked: list[ToolCallRequest] = []

    async def refuse(request: ToolCallRequest) -> bool:
        asked.append(request)
        return False

    async with MCPAgent.in_process(build_server(), name="demo") as agent:
        gate = ToolCallGate(refuse)
        chat = ToolChat(agent, responder(model_api, "openai", "call:reset_counter"), gate=gate, connection="demo")
        events = await turn(chat, "reset it")
        assert [(r.tool.name, r.caller, r.connection) for r in asked] == [("reset_counter", "model:loop", "demo")]
        answer = next(e for e in events if isinstance(e, ToolCallAnswered))
        assert answer.is_error and isinstance(events[-1], Completed)
        # a read-only tool goes out without asking under the default policy
        chat.model = responder(model_api, "openai", "call:add")
        events = await turn(chat, '{"a": 2, "b": 3}')
        assert len(asked) == 1
        assert next(e for e in events if isinstance(e, ToolCallAnswered)).text.startswith("5")


async def test_unknown_tools_and_bad_arguments_are_answered_as_errors_not_crashes(model_api: ModelAPI) -> None:
    async with MCPAgent.in_process(build_server(), name="demo") as agent:
        chat = ToolChat(agent, responder(model_api, "anthropic", "ghost-tool"), gate=ToolCallGate())
        chat.limits = ToolChatLimits(max_rounds=1)
        events = await turn(chat, "go")
        answers = [e for e in events if isinstance(e, ToolCallAnswered)]
        assert answers and all(a.is_error and "no_such_tool" in a.text for a in answers)
        assert isinstance(events[-1], Failed) and isinstance(events[-1].error, ToolChatLimitError)
        chat.model = responder(model_api, "anthropic", "call:add")
        events = await turn(chat, '{"a": "two"}')
        bad = next(e for e in events if isinstance(e, ToolCallAnswered))
        assert bad.is_error and isinstance(events[-1], Completed)


async def test_a_model_that_never_stops_calling_is_stopped_at_the_bound(model_api: ModelAPI) -> None:
    async with MCPAgent.in_process(build_server(), name="demo") as agent:
        chat = ToolChat(agent, responder(model_api, "openai", "loop:echo"), gate=ToolCallGate())
        chat.limits = ToolChatLimits(max_rounds=3)
        events = await turn(chat, "go")
    assert sum(isinstance(e, ToolCallRequested) for e in events) == 3
    assert len(model_api.seen) == 4
    assert isinstance(events[-1], Failed) and isinstance(events[-1].error, ToolChatLimitError)
    # the conversation stays well-formed: every call asked for has its answer
    last: Any = chat.messages[-1]
    assert last.role == "user" and all(p.type == "tool_result" for p in last.content)


async def test_an_endpoint_that_sends_garbage_fails_the_turn(model_api: ModelAPI) -> None:
    async with MCPAgent.in_process(build_server(), name="demo") as agent:
        chat = ToolChat(agent, responder(model_api, "openai", "garbage"), gate=ToolCallGate())
        events = await turn(chat, "hello")
    assert isinstance(events[-1], Failed) and isinstance(events[-1].error, ModelResponseError)


async def test_cancelling_a_turn_stops_the_models_answer_under_way(model_api: ModelAPI) -> None:
    async with MCPAgent.in_process(build_server(), name="demo") as agent:
        wire, asked = WireRecorder(), asyncio.Event()
        wire.subscribe(lambda record: asked.set() if record.protocol == "model" else None)
        chat = ToolChat(agent, responder(model_api, "openai", "hang", wire=wire), gate=ToolCallGate())
        task = asyncio.ensure_future(turn(chat, "hello"))
        await asyncio.wait_for(asked.wait(), 10)  # the request went out; its answer never comes
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
