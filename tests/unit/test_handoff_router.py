"""The handoff router's rules (policies, approval, loops, depth, tool calls, events) with small in-process agents.

The agents here are real ``RemoteAgent`` implementations kept in memory (the scenario tests use the
real A2A and MCP agents on loopback); they follow the A2A convention of pausing with ``tool_calls``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from tests.support.agent_double import ContractDefaults
from workbench.core.errors import (
    ConfigError,
    HandoffDeniedError,
    HandoffDepthError,
    HandoffError,
    HandoffLoopError,
    NotFoundError,
    UnsupportedCapabilityError,
)
from workbench.core.events import EventBus
from workbench.core.handoff.agent_tools import MESSAGE_SCHEMA
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.policy import ApprovalDecision, ApprovalRequest, HandoffPolicies, Policy, approve_all
from workbench.core.handoff.recording import ChainReplay, parse_lines
from workbench.core.handoff.router import HandoffRouter
from workbench.core.handoff.tool_calls import find_tool_calls
from workbench.core.protocols.base import (
    AgentCapabilities,
    AgentEvent,
    AgentResult,
    Completed,
    ContentPart,
    ElicitationRequest,
    ElicitationResponse,
    InputRequest,
    InputRequired,
    InputResponse,
    SamplingMessage,
    SamplingRequest,
    SamplingResponse,
    ToolResult,
)
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction

pytestmark = pytest.mark.asyncio


def call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"id": call_id, "function": {"name": name, "arguments": json.dumps(arguments)}}


class PlannerAgent(ContractDefaults):
    """An A2A-style agent: pauses once with ``tool_calls``, then answers with the results it got.

    Without calls it answers ``"<name> says: <prompt>"``. ``wire`` gets one record per turn on
    ``connection_id`` (as a transport tap would write).
    """

    protocol = "a2a"
    features = AgentFeatures(chat=True, message_data=True, conversations=True)

    def __init__(
        self,
        name: str,
        calls: list[dict[str, Any]] | None = None,
        *,
        wire: WireRecorder | None = None,
        fail: bool = False,
    ) -> None:
        self.name = name
        self.calls = calls or []
        self.wire = wire
        self.connection_id = f"conn-{name}"
        self.fail = fail
        self.received: list[Any] = []

    def stream_async(self, prompt: Any = None, **kwargs: Any) -> AsyncIterator[AgentEvent]:
        return self._stream(prompt, kwargs)

    async def _stream(self, prompt: Any, kwargs: dict[str, Any]) -> AsyncIterator[AgentEvent]:
        self.received.append(prompt)
        if self.wire is not None:
            self.wire.jsonrpc(self.connection_id, Direction.OUT, {"jsonrpc": "2.0", "method": "m", "id": 1})
        common: dict[str, Any] = {"agent": self.name, "protocol": "a2a", "task_id": "t1", "context_id": "c1"}
        if self.fail:
            yield Completed(result=AgentResult(text="broken", state="failed", is_error=True, task_id="t1"), **common)
            return
        if isinstance(prompt, InputResponse):
            results = (prompt.data or {}).get("tool_results", [])
            text = json.dumps(results)
            yield Completed(result=AgentResult(text=text, structured={"tool_results": results}, task_id="t1"), **common)
            return
        if self.calls:
            request = InputRequest(
                kind="input", text="tools please", task_id="t1", context_id="c1", data={"tool_calls": self.calls}
            )
            yield InputRequired(request=request, **common)
            yield Completed(
                result=AgentResult(text="", state="input_required", task_id="t1", context_id="c1"), **common
            )
            return
        yield Completed(result=AgentResult(text=f"{self.name} says: {prompt}", task_id="t1"), **common)

    async def invoke_async(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    def __call__(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    @property
    def capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(protocol="a2a", protocol_version="1.0", transport="memory", description=self.name)

    @property
    def tools(self) -> Mapping[str, Any]:
        return {}

    async def aclose(self) -> None:
        return None


class ToolServer(ContractDefaults):
    """An MCP-style server with one ``echo`` tool (and ``oops``, a tool error)."""

    protocol = "mcp"
    features = AgentFeatures(tool_results=True)
    name = "server"
    connection_id = "conn-server"

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None, **_: Any) -> ToolResult:
        arguments = arguments or {}
        self.calls.append((name, dict(arguments)))
        text = json.dumps(dict(arguments))
        return ToolResult(content=[ContentPart(type="text", text=text)], is_error=name == "oops")

    def stream_async(self, prompt: Any = None, **kwargs: Any) -> AsyncIterator[AgentEvent]:
        raise NotImplementedError

    async def invoke_async(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    def __call__(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    @property
    def capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(protocol="mcp", protocol_version="2025-11-25", transport="memory")

    @property
    def tools(self) -> Mapping[str, Any]:
        return {"echo": None, "oops": None}

    async def aclose(self) -> None:
        return None


def make_router(**options: Any) -> tuple[HandoffRouter, list[HandoffEvent]]:
    events: list[HandoffEvent] = []
    options.setdefault("policies", HandoffPolicies(Policy.AUTO))
    return HandoffRouter(on_event=events.append, **options), events


def results_of(result: AgentResult) -> list[dict[str, Any]]:
    value: list[dict[str, Any]] = result.structured["tool_results"]
    return value


def hop_states(events: list[HandoffEvent]) -> dict[tuple[HopKind, str, str], list[HopState]]:
    out: dict[tuple[HopKind, str, str], list[HopState]] = {}
    for e in events:
        out.setdefault((e.kind, e.source, e.target), []).append(e.state)
    return out


# --------------------------------------------------------------------------- policies


async def test_the_route_policy_beats_the_target_policy_which_beats_the_default() -> None:
    policies = HandoffPolicies(Policy.ASK, auto=["b"], deny=["c"])
    policies.set("b", Policy.DENY, source="x")
    assert policies.resolve("x", "b") is Policy.DENY
    assert policies.resolve("y", "b") is Policy.AUTO
    assert policies.resolve("y", "c") is Policy.DENY
    assert policies.resolve("y", "d") is Policy.ASK
    policies.clear("b", source="x")
    assert policies.resolve("x", "b") is Policy.AUTO
    assert policies.to_dict()["targets"] == {"b": "auto", "c": "deny"}


async def test_an_unknown_policy_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        HandoffPolicies("sometimes")


async def test_auto_policy_runs_tool_calls_and_answers_with_tool_results_on_the_same_task() -> None:
    router, events = make_router()
    server = ToolServer()
    router.register("a", PlannerAgent("a", [call("echo", {"x": 1}, "c1"), call("b", {"message": "hi"}, "c2")]))
    router.register("b", PlannerAgent("b"))
    router.register("server", server)

    result = await router.run("go", to="a")

    assert server.calls == [("echo", {"x": 1})]
    entries = results_of(result)
    assert [(r["id"], r["name"], r["is_error"]) for r in entries] == [("c1", "echo", False), ("c2", "b", False)]
    assert entries[1]["content"] == "b says: hi"
    assert hop_states(events) == {
        (HopKind.QUESTION, USER, "a"): [HopState.WORKING, HopState.DONE],
        (HopKind.TOOL_CALL, "a", "server"): [HopState.WORKING, HopState.DONE],
        (HopKind.AGENT_TOOL, "a", "b"): [HopState.WORKING, HopState.DONE],
    }
    question = events[0]
    assert all(e.parent_id == question.handoff_id for e in events if e.kind is not HopKind.QUESTION)
    assert router.last_chain_id == question.chain_id


async def test_a_denied_target_is_a_denied_hop_and_a_tool_result_error() -> None:
    router, events = make_router(policies=HandoffPolicies(Policy.AUTO, deny=["b"]))
    router.register("a", PlannerAgent("a", [call("b", {"message": "hi"}, "c1")]))
    b = PlannerAgent("b")
    router.register("b", b)

    result = await router.run("go", to="a")

    assert results_of(result)[0]["error"]["code"] == HandoffDeniedError.code
    assert b.received == []
    assert hop_states(events)[(HopKind.AGENT_TOOL, "a", "b")] == [HopState.DENIED]


async def test_ask_without_an_approval_handler_refuses_the_hop() -> None:
    router, events = make_router(policies=HandoffPolicies(Policy.ASK))
    router.register("a", PlannerAgent("a", [call("b", {"message": "hi"}, "c1")]))
    router.register("b", PlannerAgent("b"))

    result = await router.run("go", to="a")

    assert results_of(result)[0]["error"]["code"] == HandoffDeniedError.code
    assert hop_states(events)[(HopKind.AGENT_TOOL, "a", "b")] == [HopState.PENDING, HopState.DENIED]


async def test_an_approval_remembered_for_a_route_is_not_asked_again() -> None:
    asked: list[ApprovalRequest] = []

    async def approval(request: ApprovalRequest) -> ApprovalDecision:
        asked.append(request)
        return ApprovalDecision(approved=True, remember=True)

    router, events = make_router(policies=HandoffPolicies(Policy.ASK), approval=approval)
    router.register("a", PlannerAgent("a", [call("b", {"message": "one"}, "c1"), call("b", {"message": "two"}, "c2")]))
    router.register("b", PlannerAgent("b"))

    result = await router.run("go", to="a")

    assert [r["content"] for r in results_of(result)] == ["b says: one", "b says: two"]
    assert [(r.source, r.target, r.kind, r.arguments) for r in asked] == [
        ("a", "b", HopKind.AGENT_TOOL, {"message": "one"})
    ]
    assert router.policies.resolve("a", "b") is Policy.AUTO
    assert hop_states(events)[(HopKind.AGENT_TOOL, "a", "b")] == [
        HopState.PENDING,
        HopState.WORKING,
        HopState.DONE,
        HopState.WORKING,
        HopState.DONE,
    ]


# --------------------------------------------------------------------------- loops and depth


async def test_a_hands_to_b_which_hands_back_to_a_is_a_loop() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a", [call("b", {"message": "hi"}, "c1")]))
    router.register("b", PlannerAgent("b", [call("a", {"message": "back"}, "c2")]))

    result = await router.run("go", to="a")

    inner = results_of(result)[0]
    assert inner["is_error"] is False  # b answered; its own call back to a was refused
    assert json.loads(inner["content"])[0]["error"]["code"] == HandoffLoopError.code
    loop = [e for e in events if e.source == "b" and e.target == "a"]
    assert [e.state for e in loop] == [HopState.FAILED]
    assert loop[0].detail["error"]["details"]["path"] == ["a", "b", "a"]


async def test_the_loop_error_is_raised_to_a_sampling_caller() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a"))
    server = ToolServer()
    router.register("server", server)
    handler = router.sampling_handler("server")
    request = SamplingRequest(
        messages=[SamplingMessage(role="user", content=[ContentPart(type="text", text="hello")])],
        max_tokens=10,
        metadata={"agent": "server"},
    )
    with pytest.raises(HandoffLoopError) as caught:
        await handler(request)
    assert isinstance(caught.value, HandoffError)
    assert events[-1].state is HopState.FAILED and events[-1].kind is HopKind.SAMPLING


async def test_a_chain_deeper_than_the_limit_is_refused_with_a_depth_error() -> None:
    router, events = make_router(max_depth=2)
    router.register("a", PlannerAgent("a", [call("b", {"message": "1"}, "c1")]))
    router.register("b", PlannerAgent("b", [call("c", {"message": "2"}, "c2")]))
    c = PlannerAgent("c")
    router.register("c", c)

    result = await router.run("go", to="a")

    inner = json.loads(results_of(result)[0]["content"])
    assert inner[0]["error"]["code"] == HandoffDepthError.code
    assert c.received == []
    refused = next(e for e in events if e.target == "c")
    assert refused.detail["depth"] == 3 and refused.state is HopState.FAILED


# --------------------------------------------------------------------------- tool calls


async def test_a_tool_error_fails_the_hop_and_an_unknown_tool_is_not_found() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a", [call("oops", {}, "c1"), call("nowhere", {}, "c2")]))
    router.register("server", ToolServer())

    result = await router.run("go", to="a")

    oops, nowhere = results_of(result)
    assert oops["is_error"] and oops["error"]["code"] == "tool-error"
    assert nowhere["error"]["code"] == NotFoundError.code
    assert hop_states(events)[(HopKind.TOOL_CALL, "a", "server")] == [HopState.WORKING, HopState.FAILED]


async def test_tools_not_offered_to_an_agent_are_refused_and_the_offer_is_sent_with_the_question() -> None:
    router, _ = make_router()
    a = PlannerAgent("a", [call("echo", {}, "c1"), call("b", {"message": "x"}, "c2")])
    router.register("a", a)
    router.register("b", PlannerAgent("b"), description="Knows b things.")
    server = ToolServer()
    router.register("server", server)
    router.offer_tools("a", ["b"])

    result = await router.run("go", to="a")

    echo, b = results_of(result)
    assert echo["error"]["code"] == NotFoundError.code and server.calls == []
    assert b["is_error"] is False
    specs = await router.offered_tools("a")
    assert [s.name for s in specs] == ["b"]
    assert specs[0].input_schema == MESSAGE_SCHEMA
    assert specs[0].description == "Knows b things."
    assert specs[0].kind == "agent"


async def test_a_bad_tool_call_entry_is_answered_with_an_error_and_runs_nothing() -> None:
    calls = find_tool_calls(
        {
            "tool_calls": [
                {"id": "1", "function": {"name": "echo", "arguments": "{not json"}},
                {"id": "2", "name": "echo", "arguments": {"x": 1}},
                "nonsense",
            ]
        }
    )
    assert calls is not None
    assert [(c.name, c.arguments, c.call_id, c.problem is None) for c in calls] == [
        ("echo", {}, "1", False),
        ("echo", {"x": 1}, "2", True),
        ("", {}, "#2", False),
    ]
    assert find_tool_calls({"something": []}) is None


async def test_agent_tools_are_specs_with_one_message_argument_from_the_card_description() -> None:
    router, _ = make_router()
    router.register("a", PlannerAgent("a"), uri="http://127.0.0.1:1/")
    router.register("b", PlannerAgent("b"), uri="http://127.0.0.1:2", tool_name="ask_b")
    specs = {s.name: s for s in router.agent_tools(for_source="a")}
    assert list(specs) == ["ask_b"]
    assert isinstance(specs["ask_b"], ToolSpec)
    assert specs["ask_b"].description == "b"
    assert specs["ask_b"].annotations == {"agent": "b", "protocol": "a2a", "agent_uri": "http://127.0.0.1:2"}
    assert router.find("http://127.0.0.1:1") is router.agents["a"]
    assert router.find("ask_b") is router.agents["b"]


# --------------------------------------------------------------------------- sampling and user input


async def test_sampling_naming_an_agent_uri_is_forwarded_and_other_sampling_goes_to_the_fallback() -> None:
    router, events = make_router()
    router.register("b", PlannerAgent("b"), uri="http://127.0.0.1:9")
    router.register("server", ToolServer())
    fallback_seen: list[SamplingRequest] = []

    async def person(request: SamplingRequest) -> SamplingResponse:
        fallback_seen.append(request)
        return SamplingResponse(text="from a person")

    handler = router.sampling_handler("server", fallback=person)
    message = [SamplingMessage(role="user", content=[ContentPart(type="text", text="book it")])]
    forwarded = await handler(
        SamplingRequest(messages=message, max_tokens=5, metadata={"agent_uri": "http://127.0.0.1:9/"})
    )
    plain = await handler(SamplingRequest(messages=message, max_tokens=5))

    assert forwarded.text == "b says: book it" and forwarded.model == "agent:b"
    assert plain.text == "from a person" and len(fallback_seen) == 1
    assert hop_states(events) == {(HopKind.SAMPLING, "server", "b"): [HopState.WORKING, HopState.DONE]}
    with pytest.raises(UnsupportedCapabilityError):
        await router.sampling_handler("server")(SamplingRequest(messages=message, max_tokens=5))
    with pytest.raises(NotFoundError):
        await handler(SamplingRequest(messages=message, max_tokens=5, metadata={"agent_uri": "http://elsewhere"}))
    assert events[-1].state is HopState.FAILED and events[-1].target == "http://elsewhere"


async def test_a_question_that_is_not_a_tool_call_goes_to_the_user_as_a_user_input_hop() -> None:
    answers: list[InputRequest] = []

    async def user(request: InputRequest) -> InputResponse:
        answers.append(request)
        return InputResponse(data={"name": "Ada"})

    router, events = make_router(user_input=user)
    router.register("a", PlannerAgent("a"))
    handler = router.input_handler("a")
    request = InputRequest(kind="input", text="Who are you?", task_id="t", context_id="c", schema={"type": "object"})

    answer = await handler(request)

    assert answer.data == {"name": "Ada"} and answers == [request]
    assert [(e.kind, e.source, e.target, e.state) for e in events] == [
        (HopKind.USER_INPUT, "a", USER, HopState.WAITING_FOR_USER),
        (HopKind.USER_INPUT, "a", USER, HopState.DONE),
    ]
    assert events[1].detail["answer"] == {"name": "Ada"}


async def test_an_auth_answer_never_appears_in_an_event() -> None:
    async def user(request: InputRequest) -> InputResponse:
        return InputResponse(text="s3cret-token")

    router, events = make_router(user_input=user)
    router.register("a", PlannerAgent("a"))
    await router.input_handler("a")(InputRequest(kind="auth", text="token?", task_id="t", context_id="c"))
    assert "s3cret-token" not in json.dumps([e.to_dict() for e in events])


# --------------------------------------------------------------------------- events, wire, bus


async def test_events_go_to_the_bus_and_carry_the_wire_records_of_the_hop() -> None:
    bus = EventBus()
    on_bus: list[HandoffEvent] = []
    bus.subscribe(HandoffEvent, on_bus.append)
    wire = WireRecorder()
    router, events = make_router(bus=bus, wire=wire, approval=approve_all, policies=HandoffPolicies(Policy.ASK))
    router.register("a", PlannerAgent("a", [call("b", {"message": "hi"}, "c1")], wire=wire))
    router.register("b", PlannerAgent("b", wire=wire))

    await router.run("go", to="a")
    await router.aclose()

    assert on_bus == events
    done = {e.target: e for e in events if e.state is HopState.DONE}
    b_seqs = done["b"].wire_seqs
    assert b_seqs is not None and {wire.get(s).connection_id for s in b_seqs} == {"conn-b"}  # type: ignore[union-attr]
    a_seqs = done["a"].wire_seqs
    assert a_seqs is not None and a_seqs[0] < b_seqs[0] <= b_seqs[1] < a_seqs[1]
    assert done["a"].connection_id == "conn-a"
    wire.jsonrpc("conn-a", Direction.OUT, {"jsonrpc": "2.0", "method": "late", "id": 9})  # after close: ignored


async def test_a_failed_task_fails_the_question_hop_and_the_result_says_so() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a", fail=True))
    result = await router.run("go", to="a")
    assert result.state == "failed"
    assert events[-1].state is HopState.FAILED and events[-1].detail["error"]["details"]["remote_code"] == "failed"


async def test_registering_a_name_twice_or_asking_an_unknown_agent_is_an_error() -> None:
    router, _ = make_router()
    router.register("a", PlannerAgent("a"))
    with pytest.raises(ConfigError):
        router.register("a", PlannerAgent("a"))
    with pytest.raises(NotFoundError):
        await router.run("go", to="nobody")
    with pytest.raises(ConfigError):
        HandoffRouter(max_depth=0)


async def test_a_recording_keeps_the_final_line_and_other_lines_aside_and_rejects_garbage() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a"))
    await router.run("go", to="a")
    lines = [json.dumps(e.to_dict()) for e in events]
    lines += [json.dumps({"type": "note", "x": 1}), "", json.dumps({"type": "final", "answer": "ok"})]
    recording = parse_lines(lines)
    assert recording.events == events
    assert recording.final == {"type": "final", "answer": "ok"}
    assert recording.other == [{"type": "note", "x": 1}]
    replay = ChainReplay(recording)
    assert len(replay) == 2 and replay.next() == events[0] and replay.position == 1
    with pytest.raises(ConfigError):
        parse_lines(["{not json"])
    with pytest.raises(ConfigError):
        parse_lines([json.dumps({"type": "handoff", "chain_id": "x"})])


async def test_a_question_nobody_can_answer_fails_the_user_input_hop_with_a_config_error() -> None:
    router, events = make_router()
    router.register("a", PlannerAgent("a"))
    with pytest.raises(ConfigError):
        await router.input_handler("a")(InputRequest(kind="input", text="?", task_id="t", context_id="c"))
    assert [e.state for e in events] == [HopState.WAITING_FOR_USER, HopState.FAILED]
    assert events[-1].detail["error"]["code"] == ConfigError.code


async def test_an_mcp_elicitation_is_a_user_input_hop_and_a_decline_fails_it() -> None:
    replies = iter([ElicitationResponse("accept", {"party_size": 4}), ElicitationResponse("decline")])

    async def person(request: ElicitationRequest) -> ElicitationResponse:
        return next(replies)

    router, events = make_router()
    router.register("server", ToolServer())
    handler = router.elicitation_handler("server", user=person)
    request = ElicitationRequest(mode="form", message="How many?", requested_schema={"type": "object"})

    assert (await handler(request)).content == {"party_size": 4}
    assert (await handler(request)).action == "decline"
    assert [(e.kind, e.source, e.target, e.state) for e in events] == [
        (HopKind.USER_INPUT, "server", USER, HopState.WAITING_FOR_USER),
        (HopKind.USER_INPUT, "server", USER, HopState.DONE),
        (HopKind.USER_INPUT, "server", USER, HopState.WAITING_FOR_USER),
        (HopKind.USER_INPUT, "server", USER, HopState.FAILED),
    ]
    assert events[1].detail["answer"] == {"party_size": 4} and events[1].protocol == "mcp"
