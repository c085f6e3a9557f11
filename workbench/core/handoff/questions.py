"""What agents ask while a hop runs, answered as hops: tool calls in a pause, the user's input, elicitation, sampling.

Each answer is decided by what the request carries, never by who sent it: a pause carrying
``tool_calls`` is answered with ``tool_results``; any other pause or elicitation goes to the user; a
sampling request naming an agent (``metadata.agent_uri`` or ``metadata.agent``) is asked of that agent.
"""

from __future__ import annotations

from typing import Any

from workbench.core.errors import ConfigError, UnsupportedCapabilityError
from workbench.core.handoff.dispatch import HopDispatcher
from workbench.core.handoff.events import HopKind, HopState
from workbench.core.handoff.hops import Hop, acting
from workbench.core.handoff.lifecycle import HopLifecycle, as_error
from workbench.core.handoff.registry import AgentRegistry
from workbench.core.handoff.tool_calls import tool_calls_in
from workbench.core.protocols.base import (
    ElicitationHandler,
    ElicitationRequest,
    ElicitationResponse,
    InputHandler,
    InputRequest,
    InputResponse,
    SamplingHandler,
    SamplingRequest,
    SamplingResponse,
    parts_text,
)


class HopQuestions:
    """Answers the questions an agent asks during a hop, each as a hop of its own.

    Args:
        registry: The agents that take part.
        lifecycle: Starts and ends the hops.
        dispatch: Runs tool calls and asks agents.
        user_input: Answers questions for the user (input-required forms and text), if anyone can.
    """

    def __init__(
        self,
        registry: AgentRegistry,
        lifecycle: HopLifecycle,
        dispatch: HopDispatcher,
        *,
        user_input: InputHandler | None = None,
    ) -> None:
        self._registry = registry
        self._lifecycle = lifecycle
        self._dispatch = dispatch
        self.user_input = user_input

    async def answer_input(
        self, source: str, request: InputRequest, parent: Hop | None, user: InputHandler | None = None
    ) -> InputResponse:
        """Answer ``source``'s pause: its ``tool_calls`` run (one hop each), else ``user`` answers.

        Args:
            source: The agent that paused.
            request: What it asked.
            parent: The hop it works for.
            user: Who answers a question for the user (default: ``user_input``).

        Raises:
            ConfigError: A question for the user, and no one to answer it.
        """
        calls = tool_calls_in(request.parts, request.data) if request.kind == "input" else None
        if calls is not None:
            results = [await self._dispatch.run_tool_call(source, call, parent) for call in calls]
            return InputResponse(data={"tool_results": results})
        return await self._ask_user(source, request, parent, user or self.user_input)

    async def answer_sampling(
        self, source: str, request: SamplingRequest, fallback: SamplingHandler | None
    ) -> SamplingResponse:
        """Answer a sampling request: the agent its metadata names answers (a ``SAMPLING`` hop), else ``fallback``.

        Raises:
            UnsupportedCapabilityError: No agent is named and there is no fallback.
            WorkbenchError: The named agent could not be asked or did not complete.
        """
        meta = request.metadata or {}
        ref = meta.get("agent_uri") or meta.get("agent")
        if not isinstance(ref, str) or not ref:
            if fallback is not None:
                return await fallback(request)
            raise UnsupportedCapabilityError(
                f"{source} asked for sampling without naming an agent.",
                hint="only handoffs (metadata.agent_uri) are answered here",
            )
        parent = self._lifecycle.book.parent_for(source)
        result = await self._dispatch.ask_agent(source, ref, _last_user_text(request), parent, HopKind.SAMPLING)
        entry = self._registry.find(ref)
        return SamplingResponse(text=result.text, model=f"agent:{entry.name if entry is not None else ref}")

    async def answer_elicitation(
        self, source: str, request: ElicitationRequest, user: ElicitationHandler
    ) -> ElicitationResponse:
        """The user's answer to ``source``'s elicitation, as a ``USER_INPUT`` hop (declined or cancelled: failed)."""
        parent = self._lifecycle.book.parent_for(source)
        detail = {"mode": request.mode}
        hop = self._lifecycle.start_user_hop(source, self._registry.get(source), parent, request.message, detail)
        try:
            with acting(hop):
                answer = await user(request)
        except BaseException as exc:
            self._lifecycle.fail(hop, as_error(exc, "the elicitation"))
            raise
        if answer.action == "accept":
            self._lifecycle.book.emit(hop, HopState.DONE, "answered", {"answer": answer.content or {}})
        else:
            self._lifecycle.book.emit(hop, HopState.FAILED, f"{answer.action}d", {"error": {"code": answer.action}})
        return answer

    async def _ask_user(
        self, source: str, request: InputRequest, parent: Hop | None, user: InputHandler | None
    ) -> InputResponse:
        detail: dict[str, Any] = {"input_kind": request.kind}
        if request.schema is not None:
            detail["schema"] = request.schema
        lifecycle = self._lifecycle
        hop = lifecycle.start_user_hop(source, self._registry.get(source), parent, request.text, detail)
        if user is None:
            error = ConfigError(
                f"{source} asks the user a question, but no one can answer here.",
                hint="give the router a user_input handler",
            )
            lifecycle.fail(hop, error)
            raise error
        try:
            with acting(hop):
                answer = await user(request)
        except BaseException as exc:
            lifecycle.fail(hop, as_error(exc, "asking the user"))
            raise
        if answer.cancel:
            lifecycle.book.emit(hop, HopState.FAILED, "cancelled by the user", {"error": {"code": "cancelled"}})
        elif answer.text is None and answer.data is None:
            lifecycle.book.emit(hop, HopState.FAILED, "no answer (deferred)", {"error": {"code": "deferred"}})
        else:
            done: dict[str, Any] = {}
            if request.kind == "input":  # an auth answer is a credential: never in an event
                done["answer"] = answer.data if answer.data is not None else answer.text
            fields = ", ".join(sorted(answer.data)) if answer.data else "text"
            lifecycle.book.emit(hop, HopState.DONE, f"answered ({fields})", done)
        return answer


def _last_user_text(request: SamplingRequest) -> str:
    for message in reversed(request.messages):
        if message.role == "user":
            return parts_text(message.content)
    return parts_text(request.messages[-1].content) if request.messages else ""
