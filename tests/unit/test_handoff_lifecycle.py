"""A hop's lifecycle on its own: depth and loop checks, the route's policy, approval, and how failures climb."""

from __future__ import annotations

import pytest

from tests.support.agent_double import ContractDefaults
from workbench.core.errors import ConfigError, HandoffDeniedError, HandoffDepthError, HandoffLoopError
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.events import HandoffEvent, HopKind, HopState
from workbench.core.handoff.hops import HopBook
from workbench.core.handoff.lifecycle import HopLifecycle
from workbench.core.handoff.policy import ApprovalDecision, ApprovalHandler, ApprovalRequest, HandoffPolicies, Policy
from workbench.core.protocols.base import AgentResult

pytestmark = pytest.mark.asyncio


def entry(name: str) -> RegisteredAgent:
    agent = ContractDefaults()
    agent.name = name
    agent.connection_id = f"conn-{name}"
    return RegisteredAgent(name=name, agent=agent)


def lifecycle(
    policy: Policy = Policy.AUTO, *, approval: ApprovalHandler | None = None, max_depth: int = 5
) -> tuple[HopLifecycle, list[HandoffEvent]]:
    events: list[HandoffEvent] = []
    book = HopBook(on_event=events.append)
    return HopLifecycle(book, policies=HandoffPolicies(policy), approval=approval, max_depth=max_depth), events


async def test_a_depth_limit_below_one_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        HopLifecycle(HopBook(), policies=HandoffPolicies(), max_depth=0)


async def test_a_hop_deeper_than_the_limit_is_refused_and_reported_failed() -> None:
    hops, events = lifecycle(max_depth=2)
    first = await hops.open(None, "a", entry("b"), HopKind.AGENT_TOOL, "one", {})
    second = await hops.open(first, "b", entry("c"), HopKind.AGENT_TOOL, "two", {})

    with pytest.raises(HandoffDepthError):
        await hops.open(second, "c", entry("d"), HopKind.AGENT_TOOL, "three", {})

    assert events[-1].state is HopState.FAILED and events[-1].detail["depth"] == 3


async def test_a_hop_back_to_an_agent_above_it_is_a_loop() -> None:
    hops, events = lifecycle()
    first = await hops.open(None, "a", entry("b"), HopKind.AGENT_TOOL, "one", {})

    with pytest.raises(HandoffLoopError) as caught:
        await hops.open(first, "b", entry("a"), HopKind.AGENT_TOOL, "back", {})

    assert caught.value.details["path"] == ["a", "b", "a"]
    assert first.child_errors == [
        {"handoff_id": events[-1].handoff_id, "kind": "agent-tool", "target": "a", "code": HandoffLoopError.code}
    ]


async def test_a_denied_route_is_refused_and_an_approval_remembered_sets_the_route() -> None:
    asked: list[ApprovalRequest] = []

    async def approval(request: ApprovalRequest) -> ApprovalDecision:
        asked.append(request)
        return ApprovalDecision(approved=False, remember=True, reason="not today")

    hops, events = lifecycle(Policy.ASK, approval=approval)
    with pytest.raises(HandoffDeniedError):
        await hops.open(None, "a", entry("b"), HopKind.TOOL_CALL, "echo {}", {"arguments": {"x": 1}})
    with pytest.raises(HandoffDeniedError):
        await hops.open(None, "a", entry("b"), HopKind.TOOL_CALL, "echo {}", {"arguments": {"x": 1}})

    assert [r.arguments for r in asked] == [{"x": 1}]  # the second was refused by the remembered route
    assert hops.policies.resolve("a", "b") is Policy.DENY
    assert [e.state for e in events] == [HopState.PENDING, HopState.DENIED, HopState.DENIED]


async def test_a_result_that_did_not_complete_fails_the_hop_with_a_remote_error() -> None:
    hops, events = lifecycle()
    hop = await hops.open(None, "a", entry("b"), HopKind.AGENT_TOOL, "one", {})

    error = hops.finish(hop, AgentResult(text="no", state="rejected", is_error=True))

    assert error is not None and error.details["remote_code"] == "rejected"
    assert [e.state for e in events] == [HopState.WORKING, HopState.FAILED]
