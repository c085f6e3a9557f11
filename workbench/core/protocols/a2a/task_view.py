"""What the client knows of one A2A task: ``TaskView`` (status history, messages, artifacts) and its parts.

``TaskReducer`` (``reducer.py``) builds and updates these from stream events and task snapshots. A
task's status history and messages are ``CappedHistory`` sequences: the first and the latest are
kept, those in between counted (``status_dropped``, ``messages_dropped``), so an agent that sends
a status a million times costs a bounded amount of memory.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from a2a.types import Artifact, Message, Part, Task, TaskStatus

from workbench.core.protocols.a2a.capped import CappedHistory
from workbench.core.protocols.a2a.convert import (
    INTERRUPTED_STATES,
    TERMINAL_STATES,
    content_to_part,
    message_text,
    message_to_dict,
    state_name,
)
from workbench.core.protocols.base import ContentPart


def parse_timestamp(text: str | None) -> float | None:
    """An agent's RFC 3339 timestamp as epoch seconds (``None`` if missing or unreadable)."""
    if not text:
        return None
    try:
        stamp = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=dt.UTC)
    return stamp.timestamp()


@dataclass(slots=True)
class StatusEntry:
    """One status the task went through (as seen by this client).

    Attributes:
        state: Neutral state name.
        timestamp: The agent's timestamp (RFC 3339), if it gave one.
        message: The status message (proto), if any.
    """

    state: str
    timestamp: str | None = None
    message: Message | None = None

    @property
    def text(self) -> str | None:
        """The status message's text, if any (read from the message: the text is not held twice)."""
        return (message_text(self.message) or None) if self.message is not None else None

    @property
    def at(self) -> float | None:
        """The agent's timestamp as epoch seconds (``None`` when it gave none)."""
        return parse_timestamp(self.timestamp)

    @property
    def key(self) -> tuple[str, str | None, str | None]:
        """What makes two reports the same status: state, agent time and status message id."""
        return (self.state, self.timestamp, self.message.message_id if self.message is not None else None)

    @property
    def size(self) -> int:
        """The entry's size in bytes (its message's encoded size), for the history's byte bound."""
        return self.message.ByteSize() if self.message is not None else 0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"state": self.state}
        if self.text:
            out["text"] = self.text
        if self.timestamp:
            out["timestamp"] = self.timestamp
        return out


@dataclass(slots=True)
class ArtifactView:
    """An artifact as merged so far.

    Chunks are kept as the parts that arrived (no copying per chunk); ``artifact`` builds the
    merged proto when asked.

    Attributes:
        artifact_id: The artifact's id.
        name: Its name, if given.
        description: Its description, if given.
        chunks: How many updates built it.
        complete: ``last_chunk`` was seen (or the task ended).
        content: The merged parts, converted (the same objects the events carried).
    """

    artifact_id: str
    name: str | None = None
    description: str | None = None
    chunks: int = 0
    complete: bool = False
    content: list[ContentPart] = field(default_factory=list)
    _base: Artifact = field(default_factory=Artifact, repr=False)
    _cache: Artifact | None = field(default=None, repr=False)

    @classmethod
    def of(cls, artifact: Artifact, content: list[ContentPart]) -> ArtifactView:
        """A view starting from ``artifact`` (whose parts are ``content`` converted)."""
        base = Artifact()
        base.CopyFrom(artifact)
        del base.parts[:]
        return cls(
            artifact.artifact_id,
            artifact.name or None,
            artifact.description or None,
            content=list(content),
            _base=base,
        )

    def fill(self, target: Artifact) -> None:
        """Write the merged artifact into ``target`` (an empty ``Artifact``, e.g. ``task.artifacts.add()``)."""
        target.CopyFrom(self._base)
        add, append = target.parts.add, target.parts.append
        for c in self.content:
            if isinstance(c.raw, Part):
                append(c.raw)
            elif c.type == "text" and c.text is not None:
                add(text=c.text, media_type=c.mime_type or "", filename=c.name or "")
            else:
                append(content_to_part(c))

    @property
    def artifact(self) -> Artifact:
        """The merged proto ``Artifact`` (built when first asked for after a change)."""
        if self._cache is None:
            merged = Artifact()
            self.fill(merged)
            self._cache = merged
        return self._cache

    @property
    def parts(self) -> list[ContentPart]:
        """The merged parts, converted."""
        return list(self.content)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {
            "artifact_id": self.artifact_id,
            "chunks": self.chunks,
            "complete": self.complete,
            "parts": [p.to_dict() for p in self.content],
        }
        if self.name:
            out["name"] = self.name
        if self.description:
            out["description"] = self.description
        return out


