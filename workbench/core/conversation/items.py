"""The items of a conversation transcript, one class per kind: plain data a view draws and a script prints.

Every item records the turn it belongs to and, when the protocol has them, its task and context ids;
``to_dict()`` gives a JSON-ready copy. ``reducer.Conversation`` creates and updates them.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from workbench.core.field_labels import property_label
from workbench.core.protocols.base import AgentResult, ContentPart
from workbench.core.safe_text import safe_file_name
from workbench.core.sizes import base64_size


class ItemKind(StrEnum):
    """What a transcript item is."""

    USER = "user"
    AGENT = "agent"
    STATUS = "status"
    ARTIFACT = "artifact"
    PROGRESS = "progress"
    LOG = "log"
    TOOL_CALL = "tool_call"
    REQUEST = "request"
    ANSWER = "answer"
    COMPLETION = "completion"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class ItemChange:
    """One change to a conversation: the item at ``index`` was appended or updated in place."""

    index: int
    action: Literal["appended", "updated"]


@dataclass(slots=True, kw_only=True)
class Item:
    """Common fields of every transcript item.

    Attributes:
        turn: Index of the turn (``Conversation.turns``) the item belongs to.
        at: Wall-clock time the item was created (``time.time()``).
        task_id: The task the item belongs to, when the protocol has one.
        context_id: The conversation context on the peer, when the protocol has one.
    """

    kind: ItemKind = field(init=False)
    turn: int
    at: float = field(default_factory=time.time)
    task_id: str | None = None
    context_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        out: dict[str, Any] = {"kind": self.kind.value, "turn": self.turn, "at": self.at}
        if self.task_id is not None:
            out["task_id"] = self.task_id
        if self.context_id is not None:
            out["context_id"] = self.context_id
        return out


@dataclass(slots=True, kw_only=True)
class UserMessage(Item):
    """What the user sent to start a turn."""

    text: str

    def __post_init__(self) -> None:
        self.kind = ItemKind.USER

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "text": self.text}


@dataclass(slots=True, kw_only=True)
class AgentMessage(Item):
    """The agent's reply text, accumulated from ``TextDelta`` chunks in arrival order.

    Attributes:
        chunks: The chunks as they arrived.
        streaming: More chunks may still come (False once another item follows or the turn ends).
    """

    chunks: list[str] = field(default_factory=list)
    streaming: bool = True
    _text: str = field(default="", init=False, repr=False)
    _joined: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.kind = ItemKind.AGENT

    @property
    def text(self) -> str:
        """The whole text so far (joined lazily, once per read after new chunks)."""
        if self._joined != len(self.chunks):
            self._text += "".join(self.chunks[self._joined :])
            self._joined = len(self.chunks)
        return self._text

    @property
    def chunk_count(self) -> int:
        """How many chunks arrived."""
        return len(self.chunks)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "text": self.text, "chunks": self.chunk_count}


@dataclass(slots=True, kw_only=True)
class StatusLine(Item):
    """The task moved to ``state`` (``submitted``, ``working``, ``input_required`` ...)."""

    state: str
    message: str | None = None

    def __post_init__(self) -> None:
        self.kind = ItemKind.STATUS

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "state": self.state, "message": self.message}


@dataclass(slots=True, kw_only=True)
class Artifact(Item):
    """An artifact the agent produced, merged from its chunks.

    Attributes:
        artifact_id: The artifact's id (chunks with ``append`` grow the item with this id).
        name: Its display name, when the agent gave one.
        parts: All parts received, in order.
        chunks: How many chunks arrived.
        last_chunk: The agent said this artifact is complete.
    """

    artifact_id: str
    name: str | None = None
    parts: list[ContentPart] = field(default_factory=list)
    chunks: int = 0
    last_chunk: bool = False
    _text_len: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.kind = ItemKind.ARTIFACT

    @property
    def title(self) -> str:
        """The name to show (the id when it has no name)."""
        return self.name or self.artifact_id

    @property
    def text_length(self) -> int:
        """Characters of text held in text parts (kept up to date as chunks arrive)."""
        return self._text_len

    def add(self, parts: list[ContentPart], *, replace: bool) -> None:
        """Add one chunk's parts (``replace``: a non-append update starts the artifact over)."""
        if replace:
            self.parts = []
            self._text_len = 0
        self.parts.extend(parts)
        self._text_len += sum(len(p.text) for p in parts if p.text is not None)
        self.chunks += 1

    def text(self) -> str:
        """Every part as text: text parts as they are, data parts as indented JSON, others described."""
        return "".join(_part_text(p) for p in self.parts)

    def tail(self, max_chars: int) -> str:
        """The last ``max_chars`` characters of ``text()`` (cheap for long chunked artifacts)."""
        out: list[str] = []
        size = 0
        for part in reversed(self.parts):
            piece = _part_text(part)
            out.append(piece)
            size += len(piece)
            if size >= max_chars:
                break
        joined = "".join(reversed(out))
        return joined[-max_chars:] if len(joined) > max_chars else joined

    def export(self) -> tuple[bytes, str]:
        """The artifact as file content and a suggested file name.

        A single binary part is decoded from base64; a single data part becomes JSON; anything else
        is ``text()`` in UTF-8.
        """
        stem = _safe_file_stem(self.name or self.artifact_id)
        if len(self.parts) == 1:
            part = self.parts[0]
            if part.blob is not None:
                try:
                    payload = base64.b64decode(part.blob, validate=True)
                except (binascii.Error, ValueError):
                    payload = part.blob.encode()
                return payload, part.name or f"{stem}{_extension(part.mime_type)}"
            if part.type == "data":
                return json.dumps(part.data, indent=2, ensure_ascii=False).encode(), f"{stem}.json"
        markdown = any((p.mime_type or "").endswith("markdown") for p in self.parts)
        return self.text().encode(), f"{stem}{'.md' if markdown else '.txt'}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {
            **Item.to_dict(self),
            "artifact_id": self.artifact_id,
            "name": self.name,
            "parts": [p.to_dict() for p in self.parts],
            "chunks": self.chunks,
            "last_chunk": self.last_chunk,
        }


