"""On a dark palette the transcript stays readable: the user's box is dark under the palette's light
text, and every accent (who speaks, states, logs, progress) keeps WCAG AA contrast on the dark base.

Against the demo MCP server in process: a ``help`` turn has the user's box, a log line, progress,
the markdown answer and the final state.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QPalette, QTextFrame
from PySide6.QtWidgets import QApplication

from tests.support.chat_drawing import draw_all
from tests.support.colours import contrast
from tests.support.panel_context import make_context
from workbench.core.profiles import MCPStdioProfile
from workbench.core.protocols.mcp import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui.asyncutil import wait_signal
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.theme import DARK, THEME_PROPERTY

DARK_TEXT, DARK_BASE = QColor("#e8eaed"), QColor("#17181a")
"""A desktop's dark palette (as tools/screenshots.py gives the window)."""


def frames(root: QTextFrame) -> Iterator[QTextFrame]:
    for child in root.childFrames():
        yield child
        yield from frames(child)


@pytest.fixture
def dark_theme(qapp: QApplication) -> Iterator[None]:
    before = qapp.property(THEME_PROPERTY)
    qapp.setProperty(THEME_PROPERTY, DARK)
    try:
        yield
    finally:
        qapp.setProperty(THEME_PROPERTY, before)


@pytest.mark.asyncio
@pytest.mark.usefixtures("dark_theme")
async def test_the_transcript_on_a_dark_palette_keeps_the_users_text_and_every_accent_readable(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    palette = widget.transcript.palette()
    palette.setColor(QPalette.ColorRole.Text, DARK_TEXT)
    palette.setColor(QPalette.ColorRole.Base, DARK_BASE)
    widget.transcript.setPalette(palette)
    widget.resize(900, 700)
    widget.show()
    try:
        agent = MCPAgent.in_process(build_server(), name="demo", wire=ctx.services.wire)
        conn = await ctx.services.connections.connect(
            MCPStdioProfile(id="demo", name="demo", command="unused"), agent=agent
        )
        ctx.selection.select(conn.id)
        finished = wait_signal(widget.viewmodel.turn_finished, 20.0)
        widget.input.setPlainText("help")
        widget.send_button.click()
        await finished
        draw_all(widget)
        doc = widget.transcript.document()
        boxes = [
            f.frameFormat().background().color()
            for f in frames(doc.rootFrame())
            if f.frameFormat().hasProperty(f.frameFormat().Property.BackgroundBrush)
        ]
        assert boxes  # the user's message is in a box
        for box in boxes:
            assert contrast(box, DARK_TEXT) >= 4.5  # the palette's text stays readable on it
        accents = 0
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                if fmt.hasProperty(fmt.Property.ForegroundBrush):
                    accents += 1
                    assert contrast(fmt.foreground().color(), DARK_BASE) >= 4.5, it.fragment().text()
                it += 1
            block = block.next()
        assert accents >= 4  # "You", the log line, the progress bar, the final state
    finally:
        await ctx.services.connections.aclose()
