"""``HandoffRouter``: registered agents handing work to each other, hop by hop, under policies and limits.

The router plugs into the handler seams the agents already have:

- ``sampling_handler(source)`` answers a sampling request that names an agent (``metadata.agent_uri``
  or ``metadata.agent``) by asking that agent (a ``SAMPLING`` hop);
- ``input_handler(source)`` answers an agent's input-required pause: ``tool_calls`` data parts run
  on agents that serve tools (``TOOL_CALL`` hops) or on agents offered as tools (``AGENT_TOOL`` hops)
  and go back as a ``tool_results`` data part on the same task; any other question goes to the user
  (a ``USER_INPUT`` hop);
- ``elicitation_handler(source)`` shows an elicitation's answer as a ``USER_INPUT`` hop;
- ``run(question, to=name)`` starts a chain (a ``QUESTION`` hop) and returns the final result.

The router coordinates small collaborators, each in its own module: ``AgentRegistry`` (which agents
take part and what each may call), ``HopLifecycle`` (depth and loop checks, the route's policy and
approval, how a hop ends), ``HopDispatcher`` (hops to other agents, through ``exchange.converse``),
``HopQuestions`` (what agents ask during a hop) and ``ProxyWatch`` (an A2A → MCP proxy's own call
shown as a ``PROXY`` hop). What an agent is offered as, and what is sent along with a message, is
decided by its ``AgentFeatures``, never by its protocol's name. Every state change of every hop is a
``HandoffEvent`` (see ``workbench.core.handoff.events``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.core.events import EventBus
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.dispatch import HopDispatcher
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.handoff.hops import EventCallback, Hop, HopBook
from workbench.core.handoff.lifecycle import DEFAULT_MAX_DEPTH, HopLifecycle, as_error
from workbench.core.handoff.policy import ApprovalHandler, HandoffPolicies, Policy
from workbench.core.handoff.questions import HopQuestions
from workbench.core.handoff.registry import AgentRegistry
from workbench.core.handoff.tool_calls import ToolCallEntry
from workbench.core.protocols.base import (
    AgentResult,
    ElicitationHandler,
    ElicitationRequest,
    ElicitationResponse,
    InputHandler,
    InputRequest,
    InputResponse,
    SamplingHandler,
    SamplingRequest,
    SamplingResponse,
)
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.wire.recorder import WireRecorder

__all__ = ["DEFAULT_MAX_DEPTH", "HandoffRouter"]


class HandoffRouter:
    """Routes handoffs between registered agents and reports every hop.

    Args:
        bus: Core event bus the ``HandoffEvent``s are published on.
        wire: Wire recorder; each event carries the first/last sequence numbers of its connection's
            records while the hop ran.
        on_event: Also called with every ``HandoffEvent`` (e.g. the CLI printing lines).
        approval: Decides hops whose policy is ``ask`` (without one they are refused).
        user_input: Answers agents' questions for the user (input-required forms and text).
        policies: Route policies (default: ``ask`` everywhere).
        max_depth: Deepest chain allowed (the question is depth 1).

    Raises:
        ConfigError: ``max_depth`` is below 1.
    """

    def __init__(
        self,
        *,
        bus: EventBus | None = None,
        wire: WireRecorder | None = None,
        on_event: EventCallback | None = None,
        approval: ApprovalHandler | None = None,
        user_input: InputHandler | None = None,
        policies: HandoffPolicies | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> None:
        self._lifecycle = HopLifecycle(
            HopBook(bus=bus, on_event=on_event, wire=wire),
            policies=policies if policies is not None else HandoffPolicies(),
            approval=approval,
            max_depth=max_depth,
        )
        self._registry = AgentRegistry()
        self._dispatch = HopDispatcher(self._registry, self._lifecycle, self._answer_pause)
        self._questions = HopQuestions(self._registry, self._lifecycle, self._dispatch, user_input=user_input)
        self.last_chain_id: str | None = None
        """The chain the latest ``run`` started."""

    # ------------------------------------------------------------------ settings

    @property
    def approval(self) -> ApprovalHandler | None:
        """Decides hops whose policy is ``ask``."""
        return self._lifecycle.approval

    @approval.setter
    def approval(self, handler: ApprovalHandler | None) -> None:
        self._lifecycle.approval = handler

    @property
    def user_input(self) -> InputHandler | None:
        """Answers agents' questions for the user."""
        return self._questions.user_input

    @user_input.setter
    def user_input(self, handler: InputHandler | None) -> None:
        self._questions.user_input = handler

    @property
    def policies(self) -> HandoffPolicies:
        """The route policies."""
        return self._lifecycle.policies

    @policies.setter
    def policies(self, policies: HandoffPolicies) -> None:
        self._lifecycle.policies = policies

    @property
    def max_depth(self) -> int:
        """Deepest chain allowed (the question is depth 1)."""
        return self._lifecycle.max_depth

    @max_depth.setter
    def max_depth(self, depth: int) -> None:
        self._lifecycle.max_depth = depth

    def set_policy(self, target: str, policy: Policy | str, *, source: str | None = None) -> None:
        """Set the policy for hops to ``target`` (from ``source`` only, if given)."""
        self.policies.set(target, policy, source=source)

    # ------------------------------------------------------------------ registration

    def register(
        self,
        name: str,
        agent: RemoteAgent,
        uri: str | None = None,
        description: str | None = None,
        *,
        as_tool: bool | None = None,
        tool_name: str | None = None,
        proxy_targets: Mapping[str, str] | None = None,
        owned: bool = False,
    ) -> RegisteredAgent:
        """Make ``agent`` reachable by ``name`` (and by ``uri``).

        Args:
            name: The name hops, policies and tool calls use.
            agent: Any ``RemoteAgent`` (``MCPAgent``, ``A2AAgent`` ...).
            uri: Where it lives (default: the agent's ``url``); sampling requests name it in
                ``metadata.agent_uri``.
            description: What it does, for its tool spec (default: from its card or server info).
            as_tool: Offer it to other agents as a tool (default: when it takes a prompt, ``features.chat``).
            tool_name: The tool name it is offered under (default: ``name``).
            proxy_targets: For an A2A → MCP proxy agent: its MCP server ids → registered names.
            owned: Close the agent when the router closes.

        Raises:
            ConfigError: The name is taken.
        """
        return self._registry.register(
            name,
            agent,
            uri,
            description,
            as_tool=as_tool,
            tool_name=tool_name,
            proxy_targets=proxy_targets,
            owned=owned,
        )

    def unregister(self, name: str) -> None:
        """Forget an agent (it is not closed)."""
        self._registry.unregister(name)

    @property
    def agents(self) -> dict[str, RegisteredAgent]:
        """Registered agents by name, in registration order."""
        return self._registry.agents

    def agent(self, name: str) -> RegisteredAgent:
        """The registered agent called ``name``.

        Raises:
            NotFoundError: No such agent.
        """
        return self._registry.agent(name)

    def find(self, ref: str) -> RegisteredAgent | None:
        """The agent a reference names: its registered name, its URI (trailing ``/`` ignored) or its tool name."""
        return self._registry.find(ref)

    def offer_tools(self, source: str, names: list[str]) -> None:
        """Offer only these tools (served tool names and agent tool names) to ``source``; others are refused."""
        self._registry.offer_tools(source, names)

    def agent_tools(self, for_source: str | None = None) -> list[ToolSpec]:
        """Specs of the registered agents offered as tools (the asking agent itself left out)."""
        return self._registry.agent_tools(for_source)

    async def offered_tools(self, for_source: str) -> list[ToolSpec]:
        """Everything ``for_source`` may call: the tools the other agents serve, then agent tools."""
        return await self._registry.offered_tools(for_source)

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        """Connect every registered agent that is not connected yet (discovers tools and cards up front)."""
        await self._registry.connect()

    async def aclose(self) -> None:
        """Close the agents the router owns and stop watching the wire recorder."""
        self._lifecycle.book.close()
        await self._registry.close_owned()

    async def __aenter__(self) -> HandoffRouter:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ seams

    def sampling_handler(self, source_name: str, *, fallback: SamplingHandler | None = None) -> SamplingHandler:
        """A ``SamplingHandler`` for the agent registered as ``source_name``.

        A request whose ``metadata`` names an agent (``agent_uri`` or ``agent``) is forwarded to it as a
        ``SAMPLING`` hop and its answer becomes the sampling reply. Other requests go to ``fallback``
        (e.g. a person), or are refused.
        """

        async def handle(request: SamplingRequest) -> SamplingResponse:
            return await self._questions.answer_sampling(source_name, request, fallback)

        return handle

    def input_handler(self, source_name: str, *, user: InputHandler | None = None) -> InputHandler:
        """An ``InputHandler`` for the agent registered as ``source_name``.

        ``tool_calls`` pauses are answered with ``tool_results`` (each call a hop); any other question
        goes to ``user`` (default: the router's ``user_input``) as a ``USER_INPUT`` hop.
        """

        async def handle(request: InputRequest) -> InputResponse:
            parent = self._lifecycle.book.parent_for(source_name)
            return await self._questions.answer_input(source_name, request, parent, user)

        return handle

    def elicitation_handler(self, source_name: str, *, user: ElicitationHandler) -> ElicitationHandler:
        """An ``ElicitationHandler`` for the agent ``source_name``: the user's answer as a ``USER_INPUT`` hop."""

        async def handle(request: ElicitationRequest) -> ElicitationResponse:
            return await self._questions.answer_elicitation(source_name, request, user)

        return handle

    # ------------------------------------------------------------------ chains

    async def run(
        self, question: str, *, to: str, offer_tools: bool = True, data: dict[str, Any] | None = None
    ) -> AgentResult:
        """Ask ``to`` the user's ``question``: a new chain whose first hop is a ``QUESTION``.

        Args:
            question: What the user asks.
            to: The registered agent to ask.
            offer_tools: Send the tools ``to`` may call as a data part ``{"tools": [spec, ...]}`` (to
                an agent that takes data beside its text, ``features.message_data``).
            data: More JSON sent along (merged into that data part).

        Returns:
            The agent's final result (``is_error`` when its task failed).

        Raises:
            NotFoundError: ``to`` is not registered.
            WorkbenchError: The agent could not be reached or its stream failed.
        """
        entry = self._registry.agent(to)
        hop = self._lifecycle.start(None, USER, entry, HopKind.QUESTION)
        self.last_chain_id = hop.chain_id
        self._lifecycle.book.emit(hop, HopState.WORKING, question, {"question": question})
        try:
            payload = dict(data or {})
            if offer_tools and entry.agent.features.message_data:
                payload["tools"] = [s.to_dict() for s in await self._registry.offered_tools(entry.name)]
            result = await self._dispatch.converse(entry, question, hop, data=payload or None)
        except BaseException as exc:
            self._lifecycle.fail(hop, as_error(exc, f"asking {entry.name}"))
            raise
        self._lifecycle.finish(hop, result)
        return result

    async def call_tool(self, source: str, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one tool call for ``source`` (as its ``tool_calls`` would); returns the ``tool_results`` entry."""
        call = ToolCallEntry(name=name, arguments=dict(arguments or {}))
        return await self._dispatch.run_tool_call(source, call, self._lifecycle.book.parent_for(source))

    async def _answer_pause(self, source: str, request: InputRequest, hop: Hop) -> InputResponse:
        """A pause of an agent asked during ``hop``: answered as ``input_handler(source)`` would."""
        return await self._questions.answer_input(source, request, hop)
