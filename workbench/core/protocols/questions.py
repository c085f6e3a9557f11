"""What a peer asks the user, and the answers: elicitation, sampling and A2A input requests, with their handlers.

Part of the agent contract (``base.py`` re-exports every name): an agent calls the handler it was
given with one of these requests and sends the response back to the peer. Plain data; nothing
imports a protocol SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.content import ContentPart, SamplingMessage


@dataclass(frozen=True, slots=True)
class ElicitationRequest:
    """An MCP elicitation, protocol-neutral.

    Attributes:
        mode: ``form`` (fill ``requested_schema``) or ``url`` (visit ``url`` out of band).
        message: The server's explanation (untrusted text).
        requested_schema: Flat JSON Schema of the form (form mode).
        url: The URL to open (URL mode).
        elicitation_id: Id that a later completion notification refers to (URL mode).
        agent: Name of the agent that asked.
        raw: The protocol params as received.
    """

    mode: Literal["form", "url"]
    message: str
    requested_schema: dict[str, Any] | None = None
    url: str | None = None
    elicitation_id: str | None = None
    agent: str = ""
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"mode": self.mode, "message": self.message}
        if self.requested_schema is not None:
            out["requested_schema"] = self.requested_schema
        if self.url is not None:
            out["url"] = self.url
        if self.elicitation_id is not None:
            out["elicitation_id"] = self.elicitation_id
        return out


@dataclass(frozen=True, slots=True)
class ElicitationResponse:
    """The user's answer to an elicitation: accept (with ``content`` in form mode), decline or cancel."""

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    """An MCP ``sampling/createMessage`` request, protocol-neutral.

    ``metadata`` is the server's pass-through dict; the handoff router reads ``agent_uri`` from it.
    ``agent`` names the connection that asked (its profile's name) and ``connection_id`` is that
    connection's id (its wire records' id; ``""`` when the request did not come through a connection).
    """

    messages: list[SamplingMessage]
    max_tokens: int
    system_prompt: str | None = None
    temperature: float | None = None
    stop_sequences: list[str] | None = None
    metadata: dict[str, Any] | None = None
    model_preferences: dict[str, Any] | None = None
    include_context: str | None = None
    tools: list[ToolSpec] | None = None
    tool_choice: dict[str, Any] | None = None
    agent: str = ""
    connection_id: str = ""
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"messages": [m.to_dict() for m in self.messages], "max_tokens": self.max_tokens}
        for key in ("system_prompt", "temperature", "stop_sequences", "metadata", "model_preferences"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.include_context is not None:
            out["include_context"] = self.include_context
        if self.tools:
            out["tools"] = [t.to_dict() for t in self.tools]
        if self.tool_choice is not None:
            out["tool_choice"] = self.tool_choice
        return out


@dataclass(frozen=True, slots=True)
class SamplingUsage:
    """What answering one sampling request cost, as far as the responder knows.

    Attributes:
        input_tokens: Prompt tokens the endpoint counted (``None``: not reported).
        output_tokens: Completion tokens the endpoint counted (``None``: not reported).
        cost: Price in the endpoint's currency, from its per-million-token prices (``None``: no prices set).
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None


@dataclass(frozen=True, slots=True)
class SamplingResponse:
    """The reply to a sampling request (written by a person, a script, a model or another agent).

    ``text`` is the reply when ``content`` is empty. ``content`` holds the reply's parts when it has
    more than text: ``tool_use`` parts (``data`` = ``{"id", "name", "input"}``) answer a request that
    offered tools (SEP-1577), with ``stop_reason`` ``toolUse``.

    Attributes:
        text: The reply's text.
        model: The model (or ``workbench-human``, ``workbench-script``) that answered.
        stop_reason: ``endTurn``, ``stopSequence``, ``maxTokens`` or ``toolUse``.
        role: Always ``assistant``.
        content: The reply's parts, when it is more than ``text``.
        usage: Tokens and cost, when a model answered.
        responder: Who answered (``person``, ``script:FILE``, ``model:NAME``, an agent), for logs.
    """

    text: str
    model: str = "workbench-human"
    stop_reason: str = "endTurn"
    role: str = "assistant"
    content: tuple[ContentPart, ...] = ()
    usage: SamplingUsage | None = None
    responder: str = ""

    @property
    def tool_uses(self) -> list[ContentPart]:
        """The reply's ``tool_use`` parts."""
        return [p for p in self.content if p.type == "tool_use"]


@dataclass(frozen=True, slots=True)
class InputRequest:
    """An A2A agent's question while its task waits (``input-required`` / ``auth-required``).

    Attributes:
        kind: ``input`` or ``auth``.
        text: The question's text parts, joined.
        data: The first data part's value, if any (may hold a form description).
        schema: A JSON Schema the agent supplied for the answer, if any.
        parts: All parts of the agent's status message.
        task_id: The waiting task (continue with it).
        context_id: The task's context (continue with it).
        agent: Name of the agent that asked.
        raw: The protocol status message as received.
    """

    kind: Literal["input", "auth"]
    text: str
    task_id: str
    context_id: str
    data: Any = None
    schema: dict[str, Any] | None = None
    parts: list[ContentPart] = field(default_factory=list)
    agent: str = ""
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "task_id": self.task_id}
        out["context_id"] = self.context_id
        if self.data is not None:
            out["data"] = self.data
        if self.schema is not None:
            out["schema"] = self.schema
        return out


@dataclass(frozen=True, slots=True)
class InputResponse:
    """The answer to an ``InputRequest``: text, a JSON object, or cancel the task.

    ``text`` and ``data`` stay out of the repr: an auth-required answer is a credential.
    """

    text: str | None = field(default=None, repr=False)
    data: dict[str, Any] | None = field(default=None, repr=False)
    cancel: bool = False


ElicitationHandler = Callable[[ElicitationRequest], Awaitable[ElicitationResponse]]
"""Answers MCP elicitations (the GUI shows a dialog; the CLI uses ``--answer`` or the TTY)."""

SamplingHandler = Callable[[SamplingRequest], Awaitable[SamplingResponse]]
"""Answers MCP sampling requests (a person, or the handoff router forwarding to another agent)."""

InputHandler = Callable[[InputRequest], Awaitable[InputResponse]]
"""Answers A2A ``input-required`` / ``auth-required`` pauses within one ``stream_async`` call."""
