"""The multi-agent handoff scenario: an orchestrator, a booking specialist, an MCP proxy and the demo MCP server.

For one question ("Plan a weekend in Lisbon for two") the chain is::

    user ─QUESTION─▶ orchestrator (A2A)
        orchestrator ─TOOL_CALL weather─▶ demo-mcp (MCP)
        orchestrator ─TOOL_CALL handoff─▶ demo-mcp (MCP)
            demo-mcp ─SAMPLING─▶ booking (A2A; the router forwards the sampling request)
                booking ─USER_INPUT─▶ user (traveller details form)
        orchestrator ─AGENT_TOOL─▶ mcp-proxy (A2A)
            mcp-proxy ─PROXY plan_trip─▶ demo-mcp (MCP, observed)
    orchestrator ─▶ user: the final answer

The window and the CLI use the same three steps::

    async with serve_handoff_agents() as scenario:
        router = build_router(scenario, bus=bus, wire=wire, approval=approval, user_input=user_input)
        try:
            result = await run_scenario(router)
        finally:
            await router.aclose()
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from workbench.core.events import EventBus
from workbench.core.handoff.hops import EventCallback
from workbench.core.handoff.policy import ApprovalHandler, HandoffPolicies, Policy
from workbench.core.handoff.router import DEFAULT_MAX_DEPTH, HandoffRouter
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import (
    AgentResult,
    InputHandler,
    InputRequest,
    InputResponse,
    SamplingHandler,
)
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents.booking import booking_app_factory
from workbench.demo.a2a_agents.common import serve_agent
from workbench.demo.a2a_agents.mcp_proxy import mcp_proxy_app_factory
from workbench.demo.a2a_agents.orchestrator import orchestrator_app_factory
from workbench.demo.mcp_server import serve_http

QUESTION = "Plan a weekend in Lisbon for two"
"""The scenario's question."""
ORCHESTRATOR, BOOKING, PROXY, MCP_SERVER = "orchestrator", "booking", "mcp-proxy", "demo-mcp"
"""The names the agents are registered under (hops' sources and targets)."""
PROXY_SERVER_ID = "demo"
OFFERED_TO_ORCHESTRATOR = ["weather", "handoff", PROXY]
SCRIPTED_TRAVELLER: dict[str, Any] = {
    "lead_traveller": "Ana Silva",
    "email": "ana.silva@example.com",
    "guests": 2,
    "breakfast": True,
}
"""What the scripted user fills into the booking specialist's traveller form."""


@dataclass(frozen=True, slots=True)
class HandoffScenario:
    """Where the scenario's agents run (all on loopback).

    Attributes:
        mcp_url: The demo MCP server (Streamable HTTP).
        orchestrator_url: The orchestrator (A2A).
        booking_url: The booking specialist (A2A).
        proxy_url: The A2A → MCP proxy agent (A2A), configured to reach ``mcp_url`` as ``demo``.
        question: The question the scenario asks.
    """

    mcp_url: str
    orchestrator_url: str
    booking_url: str
    proxy_url: str
    question: str = QUESTION

    def agents(self) -> list[tuple[str, str, str]]:
        """``(name, protocol, url)`` of every agent, in the order they take part."""
        return [
            (ORCHESTRATOR, "a2a", self.orchestrator_url),
            (MCP_SERVER, "mcp", self.mcp_url),
            (BOOKING, "a2a", self.booking_url),
            (PROXY, "a2a", self.proxy_url),
        ]


@contextlib.asynccontextmanager
async def serve_handoff_agents(*, loop: bool = False, host: str = "127.0.0.1") -> AsyncIterator[HandoffScenario]:
    """Serve the demo MCP server and the three A2A agents on ephemeral ports while the context is open.

    Args:
        loop: The orchestrator hands the hotel booking to itself instead of the booking specialist
            (a handoff loop A → B → A, which the router refuses: shows loop detection).
        host: Loopback interface to bind.
    """
    async with (
        serve_http(host, transport="streamable-http") as mcp_url,
        serve_agent(booking_app_factory(), host) as booking_url,
        serve_agent(mcp_proxy_app_factory(targets={PROXY_SERVER_ID: mcp_url}), host) as proxy_url,
        serve_agent(
            orchestrator_app_factory(
                booking_uri="self" if loop else booking_url, proxy_tool=PROXY, proxy_server_id=PROXY_SERVER_ID
            ),
            host,
        ) as orchestrator_url,
    ):
        yield HandoffScenario(
            mcp_url=mcp_url, orchestrator_url=orchestrator_url, booking_url=booking_url, proxy_url=proxy_url
        )


