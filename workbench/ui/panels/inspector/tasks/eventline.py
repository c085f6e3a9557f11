"""How a Tasks tab shows a followed task's event: one line of plain text per event."""

from __future__ import annotations

import json
from typing import Any

from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    Failed,
    InputRequired,
    StatusChanged,
    TextDelta,
)
from workbench.core.protocols.snapshot import STATUS_HISTORY, oneline, part_text
from workbench.core.timefmt import time_of_day

__all__ = ["STATUS_HISTORY", "event_line"]


def event_line(event: AgentEvent) -> str:
    """One streamed event as a line of plain text for the live view."""
    head = time_of_day(event.at)
    body: str
    match event:
        case StatusChanged():
            body = f"status {event.state}" + (f": {oneline(event.message)}" if event.message else "")
        case TextDelta():
            body = f"text {oneline(event.text)}"
        case ArtifactUpdated():
            flags = ", ".join(f for f, on in (("append", event.append), ("last chunk", event.last_chunk)) if on)
            parts = " ".join(part_text(p) for p in event.parts)
            body = f"artifact {event.name or event.artifact_id}" + (f" ({flags})" if flags else "") + f": {parts}"
        case InputRequired() | AuthRequired():
            body = f"{event.kind.value} {oneline(event.request.text)}"
        case Completed():
            body = f"ended: {event.result.state}"
        case Failed():
            body = f"failed: {oneline(event.message or str(event.error))}"
        case _:
            fields: dict[str, Any] = event.fields()
            body = f"{event.kind.value} {oneline(json.dumps(fields, ensure_ascii=False, default=str))}"
    return f"{head}  {body}"