@dataclass(slots=True)
class TaskView:
    """One task as merged by this client.

    Attributes:
        task_id: The task id.
        context_id: The task's context id.
        status_history: The states the task went through, in the order it went through them
            (``reducer.TaskReducer`` places a late report by time, see there; the same report seen
            twice is kept once; consecutive entries of one state are kept when their messages
            differ); the first and the latest are kept, ``status_history.dropped`` counts the ones
            in between.
        messages: User and agent messages in order (de-duplicated by message id); the first and
            the latest are kept, ``messages.dropped`` counts the ones in between.
        artifacts: Artifacts by id, in order of first appearance.
        metadata: The task's metadata (last snapshot).
        status: The current proto status.
    """

    task_id: str
    context_id: str
    status_history: CappedHistory[StatusEntry] = field(default_factory=lambda: CappedHistory(size=_entry_size))
    messages: CappedHistory[Message] = field(default_factory=lambda: CappedHistory(size=_message_size))
    artifacts: dict[str, ArtifactView] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    status: TaskStatus = field(default_factory=TaskStatus)
    _message_ids: dict[str, None] = field(default_factory=dict, repr=False)
    _status_keys: dict[tuple[str, str | None, str | None], None] = field(default_factory=dict, repr=False)
    latest_status_at: float | None = field(default=None, repr=False)
    """The newest agent timestamp among the status reports recorded (``None``: none had one)."""

    @property
    def status_dropped(self) -> int:
        """Status updates seen but not kept (between the first and the latest)."""
        return self.status_history.dropped

    @property
    def messages_dropped(self) -> int:
        """Messages seen but not kept (between the first and the latest)."""
        return self.messages.dropped

    @property
    def state(self) -> str:
        """The current neutral state name."""
        return state_name(self.status.state)

    @property
    def terminal(self) -> bool:
        """The task has finished (completed, failed, canceled, rejected)."""
        return self.state in TERMINAL_STATES

    @property
    def interrupted(self) -> bool:
        """The task waits for input or authentication."""
        return self.state in INTERRUPTED_STATES

    @property
    def status_message(self) -> Message | None:
        """The current status message, if any."""
        return self.status.message if self.status.HasField("message") else None

    def to_task(self) -> Task:
        """Rebuild a proto ``Task`` from the view (what ``get_task`` would return, as far as seen)."""
        task = Task(id=self.task_id, context_id=self.context_id)
        task.status.CopyFrom(self.status)
        task.history.extend(self.messages)
        for av in self.artifacts.values():
            av.fill(task.artifacts.add())
        if self.metadata:
            task.metadata.update(self.metadata)
        return task

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the task in camelCase wire form plus the client's bookkeeping).

        ``status_updates_not_kept`` / ``messages_not_kept`` count what was seen but not kept; they
        sit after the first ``status_history`` / ``messages`` items given by ``…_not_kept_after``.
        """
        out: dict[str, Any] = {
            "task_id": self.task_id,
            "context_id": self.context_id,
            "state": self.state,
            "status_history": [s.to_dict() for s in self.status_history],
            "messages": [message_to_dict(m) for m in self.messages],
            "artifacts": [a.to_dict() for a in self.artifacts.values()],
        }
        if self.status_history.dropped:
            out["status_updates_not_kept"] = self.status_history.dropped
            out["status_updates_not_kept_after"] = self.status_history.gap_at
        if self.messages.dropped:
            out["messages_not_kept"] = self.messages.dropped
            out["messages_not_kept_after"] = self.messages.gap_at
        return out

    def knows_status(self, entry: StatusEntry) -> bool:
        """Whether the same status report (state, agent time, message id) was recorded lately."""
        return entry.key in self._status_keys

    def record_status(self, entry: StatusEntry, index: int | None = None) -> None:
        """Add ``entry`` to the history: last, or at ``index`` (a report that belongs earlier)."""
        if index is None:
            self.status_history.append(entry)
        else:
            self.status_history.insert(index, entry)
        at = entry.at
        if at is not None and (self.latest_status_at is None or at > self.latest_status_at):
            self.latest_status_at = at
        keys = self._status_keys
        keys[entry.key] = None
        if len(keys) > MAX_STATUS_KEYS:
            del keys[next(iter(keys))]

    def knows_message(self, message_id: str) -> bool:
        """Whether a message with this id was seen (kept or not)."""
        return _id_key(message_id) in self._message_ids

    def _add_message(self, message: Message) -> bool:
        message_id = message.message_id
        if message_id:
            key = _id_key(message_id)
            if key in self._message_ids:
                return False
            ids = self._message_ids
            ids[key] = None
            if len(ids) > MAX_MESSAGE_IDS:
                del ids[next(iter(ids))]
        self.messages.append(message)
        return True


MAX_MESSAGE_IDS = 10_000
"""Message ids one task remembers for de-duplication; past it the oldest is forgotten."""
MAX_STATUS_KEYS = 256
"""Status reports one task remembers for de-duplication (a repeat comes soon after the original)."""
_MAX_ID_CHARS = 64


def _id_key(message_id: str) -> str:
    """The id as remembered: itself when short, else a digest (a 1 MiB id costs 32 characters)."""
    if len(message_id) <= _MAX_ID_CHARS:
        return message_id
    return "#" + hashlib.blake2b(message_id.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _entry_size(entry: StatusEntry) -> int:
    return entry.size


def _message_size(message: Message) -> int:
    return message.ByteSize()