@dataclass(slots=True, kw_only=True)
class Progress(Item):
    """The latest progress of the turn (one item per turn, updated in place)."""

    progress: float
    total: float | None = None
    message: str | None = None
    updates: int = 1

    def __post_init__(self) -> None:
        self.kind = ItemKind.PROGRESS

    @property
    def fraction(self) -> float | None:
        """Progress between 0 and 1 when a total is known."""
        if not self.total:
            return None
        return max(0.0, min(1.0, self.progress / self.total))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "progress": self.progress, "total": self.total, "message": self.message}


@dataclass(slots=True, kw_only=True)
class LogLine(Item):
    """A log message the peer sent."""

    level: str
    logger: str | None = None
    data: Any = None

    def __post_init__(self) -> None:
        self.kind = ItemKind.LOG

    @property
    def text(self) -> str:
        """The log data as one line of text."""
        if isinstance(self.data, str):
            return self.data
        try:
            return json.dumps(self.data, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            return repr(self.data)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "level": self.level, "logger": self.logger, "data": self.data}


@dataclass(slots=True, kw_only=True)
class ToolCall(Item):
    """A tool call the agent asked for (or made), and its answer once it has one.

    Attributes:
        result: The answer's text (``None`` until answered).
        is_error: The call failed, was refused, or the tool reported an error.
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None
    result: str | None = None
    is_error: bool = False

    def __post_init__(self) -> None:
        self.kind = ItemKind.TOOL_CALL

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        out = {**Item.to_dict(self), "name": self.name, "arguments": self.arguments, "call_id": self.call_id}
        if self.result is not None:
            out |= {"result": self.result, "is_error": self.is_error}
        return out


def answer_tool_call(items: list[Any], call_id: str | None, name: str, text: str, is_error: bool) -> int | None:
    """Put an answer on its call: the latest unanswered ``ToolCall`` with ``call_id`` (or ``name`` without one).

    Returns:
        The index of the call answered, or ``None`` when no call waits for it.
    """
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if not isinstance(item, ToolCall) or item.result is not None:
            continue
        if item.call_id == call_id if call_id is not None else item.name == name:
            item.result, item.is_error = text, is_error
            return index
    return None


RequestKind = Literal["elicitation", "sampling", "input", "auth"]
RequestStatus = Literal["pending", "answered", "waiting"]


@dataclass(slots=True, kw_only=True)
class Question(Item):
    """The peer asked the user something (MCP elicitation / sampling, A2A input / auth required); ``Answer`` follows.

    Attributes:
        request_kind: ``elicitation``, ``sampling``, ``input`` or ``auth``.
        text: The question (untrusted text).
        schema: The JSON Schema of the expected answer, if the peer gave one.
        data: Extra structured data that came with the question.
        status: ``pending`` (a handler may be answering), ``answered`` (the stream went on, or the
            user answered in the chat) or ``waiting`` (the turn ended and the task waits).
        request: The protocol-neutral request object from the event.
    """

    request_kind: RequestKind
    text: str
    schema: dict[str, Any] | None = None
    data: Any = None
    status: RequestStatus = "pending"
    request: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.kind = ItemKind.REQUEST

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        out = {**Item.to_dict(self), "request_kind": self.request_kind, "text": self.text, "status": self.status}
        if self.schema is not None:
            out["schema"] = self.schema
        if self.data is not None:
            out["data"] = self.data
        return out


@dataclass(slots=True, kw_only=True)
class Answer(Item):
    """The user's answer to a waiting task (it starts the turn that continues the task)."""

    text: str
    data: Any = None

    def __post_init__(self) -> None:
        self.kind = ItemKind.ANSWER

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        out = {**Item.to_dict(self), "text": self.text}
        if self.data is not None:
            out["data"] = self.data
        return out


