"""``HandoffRouter``: registered agents handing work to each other, hop by hop, under policies and limits.

The router plugs into the handler seams the agents already have:

- ``sampling_handler(source)`` answers an MCP server's sampling request that names an agent
  (``metadata.agent_uri`` or ``metadata.agent``) by asking that agent (a ``SAMPLING`` hop);
- ``input_handler(source)`` answers an A2A agent's input-required pause: ``tool_calls`` data parts
  run on MCP servers (``TOOL_CALL`` hops) or on agents offered as tools (``AGENT_TOOL`` hops) and go
  back as a ``tool_results`` data part on the same task; any other question goes to the user
  (a ``USER_INPUT`` hop);
- ``run(question, to=name)`` starts a chain (a ``QUESTION`` hop) and returns the final result.

Before a hop reaches another agent the router checks the depth limit and loops (the target already
takes part in the chain above), then applies the route's policy (``ask`` / ``auto`` / ``deny``).
Every state change of every hop is a ``HandoffEvent`` (see ``workbench.core.handoff.events``).
A call to an A2A → MCP proxy agent (its message is a proxy request) also shows the proxy's own
MCP call as a ``PROXY`` hop, observed from the proxy's status and result.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from workbench.core.errors import (
    ConfigError,
    HandoffDeniedError,
    HandoffDepthError,
    HandoffError,
    HandoffLoopError,
    NotFoundError,
    ProtocolError,
    RemoteError,
    UnsupportedCapabilityError,
    UsageError,
    WorkbenchError,
)
from workbench.core.events import EventBus
from workbench.core.handoff.agent_tools import RegisteredAgent, agent_tool_spec, message_argument
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.handoff.hops import EventCallback, Hop, HopBook, current_hop, short
from workbench.core.handoff.policy import (
    ApprovalHandler,
    ApprovalRequest,
    HandoffPolicies,
    Policy,
    as_decision,
)
from workbench.core.handoff.tool_calls import (
    ToolCallEntry,
    error_entry,
    proxy_outcome,
    proxy_request,
    result_entry,
    tool_calls_in,
)
from workbench.core.models import ToolSpec
from workbench.core.protocols.base import (
    AgentResult,
    AuthRequired,
    Completed,
    ElicitationHandler,
    ElicitationRequest,
    ElicitationResponse,
    Failed,
    InputHandler,
    InputRequest,
    InputRequired,
    InputResponse,
    SamplingHandler,
    SamplingRequest,
    SamplingResponse,
    StatusChanged,
    ToolResult,
    parts_text,
)
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.wire import WireRecorder

log = logging.getLogger(__name__)

DEFAULT_MAX_DEPTH = 5
"""Deepest chain allowed by default (the user's question is depth 1)."""
PAUSED_STATES = ("input_required", "auth_required")


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
        if max_depth < 1:
            raise ConfigError("The handoff depth limit must be at least 1.", details={"max_depth": max_depth})
        self.approval = approval
        self.user_input = user_input
        self.policies = policies if policies is not None else HandoffPolicies()
        self.max_depth = max_depth
        self.last_chain_id: str | None = None
        """The chain the latest ``run`` started."""
        self._book = HopBook(bus=bus, on_event=on_event, wire=wire)
        self._agents: dict[str, RegisteredAgent] = {}
        self._offers: dict[str, list[str]] = {}

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
            as_tool: Offer it to other agents as a tool (default: when it can act as an agent).
            tool_name: The tool name it is offered under (default: ``name``).
            proxy_targets: For an A2A → MCP proxy agent: its MCP server ids → registered names.
            owned: Close the agent when the router closes.

        Raises:
            ConfigError: The name is taken.
        """
        if name in self._agents or name == USER:
            raise ConfigError(f"An agent named {name!r} is already registered.", details={"name": name})
        url = uri if uri is not None else agent.url
        entry = RegisteredAgent(
            name=name,
            agent=agent,
            uri=url if isinstance(url, str) else None,
            description=description,
            as_tool=as_tool,
            tool_name=tool_name,
            proxy_targets=dict(proxy_targets) if proxy_targets else None,
            owned=owned,
        )
        self._agents[name] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Forget an agent (it is not closed)."""
        self._agents.pop(name, None)

    @property
    def agents(self) -> dict[str, RegisteredAgent]:
        """Registered agents by name, in registration order."""
        return dict(self._agents)

    def agent(self, name: str) -> RegisteredAgent:
        """The registered agent called ``name``.

        Raises:
            NotFoundError: No such agent.
        """
        try:
            return self._agents[name]
        except KeyError:
            raise NotFoundError(
                f"No agent named {name!r} is registered for handoffs.",
                hint="registered: " + (", ".join(self._agents) or "none"),
                details={"agent": name, "registered": list(self._agents)},
            ) from None

    def find(self, ref: str) -> RegisteredAgent | None:
        """The agent a reference names: its registered name, its URI (trailing ``/`` ignored) or its tool name."""
        if ref in self._agents:
            return self._agents[ref]
        wanted = ref.rstrip("/")
        for entry in self._agents.values():
            if entry.uri and entry.uri.rstrip("/") == wanted:
                return entry
        for entry in self._agents.values():
            if entry.tool_name == ref:
                return entry
        return None

    def set_policy(self, target: str, policy: Policy | str, *, source: str | None = None) -> None:
        """Set the policy for hops to ``target`` (from ``source`` only, if given)."""
        self.policies.set(target, policy, source=source)

    def offer_tools(self, source: str, names: list[str]) -> None:
        """Offer only these tools (MCP tool names and agent tool names) to ``source``; others are refused."""
        self._offers[source] = list(names)

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        """Connect every registered agent that has a ``connect`` (discovers tools and cards up front)."""
        await asyncio.gather(*(self._connected(e) for e in self._agents.values()))

    async def aclose(self) -> None:
        """Close the agents the router owns and stop watching the wire recorder."""
        self._book.close()
        owned = [e.agent for e in self._agents.values() if e.owned]
        results = await asyncio.gather(*(a.aclose() for a in owned), return_exceptions=True)
        for agent, result in zip(owned, results, strict=True):
            if isinstance(result, Exception):
                log.info("closing %s failed: %s", agent.name, result)
            elif isinstance(result, BaseException):
                raise result

    async def __aenter__(self) -> HandoffRouter:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @staticmethod
    async def _connected(entry: RegisteredAgent) -> None:
        if not entry.agent.connected:
            await entry.agent.connect()

    # ------------------------------------------------------------------ tools offered to agents

    def agent_tools(self, for_source: str | None = None) -> list[ToolSpec]:
        """Specs of the registered agents offered as tools (the asking agent itself left out)."""
        return [agent_tool_spec(e) for e in self._agents.values() if e.name != for_source and e.offered()]

    async def offered_tools(self, for_source: str) -> list[ToolSpec]:
        """Everything ``for_source`` may call: MCP tools of registered servers, then agent tools."""
        specs: list[ToolSpec] = []
        for entry in self._agents.values():
            if entry.name == for_source or entry.protocol != "mcp":
                continue
            await self._connected(entry)
            specs.extend(_specs_of(entry.agent))
        specs.extend(self.agent_tools(for_source))
        allowed = self._offers.get(for_source)
        if allowed is not None:
            specs = [s for s in specs if s.name in allowed]
        unique: dict[str, ToolSpec] = {}
        for spec in specs:
            unique.setdefault(spec.name, spec)  # the first server offering a name is the one it calls
        return list(unique.values())

    # ------------------------------------------------------------------ seams

    def sampling_handler(self, source_name: str, *, fallback: SamplingHandler | None = None) -> SamplingHandler:
        """A ``SamplingHandler`` for the MCP server registered as ``source_name``.

        A request whose ``metadata`` names an agent (``agent_uri`` or ``agent``) is forwarded to it as a
        ``SAMPLING`` hop and its answer becomes the sampling reply. Other requests go to ``fallback``
        (e.g. a person), or are refused.
        """

        async def handle(request: SamplingRequest) -> SamplingResponse:
            meta = request.metadata or {}
            ref = meta.get("agent_uri") or meta.get("agent")
            if not isinstance(ref, str) or not ref:
                if fallback is not None:
                    return await fallback(request)
                raise UnsupportedCapabilityError(
                    f"{source_name} asked for sampling without naming an agent.",
                    hint="only handoffs (metadata.agent_uri) are answered here",
                )
            text = _last_user_text(request)
            parent = self._book.parent_for(source_name)
            result = await self._ask_agent(source_name, ref, text, parent, HopKind.SAMPLING)
            entry = self.find(ref)
            return SamplingResponse(text=result.text, model=f"agent:{entry.name if entry is not None else ref}")

        return handle

    def input_handler(self, source_name: str, *, user: InputHandler | None = None) -> InputHandler:
        """An ``InputHandler`` for the A2A agent registered as ``source_name``.

        ``tool_calls`` pauses are answered with ``tool_results`` (each call a hop); any other question
        goes to ``user`` (default: the router's ``user_input``) as a ``USER_INPUT`` hop.
        """

        async def handle(request: InputRequest) -> InputResponse:
            return await self._answer_input(source_name, request, self._book.parent_for(source_name), user)

        return handle

    def elicitation_handler(self, source_name: str, *, user: ElicitationHandler) -> ElicitationHandler:
        """An ``ElicitationHandler`` for the MCP server ``source_name``: the user's answer as a ``USER_INPUT`` hop."""

        async def handle(request: ElicitationRequest) -> ElicitationResponse:
            hop = self._user_hop(
                source_name, self._book.parent_for(source_name), request.message, {"mode": request.mode}
            )
            try:
                with _acting(hop):
                    answer = await user(request)
            except BaseException as exc:
                self._fail(hop, _as_error(exc, "the elicitation"))
                raise
            if answer.action == "accept":
                self._book.emit(hop, HopState.DONE, "answered", {"answer": answer.content or {}})
            else:
                self._book.emit(hop, HopState.FAILED, f"{answer.action}d", {"error": {"code": answer.action}})
            return answer

        return handle

    async def run(
        self, question: str, *, to: str, offer_tools: bool = True, data: dict[str, Any] | None = None
    ) -> AgentResult:
        """Ask ``to`` the user's ``question``: a new chain whose first hop is a ``QUESTION``.

        Args:
            question: What the user asks.
            to: The registered agent to ask.
            offer_tools: Send the tools ``to`` may call as a data part ``{"tools": [spec, ...]}`` (A2A).
            data: More JSON sent along (merged into that data part).

        Returns:
            The agent's final result (``is_error`` when its task failed).

        Raises:
            NotFoundError: ``to`` is not registered.
            WorkbenchError: The agent could not be reached or its stream failed.
        """
        entry = self.agent(to)
        hop = self._book.start(
            parent=None,
            source=USER,
            target=entry.name,
            protocol=entry.protocol,
            kind=HopKind.QUESTION,
            connection_id=entry.connection_id,
        )
        self.last_chain_id = hop.chain_id
        self._book.emit(hop, HopState.WORKING, question, {"question": question})
        try:
            payload = dict(data or {})
            if offer_tools and entry.protocol == "a2a":
                payload["tools"] = [s.to_dict() for s in await self.offered_tools(entry.name)]
            result = await self._converse(entry, question, hop, data=payload or None)
        except BaseException as exc:
            self._fail(hop, _as_error(exc, f"asking {entry.name}"))
            raise
        self._finish(hop, result)
        return result

    async def call_tool(self, source: str, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one tool call for ``source`` (as its ``tool_calls`` would); returns the ``tool_results`` entry."""
        call = ToolCallEntry(name=name, arguments=dict(arguments or {}))
        return await self._run_tool_call(source, call, self._book.parent_for(source))

    # ------------------------------------------------------------------ answering pauses

    async def _answer_input(
        self, source: str, request: InputRequest, parent: Hop | None, user: InputHandler | None
    ) -> InputResponse:
        calls = tool_calls_in(request.parts, request.data) if request.kind == "input" else None
        if calls is not None:
            results = [await self._run_tool_call(source, call, parent) for call in calls]
            return InputResponse(data={"tool_results": results})
        return await self._ask_user(source, request, parent, user or self.user_input)

    def _user_hop(self, source: str, parent: Hop | None, question: str, detail: dict[str, Any]) -> Hop:
        entry = self._agents.get(source)
        hop = self._book.start(
            parent=parent,
            source=source,
            target=USER,
            protocol=entry.protocol if entry is not None else "local",
            kind=HopKind.USER_INPUT,
            connection_id=entry.connection_id if entry is not None else None,
        )
        self._book.emit(hop, HopState.WAITING_FOR_USER, question or f"{source} asks for input", detail)
        return hop

    async def _ask_user(
        self, source: str, request: InputRequest, parent: Hop | None, user: InputHandler | None
    ) -> InputResponse:
        detail: dict[str, Any] = {"input_kind": request.kind}
        if request.schema is not None:
            detail["schema"] = request.schema
        hop = self._user_hop(source, parent, request.text, detail)
        if user is None:
            error = ConfigError(
                f"{source} asks the user a question, but no one can answer here.",
                hint="give the router a user_input handler",
            )
            self._fail(hop, error)
            raise error
        try:
            with _acting(hop):
                answer = await user(request)
        except BaseException as exc:
            self._fail(hop, _as_error(exc, "asking the user"))
            raise
        if answer.cancel:
            self._book.emit(hop, HopState.FAILED, "cancelled by the user", {"error": {"code": "cancelled"}})
        elif answer.text is None and answer.data is None:
            self._book.emit(hop, HopState.FAILED, "no answer (deferred)", {"error": {"code": "deferred"}})
        else:
            done: dict[str, Any] = {}
            if request.kind == "input":  # an auth answer is a credential: never in an event
                done["answer"] = answer.data if answer.data is not None else answer.text
            fields = ", ".join(sorted(answer.data)) if answer.data else "text"
            self._book.emit(hop, HopState.DONE, f"answered ({fields})", done)
        return answer

    # ------------------------------------------------------------------ hops to other agents

    async def _run_tool_call(self, source: str, call: ToolCallEntry, parent: Hop | None) -> dict[str, Any]:
        """Run one call (a ``TOOL_CALL`` or ``AGENT_TOOL`` hop); never raises a ``WorkbenchError``."""
        if call.problem is not None:
            return error_entry(call, None, message=call.problem)
        allowed = self._offers.get(source)
        if allowed is not None and call.name not in allowed:
            return error_entry(call, NotFoundError(f"The tool {call.name!r} is not offered to {source}."))
        entry = self._agent_tool(call.name, source)
        if entry is not None:
            message = message_argument(call.arguments)
            if message is None:
                return error_entry(call, UsageError(f"The agent tool {call.name!r} takes a 'message' string."))
            try:
                result = await self._ask_agent(source, entry.name, message, parent, HopKind.AGENT_TOOL, call=call)
            except WorkbenchError as exc:
                return error_entry(call, exc)
            entry_ = result_entry(call, ToolResult(content=list(result.parts), structured_content=result.structured))
            entry_["content"] = result.text
            return entry_
        server = await self._tool_owner(call.name, source)
        if server is None:
            return error_entry(call, NotFoundError(f"No registered MCP server offers the tool {call.name!r}."))
        try:
            hop = await self._open(parent, source, server, HopKind.TOOL_CALL, _call_summary(call), _call_detail(call))
        except WorkbenchError as exc:
            return error_entry(call, exc)
        try:
            with _acting(hop):
                outcome = await _call(server.agent, call.name, call.arguments)
        except BaseException as exc:
            error = _as_error(exc, f"calling {call.name!r}")
            self._fail(hop, error)
            if isinstance(exc, WorkbenchError):
                entry_ = error_entry(call, exc)
                if hop.child_errors:
                    entry_["error"]["caused_by"] = list(hop.child_errors)
                return entry_
            raise
        out = result_entry(call, outcome)
        if outcome.is_error:
            if hop.child_errors:
                out["error"]["caused_by"] = list(hop.child_errors)
            self._book.emit(hop, HopState.FAILED, outcome.text or "the tool reported an error", {"error": out["error"]})
        else:
            self._book.emit(hop, HopState.DONE, outcome.text, {"answer": short(outcome.text, 500)})
        return out

    async def _ask_agent(
        self,
        source: str,
        ref: str,
        message: str,
        parent: Hop | None,
        kind: HopKind,
        *,
        call: ToolCallEntry | None = None,
    ) -> AgentResult:
        """Send ``message`` to the agent ``ref`` names as one hop; its completed result, else raises."""
        entry = self.find(ref)
        detail: dict[str, Any] = _call_detail(call) if call is not None else {"message": short(message, 500)}
        if entry is None:
            hop = self._book.start(
                parent=parent, source=source, target=ref, protocol="a2a", kind=kind, connection_id=None
            )
            error = NotFoundError(
                f"No registered agent answers to {ref!r}.",
                hint="register it with the handoff router (name or URI)",
                details={"agent": ref},
            )
            self._fail(hop, error)
            raise error
        hop = await self._open(parent, source, entry, kind, message, detail)
        proxy = proxy_request(message) if kind is HopKind.AGENT_TOOL else None
        try:
            result = await self._converse(entry, message, hop, proxy=proxy)
        except BaseException as exc:
            self._fail(hop, _as_error(exc, f"asking {entry.name}"))
            raise
        failure = self._finish(hop, result)
        if failure is not None:
            raise failure
        return result

    async def _open(
        self,
        parent: Hop | None,
        source: str,
        entry: RegisteredAgent,
        kind: HopKind,
        summary: str,
        detail: dict[str, Any],
    ) -> Hop:
        """Start a hop to ``entry``: depth and loop checks, the policy, then ``WORKING``.

        Raises:
            HandoffDepthError, HandoffLoopError, HandoffDeniedError: The hop was refused (and reported).
        """
        hop = self._book.start(
            parent=parent,
            source=source,
            target=entry.name,
            protocol=entry.protocol,
            kind=kind,
            connection_id=entry.connection_id,
        )
        try:
            self._check_chain(hop)
        except HandoffError as exc:
            self._fail(hop, exc)
            raise
        policy = self.policies.resolve(source, entry.name)
        if policy is Policy.DENY:
            denied = HandoffDeniedError(
                f"Handoffs from {source} to {entry.name} are not allowed.",
                hint="change the route's policy to ask or auto",
                details={"policy": "deny", "source": source, "target": entry.name},
            )
            self._fail(hop, denied)
            raise denied
        if policy is Policy.ASK:
            await self._approve(hop, summary, detail)
        self._book.emit(hop, HopState.WORKING, summary, {**detail, "policy": policy.value})
        return hop

    async def _approve(self, hop: Hop, summary: str, detail: dict[str, Any]) -> None:
        self._book.emit(hop, HopState.PENDING, summary, {**detail, "policy": "ask"})
        if self.approval is None:
            denied = HandoffDeniedError(
                f"{hop.source} wants to hand off to {hop.target}, and no one can approve it here.",
                hint="give the router an approval handler, or set the route's policy to auto",
                details={"policy": "ask", "source": hop.source, "target": hop.target},
            )
            self._fail(hop, denied)
            raise denied
        request = ApprovalRequest(
            chain_id=hop.chain_id,
            handoff_id=hop.handoff_id,
            parent_id=hop.parent_id,
            source=hop.source,
            target=hop.target,
            kind=hop.kind,
            protocol=hop.protocol,
            summary=short(summary),
            arguments=_jsonable(detail.get("arguments", {"message": detail.get("message", summary)})),
            depth=hop.depth,
        )
        try:
            decision = as_decision(await self.approval(request))
        except BaseException as exc:
            self._fail(hop, _as_error(exc, "asking for approval"))
            raise
        if decision.remember:
            self.policies.set(hop.target, Policy.AUTO if decision.approved else Policy.DENY, source=hop.source)
        if not decision.approved:
            denied = HandoffDeniedError(
                f"The handoff from {hop.source} to {hop.target} was not approved.",
                hint=decision.reason,
                details={"policy": "ask", "source": hop.source, "target": hop.target},
            )
            self._fail(hop, denied)
            raise denied

    def _check_chain(self, hop: Hop) -> None:
        if hop.depth > self.max_depth:
            raise HandoffDepthError(
                f"Handing off from {hop.source} to {hop.target} would make the chain {hop.depth} deep "
                f"(the limit is {self.max_depth}).",
                hint="raise the router's depth limit if the chain really needs it",
                details={"depth": hop.depth, "max_depth": self.max_depth},
            )
        above = hop.parent.agents() if hop.parent is not None else []
        if hop.target == hop.source or hop.target in above:
            raise HandoffLoopError(
                f"{hop.source} hands off to {hop.target}, which is already part of this chain.",
                hint="an agent cannot be asked again by a hop it caused",
                details={"path": [*above, hop.target] if above else [hop.source, hop.target]},
            )

    # ------------------------------------------------------------------ talking to one agent

    async def _converse(
        self,
        entry: RegisteredAgent,
        prompt: str,
        hop: Hop,
        *,
        data: dict[str, Any] | None = None,
        proxy: dict[str, Any] | None = None,
    ) -> AgentResult:
        """Stream ``prompt`` to the agent, answering pauses it leaves to the caller; its final result."""
        agent = entry.agent
        a2a = entry.protocol == "a2a"
        kwargs: dict[str, Any] = {"new_conversation": True} if a2a else {}
        if data is not None and a2a:
            kwargs["data"] = data
        sent: str | InputResponse = prompt
        proxy_hop: Hop | None = None
        with _acting(hop):
            while True:
                result: AgentResult | None = None
                paused: InputRequest | None = None
                async for event in agent.stream_async(sent, **kwargs):
                    working = isinstance(event, StatusChanged) and event.state == "working"
                    if proxy is not None and proxy_hop is None and working:
                        proxy_hop = self._proxy_hop(entry, hop, proxy)
                    if isinstance(event, InputRequired | AuthRequired):
                        paused = event.request
                    elif isinstance(event, Completed):
                        result = event.result
                    elif isinstance(event, Failed):
                        error = _as_error(event.error, f"asking {entry.name}")
                        if proxy_hop is not None:
                            self._fail(proxy_hop, error)
                        raise error
                if result is None:
                    raise ProtocolError(f"{entry.name} ended its stream without a result.")
                if result.state in PAUSED_STATES and paused is not None:
                    answer = await self._answer_input(entry.name, paused, hop, None)
                    if answer.cancel:
                        if agent.features.cancel and result.task_id:
                            await agent.cancel(result.task_id)
                        result = replace(result, state="canceled", is_error=True)
                    elif answer.text is not None or answer.data is not None:
                        sent = answer
                        kwargs = {"task_id": result.task_id, "context_id": result.context_id} if a2a else {}
                        continue
                break
        if proxy is not None:
            self._finish_proxy(entry, hop, proxy, proxy_hop, result)
        return result

    def _proxy_hop(self, entry: RegisteredAgent, parent: Hop, proxy: dict[str, Any]) -> Hop:
        server_id = str(proxy["target_mcp_server_id"])
        target = (entry.proxy_targets or {}).get(server_id, f"mcp:{server_id}")
        hop = self._book.start(
            parent=parent, source=entry.name, target=target, protocol="mcp", kind=HopKind.PROXY, connection_id=None
        )
        arguments = proxy.get("arguments") if isinstance(proxy.get("arguments"), dict) else {}
        self._book.emit(
            hop,
            HopState.WORKING,
            f"{proxy['tool_name']} {json.dumps(arguments, ensure_ascii=False)}",
            {"tool": proxy["tool_name"], "server_id": server_id, "arguments": _jsonable(arguments), "observed": True},
        )
        return hop

    def _finish_proxy(
        self, entry: RegisteredAgent, parent: Hop, proxy: dict[str, Any], hop: Hop | None, result: AgentResult
    ) -> None:
        hop = hop if hop is not None else self._proxy_hop(entry, parent, proxy)
        outcome = proxy_outcome(result.structured) or {}
        error = outcome.get("error")
        if result.state == "completed" and not outcome.get("is_error") and error is None:
            mcp_result = outcome.get("result") if isinstance(outcome.get("result"), dict) else {}
            text = parts_text(result.parts)
            self._book.emit(hop, HopState.DONE, text, {"result": _jsonable(mcp_result)})
            return
        body = error if isinstance(error, dict) else {"code": "tool-error", "message": result.text}
        self._book.emit(hop, HopState.FAILED, str(body.get("message", result.text)), {"error": _jsonable(body)})

    # ------------------------------------------------------------------ outcomes

    def _finish(self, hop: Hop, result: AgentResult) -> WorkbenchError | None:
        """End ``hop`` from the agent's result: ``DONE`` when it completed, else ``FAILED`` (returned)."""
        if result.state == "completed" and not result.is_error:
            self._book.emit(hop, HopState.DONE, result.text, {"answer": short(result.text, 500), "state": result.state})
            return None
        error = RemoteError(
            f"{hop.target} ended with {result.state}: {short(result.text) or 'no reason given'}",
            remote_code=result.state,
            details={"agent": hop.target, "task_id": result.task_id},
        )
        self._fail(hop, error)
        return error

    def _fail(self, hop: Hop, error: WorkbenchError) -> None:
        state = HopState.DENIED if isinstance(error, HandoffDeniedError) else HopState.FAILED
        body = _jsonable(error.to_dict())
        detail: dict[str, Any] = {"error": body}
        if hop.child_errors:
            detail["caused_by"] = list(hop.child_errors)
        self._book.emit(hop, state, error.message, detail)
        if hop.parent is not None:
            hop.parent.child_errors.append(
                {"handoff_id": hop.handoff_id, "kind": hop.kind.value, "target": hop.target, "code": error.code}
                | ({"caused_by": list(hop.child_errors)} if hop.child_errors else {})
            )

    # ------------------------------------------------------------------ lookups

    def _agent_tool(self, name: str, source: str) -> RegisteredAgent | None:
        for entry in self._agents.values():
            if entry.name != source and (entry.tool_name or entry.name) == name and entry.offered():
                return entry
        return None

    async def _tool_owner(self, name: str, source: str) -> RegisteredAgent | None:
        for entry in self._agents.values():
            if entry.name == source or entry.protocol != "mcp":
                continue
            await self._connected(entry)
            if name in _tool_names(entry.agent):
                return entry
        return None


# ---------------------------------------------------------------------- helpers


@contextlib.contextmanager
def _acting(hop: Hop) -> Iterator[None]:
    """Mark the current task as working for ``hop`` (handlers it triggers nest under it)."""
    token = current_hop.set(hop)
    try:
        yield
    finally:
        current_hop.reset(token)


def _as_error(exc: BaseException, doing: str) -> WorkbenchError:
    """The typed error behind a failure (cancellation and foreign exceptions are wrapped)."""
    if isinstance(exc, WorkbenchError):
        return exc
    if isinstance(exc, asyncio.CancelledError):
        return UsageError(f"Cancelled while {doing}.", details={"cancelled": True})
    return RemoteError(f"{type(exc).__name__} while {doing}: {exc}", remote_code="exception")


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def _call_summary(call: ToolCallEntry) -> str:
    return f"{call.name} {json.dumps(call.arguments, ensure_ascii=False)}"


def _call_detail(call: ToolCallEntry) -> dict[str, Any]:
    detail: dict[str, Any] = {"tool": call.name, "arguments": _jsonable(call.arguments)}
    if call.call_id:
        detail["call_id"] = call.call_id
    return detail


def _last_user_text(request: SamplingRequest) -> str:
    for message in reversed(request.messages):
        if message.role == "user":
            return parts_text(message.content)
    return parts_text(request.messages[-1].content) if request.messages else ""


def _specs_of(agent: RemoteAgent) -> list[ToolSpec]:
    return agent.tool_specs()


def _tool_names(agent: RemoteAgent) -> set[str]:
    try:
        return set(agent.tools)
    except WorkbenchError:
        return set()


async def _call(agent: RemoteAgent, name: str, arguments: dict[str, Any]) -> ToolResult:
    return await agent.call_tool(name, arguments)
