"""ElicitationFormDialog: a real server's elicitation answered through the dialog (accept/decline/cancel)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui.asyncutil import open_dialog, wait_signal
from workbench.ui.dialogs.elicitation_form import DECLINED, ElicitationFormDialog

HTML = '<b style="color:red">URGENT</b> <img src="file:///etc/passwd">'

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 1},
        "email": {"type": "string", "format": "email"},
        "size": {"type": "integer", "minimum": 1, "maximum": 12},
        "when": {"type": "string", "format": "date"},
        "vip": {"type": "boolean", "default": False},
        "area": {"type": "string", "oneOf": [{"const": "in", "title": "Inside"}, {"const": "out", "title": "Outside"}]},
        "size_name": {"type": "string", "enum": ["s", "l"], "enumNames": ["Small", "Large"]},
        "extras": {"type": "array", "items": {"type": "string", "enum": ["cake", "wine"]}},
    },
    "required": ["name", "size"],
}


async def _opened(dialog: QDialog) -> asyncio.Task[int]:
    """Open ``dialog`` the way the app does (open() awaited through a future) once it is visible."""
    task = asyncio.ensure_future(open_dialog(dialog))
    await wait_signal(dialog.shown, timeout=5)
    return task


def _dialog(
    qtbot: Any, *, message: str = "Who comes?", agent: str = "demo", schema: Any = SCHEMA
) -> ElicitationFormDialog:
    dialog = ElicitationFormDialog(ElicitationRequest("form", message, requested_schema=schema, agent=agent))
    qtbot.addWidget(dialog)
    return dialog


def answered_through_dialogs(
    qtbot,
) -> tuple[asyncio.Queue[ElicitationFormDialog], Callable[[ElicitationRequest], Awaitable[ElicitationResponse]]]:
    """An elicitation handler that opens each request's dialog as the window does, and the queue of those dialogs."""
    dialogs: asyncio.Queue[ElicitationFormDialog] = asyncio.Queue()

    async def answer(request: ElicitationRequest) -> ElicitationResponse:
        dialog = ElicitationFormDialog(request)
        qtbot.addWidget(dialog)
        dialogs.put_nowait(dialog)
        await open_dialog(dialog)
        return dialog.response()

    return dialogs, answer


@pytest.mark.asyncio
async def test_a_real_servers_elicitation_is_filled_and_accepted_through_the_dialog(qtbot):
    dialogs, answer = answered_through_dialogs(qtbot)

    async with MCPAgent.in_process(build_server(), elicitation_handler=answer) as agent:
        call = asyncio.ensure_future(agent.call_tool("book_table", {}))
        dialog = await asyncio.wait_for(dialogs.get(), 15)
        assert dialog.isVisible()
        assert dialog.message_label.text() == "Book a table at Chez Demo: who, when and how many?"
        assert not dialog.accept_button.isEnabled()  # name, email, party size are required
        form = dialog.form
        form.field("name").set_text("Ada")
        form.field("email").set_text("ada@example.com")
        assert not dialog.accept_button.isEnabled()
        form.field("party_size").spin.setValue(4)
        form.field("area").select("terrace")
        form.field("outdoor").check.setCheckState(Qt.CheckState.Checked)
        assert dialog.accept_button.isEnabled()
        dialog.accept_button.click()
        result = await asyncio.wait_for(call, 15)
        assert dialog.response() == ElicitationResponse(
            "accept",
            {
                "name": "Ada",
                "email": "ada@example.com",
                "party_size": 4,
                "budget_eur": 50.0,
                "outdoor": True,
                "area": "terrace",
                "time": "19:00",
            },
        )
        assert not result.is_error
        assert result.content[0].text.startswith("Booked a table for 4 at 19:00, outside, terrace, for Ada")


@pytest.mark.asyncio
async def test_a_real_servers_elicitation_can_be_declined_or_cancelled_with_esc(qtbot):
    dialogs, answer = answered_through_dialogs(qtbot)

    async with MCPAgent.in_process(build_server(), elicitation_handler=answer) as agent:
        call = asyncio.ensure_future(agent.call_tool("book_table", {}))
        dialog = await asyncio.wait_for(dialogs.get(), 15)
        dialog.decline_button.click()
        assert (await asyncio.wait_for(call, 15)).content[0].text == "declined"
        assert dialog.response() == ElicitationResponse("decline")
        assert dialog.result() == DECLINED

        call = asyncio.ensure_future(agent.call_tool("book_table", {}))
        dialog = await asyncio.wait_for(dialogs.get(), 15)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert (await asyncio.wait_for(call, 15)).content[0].text == "cancelled"
        assert dialog.response() == ElicitationResponse("cancel")


@pytest.mark.asyncio
async def test_who_asks_and_the_message_are_shown_as_plain_text(qtbot):
    dialog = _dialog(qtbot, message=HTML, agent=HTML)
    assert dialog.message_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.message_label.text() == HTML
    assert dialog.who_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.who_label.text() == f"{HTML} asks:"


