"""A model chats for an MCP server that has no agent entry point: it gets the server's tools and calls them.

``ToolChat.send(text)`` runs one turn as a stream of ``AgentEvent``s, the shape every chat already draws:
the model's text as it streams (``TextDelta``), each tool call it asks for (``ToolCallRequested``) and its
answer (``ToolCallAnswered``), then ``Completed`` (or ``Failed``). Between the two, a call goes through the
tool-call gate (``core.tool_approval``: a destructive tool asks the user, per the profile's policy), then to
the server on the same connection as any call (so the wire log has it). The conversation is kept across
turns.

Bounds: the tools offered (``ToolChatLimits.max_tools``, descriptions cut; tools an MCP App keeps to itself,
``_meta.ui.visibility == ["app"]``, are never offered), the rounds of tool calls per turn, the tokens per
answer and the characters of a tool result given back. A call of a tool that does not exist, with arguments
that do not fit its schema, refused by the user, or failing on the server is answered to the model as an
error result (it may try again); only the endpoint failing ends the turn. Closing the stream (the user
cancelled) stops the model's answer under way and any call in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any, Protocol

from workbench.core.apps.resource import APP_VISIBILITY, app_visibility
from workbench.core.errors import WorkbenchError
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    Completed,
    ContentPart,
    Failed,
    SamplingMessage,
    SamplingRequest,
    TextDelta,
    ToolCallAnswered,
    ToolCallRequested,
)
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.sampling.completion import Completion, TextSink
from workbench.core.schema_check import clipped, first_errors, make_validator
from workbench.core.tool_approval import ToolCallGate

PROTOCOL = "model"
"""The ``protocol`` of the events a tool chat yields."""
DEFAULT_SYSTEM_PROMPT = (
    "You are chatting with the user of an MCP client. You can call the tools of the MCP server {server} "
    "when they help; say plainly what you did and what the tools answered."
)


class ToolChatLimitError(WorkbenchError):
    """The model kept asking for tool calls past the turn's bound of rounds."""

    code = "tool-chat-limit"


@dataclass(frozen=True, slots=True)
class ToolChatLimits:
    """Bounds of a tool chat.

    Attributes:
        max_rounds: Rounds of tool calls in one turn (a model asking for more ends the turn).
        max_tokens: Output tokens asked for in each answer.
        max_tools: Tools offered to the model (the rest are not offered).
        max_description: Characters of a tool's description offered.
        max_result_chars: Characters of a tool's result given back to the model (and shown).
        max_messages: Messages kept in the conversation (the oldest go first, whole exchanges at a time).
    """

    max_rounds: int = 8
    max_tokens: int = 1024
    max_tools: int = 64
    max_description: int = 1_000
    max_result_chars: int = 20_000
    max_messages: int = 200


class ModelAsker(Protocol):
    """What answers for the model (``ModelResponder`` fits)."""

    name: str

    async def complete(self, request: SamplingRequest, on_text: TextSink | None = None) -> Completion:
        """The model's answer, its tool calls unchecked."""
        ...


def offered_tools(specs: list[ToolSpec], limits: ToolChatLimits) -> list[ToolSpec]:
    """The tools the model is offered: not app-only, at most ``max_tools``, descriptions cut."""
    out: list[ToolSpec] = []
    for spec in specs:
        if app_visibility(spec) == frozenset({APP_VISIBILITY}):
            continue  # an app's own tool: hidden from the model, as the Apps extension says
        description = clipped(spec.description or "", limits.max_description) if spec.description else None
        schema = spec.input_schema if isinstance(spec.input_schema, dict) and spec.input_schema else None
        out.append(
            ToolSpec(
                spec.name,
                title=spec.title,
                description=description,
                input_schema=schema or {"type": "object"},
                annotations=spec.annotations,
                meta=spec.meta,
            )
        )
        if len(out) >= limits.max_tools:
            break
    return out


def argument_problem(spec: ToolSpec, arguments: dict[str, Any]) -> str | None:
    """Why ``arguments`` do not fit ``spec``'s input schema (the first problems), or ``None``."""
    if not spec.input_schema:
        return None
    try:
        errors, count = first_errors(make_validator(spec.input_schema).iter_errors(arguments), limit=3)
    except Exception:  # a schema the validator cannot use: the server judges the arguments itself
        return None
    if not errors:
        return None
    said = "; ".join(f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}" for e in errors)
    more = f" (and {count - len(errors)} more)" if count > len(errors) else ""
    return clipped(said, 600) + more


