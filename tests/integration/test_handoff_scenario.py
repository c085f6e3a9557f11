"""The multi-agent handoff scenario end to end: real A2A agents and the demo MCP server on loopback."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
import pytest_asyncio

from workbench.core.events import EventBus
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.policy import ApprovalRequest, HandoffPolicies, Policy
from workbench.core.handoff.recording import ChainLog, ChainReplay, final_line, load_jsonl, save_jsonl
from workbench.core.protocols.base import AgentResult, InputRequest, InputResponse
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.scenarios.handoff import (
    BOOKING,
    MCP_SERVER,
    ORCHESTRATOR,
    PROXY,
    QUESTION,
    HandoffScenario,
    build_router,
    run_scenario,
    serve_handoff_agents,
)

pytestmark = pytest.mark.asyncio
BOUND_S = 60


@dataclass
class Run:
    """One run of the scenario: its events (callback and bus), the wire, the result."""

    result: AgentResult
    events: list[HandoffEvent]
    bus_events: list[HandoffEvent]
    wire: WireRecorder
    approvals: list[ApprovalRequest] = field(default_factory=list)

    def hops(self) -> dict[str, list[HandoffEvent]]:
        out: dict[str, list[HandoffEvent]] = {}
        for event in self.events:
            out.setdefault(event.handoff_id, []).append(event)
        return out

    def starts(self) -> list[tuple[HopKind, str, str, str | None]]:
        """(kind, source, target, tool) of each hop, in the order the hops started."""
        return [(evs[0].kind, evs[0].source, evs[0].target, evs[0].detail.get("tool")) for evs in self.hops().values()]

    def last_states(self) -> dict[tuple[HopKind, str, str | None], HopState]:
        return {(evs[0].kind, evs[0].target, evs[0].detail.get("tool")): evs[-1].state for evs in self.hops().values()}

    def final_event(self, kind: HopKind, target: str) -> HandoffEvent:
        return next(evs[-1] for evs in self.hops().values() if evs[0].kind is kind and evs[0].target == target)


@pytest_asyncio.fixture
async def scenario() -> AsyncIterator[HandoffScenario]:
    async with serve_handoff_agents() as running:
        yield running


async def run(scenario: HandoffScenario, question: str = QUESTION, **options: Any) -> Run:
    bus = EventBus()
    wire = WireRecorder()
    events: list[HandoffEvent] = []
    on_bus: list[HandoffEvent] = []
    bus.subscribe(HandoffEvent, on_bus.append)
    router = build_router(scenario, bus=bus, wire=wire, on_event=events.append, **options)
    try:
        with anyio.fail_after(BOUND_S):
            result = await run_scenario(router, question)
    finally:
        await router.aclose()
    return Run(result=result, events=events, bus_events=on_bus, wire=wire)


def assert_well_nested(events: list[HandoffEvent]) -> None:
    """One chain; every parent exists and started before its child; every hop ends once, at the end."""
    assert len({e.chain_id for e in events}) == 1
    first_seen: dict[str, int] = {}
    for index, event in enumerate(events):
        first_seen.setdefault(event.handoff_id, index)
        if event.parent_id is not None:
            assert event.parent_id in first_seen, f"parent of {event.kind} unknown when it started"
            assert first_seen[event.parent_id] < first_seen[event.handoff_id]
    roots = {e.handoff_id for e in events if e.parent_id is None}
    assert len(roots) == 1
    by_hop: dict[str, list[HandoffEvent]] = {}
    for event in events:
        by_hop.setdefault(event.handoff_id, []).append(event)
    for hop_events in by_hop.values():
        finished = [e for e in hop_events if e.state.finished]
        assert len(finished) == 1 and hop_events[-1].state.finished
        assert len({(e.source, e.target, e.kind, e.parent_id, e.started_at) for e in hop_events}) == 1


async def test_the_scenario_chain_has_the_expected_hops_in_order_each_ending_done(scenario: HandoffScenario) -> None:
    done = await run(scenario)

    assert done.starts() == [
        (HopKind.QUESTION, USER, ORCHESTRATOR, None),
        (HopKind.TOOL_CALL, ORCHESTRATOR, MCP_SERVER, "weather"),
        (HopKind.TOOL_CALL, ORCHESTRATOR, MCP_SERVER, "handoff"),
        (HopKind.SAMPLING, MCP_SERVER, BOOKING, None),
        (HopKind.USER_INPUT, BOOKING, USER, None),
        (HopKind.AGENT_TOOL, ORCHESTRATOR, PROXY, PROXY),
        (HopKind.PROXY, PROXY, MCP_SERVER, "plan_trip"),
    ]
    assert set(done.last_states().values()) == {HopState.DONE}
    assert_well_nested(done.events)
    assert done.bus_events == done.events
    assert done.result.state == "completed"
    assert done.result.structured["errors"] == {}
    assert done.result.structured["weather"]["city"] == "Lisbon"
    assert done.result.structured["price"]["result"]["structuredContent"]["total_eur"] == 320


async def test_hops_nest_under_the_hop_that_caused_them_and_carry_protocols(scenario: HandoffScenario) -> None:
    done = await run(scenario)
    first = {evs[0].kind.value + ":" + str(evs[0].detail.get("tool")): evs[0] for evs in done.hops().values()}
    question = first["question:None"]
    handoff = first["tool-call:handoff"]
    sampling = first["sampling:None"]
    agent_tool = first["agent-tool:mcp-proxy"]
    assert first["tool-call:weather"].parent_id == question.handoff_id
    assert handoff.parent_id == question.handoff_id
    assert sampling.parent_id == handoff.handoff_id
    assert first["user-input:None"].parent_id == sampling.handoff_id
    assert agent_tool.parent_id == question.handoff_id
    assert first["proxy:plan_trip"].parent_id == agent_tool.handoff_id
    assert [question.protocol, handoff.protocol, sampling.protocol, agent_tool.protocol] == ["a2a", "mcp", "a2a", "a2a"]
    assert first["user-input:None"].state is HopState.WAITING_FOR_USER
    assert first["user-input:None"].detail["schema"]["properties"]["lead_traveller"]


async def test_each_hop_carries_the_wire_records_of_its_connection(scenario: HandoffScenario) -> None:
    done = await run(scenario)
    checked = 0
    for hop_events in done.hops().values():
        last = hop_events[-1]
        if last.kind in (HopKind.USER_INPUT, HopKind.PROXY):
            continue
        assert last.connection_id is not None and last.wire_seqs is not None, last.kind
        first_seq, last_seq = last.wire_seqs
        assert first_seq <= last_seq
        for seq in (first_seq, last_seq):
            record = done.wire.get(seq)
            assert record is not None and record.connection_id == last.connection_id
        checked += 1
    assert checked == 5


async def test_a_denied_route_is_a_denied_hop_and_the_orchestrator_reports_it(scenario: HandoffScenario) -> None:
    policies = HandoffPolicies(Policy.AUTO)
    policies.set(PROXY, Policy.DENY, source=ORCHESTRATOR)
    done = await run(scenario, policies=policies)

    denied = done.final_event(HopKind.AGENT_TOOL, PROXY)
    assert denied.state is HopState.DENIED
    assert denied.detail["error"]["code"] == "handoff-denied"
    assert [e.state for e in done.hops()[denied.handoff_id]] == [HopState.DENIED]
    assert not any(e.kind is HopKind.PROXY for e in done.events)
    assert done.result.state == "completed"
    assert done.result.structured["errors"]["price"]["code"] == "handoff-denied"
    assert "hotel" not in done.result.structured["errors"]
    assert_well_nested(done.events)


async def test_the_ask_policy_asks_who_asks_whom_and_a_refusal_stops_that_hop(scenario: HandoffScenario) -> None:
    asked: list[ApprovalRequest] = []

    async def approval(request: ApprovalRequest) -> bool:
        asked.append(request)
        return request.target != BOOKING

    done = await run(scenario, approval=approval)

    assert [(r.source, r.target, r.kind) for r in asked] == [
        (ORCHESTRATOR, MCP_SERVER, HopKind.TOOL_CALL),
        (ORCHESTRATOR, MCP_SERVER, HopKind.TOOL_CALL),
        (MCP_SERVER, BOOKING, HopKind.SAMPLING),
        (ORCHESTRATOR, PROXY, HopKind.AGENT_TOOL),
    ]
    assert asked[0].arguments == {"city": "Lisbon"}
    sampling = done.hops()[asked[2].handoff_id]
    assert [e.state for e in sampling] == [HopState.PENDING, HopState.DENIED]
    assert done.result.structured["errors"]["hotel"]["caused_by"] == ["handoff-denied"]
    assert done.final_event(HopKind.TOOL_CALL, MCP_SERVER).state is HopState.DONE  # weather came before
    assert_well_nested(done.events)


async def test_a_handoff_back_to_an_agent_on_the_chain_is_refused_as_a_loop() -> None:
    async with serve_handoff_agents(loop=True) as looping:
        done = await run(looping)

    sampling = done.final_event(HopKind.SAMPLING, ORCHESTRATOR)
    assert sampling.source == MCP_SERVER
    assert sampling.state is HopState.FAILED
    assert sampling.detail["error"]["code"] == "handoff-loop"
    assert done.result.state == "completed"
    assert done.result.structured["errors"]["hotel"]["caused_by"] == ["handoff-loop"]
    assert_well_nested(done.events)


async def test_the_depth_limit_stops_a_hop_that_would_nest_too_deep(scenario: HandoffScenario) -> None:
    done = await run(scenario, max_depth=2)

    sampling = done.final_event(HopKind.SAMPLING, BOOKING)
    assert sampling.state is HopState.FAILED
    assert sampling.detail["error"]["code"] == "handoff-depth"
    assert sampling.detail["depth"] == 3
    assert done.result.structured["errors"]["hotel"]["caused_by"] == ["handoff-depth"]
    assert done.final_event(HopKind.AGENT_TOOL, PROXY).state is HopState.DONE  # depth 2 is allowed
    # The proxy's own MCP call is observed, not routed: it is shown even below the limit.
    assert done.final_event(HopKind.PROXY, MCP_SERVER).detail["depth"] == 3


async def test_an_agent_failing_mid_chain_fails_its_hops_and_the_orchestrator_reports_it(
    scenario: HandoffScenario,
) -> None:
    done = await run(scenario, "Plan a weekend in Atlantis for two")

    sampling = done.final_event(HopKind.SAMPLING, BOOKING)
    assert sampling.state is HopState.FAILED
    assert sampling.detail["error"]["code"] == "remote"
    assert sampling.detail["error"]["details"]["remote_code"] == "failed"
    states = done.last_states()
    assert states[(HopKind.TOOL_CALL, MCP_SERVER, "handoff")] is HopState.FAILED
    assert states[(HopKind.TOOL_CALL, MCP_SERVER, "weather")] is HopState.DONE
    assert states[(HopKind.AGENT_TOOL, PROXY, PROXY)] is HopState.DONE
    assert not any(e.kind is HopKind.USER_INPUT for e in done.events)
    assert done.result.state == "completed"
    assert done.result.structured["errors"]["hotel"]["caused_by"] == ["remote"]
    assert "Atlantis" in done.result.text
    assert_well_nested(done.events)


async def test_a_saved_chain_replays_the_same_sequence_without_agents(
    scenario: HandoffScenario, tmp_path: Path
) -> None:
    bus = EventBus()
    log = ChainLog.attach(bus)
    router = build_router(scenario, bus=bus)
    try:
        with anyio.fail_after(BOUND_S):
            result = await run_scenario(router)
    finally:
        await router.aclose()
    log.detach()
    chain_id = router.last_chain_id
    assert log.chains() == [chain_id]
    path = tmp_path / "chain.jsonl"
    written = save_jsonl(path, log.events(chain_id), final=final_line(result.text, chain_id=chain_id))

    loaded = load_jsonl(path)
    assert written == len(log.events()) + 1
    assert loaded.final is not None and loaded.final["answer"] == result.text
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in log.events()]

    replay = ChainReplay(loaded)
    stepped = [e for e in iter(replay.next, None)]
    assert replay.done and stepped == loaded.events
    replay.reset()
    waits: list[float] = []

    async def record_wait(seconds: float) -> None:
        waits.append(seconds)

    played = [e async for e in replay.play(pace=True, speed=2.0, max_gap=None, sleep=record_wait)]
    assert played == loaded.events
    gaps = [(b.at - a.at) / 2.0 for a, b in itertools.pairwise(played) if b.at > a.at]
    assert waits == pytest.approx(gaps)
    replay.reset()
    replayed: list[HandoffEvent] = []
    other = EventBus()
    other.subscribe(HandoffEvent, replayed.append)
    assert replay.publish(other) == len(loaded.events)
    assert replayed == loaded.events


async def test_cancelling_the_chain_while_the_user_is_asked_ends_every_open_hop_failed(
    scenario: HandoffScenario,
) -> None:
    asked = asyncio.Event()

    async def person_who_never_answers(request: InputRequest) -> InputResponse:
        asked.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    events: list[HandoffEvent] = []
    router = build_router(scenario, user_input=person_who_never_answers, on_event=events.append)
    try:
        chain = asyncio.create_task(run_scenario(router))
        with anyio.fail_after(BOUND_S):
            await asked.wait()
        chain.cancel()
        with pytest.raises(asyncio.CancelledError), anyio.fail_after(BOUND_S):
            await chain
    finally:
        await router.aclose()

    by_hop: dict[str, list[HandoffEvent]] = {}
    for event in events:
        by_hop.setdefault(event.handoff_id, []).append(event)
    last = {(evs[0].kind, evs[0].detail.get("tool")): evs[-1].state for evs in by_hop.values()}
    assert last == {
        (HopKind.QUESTION, None): HopState.FAILED,
        (HopKind.TOOL_CALL, "weather"): HopState.DONE,
        (HopKind.TOOL_CALL, "handoff"): HopState.FAILED,
        (HopKind.SAMPLING, None): HopState.FAILED,
        (HopKind.USER_INPUT, None): HopState.FAILED,
    }
    assert all(evs[-1].state.finished for evs in by_hop.values())
