"""InputRequiredDialog: A2A input-required answered with a form, a JSON object or text; cancel; answer later."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from tests.support.input_required import DialogAnswers
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import Completed, InputRequest, InputResponse
from workbench.demo.a2a_agents import serve_agent, travel_app_factory
from workbench.ui.asyncutil import open_dialog, wait_signal
from workbench.ui.dialogs.input_required import TASK_CANCELLED, InputRequiredDialog

HTML = '<b style="color:red">URGENT</b> <img src="file:///etc/passwd">'
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string", "minLength": 1}, "nights": {"type": "integer", "minimum": 1}},
    "required": ["city"],
}


async def _opened(dialog: QDialog) -> asyncio.Task[int]:
    """Open ``dialog`` the way the app does (open() awaited through a future) once it is visible."""
    task = asyncio.ensure_future(open_dialog(dialog))
    await wait_signal(dialog.shown, timeout=5)
    return task


def _dialog(qtbot: Any, *, text: str = "Where to?", **kwargs: Any) -> InputRequiredDialog:
    request = InputRequest("input", text, task_id="t-1", context_id="c-1", agent="Travel", **kwargs)
    dialog = InputRequiredDialog(request)
    qtbot.addWidget(dialog)
    return dialog


async def _stream(agent: A2AAgent, prompt: str) -> list[Any]:
    return [event async for event in agent.stream_async(prompt)]


@pytest.mark.asyncio
async def test_a_real_agents_form_is_filled_and_sent_and_the_task_completes(qtbot):
    answers = DialogAnswers(qtbot)
    async with (
        serve_agent(travel_app_factory(chunk_delay=0)) as url,
        A2AAgent(url, input_handler=answers) as agent,
    ):
        run = asyncio.ensure_future(_stream(agent, "Plan a trip to Rome"))
        dialog = await asyncio.wait_for(answers.dialogs.get(), 15)
        assert dialog.mode == "form"
        assert dialog.question_label.text() == "When do you travel, how many travellers, and which cabin class?"
        assert not dialog.send_button.isEnabled()
        form = dialog.form
        form.field("departure_date").set_text("2026-05-01")
        form.field("return_date").set_text("2026-05-05")
        form.field("travellers").spin.setValue(2)
        form.field("cabin_class").select("business")
        dialog.send_button.click()
        events = await asyncio.wait_for(run, 15)
    trip = {"departure_date": "2026-05-01", "return_date": "2026-05-05", "travellers": 2, "cabin_class": "business"}
    assert dialog.response() == InputResponse(data=trip)
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "completed"
    assert final.result.structured["cabin_class"] == "business"


@pytest.mark.asyncio
async def test_closing_a_real_agents_question_leaves_the_task_waiting(qtbot):
    answers = DialogAnswers(qtbot)
    async with (
        serve_agent(travel_app_factory(chunk_delay=0)) as url,
        A2AAgent(url, input_handler=answers) as agent,
    ):
        run = asyncio.ensure_future(_stream(agent, "Plan a trip to Oslo"))
        dialog = await asyncio.wait_for(answers.dialogs.get(), 15)
        dialog.close_button.click()
        events = await asyncio.wait_for(run, 15)
        assert dialog.response() is None
        final = events[-1]
        assert isinstance(final, Completed) and final.result.state == "input_required"


@pytest.mark.asyncio
async def test_with_a_schema_the_answer_is_the_forms_object_and_an_optional_message(qtbot):
    dialog = _dialog(qtbot, schema=SCHEMA)
    task = await _opened(dialog)
    assert dialog.mode == "form" and not dialog.send_button.isEnabled()
    dialog.form.field("city").set_text("Porto")
    dialog.form.field("nights").spin.setValue(3)
    dialog.message_edit.setText("thanks")
    dialog.send_button.click()
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Accepted
    assert dialog.response() == InputResponse(text="thanks", data={"city": "Porto", "nights": 3})


@pytest.mark.asyncio
async def test_values_sent_with_the_schema_prefill_the_form(qtbot):
    dialog = _dialog(qtbot, schema=SCHEMA, data={"form": {"id": "f", "values": {"city": "Braga"}}, "schema": SCHEMA})
    task = await _opened(dialog)
    assert dialog.form.field("city").text() == "Braga"
    assert dialog.form.errors_label.isHidden()
    dialog.send_button.click()
    await asyncio.wait_for(task, 5)
    assert dialog.response() == InputResponse(data={"city": "Braga"})


@pytest.mark.asyncio
async def test_enter_in_a_form_field_sends_when_valid(qtbot):
    dialog = _dialog(qtbot, schema=SCHEMA)
    task = await _opened(dialog)
    city = dialog.form.field("city").editor
    qtbot.keyClick(city, Qt.Key.Key_Return)
    assert not task.done()
    city.setText("Faro")
    qtbot.keyClick(city, Qt.Key.Key_Return)
    await asyncio.wait_for(task, 5)
    assert dialog.response() == InputResponse(data={"city": "Faro"})


@pytest.mark.asyncio
async def test_with_data_a_json_editor_is_prefilled_and_must_hold_an_object(qtbot):
    data = {"form": {"id": "f"}, "values": {"seats": 2}}
    dialog = _dialog(qtbot, data=data)
    task = await _opened(dialog)
    assert dialog.mode == "data" and dialog.form is None
    assert json.loads(dialog.data_editor.toPlainText()) == data
    assert dialog.send_button.isEnabled()
    dialog.data_editor.setPlainText('{"values": {"seats": ')
    assert not dialog.send_button.isEnabled()
    assert not dialog.data_error.isHidden()
    dialog.data_editor.setPlainText("[1]")
    assert not dialog.send_button.isEnabled()
    dialog.data_editor.setPlainText('{"values": {"seats": 4}}')
    assert dialog.data_error.isHidden()
    qtbot.keyClick(dialog.data_editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    await asyncio.wait_for(task, 5)
    assert dialog.response() == InputResponse(data={"values": {"seats": 4}})


@pytest.mark.asyncio
async def test_without_schema_or_data_the_answer_is_text_and_enter_sends_it(qtbot):
    dialog = _dialog(qtbot, data="not a dict")
    task = await _opened(dialog)
    assert dialog.mode == "text" and not dialog.send_button.isEnabled()
    editor = dialog.text_editor
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # empty: nothing is sent
    assert not task.done()
    qtbot.keyClicks(editor, "Lisbon")
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(editor, "in May")
    assert not task.done()
    assert dialog.send_button.isEnabled()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Accepted
    assert dialog.response() == InputResponse(text="Lisbon\nin May")


@pytest.mark.asyncio
async def test_cancel_task_answers_cancel(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    dialog.cancel_task_button.click()
    assert await asyncio.wait_for(task, 5) == TASK_CANCELLED
    assert dialog.response() == InputResponse(cancel=True)


@pytest.mark.asyncio
async def test_esc_and_closing_the_window_mean_answer_later(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    qtbot.keyClicks(dialog.text_editor, "maybe")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Rejected
    assert dialog.response() is None
    other = _dialog(qtbot)
    task = await _opened(other)
    other.close()
    await asyncio.wait_for(task, 5)
    assert other.response() is None


@pytest.mark.asyncio
async def test_the_question_and_agent_are_plain_text_and_auth_is_named(qtbot):
    request = InputRequest("auth", HTML, task_id="t", context_id="c", agent=HTML)
    dialog = InputRequiredDialog(request)
    qtbot.addWidget(dialog)
    assert dialog.question_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.question_label.text() == HTML
    assert dialog.who_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.who_label.text() == f"{HTML} needs you to sign in:"


@pytest.mark.asyncio
async def test_a_real_agents_form_shows_its_json_beside_it_without_cutting_a_line(qtbot):
    answers = DialogAnswers(qtbot)
    async with (
        serve_agent(travel_app_factory(chunk_delay=0)) as url,
        A2AAgent(url, input_handler=answers) as agent,
    ):
        run = asyncio.ensure_future(_stream(agent, "Plan a trip to Rome"))
        dialog = await asyncio.wait_for(answers.dialogs.get(), 15)
        assert dialog.isVisible()
        form = dialog.form
        form.field("departure_date").set_text("2026-05-01")
        form.field("return_date").set_text("2026-05-05")
        editor = form.json_editor
        assert editor is not None and '"departure_date": "2026-05-01"' in editor.toPlainText()
        widest = max(editor.fontMetrics().horizontalAdvance(line) for line in editor.toPlainText().splitlines())
        assert widest <= editor.viewport().width()  # every line of the answer readable, no sideways scrolling
        dialog.close_button.click()
        await asyncio.wait_for(run, 15)
