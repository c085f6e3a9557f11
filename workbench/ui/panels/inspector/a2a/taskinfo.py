"""How the A2A inspector shows a task and a streamed event: table rows, detail rows, one-line events."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from workbench.core.protocols.a2a.convert import message_to_dict, parts_to_content
from workbench.core.protocols.a2a.reducer import TaskView
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    ContentPart,
    Failed,
    InputRequired,
    StatusChanged,
    TextDelta,
)
from workbench.ui.panels.inspector.a2a.cardinfo import Row, Section

PREVIEW_CHARS = 300
"""Characters of a part's text shown in one detail row (the raw JSON below has all of it)."""
STATUS_HISTORY = "Status history (as seen here)"
"""The agent keeps a task's messages but not its states: states only show when this client saw them."""
MAX_PART_ROWS = 50
"""Parts listed per message or artifact (a long stream can build an artifact from thousands of chunks)."""


def clock(at: float) -> str:
    """A wall-clock time as local ``HH:MM:SS.mmm``."""
    stamp = dt.datetime.fromtimestamp(at)
    return stamp.strftime("%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}"


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


def updated_at(view: TaskView) -> float | None:
    """When the task's current status was set, by the agent's clock (``None`` if it gave no time)."""
    if view.status.HasField("timestamp"):
        return parse_timestamp(view.status.timestamp.ToJsonString())
    for entry in reversed(view.status_history):
        if (at := parse_timestamp(entry.timestamp)) is not None:
            return at
    return None


@dataclass(frozen=True, slots=True)
class TaskRow:
    """One line of the task table.

    Attributes:
        task_id: The task id.
        context_id: Its context id.
        state: Neutral state name (``input_required`` ...).
        updated: When its status last changed (epoch seconds), if known.
        artifacts: How many artifacts it has.
        terminal: Whether it has ended.
    """

    task_id: str
    context_id: str
    state: str
    updated: float | None
    artifacts: int
    terminal: bool

    @classmethod
    def of(cls, view: TaskView) -> TaskRow:
        """The row for ``view``."""
        return cls(view.task_id, view.context_id, view.state, updated_at(view), len(view.artifacts), view.terminal)

    @property
    def updated_text(self) -> str:
        """``updated`` as ``HH:MM:SS.mmm`` (empty when unknown)."""
        return clock(self.updated) if self.updated is not None else ""


def part_text(part: ContentPart) -> str:
    """One part as a short line of text (what kind it is, and its start)."""
    if part.type == "text":
        body = part.text or ""
    elif part.type == "data":
        body = json.dumps(part.data, ensure_ascii=False, sort_keys=True)
    elif part.uri:
        body = part.uri
    elif part.blob is not None:
        body = f"{len(part.blob) * 3 // 4:,} bytes"
    else:
        body = ""
    kind = part.type + (f" {part.mime_type}" if part.mime_type else "") + (f" {part.name}" if part.name else "")
    if len(body) > PREVIEW_CHARS:
        body = body[:PREVIEW_CHARS] + f"… ({len(body):,} characters)"
    return f"[{kind}] {body}"


def _part_rows(parts: list[ContentPart]) -> tuple[Row, ...]:
    rows = tuple(Row(f"part {i + 1}", part_text(p)) for i, p in enumerate(parts[:MAX_PART_ROWS]))
    if len(parts) > MAX_PART_ROWS:
        rows += (Row("…", f"{len(parts) - MAX_PART_ROWS:,} more part(s) in the JSON below"),)
    return rows


def _oneline(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= PREVIEW_CHARS else line[:PREVIEW_CHARS] + "…"


def task_sections(view: TaskView) -> tuple[Section, ...]:
    """The detail view of a task: overview, status history, messages and artifacts."""
    updated = updated_at(view)
    overview = (
        Row("Task", view.task_id),
        Row("Context", view.context_id),
        Row("State", view.state),
        Row("Updated", clock(updated) if updated is not None else "unknown"),
    )
    history = tuple(
        Row(
            f"{i + 1}. {entry.state}",
            _oneline(entry.text or ""),
            (Row("agent time", entry.timestamp),) if entry.timestamp else (),
        )
        for i, entry in enumerate(view.status_history)
    ) or (Row("(none)", "no status seen yet"),)
    messages: list[Row] = []
    for i, message in enumerate(view.messages):
        d = message_to_dict(message)
        role = str(d.get("role", "")).removeprefix("ROLE_").lower() or "?"
        parts = parts_to_content(message.parts)
        text = " ".join(p.text or "" for p in parts if p.type == "text")
        messages.append(Row(f"{i + 1}. {role}", _oneline(text), _part_rows(parts)))
    artifacts = tuple(
        Row(
            a.name or a.artifact_id,
            f"{len(a.content)} part(s)" + (", last chunk received" if a.complete else ""),
            (
                Row("id", a.artifact_id),
                *((Row("description", a.description),) if a.description else ()),
                *_part_rows(a.content),
            ),
        )
        for a in view.artifacts.values()
    )
    return (
        Section("Task", overview),
        Section(STATUS_HISTORY, history),
        Section("Messages", tuple(messages) or (Row("(none)", "no messages seen"),)),
        Section("Artifacts", artifacts or (Row("(none)", "no artifacts"),)),
    )


def task_json(view: TaskView) -> str:
    """The task as JSON: what the client merged (status history, messages, artifacts)."""
    return json.dumps(view.to_dict(), indent=2, ensure_ascii=False, default=str)


def event_line(event: AgentEvent) -> str:
    """One streamed event as a line of plain text for the live view."""
    head = clock(event.at)
    body: str
    match event:
        case StatusChanged():
            body = f"status {event.state}" + (f": {_oneline(event.message)}" if event.message else "")
        case TextDelta():
            body = f"text {_oneline(event.text)}"
        case ArtifactUpdated():
            flags = ", ".join(f for f, on in (("append", event.append), ("last chunk", event.last_chunk)) if on)
            parts = " ".join(part_text(p) for p in event.parts)
            body = f"artifact {event.name or event.artifact_id}" + (f" ({flags})" if flags else "") + f": {parts}"
        case InputRequired() | AuthRequired():
            body = f"{event.kind.value} {_oneline(event.request.text)}"
        case Completed():
            body = f"ended: {event.result.state}"
        case Failed():
            body = f"failed: {_oneline(event.message or str(event.error))}"
        case _:
            fields: dict[str, Any] = event.fields()
            body = f"{event.kind.value} {_oneline(json.dumps(fields, ensure_ascii=False, default=str))}"
    return f"{head}  {body}"