class ToolChat:
    """One conversation between the user, a model, and an MCP server's tools.

    Args:
        agent: The connected MCP server (its tools are offered, its ``call_tool`` makes the calls).
        model: Answers for the model.
        gate: Where each call waits for the user's yes when the profile's policy says so.
        profile: The connection's profile (its ``tool_approval`` policy; ``None``: the default policy).
        connection: The connection's name, as the user knows it (shown when a call asks first).
        limits: The bounds.
        system_prompt: The model's instructions (``{server}`` is the server's name).
    """

    def __init__(
        self,
        agent: RemoteAgent,
        model: ModelAsker,
        *,
        gate: ToolCallGate,
        profile: object = None,
        connection: str = "",
        limits: ToolChatLimits | None = None,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    ) -> None:
        self.agent, self.model, self.gate, self.profile = agent, model, gate, profile
        self.connection = connection or agent.name
        self.limits = limits or ToolChatLimits()
        self.system_prompt = system_prompt.replace("{server}", agent.name or "on this connection")
        self.messages: list[SamplingMessage] = []

    def _event(self, cls: type[AgentEvent], **fields: Any) -> Any:
        return cls(agent=self.model.name, protocol=PROTOCOL, **fields)

    async def send(self, text: str) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn: the user's ``text``, the model's answers and tool calls, until it answers in words.

        Yields:
            ``TextDelta``, ``ToolCallRequested``, ``ToolCallAnswered``, then ``Completed`` or ``Failed``.
        """
        self.messages.append(SamplingMessage("user", [ContentPart("text", text=text)]))
        tools = offered_tools(self.agent.tool_specs(), self.limits)
        by_name = {t.name: t for t in tools}
        said: list[str] = []
        for round_ in range(self.limits.max_rounds + 1):
            request = SamplingRequest(
                messages=self._window(),
                max_tokens=self.limits.max_tokens,
                system_prompt=self.system_prompt,
                tools=tools or None,
                tool_choice={"mode": "auto"} if tools else None,
                agent=self.agent.name,
            )
            answer: Completion | None = None
            try:
                async for item in self._ask(request):
                    if isinstance(item, str):
                        yield self._event(TextDelta, text=item)
                    else:
                        answer = item
            except WorkbenchError as exc:
                yield self._event(Failed, error=exc, message=exc.message)
                return
            assert answer is not None
            said.append(answer.text)
            self.messages.append(SamplingMessage("assistant", _assistant_parts(answer)))
            if not answer.tool_uses:
                final = "\n\n".join(t for t in said if t)
                yield self._event(Completed, result=AgentResult(final, parts=[ContentPart("text", text=final)]))
                return
            if round_ == self.limits.max_rounds:
                break
            results: list[ContentPart] = []
            for use in answer.tool_uses:
                data = use.data if isinstance(use.data, dict) else {}
                call_id, name = str(data.get("id")), str(data.get("name"))
                given = data.get("input")
                arguments: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
                yield self._event(ToolCallRequested, name=name, arguments=dict(arguments), call_id=call_id)
                reply, is_error = await self._run(by_name.get(name), name, arguments)
                yield self._event(ToolCallAnswered, name=name, call_id=call_id, text=reply, is_error=is_error)
                results.append(_result_part(call_id, reply, is_error))
            self.messages.append(SamplingMessage("user", results))
        error = ToolChatLimitError(
            f"The model asked for more than {self.limits.max_rounds} rounds of tool calls; the turn was stopped.",
            hint="ask again, more precisely, or start a new conversation",
        )
        # the last calls asked for are answered as not made, so the conversation stays well-formed
        unanswered = [u for u in self.messages[-1].content if u.type == "tool_use"]
        self.messages.append(
            SamplingMessage(
                "user", [_result_part(str((u.data or {}).get("id")), error.message, True) for u in unanswered]
            )
        )
        yield self._event(Failed, error=error, message=error.message)

    async def _ask(self, request: SamplingRequest) -> AsyncGenerator[str | Completion, None]:
        """The model's text pieces as they stream, then its whole answer; closing stops the answer."""
        pieces: asyncio.Queue[str | None] = asyncio.Queue()
        streamed = False
        task = asyncio.ensure_future(self.model.complete(request, pieces.put_nowait))
        task.add_done_callback(lambda _t: pieces.put_nowait(None))
        try:
            while (piece := await pieces.get()) is not None:
                streamed = True
                yield piece
            done = task.result()
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WorkbenchError):
                    await task
        if done.text and not streamed:  # an endpoint that does not stream: the whole text at once
            yield done.text
        yield done

    async def _run(self, spec: ToolSpec | None, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Make one call the model asked for; (the text given back, whether it is an error)."""
        if spec is None:
            offered = ", ".join(sorted(t.name for t in offered_tools(self.agent.tool_specs(), self.limits)))
            return f"Error: there is no tool {clipped(name, 80)!r}. The tools are: {clipped(offered, 2000)}.", True
        problem = argument_problem(spec, arguments)
        if problem is not None:
            return f"Error: the arguments do not fit the input schema of {name!r}: {problem}", True
        try:
            await self.gate.check_for(self.profile, spec, arguments, caller=self.model.name, connection=self.connection)
            result = await self.agent.call_tool(name, arguments)
        except WorkbenchError as exc:
            return f"Error: {clipped(exc.message, 2000)}", True
        text = result.text
        if not text and result.structured_content is not None:
            text = json.dumps(result.structured_content, ensure_ascii=False, default=str)
        if not text:
            kinds = sorted({p.type for p in result.content})
            text = f"(no text; content: {', '.join(kinds) or 'none'})"
        return clipped(text, self.limits.max_result_chars), result.is_error

    def _window(self) -> list[SamplingMessage]:
        """The conversation, the oldest exchanges dropped past ``max_messages`` (starting at a user's text)."""
        messages = self.messages
        if len(messages) <= self.limits.max_messages:
            return list(messages)
        start = len(messages) - self.limits.max_messages
        while start < len(messages) and not _is_user_text(messages[start]):
            start += 1
        return messages[start:] if start < len(messages) else messages[-1:]


def _is_user_text(message: SamplingMessage) -> bool:
    return message.role == "user" and not any(p.type == "tool_result" for p in message.content)


def _assistant_parts(answer: Completion) -> list[ContentPart]:
    parts = [ContentPart("text", text=answer.text)] if answer.text else []
    return parts + list(answer.tool_uses)


def _result_part(call_id: str, text: str, is_error: bool) -> ContentPart:
    data: dict[str, Any] = {"toolUseId": call_id, "content": [{"type": "text", "text": text}]}
    if is_error:
        data["isError"] = True
    return ContentPart("tool_result", data=data)
