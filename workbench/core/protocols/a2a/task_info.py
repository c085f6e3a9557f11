"""An A2A task as the inspector shows it: a ``TaskSnapshot`` with rows, sections and JSON (Qt-free)."""

from __future__ import annotations

import json
from typing import Any

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


def _mark_gap(rows: list[Row], history: CappedHistory[Any], what: str) -> None:
    if history.dropped:
        rows.insert(history.gap_at, Row("…", not_kept_text(history.dropped, what)))


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
    latest = group[-1]
    text = oneline(latest.text or "")
    if len(group) == 1:
        return Row(f"{n}. {latest.state}", text, (Row("agent time", latest.timestamp),) if latest.timestamp else ())
    updates = tuple(Row(e.timestamp or "(no time)", oneline(e.text or "")) for e in group)
    count = f"{len(group)} updates"
    return Row(f"{n}. {latest.state}", f"{text} ({count})" if text else count, updates)


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
    messages: list[Row] = []
    for n, message in view.messages.numbered():
        d = message_to_dict(message)
        role = str(d.get("role", "")).removeprefix("ROLE_").lower() or "?"
        parts = parts_to_content(message.parts)
        text = " ".join(p.text or "" for p in parts if p.type == "text")
        messages.append(Row(f"{n}. {role}", oneline(text), _part_rows(parts)))
    _mark_gap(messages, view.messages, "message")
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
