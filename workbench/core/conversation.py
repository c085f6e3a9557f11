"""Conversation: one protocol-neutral transcript of a chat with an MCP server or an A2A agent.

A ``Conversation`` is an ordered list of items built from what the user sent and the ``AgentEvent``
stream the agent answered with. It is plain data (no Qt, no I/O), so the chat pane renders it, a
script can print it, and the handoff feature reads it (``messages()``, ``to_dicts()``).

How items arise::

    user sends text            add_user_message()   → UserMessage      (starts a Turn)
    user answers a paused task add_answer()         → Answer           (starts a Turn on that task)
    a handler answered a question record_answer()   → Answer           (in the running turn)
    TextDelta                  apply()              → AgentMessage     (chunks appended; a new one
                                                                         starts after any other item)
    StatusChanged              apply()              → StatusLine       (not for a final state: the
                                                                         Completion/Failure says it)
    ArtifactUpdated            apply()              → Artifact         (``append`` chunks grow the
                                                                         same item, by artifact id)
    ProgressReported           apply()              → Progress         (one per turn, updated)
    LogMessage                 apply()              → LogLine
    ToolCallRequested          apply()              → ToolCall
    Elicitation/Sampling/InputRequired/AuthRequired → Question     (``status`` pending →
                                                                         answered / waiting)
    Completed                  apply()              → Completion       (ends the turn)
    Failed                     apply()              → Failure          (ends the turn)
    the caller stopped it      end_turn()           → Completion       (state ``canceled``)
    an error before any event  fail()               → Failure

Every mutating call returns the ``ItemChange``s it caused (an index appended or updated) so a view
can redraw only what changed. A turn keeps the task and context ids its events carried; a turn that
ended ``input_required`` / ``auth_required`` leaves ``waiting_task_id`` set, and the next
``add_answer`` continues that task.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from workbench.core.field_labels import property_label
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    ContentPart,
    ElicitationRequested,
    Failed,
    InputRequired,
    LogMessage,
    ProgressReported,
    SamplingRequested,
    StatusChanged,
    TextDelta,
    ToolCallRequested,
)
from workbench.core.safe_text import safe_file_name
from workbench.core.sizes import base64_size

WAITING_STATES = frozenset({"input_required", "auth_required"})
"""Completion states that mean the task is paused, waiting for the user."""
FINAL_STATES = frozenset({"completed", "failed", "canceled", "rejected"})
"""Task states that end it: the turn's Completion (or Failure) line says them, no status line does."""


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


# --------------------------------------------------------------------------- items


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
    """A tool call the agent asked for (or made)."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None

    def __post_init__(self) -> None:
        self.kind = ItemKind.TOOL_CALL

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the item."""
        return {**Item.to_dict(self), "name": self.name, "arguments": self.arguments, "call_id": self.call_id}


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


@dataclass(slots=True)
class Turn:
    """One exchange: what the user sent and everything the agent answered until it ended or paused.

    Attributes:
        index: Position in ``Conversation.turns``.
        prompt: The text the user sent.
        continues_task: The waiting task this turn answers, if any.
        task_id: The task the agent's events named (the latest one).
        context_id: The context the agent's events named.
        state: ``running`` until the turn ends, then the final state.
        started_at: Wall-clock start.
        ended_at: Wall-clock end, once ended.
        first_item: Index of the turn's first item.
        reported_state: The final state a status change announced (shown by the turn's last line).
    """

    index: int
    prompt: str
    continues_task: str | None = None
    task_id: str | None = None
    context_id: str | None = None
    state: str = "running"
    started_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    first_item: int = 0
    reported_state: str | None = None

    @property
    def running(self) -> bool:
        """Whether the turn has not ended."""
        return self.state == "running"


# --------------------------------------------------------------------------- the conversation


