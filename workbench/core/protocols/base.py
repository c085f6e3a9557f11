"""The protocol-neutral data of the agent contract: content, capabilities, events, results (handlers: ``questions``).

The contract itself (``RemoteAgent`` and its facets) is in ``contract.py``. Everything here is plain data; nothing
imports a protocol SDK. Every event and result keeps the raw protocol payload in ``raw`` so an
inspector can show what really arrived.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal

from workbench.core.protocols import content as _content
from workbench.core.protocols import questions as _questions

CAPABILITIES_SCHEMA_VERSION = 1

# What a peer asks the user, and the handlers that answer, live in questions.py; importable from here too.
ElicitationHandler = _questions.ElicitationHandler
ElicitationRequest = _questions.ElicitationRequest
ElicitationResponse = _questions.ElicitationResponse
InputHandler = _questions.InputHandler
InputRequest = _questions.InputRequest
InputResponse = _questions.InputResponse
SamplingHandler = _questions.SamplingHandler
SamplingRequest = _questions.SamplingRequest
SamplingResponse = _questions.SamplingResponse
SamplingUsage = _questions.SamplingUsage


# --------------------------------------------------------------------------- content

# ContentPart, parts_text and SamplingMessage live in content.py (questions.py and catalog.py need them too).
ContentPart = _content.ContentPart
parts_text = _content.parts_text
SamplingMessage = _content.SamplingMessage


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The full result of a tool call.

    Attributes:
        content: Content blocks, in order.
        structured_content: Structured output, if the tool returned any.
        is_error: The tool reported a failure (a normal result, not an exception).
        schema_errors: Problems found checking ``structured_content`` against the tool's
            ``outputSchema`` (empty when it conforms or no schema was declared). Shown, never raised.
        meta: The result's ``_meta``, if any.
        raw: The protocol result as received.
    """

    content: list[ContentPart]
    structured_content: Any = None
    is_error: bool = False
    schema_errors: list[str] = field(default_factory=list)
    meta: dict[str, Any] | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        """The concatenated text content."""
        return parts_text(self.content)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {
            "content": [p.to_dict() for p in self.content],
            "structured_content": self.structured_content,
            "is_error": self.is_error,
        }
        if self.schema_errors:
            out["schema_errors"] = self.schema_errors
        if self.meta:
            out["meta"] = self.meta
        return out


# --------------------------------------------------------------------------- capabilities


@dataclass(frozen=True, slots=True)
class AgentCapabilities:
    """What a connected agent offers, in one versioned, protocol-neutral shape.

    New fields are only ever added (with defaults); ``schema_version`` changes only if a field's
    meaning changes. ``extra`` holds protocol-specific facts that have no neutral name yet;
    ``raw`` is the protocol object (MCP ``ServerCapabilities`` / A2A ``AgentCard``).
    """

    protocol: Literal["mcp", "a2a"]
    protocol_version: str
    transport: str
    name: str | None = None
    version: str | None = None
    description: str | None = None
    instructions: str | None = None
    era: str | None = None
    supports_streaming: bool = False
    supports_tasks: bool = False
    supports_elicitation: bool = False
    supports_sampling: bool = False
    supports_tools: bool = False
    supports_resources: bool = False
    supports_resource_subscribe: bool = False
    supports_prompts: bool = False
    supports_completions: bool = False
    supports_logging: bool = False
    supports_list_changed: bool = False
    supports_push_notifications: bool = False
    supports_agent_invocation: bool = False
    agent_entry_point: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    raw: Any = field(default=None, compare=False, repr=False)
    schema_version: int = CAPABILITIES_SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``raw`` is left out; protocol adapters expose it separately)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name == "raw":
                continue
            value = getattr(self, name)
            out[name] = dict(value) if isinstance(value, Mapping) else value
        return out


# --------------------------------------------------------------------------- events


