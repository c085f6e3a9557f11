"""Dialogs open with the keyboard where the hands are and never with a destructive default (dialog_rules, rule 2 and 3).

Requests arrive as in the app (``UserPrompts``); the keys go to the dialog's window as a keyboard's would
(to whatever has the focus there), typed right after the dialog opened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from tests.support.prompt_dialogs import WeatherHandoff, ask, finish, press, sampling_request, type_text, user_prompts
from workbench.core.errors import SamplingRejectedError
from workbench.core.protocols.base import ElicitationRequest, InputRequest
from workbench.demo.a2a_agents.travel import TRIP_SCHEMA
from workbench.demo.mcp_server.schemas import BookingForm
from workbench.ui.dialog_rules import is_destructive, present
from workbench.ui.dialogs.auth_required import AuthRequiredDialog
from workbench.ui.dialogs.elicitation_form import ElicitationFormDialog
from workbench.ui.dialogs.elicitation_url import UrlElicitationDialog
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.dialogs.sampling import SamplingDialog
from workbench.ui.prompts import UserPrompts

WAIT_MS = 5000


@pytest.fixture
def prompts(tmp_path: Path, qloop: asyncio.AbstractEventLoop) -> UserPrompts:
    return user_prompts(tmp_path)


def test_typing_as_the_sampling_dialog_opens_writes_the_reply_and_enter_never_rejects(qtbot, prompts):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    assert isinstance(dialog, SamplingDialog)
    type_text(dialog, "Sunny")
    assert dialog.reply_edit.toPlainText() == "Sunny"  # nothing typed was lost
    press(dialog, Qt.Key.Key_Return)
    assert dialog.isVisible() and not answer.done()  # Enter wrote a new line; the request was not rejected
    assert not dialog.reject_button.isDefault()
    # Enter in the model field sends the written reply: Approve is the default, Reject never is
    qtbot.mouseClick(dialog.model_edit, Qt.MouseButton.LeftButton)
    press(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert answer.result().text == "Sunny\n"


def test_enter_right_after_the_sampling_dialog_opens_does_not_reject(qtbot, prompts):
    dialog, answer = ask(qtbot, prompts, prompts.sample(sampling_request()))
    press(dialog, Qt.Key.Key_Return)
    qtbot.mouseClick(dialog.model_edit, Qt.MouseButton.LeftButton)
    press(dialog, Qt.Key.Key_Return)  # nothing written: Approve is greyed and nothing else answers
    assert dialog.isVisible() and not answer.done()
    finish(qtbot, dialog, answer)
    assert isinstance(answer.exception(), SamplingRejectedError)


def test_typing_as_an_elicitation_opens_fills_the_forms_first_field_and_enter_never_declines(qtbot, prompts):
    schema = BookingForm.model_json_schema()
    request = ElicitationRequest("form", "Book a table at Chez Demo", requested_schema=schema, agent="demo")
    dialog, answer = ask(qtbot, prompts, prompts.elicit(request))
    assert isinstance(dialog, ElicitationFormDialog)
    type_text(dialog, "Ada")
    field = dialog.form.field("name")
    assert field is not None and isinstance(field.editor, QLineEdit)
    assert field.editor.text() == "Ada"
    press(dialog, Qt.Key.Key_Return)  # the form is not complete: Enter answers nothing
    assert dialog.isVisible() and not answer.done()
    assert not dialog.decline_button.isDefault()
    finish(qtbot, dialog, answer)
    assert answer.result().action == "cancel"


def test_typing_as_an_input_required_form_opens_fills_its_first_field(qtbot, prompts):
    request = InputRequest(
        "input", "When do you travel?", schema=TRIP_SCHEMA, task_id="t-1", context_id="c-1", agent="Travel planner"
    )
    dialog, answer = ask(qtbot, prompts, prompts.answer_input(request))
    assert isinstance(dialog, InputRequiredDialog)
    type_text(dialog, "2026-12-04")
    field = dialog.form.field("departure_date") if dialog.form is not None else None
    assert field is not None and isinstance(field.editor, QLineEdit)
    assert field.editor.text() == "2026-12-04"
    press(dialog, Qt.Key.Key_Return)  # the return date is still missing: nothing is sent, the task is not cancelled
    assert dialog.isVisible() and not answer.done()
    assert not dialog.cancel_task_button.isDefault()
    finish(qtbot, dialog, answer)


def test_typing_as_an_input_required_question_opens_writes_the_answer(qtbot, prompts):
    request = InputRequest("input", "Which city?", task_id="t-1", context_id="c-1", agent="Travel planner")
    dialog, answer = ask(qtbot, prompts, prompts.answer_input(request))
    type_text(dialog, "Oslo")
    assert isinstance(dialog, InputRequiredDialog) and dialog.text_editor is not None
    assert dialog.text_editor.toPlainText() == "Oslo"
    finish(qtbot, dialog, answer)


def _input(text: str, kind: str = "input", **kwargs: Any) -> InputRequest:
    return InputRequest(kind, text, task_id="t-1", context_id="c-1", **kwargs)  # type: ignore[arg-type]


DIALOGS: dict[str, Callable[[], QDialog]] = {
    "sampling": lambda: SamplingDialog(sampling_request()),
    "elicitation form": lambda: ElicitationFormDialog(
        ElicitationRequest("form", "Who?", requested_schema=BookingForm.model_json_schema())
    ),
    "elicitation url": lambda: UrlElicitationDialog(
        ElicitationRequest("url", "Connect", url="https://example.com/connect", elicitation_id="e1")
    ),
    "input form": lambda: InputRequiredDialog(_input("When?", schema=TRIP_SCHEMA)),
    "input data": lambda: InputRequiredDialog(_input("Check", data={"a": 1})),
    "input text": lambda: InputRequiredDialog(_input("Which city?")),
    "auth": lambda: AuthRequiredDialog(_input("Sign in", kind="auth")),
    "handoff approval": lambda: HandoffApprovalDialog(WeatherHandoff()),
}


@pytest.mark.parametrize("name", list(DIALOGS))
def test_every_dialog_opens_focused_on_a_field_or_a_safe_button_and_defaults_to_no_destructive_one(qtbot, name):
    dialog = DIALOGS[name]()
    qtbot.addWidget(dialog)
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    focused = QApplication.focusWidget()
    assert focused is not None and focused.window() is dialog
    assert isinstance(focused, QLineEdit | QPlainTextEdit | QAbstractSpinBox | QComboBox | QPushButton)
    if isinstance(focused, QPushButton):
        assert not is_destructive(focused)
    buttons = [b for b in dialog.findChildren(QPushButton) if b.isVisibleTo(dialog)]
    assert [b.text() for b in buttons if b.isDefault() and is_destructive(b)] == []
    dialog.reject()


def _approval(qtbot: Any) -> tuple[QMainWindow, HandoffApprovalDialog]:
    """The approval dialog opened as the app opens it: over a shown window, through ``present``."""
    window = QMainWindow()
    qtbot.addWidget(window)
    window.resize(800, 600)
    window.show()
    dialog = HandoffApprovalDialog(WeatherHandoff(), window)
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    return window, dialog  # the caller holds the window: it owns the dialog


def _tab_stops(start: QWidget, count: int) -> list[QWidget]:
    """The widgets Tab visits from ``start``, pressing the key ``count`` times."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    seen = []
    for _ in range(count):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    return seen


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Enter])
def test_handoff_approval_enter_on_the_focused_approve_approves_and_deny_is_never_the_default(qtbot, key):
    _window, dialog = _approval(qtbot)
    dialog.always_check.setFocus(Qt.FocusReason.TabFocusReason)  # off the buttons: the dialog's own default shows
    assert dialog.approve_button.isDefault() and not dialog.deny_button.isDefault()
    dialog.approve_button.setFocus(Qt.FocusReason.TabFocusReason)
    with qtbot.waitSignal(dialog.finished, timeout=WAIT_MS):
        QTest.keyClick(dialog.approve_button, key)
    assert dialog.decision().approved


def test_handoff_approval_enter_on_the_focused_deny_denies(qtbot):
    _window, dialog = _approval(qtbot)
    assert QApplication.focusWidget() is dialog.deny_button  # rule 2: a permission starts on its refusal
    with qtbot.waitSignal(dialog.rejected, timeout=WAIT_MS):
        QTest.keyClick(dialog.deny_button, Qt.Key.Key_Return)
    assert not dialog.decision().approved


def test_handoff_approval_tab_goes_from_always_allow_to_approve_then_deny(qtbot):
    _window, dialog = _approval(qtbot)
    stops = _tab_stops(dialog.detail_view, 3)
    assert stops == [dialog.always_check, dialog.approve_button, dialog.deny_button]
    # Tab+Space from the check box approves (the next stop is Approve, never Deny)
    dialog.always_check.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(dialog.always_check, Qt.Key.Key_Tab)
    with qtbot.waitSignal(dialog.accepted, timeout=WAIT_MS):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
