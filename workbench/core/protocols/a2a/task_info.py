"""An A2A task as the inspector shows it: a ``TaskSnapshot`` with rows, sections and JSON (Qt-free)."""

from __future__ import annotations

import json
from itertools import pairwise

from a2a.types import Message

from workbench.core.protocols.a2a.capped import CappedHistory
from workbench.core.protocols.a2a.convert import message_to_dict, parts_to_content
from workbench.core.protocols.a2a.reducer import TaskView
from workbench.core.protocols.a2a.task_view import StatusEntry, parse_timestamp
from workbench.core.protocols.base import ContentPart
from workbench.core.protocols.snapshot import (
    MAX_PART_ROWS,
    STATUS_HISTORY,
    Row,
    Section,
    TaskSnapshot,
    TaskSummary,
    oneline,
    part_text,
)
from workbench.core.timefmt import time_of_day


def updated_at(view: TaskView) -> float | None:
    """When the task's current status was set, by the agent's clock (``None`` if it gave no time)."""
    if view.status.HasField("timestamp"):
        return parse_timestamp(view.status.timestamp.ToJsonString())
    for entry in reversed(view.status_history):
        if (at := parse_timestamp(entry.timestamp)) is not None:
            return at
    return None


def _part_rows(parts: list[ContentPart]) -> tuple[Row, ...]:
    rows = tuple(Row(f"part {i + 1}", part_text(p)) for i, p in enumerate(parts[:MAX_PART_ROWS]))
    if len(parts) > MAX_PART_ROWS:
        rows += (Row("…", f"{len(parts) - MAX_PART_ROWS:,} more part(s) in the JSON below"),)
    return rows


def not_kept_text(count: int, what: str) -> str:
    """What the gap in a capped history says: ``"1,234 earlier status updates not kept"``."""
    return f"{count:,} earlier {what}{'' if count == 1 else 's'} not kept"


def _state_rows(history: CappedHistory[StatusEntry]) -> list[Row]:
    """One row per state the task was in, in order: consecutive reports of one state are one row.

    The reducer keeps the reports in the order the task went through them (late ones placed by
    time, repeats once), so the rows read as the task's path: ``1. submitted``, ``2. working``
    (its latest message, and each report under it), ``3. input_required``. Reports not kept are
    a row of their own, and no state's row reaches across them.
    """
    groups: list[list[StatusEntry]] = []
    gap_before: int | None = None
    for i, entry in enumerate(history):
        at_gap = bool(history.dropped) and i == history.gap_at
        if at_gap:
            gap_before = len(groups)
        if groups and not at_gap and groups[-1][-1].state == entry.state:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    rows = [_state_row(n, group) for n, group in enumerate(groups, 1)]
    if history.dropped:
        gap = Row("…", not_kept_text(history.dropped, "status update"))
        rows.insert(gap_before if gap_before is not None else len(rows), gap)
    return rows


def _state_row(n: int, group: list[StatusEntry]) -> Row:
    """A state's row: its text is the latest report's, or the whole text when its reports are one streamed text.

    An agent that streams its progress as status messages cut where there is white space ("Planning ",
    "a trip ", "to Lisbon.") is read as the chat reads it, joined; reports said on their own ("Looking",
    "Found") show the latest.
    """
    latest = group[-1]
    texts = [entry.text for entry in group]
    streamed = len(group) > 1 and all(_continues(a, b) for a, b in pairwise(texts))
    text = oneline("".join(t or "" for t in texts) if streamed else latest.text or "")
    if len(group) == 1:
        return Row(f"{n}. {latest.state}", text, (Row("agent time", latest.timestamp),) if latest.timestamp else ())
    updates = tuple(Row(e.timestamp or "(no time)", oneline(e.text or "")) for e in group)
    count = f"{len(group)} updates"
    return Row(f"{n}. {latest.state}", f"{text} ({count})" if text else count, updates)


def _has_content(part: ContentPart) -> bool:
    return part.type != "text" or bool((part.text or "").strip())


def _chunk_text(role: str, parts: list[ContentPart]) -> str | None:
    """A message's text when it is the agent's and text only (a piece of a reply it may stream), else None."""
    if role != "agent" or not all(p.type == "text" for p in parts):
        return None
    return "".join(p.text or "" for p in parts)