class AgentEventKind(StrEnum):
    """Kinds of ``AgentEvent``; the same for both protocols."""

    TEXT_DELTA = "text_delta"
    STATUS = "status"
    PROGRESS = "progress"
    LOG = "log"
    ARTIFACT = "artifact"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    ELICITATION_REQUESTED = "elicitation_requested"
    SAMPLING_REQUESTED = "sampling_requested"
    INPUT_REQUIRED = "input_required"
    AUTH_REQUIRED = "auth_required"
    COMPLETED = "completed"
    FAILED = "failed"


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentEvent:
    """Base of every event ``stream_async`` yields.

    Attributes:
        agent: Name of the agent that produced it.
        protocol: ``mcp`` or ``a2a``.
        task_id: A2A task id or MCP request/task id the event belongs to, if any.
        context_id: A2A context id, if any.
        at: Wall-clock time of arrival.
        raw: The protocol payload as received (a pydantic or protobuf object, or a dict).
    """

    kind: ClassVar[AgentEventKind]
    agent: str = ""
    protocol: str = ""
    task_id: str | None = None
    context_id: str | None = None
    at: float = field(default_factory=time.time)
    raw: Any = field(default=None, compare=False, repr=False)

    def fields(self) -> dict[str, Any]:
        """Return the event's own fields (the subclass part) as JSON-ready values."""
        base = {"agent", "protocol", "task_id", "context_id", "at", "raw"}
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name in base:
                continue
            out[name] = _jsonable(getattr(self, name))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict: kind, common fields, then the subclass fields."""
        out: dict[str, Any] = {"kind": self.kind.value, "agent": self.agent, "protocol": self.protocol}
        if self.task_id is not None:
            out["task_id"] = self.task_id
        if self.context_id is not None:
            out["context_id"] = self.context_id
        out["at"] = self.at
        out.update(self.fields())
        return out


def _jsonable(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class TextDelta(AgentEvent):
    """A piece of the agent's reply text, in arrival order."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.TEXT_DELTA
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusChanged(AgentEvent):
    """The task changed state (A2A task status; MCP task status)."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.STATUS
    state: str
    message: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressReported(AgentEvent):
    """Progress of a long-running call."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.PROGRESS
    progress: float
    total: float | None = None
    message: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LogMessage(AgentEvent):
    """A log line the peer sent (MCP ``notifications/message``)."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.LOG
    level: str
    logger: str | None = None
    data: Any = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ArtifactUpdated(AgentEvent):
    """An artifact arrived or grew (A2A artifact chunks: ``append`` / ``last_chunk``)."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.ARTIFACT
    artifact_id: str
    name: str | None = None
    parts: list[ContentPart] = field(default_factory=list)
    append: bool = False
    last_chunk: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallRequested(AgentEvent):
    """The agent asked for a tool call (A2A ``tool_calls`` data part) or one was made for it."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.TOOL_CALL
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallAnswered(AgentEvent):
    """A tool call made for the agent (a model's, in a chat the workbench drives) got its answer.

    Attributes:
        name: The tool called.
        call_id: The call's id, as in its ``ToolCallRequested``.
        text: The result's text (bounded), or why the call failed or was refused.
        is_error: The call failed, was refused, or the tool reported an error.
    """

    kind: ClassVar[AgentEventKind] = AgentEventKind.TOOL_RESULT
    name: str
    call_id: str | None = None
    text: str = ""
    is_error: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ElicitationRequested(AgentEvent):
    """An MCP server asked the user for input; ``request`` is what the handler receives."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.ELICITATION_REQUESTED
    request: ElicitationRequest


@dataclass(frozen=True, slots=True, kw_only=True)
class SamplingRequested(AgentEvent):
    """An MCP server asked the client for an LLM completion."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.SAMPLING_REQUESTED
    request: SamplingRequest


@dataclass(frozen=True, slots=True, kw_only=True)
class InputRequired(AgentEvent):
    """An A2A task paused in ``input-required``: the agent's question, text and data."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.INPUT_REQUIRED
    request: InputRequest


@dataclass(frozen=True, slots=True, kw_only=True)
class AuthRequired(AgentEvent):
    """An A2A task paused in ``auth-required`` (or an HTTP 401/403 asked for credentials)."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.AUTH_REQUIRED
    request: InputRequest


@dataclass(frozen=True, slots=True, kw_only=True)
class Completed(AgentEvent):
    """The call or task finished; ``result`` is what ``invoke_async`` returns."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.COMPLETED
    result: AgentResult


@dataclass(frozen=True, slots=True, kw_only=True)
class Failed(AgentEvent):
    """The call or task failed; ``error`` is the typed error (its dict form in JSON)."""

    kind: ClassVar[AgentEventKind] = AgentEventKind.FAILED
    error: Exception
    message: str = ""

    def fields(self) -> dict[str, Any]:
        """Return the failure as JSON-ready fields."""
        to_dict = getattr(self.error, "to_dict", None)
        err = to_dict() if callable(to_dict) else {"type": type(self.error).__name__, "message": str(self.error)}
        return {"error": err, "message": self.message or str(self.error)}


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class AgentResult:
    """What ``invoke_async`` / ``__call__`` return.

    Attributes:
        text: The reply text (all text parts joined).
        parts: The reply content, in order (message parts and artifacts' parts).
        state: ``completed``, ``failed``, ``canceled``, ``rejected``, ``input_required`` or
            ``auth_required`` (a paused task: continue it with ``task_id`` and ``context_id``).
        structured: Structured output (MCP ``structuredContent``, or the A2A data part), if any.
        is_error: The peer reported a failure in a normal result.
        task_id: A2A task id, when the agent made a task.
        context_id: A2A context id (pass it back to continue the conversation).
        artifacts: A2A artifacts by id, each a list of parts (merged from streamed chunks).
        tool_result: The full tool result when the reply came from a tool call (MCP).
        raw: The final protocol object (MCP ``CallToolResult``, A2A ``Task`` or ``Message``).
    """

    text: str
    parts: list[ContentPart] = field(default_factory=list)
    state: str = "completed"
    structured: Any = None
    is_error: bool = False
    task_id: str | None = None
    context_id: str | None = None
    artifacts: dict[str, list[ContentPart]] = field(default_factory=dict)
    tool_result: ToolResult | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {
            "text": self.text,
            "state": self.state,
            "is_error": self.is_error,
            "parts": [p.to_dict() for p in self.parts],
        }
        if self.structured is not None:
            out["structured"] = self.structured
        if self.task_id is not None:
            out["task_id"] = self.task_id
        if self.context_id is not None:
            out["context_id"] = self.context_id
        if self.artifacts:
            out["artifacts"] = {k: [p.to_dict() for p in v] for k, v in self.artifacts.items()}
        if self.tool_result is not None:
            out["tool_result"] = self.tool_result.to_dict()
        return out
