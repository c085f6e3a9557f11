"""Auth-required dialog: a masked token field, Send / Cancel task, and the token gone once entered."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.ui.dialogs.auth_required import AuthRequiredDialog

TOKEN = "s3cr3t-token-value-42"


def _request(**kw) -> InputRequest:
    values = {"kind": "auth", "text": "Sign in to continue", "task_id": "t-1", "context_id": "c-1", "agent": "Bank"}
    values.update(kw)
    return InputRequest(**values)


def _dialog(qtbot, request: InputRequest | None = None) -> AuthRequiredDialog:
    dialog = AuthRequiredDialog(request or _request())
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


def test_the_token_field_is_masked_and_send_waits_for_a_token(qtbot):
    dialog = _dialog(qtbot)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.send_button.isEnabled()
    qtbot.keyClicks(dialog.token_edit, "   ")
    assert not dialog.send_button.isEnabled()


def test_show_toggle_reveals_and_masks_the_token_while_typing(qtbot):
    dialog = _dialog(qtbot)
    dialog.show_check.setChecked(True)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Normal
    dialog.show_check.setChecked(False)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password


def test_send_answers_with_the_token_as_text_and_wipes_the_field(qtbot, caplog):
    caplog.set_level(logging.DEBUG)
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    dialog.show_check.setChecked(True)
    dialog.send_button.click()
    assert not dialog.isVisible()
    assert dialog.response() == InputResponse(text=TOKEN)
    assert dialog.token_edit.text() == ""  # never visible again, even if the dialog is shown again
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


def test_enter_in_the_field_sends(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    qtbot.keyClick(dialog.token_edit, Qt.Key.Key_Return)
    assert dialog.response() == InputResponse(text=TOKEN)


def test_a_pasted_bearer_prefix_and_whitespace_are_dropped(qtbot):
    dialog = _dialog(qtbot)
    dialog.token_edit.setText(f"  Bearer {TOKEN}\n")
    dialog.send_button.click()
    assert dialog.response() == InputResponse(text=TOKEN)


def test_cancel_task_answers_cancel(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    assert dialog.cancel_button.text() == "Cancel task"
    dialog.cancel_button.click()
    assert dialog.response() == InputResponse(cancel=True)
    assert dialog.token_edit.text() == ""


def test_escape_leaves_the_answer_open(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert dialog.response() is None
    assert dialog.token_edit.text() == ""


def test_an_http_401_on_connect_is_described_and_has_no_task_to_cancel(qtbot):
    request = _request(
        text="The agent refused the request (HTTP 401).",
        task_id="",
        context_id="",
        data={"reason": "http", "http_status": 401, "url": "http://127.0.0.1:9/a2a"},
    )
    dialog = _dialog(qtbot, request)
    assert dialog.cancel_button.text() == "Cancel"
    assert "401" in dialog.details_label.text()
    assert "http://127.0.0.1:9/a2a" in dialog.details_label.text()


@pytest.mark.parametrize("label", ["intro_label", "message_label", "details_label"])
def test_agent_text_is_shown_as_plain_text(qtbot, label):
    probe = "<b style='color:red'>URGENT</b><img src='file:///etc/passwd'>"
    dialog = _dialog(qtbot, _request(text=probe, agent=probe, data={"note": probe}))
    widget = getattr(dialog, label)
    assert widget.textFormat() == Qt.TextFormat.PlainText
    assert probe in widget.text()
