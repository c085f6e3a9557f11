"""Talking to one agent for a hop: what goes with a message is decided by the agent's features; proxy hops."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from tests.support.agent_double import ContractDefaults
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.exchange import opening_options, resume_options
from workbench.core.handoff.hops import HopBook
from workbench.core.handoff.lifecycle import HopLifecycle
from workbench.core.handoff.policy import HandoffPolicies, Policy
from workbench.core.handoff.proxy import ProxyWatch
from workbench.core.handoff.router import HandoffRouter
from workbench.core.protocols.base import (
    AgentCapabilities,
    AgentEvent,
    AgentResult,
    Completed,
    InputRequest,
    InputRequired,
    InputResponse,
    StatusChanged,
)
from workbench.core.protocols.contract import AgentFeatures

pytestmark = pytest.mark.asyncio


class Recorder(ContractDefaults):
    """An agent that records what each ``stream_async`` got; it pauses once when ``pause`` is set."""

    def __init__(self, name: str, *, protocol: str, features: AgentFeatures, pause: bool = False) -> None:
        self.name = name
        self.connection_id = f"conn-{name}"
        self.protocol = protocol
        self.features = features
        self.pause = pause
        self.sent: list[tuple[Any, dict[str, Any]]] = []

    @property
    def capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(protocol=self.protocol, protocol_version="1", transport="memory")

    @property
    def tools(self) -> Mapping[str, Any]:
        return {"lookup": None}

    def stream_async(self, prompt: Any = None, **kwargs: Any) -> AsyncIterator[AgentEvent]:
        self.sent.append((prompt, kwargs))
        return self._answer(prompt)

    async def _answer(self, prompt: Any) -> AsyncIterator[AgentEvent]:
        common: dict[str, Any] = {"agent": self.name, "protocol": "a2a", "task_id": "t1", "context_id": "c1"}
        if self.pause and not isinstance(prompt, InputResponse):
            request = InputRequest(kind="input", text="Which city?", task_id="t1", context_id="c1")
            yield InputRequired(request=request, **common)
            yield Completed(
                result=AgentResult(text="", state="input_required", task_id="t1", context_id="c1"), **common
            )
            return
        yield Completed(result=AgentResult(text=f"got {prompt}", task_id="t1", context_id="c1"), **common)


async def test_the_first_message_opens_a_conversation_and_carries_data_only_where_the_agent_takes_them() -> None:
    data = {"tools": []}
    assert opening_options(AgentFeatures(), data) == {}
    assert opening_options(AgentFeatures(conversations=True), data) == {"new_conversation": True}
    assert opening_options(AgentFeatures(message_data=True), data) == {"data": data}
    assert opening_options(AgentFeatures(message_data=True), None) == {}


async def test_an_answer_goes_back_on_the_paused_task_and_context() -> None:
    paused = AgentResult(text="", state="input_required", task_id="t9", context_id="c9")
    assert resume_options(paused) == {"task_id": "t9", "context_id": "c9"}


async def test_the_question_carries_the_offered_tools_to_an_agent_that_takes_data_whatever_its_protocol() -> None:
    router = HandoffRouter(policies=HandoffPolicies(Policy.AUTO))
    takes_data = Recorder("takes_data", protocol="mcp", features=AgentFeatures(chat=True, message_data=True))
    text_only = Recorder("text_only", protocol="a2a", features=AgentFeatures(chat=True, conversations=True))
    server = Recorder("server", protocol="a2a", features=AgentFeatures(tool_results=True))
    for agent in (takes_data, text_only, server):
        router.register(agent.name, agent)

    await router.run("go", to="takes_data", data={"extra": 1})
    await router.run("go", to="text_only", data={"extra": 1})

    [(prompt, options)] = takes_data.sent
    assert prompt == "go" and set(options) == {"data"}
    assert options["data"]["extra"] == 1
    assert [t["name"] for t in options["data"]["tools"]] == ["lookup", "text_only"]
    assert text_only.sent == [("go", {"new_conversation": True})]


async def test_a_paused_agent_gets_the_users_answer_on_the_same_task() -> None:
    async def user(request: InputRequest) -> InputResponse:
        return InputResponse(text="Lisbon")

    events: list[HandoffEvent] = []
    router = HandoffRouter(policies=HandoffPolicies(Policy.AUTO), user_input=user, on_event=events.append)
    agent = Recorder("a", protocol="mcp", features=AgentFeatures(chat=True), pause=True)
    router.register("a", agent)

    result = await router.run("go", to="a")

    assert result.state == "completed"
    assert agent.sent[1] == (InputResponse(text="Lisbon"), {"task_id": "t1", "context_id": "c1"})
    assert [(e.kind, e.target, e.state) for e in events] == [
        (HopKind.QUESTION, "a", HopState.WORKING),
        (HopKind.USER_INPUT, USER, HopState.WAITING_FOR_USER),
        (HopKind.USER_INPUT, USER, HopState.DONE),
        (HopKind.QUESTION, "a", HopState.DONE),
    ]


def proxy_setup() -> tuple[HopLifecycle, RegisteredAgent, list[HandoffEvent]]:
    events: list[HandoffEvent] = []
    lifecycle = HopLifecycle(HopBook(on_event=events.append), policies=HandoffPolicies(Policy.AUTO))
    agent = Recorder("proxy", protocol="a2a", features=AgentFeatures(chat=True))
    entry = RegisteredAgent(name="proxy", agent=agent, proxy_targets={"srv-1": "tools"})
    return lifecycle, entry, events


PROXY_MESSAGE = json.dumps({"target_mcp_server_id": "srv-1", "tool_name": "echo", "arguments": {"x": 1}})


async def test_a_proxy_request_is_watched_from_the_working_status_to_the_proxys_result() -> None:
    lifecycle, entry, events = proxy_setup()
    parent = lifecycle.start(None, "asker", entry, HopKind.AGENT_TOOL)
    assert ProxyWatch.of(lifecycle, entry, parent, "just a question") is None
    watch = ProxyWatch.of(lifecycle, entry, parent, PROXY_MESSAGE)
    assert watch is not None

    watch.saw(StatusChanged(state="submitted", agent="proxy", protocol="a2a"))
    assert watch.hop is None
    watch.saw(StatusChanged(state="working", agent="proxy", protocol="a2a"))
    watch.saw(StatusChanged(state="working", agent="proxy", protocol="a2a"))
    outcome = {"target_mcp_server_id": "srv-1", "result": {"content": []}}
    watch.finish(AgentResult(text="done", structured=outcome))

    assert [(e.kind, e.source, e.target, e.state) for e in events] == [
        (HopKind.PROXY, "proxy", "tools", HopState.WORKING),
        (HopKind.PROXY, "proxy", "tools", HopState.DONE),
    ]
    assert events[0].parent_id == parent.handoff_id and events[0].detail["observed"] is True
    assert events[1].detail["result"] == {"content": []}


async def test_a_proxy_that_reports_an_error_fails_its_hop_even_when_it_never_said_it_was_working() -> None:
    lifecycle, entry, events = proxy_setup()
    parent = lifecycle.start(None, "asker", entry, HopKind.AGENT_TOOL)
    watch = ProxyWatch.of(lifecycle, entry, parent, PROXY_MESSAGE)
    assert watch is not None

    error = {"code": "tool-error", "message": "no such tool"}
    watch.finish(
        AgentResult(text="failed", state="failed", structured={"target_mcp_server_id": "srv-1", "error": error})
    )

    assert [e.state for e in events] == [HopState.WORKING, HopState.FAILED]
    assert events[1].detail["error"] == error