def _continues(before: str | None, after: str | None) -> bool:
    """Whether ``after`` goes on from ``before`` as the next chunk of one streamed text.

    A stream cut into messages leaves white space at the cut ("Planning ", "a trip "); a message said on
    its own does not end with it, so "step 1" and "step 2" stay two messages.
    """
    return before is not None and after is not None and (before[-1:].isspace() or after[:1].isspace())


def _message_rows(history: CappedHistory[Message]) -> list[Row]:
    """One row per message of the task, in order, as the user reads a conversation.

    An agent streams a reply as status updates, one message per chunk ("Planning ", "a trip ", "to
    Lisbon."): consecutive agent messages of text only, cut where there is white space, are one row,
    numbered from the first chunk to the last (``2–4. agent``), their text joined as sent (as the chat
    joins them), each chunk under it. A message without text shows its first part (the answer to a form
    is a data part); a message with nothing in it has no row. Messages not kept are a row of their own
    that no row reaches across.
    """
    groups: list[list[tuple[int, str, list[ContentPart]]]] = []
    gap_before: int | None = None
    apart = False  # the next message starts a row of its own (it follows the gap)
    for i, (n, message) in enumerate(history.numbered()):
        if history.dropped and i == history.gap_at:
            gap_before, apart = len(groups), True
        role = str(message_to_dict(message).get("role", "")).removeprefix("ROLE_").lower() or "?"
        parts = parts_to_content(message.parts)
        if not any(_has_content(p) for p in parts):
            continue
        last = groups[-1][-1] if groups else None
        if last is not None and not apart and _continues(_chunk_text(*last[1:]), _chunk_text(role, parts)):
            groups[-1].append((n, role, parts))
        else:
            groups.append([(n, role, parts)])
        apart = False
    rows = [_message_row(group) for group in groups]
    if history.dropped:
        gap = Row("…", not_kept_text(history.dropped, "message"))
        rows.insert(gap_before if gap_before is not None else len(rows), gap)
    return rows


def _message_row(group: list[tuple[int, str, list[ContentPart]]]) -> Row:
    (first, role, parts), (last, _, _) = group[0], group[-1]
    if len(group) == 1:
        text = " ".join(p.text or "" for p in parts if p.type == "text").strip()
        shown = text or next((part_text(p) for p in parts if _has_content(p)), "")
        return Row(f"{first}. {role}", oneline(shown), _part_rows(parts))
    chunks = ["".join(p.text or "" for p in chunk) for _, _, chunk in group]
    under = tuple(Row(f"{n}. {role}", oneline(text)) for (n, _, _), text in zip(group, chunks, strict=True))
    return Row(f"{first}–{last}. {role}", oneline("".join(chunks)), under)


def task_sections(view: TaskView) -> tuple[Section, ...]:
    """The detail view of a task: overview, status history, messages and artifacts."""
    updated = updated_at(view)
    overview = (
        Row("Task", view.task_id),
        Row("Context", view.context_id),
        Row("State", view.state),
        Row("Updated", time_of_day(updated) if updated is not None else "unknown"),
    )
    history = _state_rows(view.status_history)
    messages = _message_rows(view.messages)
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
        Section(STATUS_HISTORY, tuple(history) or (Row("(none)", "no status seen yet"),)),
        Section("Messages", tuple(messages) or (Row("(none)", "no messages seen"),)),
        Section("Artifacts", artifacts or (Row("(none)", "no artifacts"),)),
    )


def task_json(view: TaskView) -> str:
    """The task as JSON: what the client merged (status history, messages, artifacts)."""
    return json.dumps(view.to_dict(), indent=2, ensure_ascii=False, default=str)


def task_summary(view: TaskView) -> TaskSummary:
    """The task's table line."""
    return TaskSummary(
        task_id=view.task_id,
        context_id=view.context_id,
        state=view.state,
        updated=updated_at(view),
        artifacts=len(view.artifacts),
        terminal=view.terminal,
    )


def task_snapshot(view: TaskView) -> TaskSnapshot:
    """The task in full, as merged by this client."""
    return TaskSnapshot(task_summary(view), sections=task_sections(view), json=task_json(view))