@pytest.mark.asyncio
async def test_the_restricted_subset_is_offered_with_titles_and_answered_in_full(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    form = dialog.form
    area, size_name, extras = form.field("area"), form.field("size_name"), form.field("extras")
    assert [area.combo.itemText(i) for i in range(area.combo.count())] == ["— not set —", "Inside", "Outside"]
    assert [size_name.combo.itemText(i) for i in range(size_name.combo.count())] == ["— not set —", "Small", "Large"]
    assert [extras.list.item(i).text() for i in range(extras.list.count())] == ["cake", "wine"]
    form.field("name").set_text("Bo")
    form.field("size").spin.setValue(12)
    form.field("when").set_text("2026-12-24")
    area.select("out")
    size_name.select("l")
    extras.set_checked("wine")
    dialog.accept_button.click()
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Accepted
    assert dialog.response() == ElicitationResponse(
        "accept",
        {
            "name": "Bo",
            "size": 12,
            "when": "2026-12-24",
            "vip": False,
            "area": "out",
            "size_name": "l",
            "extras": ["wine"],
        },
    )


@pytest.mark.asyncio
async def test_enter_submits_only_when_the_form_is_valid(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    name = dialog.form.field("name").editor
    name.setText("Cy")
    qtbot.keyClick(name, Qt.Key.Key_Return)  # size still missing: nothing happens
    assert dialog.isVisible() and not task.done()
    dialog.form.field("email").set_text("not an email")
    dialog.form.field("size").spin.setValue(2)
    assert not dialog.accept_button.isEnabled()
    assert "email: is not an e-mail address (name@example.com)" in dialog.form.errors()
    dialog.form.field("email").set_text("cy@example.com")
    qtbot.keyClick(name, Qt.Key.Key_Return)
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Accepted
    assert dialog.response().action == "accept"
    assert dialog.response().content["email"] == "cy@example.com"


@pytest.mark.asyncio
async def test_accept_validates_again_before_answering(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    dialog.on_accept_clicked()  # e.g. a stale enabled state: the form is checked again
    assert not task.done()
    assert dialog.response() == ElicitationResponse("cancel")
    assert not dialog.form.field("name").error_label.isHidden()
    dialog.reject()
    await asyncio.wait_for(task, 5)


@pytest.mark.asyncio
async def test_closing_the_window_is_cancel(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    dialog.form.field("name").set_text("Dee")
    dialog.close()
    assert await asyncio.wait_for(task, 5) == QDialog.DialogCode.Rejected
    assert dialog.response() == ElicitationResponse("cancel")


@pytest.mark.asyncio
async def test_the_json_view_can_be_shown_and_fills_the_form(qtbot):
    dialog = _dialog(qtbot)
    task = await _opened(dialog)
    assert dialog.form.json_pane.isHidden()
    dialog.json_toggle.setChecked(True)
    assert not dialog.form.json_pane.isHidden()
    dialog.form.json_editor.setPlainText('{"name": "Eve", "size": 3}')
    assert dialog.form.field("name").text() == "Eve"
    assert dialog.accept_button.isEnabled()
    dialog.accept_button.click()
    await asyncio.wait_for(task, 5)
    assert dialog.response() == ElicitationResponse("accept", {"name": "Eve", "size": 3})


@pytest.mark.asyncio
async def test_a_request_without_a_schema_can_still_be_accepted_empty(qtbot):
    dialog = _dialog(qtbot, schema=None)
    task = await _opened(dialog)
    assert dialog.accept_button.isEnabled()
    dialog.accept_button.click()
    await asyncio.wait_for(task, 5)
    assert dialog.response() == ElicitationResponse("accept", {})


@pytest.mark.asyncio
async def test_while_accept_is_greyed_the_dialog_says_which_fields_still_need_a_value_or_a_fix(qtbot):
    dialogs, answer = answered_through_dialogs(qtbot)

    async with MCPAgent.in_process(build_server(), elicitation_handler=answer) as agent:
        call = asyncio.ensure_future(agent.call_tool("book_table", {}))
        dialog = await asyncio.wait_for(dialogs.get(), 15)
        form = dialog.form
        qtbot.keyClicks(form.field("name").editor, "Ada")
        email = form.field("email").editor
        qtbot.keyClicks(email, "ada@")
        assert not dialog.accept_button.isEnabled()
        hint = dialog.accept_hint
        # the party size is empty, the email not an address yet: both named, by their labels
        assert hint.isVisible() and "party size" in hint.text().lower() and "Email" in hint.text()
        qtbot.keyClicks(email, "example.com")  # the address fixed; the party size still empty
        assert not dialog.accept_button.isEnabled()
        assert hint.isVisible() and "party size" in hint.text().lower() and "Email" not in hint.text()
        assert "Party" in dialog.accept_button.toolTip()  # the greyed button says it too
        qtbot.keyClicks(form.field("party_size").spin, "4")
        assert dialog.accept_button.isEnabled() and not hint.isVisible()
        dialog.cancel_button.click()
        await asyncio.wait_for(call, 15)
