"""A new user's walk of the window (6): secrets with no keyring, text panes that fit, why a button is greyed.

Keys go to the widget that has the focus, as a keyboard's would; sizes are measured on the widgets as
laid out.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QPlainTextEdit, QSplitter, QWidget

from tests.support.no_keyring import no_keyring_dialog
from tests.support.panel_context import make_context
from workbench.core.errors import SamplingRejectedError
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.connection import NO_KEYRING_NOTICE, ConnectionDialog
from workbench.ui.dialogs.secret_fields import SecretField
from workbench.ui.panels.chat.widget import ChatWidget
from workbench.ui.panels.inspector.mcp.call_log import CALL_LOG_MIN_LINES, CallLogWidget
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord
from workbench.ui.panels.wirelog.detail import WireDetailWidget
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.prompts import UserPrompts

WAIT_MS = 5000


def _choose(qtbot: Any, combo: QComboBox, value: str) -> None:
    """Choose ``value`` in ``combo`` with the keyboard: Home, then Down until it is current."""
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentData() == value:
            return
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == value, (value, combo.currentData())


def _shown_dialog(qtbot: Any, kind: str) -> ConnectionDialog:
    dialog = no_keyring_dialog(qtbot, kind)
    if kind == "mcp-http":
        _choose(qtbot, dialog.oauth.auth_combo, "oauth")
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    return dialog


def _takes_no_typing(qtbot: Any, field: SecretField) -> None:
    assert field.isVisible(), field.edit.accessibleName()
    qtbot.keyClicks(field.edit, "s3cret")
    assert field.edit.text() == "", field.edit.accessibleName()
    assert not field.edit.isEnabled() and field.edit.toolTip() == NO_KEYRING_NOTICE


# ---------------------------------------------------------------------------------------------- 1. no keyring


@pytest.mark.parametrize("kind", ["mcp-http", "a2a"])
def test_without_a_keyring_the_oauth_client_secret_takes_no_typing_and_a_client_that_needs_one_is_not_saved(
    qtbot, no_keyring, kind
):
    dialog = _shown_dialog(qtbot, kind)
    oauth = dialog.oauth
    _choose(qtbot, oauth.client_combo, "pre-registered")
    oauth.client_id_edit.setText("client-1")
    _takes_no_typing(qtbot, oauth.client_secret)
    assert not dialog.ok_button().isEnabled() and "auth" in dialog.field_errors()  # says why it cannot be saved
    _choose(qtbot, oauth.token_auth_combo, "none")  # a public client needs no secret
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    dialog.reject()


@pytest.mark.parametrize("kind", ["mcp-http", "a2a"])
def test_without_a_keyring_a_private_key_jwt_client_is_offered_its_key_file_not_the_keyring_import(
    qtbot, no_keyring, kind
):
    dialog = _shown_dialog(qtbot, kind)
    oauth = dialog.oauth
    _choose(qtbot, oauth.client_combo, "private-key-jwt")
    source = oauth.grant_fields.key_source_combo
    assert source.isVisible() and source.currentData() == "file"
    source.setFocus()
    for key in (Qt.Key.Key_Down, Qt.Key.Key_End, Qt.Key.Key_PageDown):
        QTest.keyClick(source, key)
        assert source.currentData() == "file"  # the import is not offered
    model = source.model()
    assert isinstance(model, QStandardItemModel)
    keyring_item = model.item(source.findData("keyring"))
    assert not keyring_item.isEnabled() and "no secure keyring" in keyring_item.toolTip()
    assert oauth.key_file_edit.isEnabled() and oauth.key_browse.isEnabled()
    dialog.reject()


@pytest.mark.parametrize("grant", ["jwt_bearer", "enterprise_managed"])
def test_without_a_keyring_the_grants_pasted_tokens_and_idp_secret_take_no_typing(qtbot, no_keyring, grant):
    dialog = _shown_dialog(qtbot, "mcp-http")
    oauth = dialog.oauth
    _choose(qtbot, oauth.client_combo, "pre-registered")
    _choose(qtbot, oauth.grant_combo, grant)
    fields = oauth.grant_fields
    secrets = [fields.assertion_secret] if grant == "jwt_bearer" else [fields.idp_secret, fields.id_token_secret]
    for field in secrets:
        _takes_no_typing(qtbot, field)
    assert not dialog.ok_button().isEnabled() and "auth" in dialog.field_errors()
    dialog.reject()


# ---------------------------------------------------------------------------------------------- 2. text panes


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _fits_with_no_scroll_bar(editor: QPlainTextEdit) -> None:
    """The pane shows its text whole: at least its lines, margins and frame tall, and Qt shows no vertical bar."""
    document = editor.document()
    lines = max(document.blockCount(), round(document.documentLayout().documentSize().height()))
    needed = lines * editor.fontMetrics().lineSpacing() + 2 * round(document.documentMargin()) + 2 * editor.frameWidth()
    sideways = editor.horizontalScrollBar()
    needed += sideways.height() if sideways.isVisible() else 0
    assert editor.height() >= needed, (editor.objectName(), editor.height(), needed)
    assert not editor.verticalScrollBar().isVisible(), (editor.objectName(), editor.height(), needed)


@pytest.mark.parametrize("lines", [3, 6])
def test_the_chat_message_box_shows_what_is_typed_with_no_scroll_bar(qtbot, tmp_path: Path, qloop, lines):
    chat = ChatWidget(make_context(tmp_path / "config"))
    qtbot.addWidget(chat)
    chat.resize(900, 700)
    chat.show()
    qtbot.waitExposed(chat)
    chat.input.setPlainText("\n".join(f"line {n}" for n in range(lines)))
    _settle()
    _fits_with_no_scroll_bar(chat.input)


class _TallResult(QWidget):
    """A result pane whose content wants more room than there is (the log keeps its floor of lines)."""

    def content_height(self) -> int:
        return 10_000


def test_a_call_log_at_its_floor_of_lines_shows_them_with_no_scroll_bar(qtbot):
    split = QSplitter(Qt.Orientation.Vertical)
    qtbot.addWidget(split)
    split.addWidget(_TallResult())
    log = CallLogWidget(split, split.widget(0))  # type: ignore[arg-type]
    split.resize(600, 500)
    split.show()
    qtbot.waitExposed(split)
    record = CallRecord("c-1", "tool", {})
    record.logs = [f"log line {n}" for n in range(CALL_LOG_MIN_LINES)]
    log.show_record(record)
    qtbot.waitUntil(lambda: split.sizes()[0] > split.sizes()[1], timeout=WAIT_MS)
    _settle()
    _fits_with_no_scroll_bar(log.text)


@pytest.mark.parametrize("lines", [3, 6])
def test_a_wire_record_detail_sized_for_its_lines_shows_them_with_no_scroll_bar(qtbot, tmp_path: Path, qloop, lines):
    detail = WireDetailWidget(WireLogViewModel(make_context(tmp_path / "config")))
    qtbot.addWidget(detail)
    width = 700
    detail.resize(width, detail.height_for_lines(lines, width=width))
    detail.show()
    qtbot.waitExposed(detail)
    # one line wider than the pane: the horizontal scroll bar shows, as for a long payload line
    text = "\n".join(["x" * 400, *(f"line {n}" for n in range(lines - 1))])
    detail.pretty_view.set_text(text)
    detail.pretty_view.save_button.hide()  # as the detail fills a tab: its own row has the Save button
    _settle()
    editor = detail.pretty_view.editor
    assert editor.horizontalScrollBar().isVisible()
    _fits_with_no_scroll_bar(editor)


# ---------------------------------------------------------------------------------------------- 3. greyed Approve


def test_the_sampling_dialog_says_beside_its_greyed_approve_why_and_the_words_go_once_it_can_be_pressed(
    qtbot, tmp_path: Path, qloop
):
    prompts = UserPrompts(make_context(tmp_path), lambda: None)
    question = [SamplingMessage("user", [ContentPart("text", text="What is the weather in Oslo?")])]
    with qtbot.waitSignal(prompts.prompt_shown, timeout=WAIT_MS) as shown:
        answer = asyncio.ensure_future(prompts.sample(SamplingRequest(question, max_tokens=50, agent="demo")))
    dialog = shown.args[0]
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    approve, hint = dialog.approve_button, dialog.approve_hint
    assert not approve.isEnabled() and hint.isVisible() and hint.text().endswith(".")
    assert hint.parentWidget() is approve.parentWidget()  # in the buttons' row, beside Approve
    assert 0 <= approve.x() - (hint.x() + hint.width()) <= 3 * hint.fontMetrics().averageCharWidth()
    assert hint.width() >= hint.sizeHint().width()  # the sentence whole, not cut
    dialog.reply_edit.setFocus()
    for char in "Sunny":
        QTest.keyClick(dialog.windowHandle(), char)
    assert approve.isEnabled() and not hint.isVisible()
    for _ in "Sunny":
        QTest.keyClick(dialog.windowHandle(), Qt.Key.Key_Backspace)
    assert not approve.isEnabled() and hint.isVisible()
    dialog.reject()
    qtbot.waitUntil(answer.done, timeout=WAIT_MS)
    assert isinstance(answer.exception(), SamplingRejectedError)