async def scripted_user(request: InputRequest) -> InputResponse:
    """Answers like a person would in the demo: the traveller form gets ``SCRIPTED_TRAVELLER``.

    Other forms get their defaults (``form.values`` / schema defaults); a plain question gets "yes".
    """
    schema = request.schema or {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    if properties and "lead_traveller" in properties:
        return InputResponse(data=dict(SCRIPTED_TRAVELLER))
    if properties:
        values: dict[str, Any] = {
            k: v["default"] for k, v in properties.items() if isinstance(v, dict) and "default" in v
        }
        form = request.data.get("form") if isinstance(request.data, dict) else None
        if isinstance(form, dict) and isinstance(form.get("values"), dict):
            values.update(form["values"])
        return InputResponse(data=values)
    return InputResponse(text="yes")


def build_router(
    scenario: HandoffScenario,
    *,
    bus: EventBus | None = None,
    wire: WireRecorder | None = None,
    approval: ApprovalHandler | None = None,
    user_input: InputHandler | None = None,
    on_event: EventCallback | None = None,
    policies: HandoffPolicies | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    sampling: SamplingHandler | None = None,
    owned: bool = True,
) -> HandoffRouter:
    """A router with the scenario's agents registered (it owns them: ``await router.aclose()``).

    Args:
        scenario: What ``serve_handoff_agents`` yielded.
        bus: Where ``HandoffEvent``s are published.
        wire: The wire recorder every agent records into (events then carry wire sequence numbers).
        approval: Decides each hop (policy ``ask`` everywhere); ``None`` approves every hop (``auto``).
        user_input: Answers the booking specialist's traveller form; ``None`` uses ``scripted_user``.
        on_event: Also called with every event.
        policies: Explicit policies (override what ``approval`` implies).
        max_depth: The chain's depth limit.
        sampling: Answers the demo MCP server's sampling requests that name no agent (e.g. a person).
        owned: The router closes the agents when it closes; ``False`` when someone else connects
            and closes them (the window's connection manager).
    """
    if policies is None:
        policies = HandoffPolicies(Policy.ASK if approval is not None else Policy.AUTO)
    router = HandoffRouter(
        bus=bus,
        wire=wire,
        on_event=on_event,
        approval=approval,
        user_input=user_input if user_input is not None else scripted_user,
        policies=policies,
        max_depth=max_depth,
    )
    mcp = MCPAgent(
        scenario.mcp_url,
        name=MCP_SERVER,
        sampling_handler=router.sampling_handler(MCP_SERVER, fallback=sampling),
        wire=wire,
        bus=bus,
        connection_id=f"handoff-{MCP_SERVER}",
    )

    def asking_agent(url: str, name: str) -> A2AAgent:
        # an A2A agent whose input-required questions the router answers (tool calls, the user's form)
        return A2AAgent(
            url, name=name, input_handler=router.input_handler(name), wire=wire, connection_id=f"handoff-{name}"
        )

    orchestrator = asking_agent(scenario.orchestrator_url, ORCHESTRATOR)
    booking = asking_agent(scenario.booking_url, BOOKING)
    proxy = A2AAgent(scenario.proxy_url, name=PROXY, wire=wire, connection_id=f"handoff-{PROXY}")
    router.register(MCP_SERVER, mcp, uri=scenario.mcp_url, as_tool=False, owned=owned)
    router.register(ORCHESTRATOR, orchestrator, uri=scenario.orchestrator_url, as_tool=False, owned=owned)
    router.register(BOOKING, booking, uri=scenario.booking_url, owned=owned)
    router.register(PROXY, proxy, uri=scenario.proxy_url, proxy_targets={PROXY_SERVER_ID: MCP_SERVER}, owned=owned)
    router.offer_tools(ORCHESTRATOR, OFFERED_TO_ORCHESTRATOR)
    return router


async def run_scenario(router: HandoffRouter, question: str = QUESTION) -> AgentResult:
    """Connect the agents and ask the orchestrator ``question``; returns its final result.

    Raises:
        WorkbenchError: An agent could not be reached, or the orchestrator's stream failed.
    """
    await router.connect()
    return await router.run(question, to=ORCHESTRATOR)
