"""Hops to other agents: a tool call run on the agent that offers the tool, and a message to an agent as one hop."""

from __future__ import annotations

import json
from typing import Any

from workbench.core.errors import NotFoundError, UsageError, WorkbenchError
from workbench.core.handoff.agent_tools import RegisteredAgent, message_argument
from workbench.core.handoff.events import HopKind, HopState
from workbench.core.handoff.exchange import PauseAnswerer, converse
from workbench.core.handoff.hops import Hop, acting, short
from workbench.core.handoff.lifecycle import HopLifecycle, as_error, jsonable
from workbench.core.handoff.proxy import ProxyWatch
from workbench.core.handoff.registry import AgentRegistry
from workbench.core.handoff.tool_calls import ToolCallEntry, error_entry, result_entry
from workbench.core.protocols.base import AgentResult, ToolResult

UNKNOWN_PROTOCOL = "a2a"
"""The label of a hop to an agent nobody registered (a reference by URI names an agent, not a server)."""


class HopDispatcher:
    """Runs the hops one agent starts towards the others.

    Args:
        registry: The agents that take part.
        lifecycle: Starts, checks and ends the hops.
        answer_pause: Answers a pause of an agent asked during a hop (tool calls, the user's input).
    """

    def __init__(self, registry: AgentRegistry, lifecycle: HopLifecycle, answer_pause: PauseAnswerer) -> None:
        self._registry = registry
        self._lifecycle = lifecycle
        self._answer_pause = answer_pause

    async def converse(
        self, entry: RegisteredAgent, prompt: str, hop: Hop, *, data: dict[str, Any] | None = None
    ) -> AgentResult:
        """Send ``prompt`` to ``entry`` for ``hop`` and answer its pauses; its final result (see ``converse``)."""
        return await converse(entry, prompt, hop, self._answer_pause, data=data)

    async def run_tool_call(self, source: str, call: ToolCallEntry, parent: Hop | None) -> dict[str, Any]:
        """Run one call as a ``TOOL_CALL`` or ``AGENT_TOOL`` hop; its ``tool_results`` entry.

        A ``WorkbenchError`` (refused, unknown, unreachable, failed) becomes an error entry, never raised.
        """
        if call.problem is not None:
            return error_entry(call, None, message=call.problem)
        if not self._registry.allows(source, call.name):
            return error_entry(call, NotFoundError(f"The tool {call.name!r} is not offered to {source}."))
        entry = self._registry.agent_tool(call.name, source)
        if entry is not None:
            return await self._agent_tool_call(source, entry, call, parent)
        server = await self._registry.tool_owner(call.name, source)
        if server is None:
            return error_entry(call, NotFoundError(f"No registered agent offers the tool {call.name!r}."))
        return await self._served_tool_call(source, server, call, parent)

    async def ask_agent(
        self,
        source: str,
        ref: str,
        message: str,
        parent: Hop | None,
        kind: HopKind,
        *,
        call: ToolCallEntry | None = None,
    ) -> AgentResult:
        """Send ``message`` to the agent ``ref`` names as one hop; its completed result.

        Raises:
            NotFoundError: No registered agent answers to ``ref``.
            HandoffError: The hop was refused (depth, loop, policy).
            WorkbenchError: The agent failed, or ended other than completed.
        """
        entry = self._registry.find(ref)
        detail: dict[str, Any] = _call_detail(call) if call is not None else {"message": short(message, 500)}
        if entry is None:
            hop = self._lifecycle.book.start(
                parent=parent, source=source, target=ref, protocol=UNKNOWN_PROTOCOL, kind=kind, connection_id=None
            )
            error = NotFoundError(
                f"No registered agent answers to {ref!r}.",
                hint="register it with the handoff router (name or URI)",
                details={"agent": ref},
            )
            self._lifecycle.fail(hop, error)
            raise error
        hop = await self._lifecycle.open(parent, source, entry, kind, message, detail)
        watch = ProxyWatch.of(self._lifecycle, entry, hop, message) if kind is HopKind.AGENT_TOOL else None
        try:
            result = await converse(entry, message, hop, self._answer_pause, watch=watch)
        except BaseException as exc:
            self._lifecycle.fail(hop, as_error(exc, f"asking {entry.name}"))
            raise
        failure = self._lifecycle.finish(hop, result)
        if failure is not None:
            raise failure
        return result

    async def _agent_tool_call(
        self, source: str, entry: RegisteredAgent, call: ToolCallEntry, parent: Hop | None
    ) -> dict[str, Any]:
        message = message_argument(call.arguments)
        if message is None:
            return error_entry(call, UsageError(f"The agent tool {call.name!r} takes a 'message' string."))
        try:
            result = await self.ask_agent(source, entry.name, message, parent, HopKind.AGENT_TOOL, call=call)
        except WorkbenchError as exc:
            return error_entry(call, exc)
        out = result_entry(call, ToolResult(content=list(result.parts), structured_content=result.structured))
        out["content"] = result.text
        return out

    async def _served_tool_call(
        self, source: str, server: RegisteredAgent, call: ToolCallEntry, parent: Hop | None
    ) -> dict[str, Any]:
        lifecycle = self._lifecycle
        try:
            hop = await lifecycle.open(
                parent, source, server, HopKind.TOOL_CALL, _call_summary(call), _call_detail(call)
            )
        except WorkbenchError as exc:
            return error_entry(call, exc)
        try:
            with acting(hop):
                outcome = await server.agent.call_tool(call.name, call.arguments)
        except BaseException as exc:
            lifecycle.fail(hop, as_error(exc, f"calling {call.name!r}"))
            if isinstance(exc, WorkbenchError):
                failed = error_entry(call, exc)
                if hop.child_errors:
                    failed["error"]["caused_by"] = list(hop.child_errors)
                return failed
            raise
        out = result_entry(call, outcome)
        if outcome.is_error:
            if hop.child_errors:
                out["error"]["caused_by"] = list(hop.child_errors)
            lifecycle.book.emit(
                hop, HopState.FAILED, outcome.text or "the tool reported an error", {"error": out["error"]}
            )
        else:
            lifecycle.book.emit(hop, HopState.DONE, outcome.text, {"answer": short(outcome.text, 500)})
        return out


def _call_summary(call: ToolCallEntry) -> str:
    return f"{call.name} {json.dumps(call.arguments, ensure_ascii=False)}"


def _call_detail(call: ToolCallEntry) -> dict[str, Any]:
    detail: dict[str, Any] = {"tool": call.name, "arguments": jsonable(call.arguments)}
    if call.call_id:
        detail["call_id"] = call.call_id
    return detail
