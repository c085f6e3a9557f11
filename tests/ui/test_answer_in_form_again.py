"""A closed A2A input-required form comes back from the chat ("Answer in a form…") with what was typed in it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.chat_drawing import drawn_text
from tests.support.windows import WAIT, demo_window
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.input_required import InputRequiredDialog


@pytest.mark.asyncio
async def test_a_closed_question_form_reopens_from_the_chat_with_what_was_typed_and_answers_the_task(
    qtbot: Any, tmp_path: Path
) -> None:
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-travel")
        chat = bench.window.chat
        shown = asyncio.ensure_future(wait_signal(bench.window.prompts.prompt_shown, WAIT))
        finished = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
        qtbot.keyClicks(chat.input, "Plan a trip to Lisbon")
        qtbot.keyClick(chat.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        (dialog,) = await shown
        assert isinstance(dialog, InputRequiredDialog) and dialog.form is not None
        qtbot.keyClicks(dialog.form.field("departure_date").editor, "2026-12-01")
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # answer later
        _, state = await finished
        assert state == "input_required"
        assert "answer in a form…" in drawn_text(chat)
        assert chat.form_button.isVisible()  # beside Send, while the task waits

        qtbot.keyClicks(chat.input, json.dumps({"travellers": 3}))  # typed in the chat, as the note says
        qtbot.mouseClick(chat.form_button, Qt.MouseButton.LeftButton)
        again = chat.form_dialog
        assert again is not None and again.isVisible() and again.form is not None
        assert again.form.field("departure_date").text() == "2026-12-01"  # what was typed before Escape
        assert again.form.value()["travellers"] == 3  # and what was typed in the chat
        assert not again.cancel_task_button.isVisible()
        finished = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
        qtbot.keyClicks(again.form.field("return_date").editor, "2026-12-08")
        again.activateWindow()
        qtbot.waitUntil(again.isActiveWindow)  # keys go to the form, as they do on screen
        qtbot.keyClick(again.form.field("return_date").editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        _, state = await finished
        assert state == "completed"
        assert chat.form_dialog is None and not chat.form_button.isVisible()
        assert chat.input.toPlainText() == ""
        answered = drawn_text(chat).split("answering the agent's question")[-1]
        assert "2026-12-08" in answered  # the form's answer, as the transcript reads it


@pytest.mark.asyncio
async def test_the_form_link_in_the_transcript_opens_the_same_form(qtbot: Any, tmp_path: Path) -> None:
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-travel")
        chat = bench.window.chat
        shown = asyncio.ensure_future(wait_signal(bench.window.prompts.prompt_shown, WAIT))
        finished = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
        qtbot.keyClicks(chat.input, "Plan a trip to Lisbon")
        qtbot.keyClick(chat.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        (dialog,) = await shown
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        await finished
        drawn_text(chat)
        doc = chat.transcript.document()
        found = doc.find("answer in a form…")
        assert not found.isNull()
        found.setPosition(found.selectionStart() + 2)  # inside the link
        bar = chat.transcript.verticalScrollBar()
        bar.setValue(bar.maximum())  # the question is the last thing drawn
        QApplication.processEvents()
        rect = chat.transcript.cursorRect(found)
        qtbot.mouseClick(chat.transcript.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda: chat.form_dialog is not None and chat.form_dialog.isVisible())
        assert chat.form_dialog is not None and chat.form_dialog.request.schema is not None
        chat.form_dialog.close_button.click()
        assert chat.form_dialog is None