@dataclass(slots=True, kw_only=True)
class Completion(Item):
    """The turn finished (or paused): the final state and text.

    Attributes:
        state: ``completed``, ``failed``, ``canceled``, ``rejected``, ``input_required``,
            ``auth_required``.
        text: The result text.
        echoed: The turn already showed agent text, artifacts or a question, so ``text`` repeats
            what was shown.
        result: The agent's result (``None`` when the caller stopped the stream).
    """

    state: str
    text: str = ""
    echoed: bool = False
    result: AgentResult | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.kind = ItemKind.COMPLETION

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "state": self.state, "text": self.text}


@dataclass(slots=True, kw_only=True)
class Failure(Item):
    """The turn failed: the typed error's code, message and hint."""

    code: str
    message: str
    hint: str | None = None
    error: BaseException | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.kind = ItemKind.FAILURE

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "code": self.code, "message": self.message, "hint": self.hint}


AnyItem = (
    UserMessage
    | AgentMessage
    | StatusLine
    | Artifact
    | Progress
    | LogLine
    | ToolCall
    | Question
    | Answer
    | Completion
    | Failure
)


def answer_text(data: Any, schema: Any = None) -> str:
    """A structured answer as a person reads it: one ``field: value`` line per field of an object.

    Fields are named as the form that asked for them labelled them (``schema``: the question's JSON
    Schema, its titles), else by their humanised keys ("Departure date: 2026-12-01").
    """
    if isinstance(data, dict):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        lines = []
        for key, value in data.items():
            prop = properties.get(key) if isinstance(properties, dict) else None
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
            lines.append(f"{property_label(prop, str(key))}: {shown}")
        return "\n".join(lines)
    return json.dumps(data, ensure_ascii=False, default=str)


def _part_text(part: ContentPart) -> str:
    if part.text is not None:
        return part.text
    if part.type == "data":
        return json.dumps(part.data, indent=2, ensure_ascii=False, default=str) + "\n"
    label = part.name or part.uri or part.type
    size = f", {base64_size(part.blob):,} bytes" if part.blob else ""
    return f"[{part.type}: {label}{' (' + part.mime_type + ')' if part.mime_type else ''}{size}]\n"


def _safe_file_stem(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip("-.")
    return safe_file_name(cleaned[:80], fallback="artifact")


def _extension(mime_type: str | None) -> str:
    known = {
        "application/json": ".json",
        "application/pdf": ".pdf",
        "image/png": ".png",
        "image/jpeg": ".jpg",
        "image/gif": ".gif",
        "audio/wav": ".wav",
        "audio/mpeg": ".mp3",
        "text/plain": ".txt",
        "text/markdown": ".md",
    }
    return known.get((mime_type or "").split(";")[0].strip().lower(), ".bin")
