"""A new user's walk of the window (4): the keys of form dialogs, and what the window says and shows.

Keys go to the dialog's window as a keyboard's would (to whatever has the focus there); sizes are
measured on the widgets as laid out.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QDialog

from tests.support.connection_dialogs import new_connection_dialog
from tests.support.mcp_inspector import focused_template_field, inspector
from tests.support.no_keyring import no_keyring_error
from tests.support.prompt_dialogs import WeatherHandoff, ask, finish, press, sampling_request, type_text, user_prompts
from tests.support.signals import SignalLog
from tests.support.windows import demo_window
from workbench.core.credentials import BackendInfo
from workbench.core.errors import SamplingRejectedError
from workbench.core.protocols.base import ElicitationRequest, InputRequest
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.tool_approval import ToolCallRequest
from workbench.demo.a2a_agents.travel import TRIP_SCHEMA
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.tool_approval import ToolApprovalDialog
from workbench.ui.prompts import UserPrompts

WAIT_MS = 5000
NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]}

CTRL_ENTER = [
    pytest.param(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier, id="ctrl+return"),
    pytest.param(
        Qt.Key.Key_Enter, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.KeypadModifier, id="ctrl+enter"
    ),
]


@pytest.fixture
def prompts(tmp_path: Path, qloop: asyncio.AbstractEventLoop) -> UserPrompts:
    return user_prompts(tmp_path)


def _input(text: str, **kwargs: Any) -> InputRequest:
    return InputRequest("input", text, task_id="t-1", context_id="c-1", agent="Travel planner", **kwargs)


# ---------------------------------------------------------------------------------------------- 1. Ctrl+Enter


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_the_sampling_reply_approves_it(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    type_text(dialog, "Sunny")
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().text == "Sunny"  # approved as written: no new line added


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_with_no_sampling_reply_written_neither_approves_nor_rejects(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    press(dialog, key, modifiers)
    assert dialog.isVisible() and not answer.done()
    assert dialog.reply_edit.toPlainText() == ""
    finish(qtbot, dialog, answer)
    assert isinstance(answer.exception(), SamplingRejectedError)


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_an_elicitation_form_accepts_it(qtbot, prompts, key, modifiers):
    request = ElicitationRequest("form", "Who are you?", requested_schema=NAME_SCHEMA, agent="demo")
    dialog, answer = ask(qtbot, prompts, prompts.elicit(request))
    type_text(dialog, "Ada")
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().action == "accept" and answer.result().content == {"name": "Ada"}


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_an_incomplete_elicitation_form_does_nothing_and_says_why(qtbot, prompts, key, modifiers):
    request = ElicitationRequest("form", "Who are you?", requested_schema=NAME_SCHEMA, agent="demo")
    dialog, answer = ask(qtbot, prompts, prompts.elicit(request))
    press(dialog, key, modifiers)
    assert dialog.isVisible() and not answer.done()  # neither accepted nor declined
    assert not dialog.accept_button.isEnabled() and dialog.accept_hint.isVisible() and dialog.accept_hint.text()
    finish(qtbot, dialog, answer)
    assert answer.result().action == "cancel"


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_an_input_required_form_sends_it(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.answer_input(_input("When?", schema=TRIP_SCHEMA)))
    form = dialog.form
    for name, value in (("departure_date", "2026-12-04"), ("return_date", "2026-12-08")):
        field = form.field(name)
        field.editor.setFocus(Qt.FocusReason.TabFocusReason)
        type_text(dialog, value)
    assert dialog.send_button.isEnabled()
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().data["departure_date"] == "2026-12-04"


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_an_input_required_data_answer_sends_it(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.answer_input(_input("Check", data={"a": 1})))
    assert QApplication.focusWidget() is dialog.data_editor
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().data == {"a": 1}


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_on_the_focused_reject_button_approves_the_sampling_reply_never_rejects(
    qtbot, prompts, key, modifiers
):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    type_text(dialog, "Sunny")
    dialog.reject_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().text == "Sunny"


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_on_the_focused_reject_button_with_no_reply_does_not_reject(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    dialog.reject_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(dialog, key, modifiers)
    assert dialog.isVisible() and not answer.done()
    finish(qtbot, dialog, answer)


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_on_the_focused_decline_button_accepts_the_elicitation_never_declines(
    qtbot, prompts, key, modifiers
):
    request = ElicitationRequest("form", "Who are you?", requested_schema=NAME_SCHEMA, agent="demo")
    dialog, answer = ask(qtbot, prompts, prompts.elicit(request))
    type_text(dialog, "Ada")
    dialog.decline_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().action == "accept"


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_on_the_focused_cancel_task_button_sends_the_answer_never_cancels(qtbot, prompts, key, modifiers):
    dialog, answer = ask(qtbot, prompts, prompts.answer_input(_input("Which city?")))
    type_text(dialog, "Oslo")
    dialog.cancel_task_button.setFocus(Qt.FocusReason.TabFocusReason)
    press(dialog, key, modifiers)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().text == "Oslo" and not answer.result().cancel


@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_in_the_connection_dialog_saves_it(qtbot, key, modifiers):
    dialog = new_connection_dialog(qtbot, "mcp-http", "local", "http://127.0.0.1:9/mcp")
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    with qtbot.waitSignal(dialog.accepted, timeout=WAIT_MS):
        press(dialog, key, modifiers)
    assert dialog.profile().name == "local"


def _tool_call() -> ToolCallRequest:
    spec = ToolSpec(name="delete_everything", description="Deletes it all", input_schema={"type": "object"})
    return ToolCallRequest(tool=spec, arguments={}, caller="you", connection="demo")


@pytest.mark.parametrize(
    "make", [lambda: ToolApprovalDialog(_tool_call()), lambda: HandoffApprovalDialog(WeatherHandoff())]
)
@pytest.mark.parametrize(("key", "modifiers"), CTRL_ENTER)
def test_ctrl_enter_never_approves_a_tool_call_or_a_handoff_from_where_the_dialog_opens(qtbot, make, key, modifiers):
    dialog = make()
    qtbot.addWidget(dialog)
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    press(dialog, key, modifiers)
    assert dialog.result() != QDialog.DialogCode.Accepted
    dialog.reject()


# ---------------------------------------------------------------------------------------------- 3. no keyring


@pytest.mark.parametrize("kind", ["a2a", "mcp-http"])
def test_without_a_keyring_the_oauth_section_says_the_tokens_cannot_be_kept_as_the_credentials_notice_does(
    qtbot, no_keyring, kind
):
    error = no_keyring_error()  # what the workbench's keyring store says
    dialog = new_connection_dialog(qtbot, kind, "agent", "http://127.0.0.1:9/mcp")
    if kind == "mcp-http":
        dialog.oauth.auth_combo.setCurrentIndex(dialog.oauth.auth_combo.findData("oauth"))
    dialog.set_credentials_backend(None, error)  # as the sidebar's keyring check answers
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    notice, note = dialog.credentials.status, dialog.oauth.note
    assert notice.isVisible() and "no secure keyring" in notice.text()
    assert note.isVisible() and note.height() >= note.heightForWidth(note.width())
    assert "go to the system keyring" not in note.text()
    assert "no secure keyring" in note.text()  # the notice's words: one story in both sections
    dialog.set_credentials_backend(BackendInfo(name="keyring.backends.SecretService.Keyring", secure=True))
    assert "go to the system keyring" in note.text()  # a keyring found later: the tokens go there
    dialog.reject()


# ---------------------------------------------------------------------------------------------- 4. read errors


@pytest.mark.asyncio
async def test_a_failed_template_read_names_its_uri_once(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        field = await focused_template_field(qtbot, it)
        page = it.widget.resources.template_page
        failed = SignalLog(it.widget.vm.resource_read_failed)
        qtbot.keyClicks(field, "4")  # the demo has items 1, 2, 3, 7 …: no 4
        qtbot.keyClick(field, Qt.Key.Key_Return)
        _purpose, uri, view = await failed.wait_for()
        assert uri == "demo://items/4" and view.code == "remote"
        shown = page.banner.label.text()
        assert page.banner.isVisibleTo(page) and shown.count("demo://items/4") == 1, shown


# ---------------------------------------------------------------------------------------------- 5. JSON panes


LAPTOP = QSize(1366, 740)
"""A 1366×768 screen less a window's title bar: a maximised window's client area (test_window_space_budget)."""


async def settle() -> None:
    """Let the layouts run (a resize, a dock shown, a tool picked) before anything is measured."""
    for _ in range(4):
        await asyncio.sleep(0.02)
        QApplication.processEvents()


@pytest.mark.asyncio
@pytest.mark.parametrize("wire_log", [False, True], ids=["alone", "wire-log-open"])
async def test_a_small_tool_forms_json_fits_its_pane_with_no_scroll_bar_at_1366x768(qtbot, tmp_path, wire_log):
    async with demo_window(tmp_path, qtbot) as bench:
        window = bench.window
        window.resize(LAPTOP)
        if wire_log:
            window.wire_dock.toggleViewAction().trigger()
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        await settle()
        call = mcp.tools.detail.call
        for tool in ("task_count", "add"):
            assert mcp.tools.select_tool(tool)
            await settle()
            editor = call.form.json_editor
            document = editor.document()
            # a plain text document's height is in lines (wrapped lines counted)
            text = document.size().height() * editor.fontMetrics().lineSpacing() + 2 * document.documentMargin()
            needed = round(text) + 2 * editor.frameWidth()
            assert editor.height() >= needed, (tool, editor.height(), needed)
            # and Qt agrees that it fits (it wants a pixel more than the above: no scroll bar at exactly that)
            assert not editor.verticalScrollBar().isVisible(), (tool, editor.height(), needed)


CONTACT_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name"},
        "email": {"type": "string", "title": "Email", "format": "email"},
    },
    "required": ["name", "email"],
}


def test_an_elicitation_forms_problem_is_said_beside_its_field_and_beside_accept_not_a_third_time(qtbot, prompts):
    request = ElicitationRequest("form", "Who are you?", requested_schema=CONTACT_SCHEMA, agent="demo")
    dialog, answer = ask(qtbot, prompts, prompts.elicit(request))
    press(dialog, Qt.Key.Key_Tab)  # from Name (left empty) to Email
    type_text(dialog, "x")
    press(dialog, Qt.Key.Key_Tab)
    email = dialog.form.field("email")
    assert email.error_label.isVisible() and email.error_label.text()  # beside the field
    assert dialog.accept_hint.isVisible() and "Email" in dialog.accept_hint.text()  # where the user acts
    assert "to fix" not in dialog.form.errors_label.text()  # not listed a third time under the fields
    finish(qtbot, dialog, answer)
