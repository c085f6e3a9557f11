"""Hints read as sentences wherever the window shows them: a capital letter after every full stop."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.panel_context import make_context
from workbench.core.errors import ConnectError
from workbench.core.profiles import A2AProfile
from workbench.demo.a2a_agents import serve_agent, travel_app_factory
from workbench.ui.asyncutil import wait_signal
from workbench.ui.errors import describe_error
from workbench.ui.panels.chat import ChatWidget

LOWER_AFTER_STOP = re.compile(r"[.!?]\s+[a-z]")


@pytest.mark.asyncio
async def test_a_failed_chat_turn_shows_its_hint_as_a_sentence(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    try:
        async with serve_agent(travel_app_factory()) as url:
            conn = await asyncio.wait_for(ctx.services.connections.connect(A2AProfile(name="gone", url=url)), 20)
        ctx.selection.select(conn.id)  # the agent has stopped since: sending fails with a hint
        widget.input.setFocus()
        qtbot.keyClicks(widget.input, "Plan a trip")
        qtbot.keyClick(widget.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        await wait_signal(widget.viewmodel.turn_finished, timeout=20)
        widget.flush()
        text = widget.transcript.toPlainText()
        assert "✖ failed" in text
        assert not LOWER_AFTER_STOP.search(text), text
        hint_line = text.split("✖ failed", 1)[1].splitlines()[1]
        assert hint_line[:1].isupper(), text
    finally:
        await ctx.services.connections.aclose()


def test_every_sentence_of_a_hint_starts_with_a_capital_letter() -> None:
    view = describe_error(ConnectError("Refused.", hint="check the URL. then start it, e.g. with make run"), "x")
    assert view.hint == "Check the URL. Then start it, e.g. with make run"
