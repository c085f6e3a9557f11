"""Demo agents whose usual port was taken: the status bar says so in sentences that fit, the details in its tooltip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QSizeGrip, QStatusBar, QWidget

from tests.support.windows import plain_window
from workbench.demo.launcher import DemoAgent
from workbench.ui.demo_session import show_port_fallbacks

MOVED = [
    DemoAgent("demo-mcp-sse", "mcp-sse", "http://127.0.0.1:53211/sse", wanted_port=47802),
    DemoAgent("travel", "a2a", "http://127.0.0.1:53212", wanted_port=47803),
]


def message_room(bar: QStatusBar) -> int:
    """Pixels from the bar's left edge to its first permanent widget: where the message is drawn."""
    widgets = bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return min(w.x() for w in widgets if w.isVisible() and not isinstance(w, QSizeGrip))


def tooltip_lines(bar: QStatusBar) -> list[str]:
    doc = QTextDocument()
    doc.setHtml(bar.toolTip())
    return doc.toPlainText().splitlines()


@pytest.mark.asyncio
async def test_two_moved_demo_agents_read_as_sentences_that_fit_the_bar_with_each_note_in_the_tooltip(
    tmp_path: Path, qtbot: Any
) -> None:
    async with plain_window(tmp_path / "config", qtbot) as window:
        window.resize(1366, 768)
        window.show()
        qtbot.waitExposed(window)
        show_port_fallbacks(window, [(a.name, a.fallback_note) for a in MOVED])
        bar = window.statusBar()
        line = bar.currentMessage()
        assert line == (
            "2 demo agents moved to other ports (theirs are taken): demo-mcp-sse, travel. "
            "Saved connections to the usual ports will not reach them this time."
        )  # whole at 1366 px
        assert "this time demo-mcp-sse" not in line  # not two notes run together
        assert bar.fontMetrics().horizontalAdvance(line) <= message_room(bar)  # drawn whole, or elided with "…"
        assert tooltip_lines(bar) == [a.fallback_note for a in MOVED]
        assert all(note.endswith("this time.") for note in tooltip_lines(bar))  # each a sentence

        window.resize(900, 768)  # narrower: the same note, cut with an ellipsis to the room there is now
        qtbot.waitUntil(lambda: bar.currentMessage() != line)
        narrow = bar.currentMessage()
        assert narrow.endswith("…") and line.startswith(narrow[:-1])
        assert bar.fontMetrics().horizontalAdvance(narrow) <= message_room(bar)


@pytest.mark.asyncio
async def test_no_moved_agent_leaves_the_status_bar_quiet(tmp_path: Path, qtbot: Any) -> None:
    async with plain_window(tmp_path / "config", qtbot) as window:
        show_port_fallbacks(window, [])
        assert window.statusBar().currentMessage() == ""
