"""Drawing a chat pane's whole backlog in a test.

``ChatWidget.flush`` draws for at most a time budget, then schedules the rest; on a loaded machine one flush can
stop after the first item. Tests that read the transcript draw until nothing is pending.
"""

from __future__ import annotations

from typing import Any


def draw_all(widget: Any) -> None:
    """Flush ``widget`` (a ``ChatWidget``) now, and again while a backlog is left."""
    widget.flush()
    while widget.flush_pending:
        widget.flush()


def drawn_text(widget: Any) -> str:
    """The transcript's plain text once everything that arrived is drawn."""
    draw_all(widget)
    return str(widget.transcript.toPlainText())