class Conversation:
    """An ordered transcript of user messages and agent events, for either protocol.

    Args:
        title: A label for the conversation (the connection's name, say).
    """

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.items: list[AnyItem] = []
        self.turns: list[Turn] = []
        self._artifacts: dict[tuple[int, str], int] = {}
        self._progress: dict[int, int] = {}
        self._open_message: int | None = None
        self._pending_requests: list[int] = []

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[AnyItem]:
        return iter(self.items)

    def __getitem__(self, index: int) -> AnyItem:
        return self.items[index]

    @property
    def current_turn(self) -> Turn | None:
        """The last turn, if any."""
        return self.turns[-1] if self.turns else None

    @property
    def running(self) -> bool:
        """Whether the last turn is still receiving events."""
        turn = self.current_turn
        return turn is not None and turn.running

    @property
    def waiting_task_id(self) -> str | None:
        """The task paused in ``input_required`` / ``auth_required`` at the end of the last turn."""
        turn = self.current_turn
        if turn is None or turn.state not in WAITING_STATES:
            return None
        return turn.task_id

    @property
    def waiting_request(self) -> Question | None:
        """The question the waiting task asked (the last request of the last turn), if any."""
        if self.waiting_task_id is None:
            return None
        for item in reversed(self.items):
            if isinstance(item, Question):
                return item
            if isinstance(item, UserMessage | Answer):
                break
        return None

    def items_of_kind(self, kind: ItemKind) -> list[AnyItem]:
        """Every item of ``kind``, in order."""
        return [item for item in self.items if item.kind is kind]

    def messages(self) -> list[tuple[str, str]]:
        """The conversation as ``(role, text)`` pairs, for handing it to another agent.

        ``user`` for messages and answers, ``agent`` for agent text; everything else is left out.
        """
        out: list[tuple[str, str]] = []
        for item in self.items:
            if isinstance(item, UserMessage | Answer):
                out.append(("user", item.text))
            elif isinstance(item, AgentMessage) and item.text:
                out.append(("agent", item.text))
        return out

    def to_dicts(self) -> list[dict[str, Any]]:
        """Every item as a JSON-ready dict."""
        return [item.to_dict() for item in self.items]

    # ------------------------------------------------------------------ user side

    def add_user_message(self, text: str) -> list[ItemChange]:
        """Start a turn with the user's ``text``.

        Raises:
            ValueError: The previous turn is still running.
        """
        turn = self._start_turn(text, continues_task=None)
        return [*self._close_message(), self._append(UserMessage(text=text, turn=turn.index))]

    def add_answer(self, text: str, *, data: Any = None) -> list[ItemChange]:
        """Start a turn that answers the waiting task (``waiting_task_id``) with ``text`` / ``data``.

        Raises:
            ValueError: No task is waiting, or the previous turn is still running.
        """
        task_id = self.waiting_task_id
        if task_id is None:
            raise ValueError("no task is waiting for an answer")
        previous = self.current_turn
        request = self.waiting_request
        turn = self._start_turn(text, continues_task=task_id)
        turn.task_id = task_id
        turn.context_id = previous.context_id if previous else None
        changes: list[ItemChange] = []
        if request is not None and request.status != "answered":
            request.status = "answered"
            changes.append(ItemChange(self.items.index(request), "updated"))
        answer = Answer(text=text, data=data, turn=turn.index, task_id=task_id, context_id=turn.context_id)
        return [*changes, self._append(answer)]

    def record_answer(self, request: Any, text: str, *, data: Any = None) -> list[ItemChange]:
        """Show what the user answered to a question a handler asked while the turn runs (a dialog).

        Args:
            request: The request object of the question (``Question.request``: the very object
                the event carried and the handler was given).
            text: The answer as the user reads it.
            data: The structured answer, if any.

        Returns:
            The changes; none when no question of this conversation carries ``request``.
        """
        for index in range(len(self.items) - 1, -1, -1):
            item = self.items[index]
            if isinstance(item, Question) and item.request is request:
                break
        else:
            return []
        changes = self._close_message()
        if item.status != "answered":
            item.status = "answered"
            changes.append(ItemChange(index, "updated"))
        if index in self._pending_requests:
            self._pending_requests.remove(index)
        turn = self.current_turn
        turn_index = turn.index if turn is not None else item.turn
        answer = Answer(text=text, data=data, turn=turn_index, task_id=item.task_id, context_id=item.context_id)
        changes.append(self._append(answer))
        return changes

    def end_turn(self, state: str = "canceled", text: str = "") -> list[ItemChange]:
        """End the running turn without a final event (the caller stopped reading, e.g. cancel).

        A turn whose task already announced a final state ends in that state, not ``incomplete``.
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            return []
        if state == "incomplete" and turn.reported_state is not None:
            state = turn.reported_state
        changes = self._close_message()
        item = Completion(state=state, text=text, turn=turn.index, task_id=turn.task_id, context_id=turn.context_id)
        changes.append(self._append(item))
        changes += self._finish(turn, state)
        return changes

    def fail(self, error: BaseException, *, code: str | None = None) -> list[ItemChange]:
        """End the running turn with ``error`` (raised before or instead of a ``Failed`` event).

        Starts a turn first when none is running, so the failure still shows in the transcript.
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            turn = self._start_turn("", continues_task=None)
        changes = self._close_message()
        changes.append(self._append(_failure(error, code, "", turn)))
        changes += self._finish(turn, "failed")
        return changes

    # ------------------------------------------------------------------ agent side

    def apply(self, event: AgentEvent) -> list[ItemChange]:
        """Add what ``event`` says to the transcript.

        Events arriving with no running turn (a stray notification) open a turn with an empty prompt.

        Returns:
            The changes, in order (indexes into ``items``).
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            turn = self._start_turn("", continues_task=None)
        if event.task_id is not None:
            turn.task_id = event.task_id
        if event.context_id is not None:
            turn.context_id = event.context_id
        if isinstance(event, TextDelta):
            return self._text(event, turn)
        final = isinstance(event, Completed | Failed)
        changes = [] if final else self._settle_requests()
        if isinstance(event, ArtifactUpdated):
            return changes + self._artifact(event, turn)
        if isinstance(event, ProgressReported):
            return changes + self._progress_update(event, turn)
        changes += self._close_message()
        common: dict[str, Any] = {"turn": turn.index, "task_id": event.task_id, "context_id": event.context_id}
        if isinstance(event, StatusChanged):
            if event.state in FINAL_STATES:
                turn.reported_state = event.state  # the Completion / Failure line that follows says it
            else:
                changes.append(self._append(StatusLine(state=event.state, message=event.message, **common)))
        elif isinstance(event, LogMessage):
            changes.append(self._append(LogLine(level=event.level, logger=event.logger, data=event.data, **common)))
        elif isinstance(event, ToolCallRequested):
            tool = ToolCall(name=event.name, arguments=dict(event.arguments), call_id=event.call_id, **common)
            changes.append(self._append(tool))
        elif isinstance(event, ElicitationRequested | SamplingRequested | InputRequired | AuthRequired):
            changes.append(self._append(_request_item(event, common)))
            self._pending_requests.append(len(self.items) - 1)
        elif isinstance(event, Completed):
            changes += self._completed(event, turn, common)
        elif isinstance(event, Failed):
            code = getattr(event.error, "code", None)
            changes.append(self._append(_failure(event.error, code, event.message, turn, common)))
            changes += self._finish(turn, "failed")
        return changes

    # ------------------------------------------------------------------ internals

    def _start_turn(self, prompt: str, *, continues_task: str | None) -> Turn:
        current = self.current_turn
        if current is not None and current.running:
            raise ValueError("the previous turn is still running")
        turn = Turn(index=len(self.turns), prompt=prompt, continues_task=continues_task, first_item=len(self.items))
        self.turns.append(turn)
        return turn

    def _append(self, item: AnyItem) -> ItemChange:
        self.items.append(item)
        return ItemChange(len(self.items) - 1, "appended")

    def _close_message(self) -> list[ItemChange]:
        """The streaming agent message (if any) ends: the next text starts a new one."""
        index = self._open_message
        if index is None:
            return []
        self._open_message = None
        message = self.items[index]
        assert isinstance(message, AgentMessage)
        message.streaming = False
        return [ItemChange(index, "updated")]

    def _settle_requests(self) -> list[ItemChange]:
        """The stream went on after a question: a handler answered it."""
        changes = []
        for index in self._pending_requests:
            item = self.items[index]
            assert isinstance(item, Question)
            if item.status == "pending":
                item.status = "answered"
                changes.append(ItemChange(index, "updated"))
        self._pending_requests.clear()
        return changes

    def _text(self, event: TextDelta, turn: Turn) -> list[ItemChange]:
        index = self._open_message
        if index is not None and index == len(self.items) - 1:
            message = self.items[index]
            assert isinstance(message, AgentMessage)
            message.chunks.append(event.text)
            return [ItemChange(index, "updated")]
        changes = self._settle_requests() + self._close_message()
        message = AgentMessage(turn=turn.index, task_id=event.task_id, context_id=event.context_id)
        message.chunks.append(event.text)
        changes.append(self._append(message))
        self._open_message = len(self.items) - 1
        return changes

    def _artifact(self, event: ArtifactUpdated, turn: Turn) -> list[ItemChange]:
        key = (turn.index, event.artifact_id)
        index = self._artifacts.get(key)
        if index is None:
            changes = self._close_message()
            item = Artifact(
                artifact_id=event.artifact_id,
                name=event.name,
                turn=turn.index,
                task_id=event.task_id,
                context_id=event.context_id,
            )
            item.add(list(event.parts), replace=False)
            item.last_chunk = event.last_chunk
            changes.append(self._append(item))
            self._artifacts[key] = len(self.items) - 1
            return changes
        artifact = self.items[index]
        assert isinstance(artifact, Artifact)
        artifact.add(list(event.parts), replace=not event.append)
        if event.name:
            artifact.name = event.name
        artifact.last_chunk = event.last_chunk
        return [ItemChange(index, "updated")]

    def _progress_update(self, event: ProgressReported, turn: Turn) -> list[ItemChange]:
        index = self._progress.get(turn.index)
        if index is None:
            changes = self._close_message()
            item = Progress(
                progress=event.progress,
                total=event.total,
                message=event.message,
                turn=turn.index,
                task_id=event.task_id,
                context_id=event.context_id,
            )
            changes.append(self._append(item))
            self._progress[turn.index] = len(self.items) - 1
            return changes
        progress = self.items[index]
        assert isinstance(progress, Progress)
        progress.progress = event.progress
        progress.total = event.total if event.total is not None else progress.total
        progress.message = event.message if event.message is not None else progress.message
        progress.updates += 1
        return [ItemChange(index, "updated")]

    def _completed(self, event: Completed, turn: Turn, common: dict[str, Any]) -> list[ItemChange]:
        result = event.result
        if result.task_id is not None:
            turn.task_id = result.task_id
        if result.context_id is not None:
            turn.context_id = result.context_id
        shown = (AgentMessage, Artifact, Question)  # the result text repeats what these showed
        echoed = any(isinstance(item, shown) for item in self.items[turn.first_item :])
        item = Completion(state=result.state, text=result.text, echoed=echoed, result=result, **common)
        changes = [self._append(item)]
        return changes + self._finish(turn, result.state)

    def _finish(self, turn: Turn, state: str) -> list[ItemChange]:
        changes = self._close_message()
        turn.state = state
        turn.ended_at = time.time()
        for (turn_index, _), index in self._artifacts.items():
            artifact = self.items[index]
            if turn_index == turn.index and isinstance(artifact, Artifact) and not artifact.last_chunk:
                changes.append(ItemChange(index, "updated"))  # no longer streaming, though never marked last
        for index in self._pending_requests:
            item = self.items[index]
            assert isinstance(item, Question)
            if item.status == "pending":
                item.status = "waiting" if state in WAITING_STATES else "answered"
                changes.append(ItemChange(index, "updated"))
        self._pending_requests.clear()
        return changes


# --------------------------------------------------------------------------- helpers


def _request_item(
    event: ElicitationRequested | SamplingRequested | InputRequired | AuthRequired, common: dict[str, Any]
) -> Question:
    if isinstance(event, ElicitationRequested):
        req = event.request
        text = req.message if req.mode == "form" else f"{req.message}\n{req.url or ''}".strip()
        return Question(request_kind="elicitation", text=text, schema=req.requested_schema, request=req, **common)
    if isinstance(event, SamplingRequested):
        sampling = event.request
        lines = [f"{m.role}: " + "".join(p.text or "" for p in m.content) for m in sampling.messages]
        return Question(request_kind="sampling", text="\n".join(lines), request=sampling, **common)
    kind: RequestKind = "auth" if isinstance(event, AuthRequired) else "input"
    asked = event.request
    return Question(request_kind=kind, text=asked.text, schema=asked.schema, data=asked.data, request=asked, **common)


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


def _failure(
    error: BaseException, code: str | None, message: str, turn: Turn, common: dict[str, Any] | None = None
) -> Failure:
    common = common or {"turn": turn.index, "task_id": turn.task_id, "context_id": turn.context_id}
    text = message or getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", None)
    return Failure(
        code=code or getattr(error, "code", None) or "internal",
        message=str(text),
        hint=hint if isinstance(hint, str) else None,
        error=error,
        **common,
    )


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
