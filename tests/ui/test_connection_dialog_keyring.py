"""The connection dialog without a secure keyring: a calm notice, secret fields off, nothing cut; per-kind URL examples.

The dialog is opened as the sidebar opens it (its keyring check included), with keyring's ``fail``
backend (what a box without Secret Service gets); kinds are switched with the keyboard.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMainWindow, QWidget

from tests.support.panel_context import make_context
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import SecureStorageUnavailableError
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.dialogs.connection_fields import KINDS
from workbench.ui.panels.sidebar.widget import SidebarWidget

WAIT_MS = 10_000


@pytest.fixture
def ctx(tmp_path: Path, qloop: asyncio.AbstractEventLoop, fail_keyring: None) -> PanelContext:
    ctx = make_context(tmp_path / "config")
    ctx.services.credentials = KeyringCredentialStore(allow_insecure=False)
    return ctx


@pytest.fixture
def dialog(qtbot: Any, ctx: PanelContext) -> Iterator[ConnectionDialog]:
    """ "Add connection" as the sidebar opens it, shown and active."""
    sidebar = SidebarWidget(ctx)  # not qtbot.addWidget: it would delete the sidebar and its dialog first
    sidebar.show()
    with qtbot.waitSignal(sidebar.dialog_opened, timeout=WAIT_MS) as opened:
        task = sidebar.add_profile()
    found = opened.args[0]
    assert isinstance(found, ConnectionDialog)
    qtbot.waitUntil(found.isActiveWindow, timeout=WAIT_MS)
    yield found
    if found.isVisible():
        found.reject()
    qtbot.waitUntil(task.done, timeout=WAIT_MS)
    sidebar.close()
    sidebar.deleteLater()


def _red_pixels(widget: QWidget) -> int:
    """Pixels of the widget drawn in an error red (text or marks)."""
    image = widget.grab().toImage()
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            colour = QColor(image.pixel(x, y))
            if colour.red() >= 150 and colour.green() <= 110 and colour.blue() <= 110:
                count += 1
    return count


def _next_kind(qtbot: Any, dialog: ConnectionDialog) -> None:
    """Choose the next kind with the keyboard (Down in the focused kind selector)."""
    dialog.kind_combo.setFocus()
    qtbot.waitUntil(dialog.kind_combo.hasFocus, timeout=WAIT_MS)
    QTest.keyClick(dialog.windowHandle(), Qt.Key.Key_Down)


def _whole_in_dialog(dialog: ConnectionDialog, widget: QWidget) -> bool:
    bottom = widget.mapTo(dialog, QPoint(0, widget.height())).y()
    return widget.height() >= widget.heightForWidth(widget.width()) and bottom <= dialog.height()


def test_without_a_keyring_the_dialog_opens_with_a_calm_notice_and_no_error_before_anything_was_tried(qtbot, dialog):
    dialog.set_kind("mcp-http")
    section = dialog.credentials
    qtbot.waitUntil(section.status.isVisible, timeout=WAIT_MS)  # says that secrets cannot be kept
    assert dialog.general_error.isHidden()
    assert _red_pixels(section) == 0  # a notice, not an error: nothing failed yet
    note = section.status.text()
    assert note.endswith(".)") and not note.endswith(".).")  # the hint's "(Keyring backend: ….)" ends it


def test_without_a_keyring_the_secret_fields_take_no_typing(qtbot, dialog):
    dialog.set_kind("mcp-http")
    section = dialog.credentials
    qtbot.waitUntil(section.status.isVisible, timeout=WAIT_MS)
    for field in (section.bearer, section.api_key):
        assert not field.edit.isEnabled()
        qtbot.keyClicks(field.edit, "s3cret")
        assert field.edit.text() == ""
    assert not section.headers.add_button.isEnabled()
    dialog.set_kind("mcp-stdio")
    assert not section.env.add_button.isEnabled()


def test_the_keyring_notice_stays_whole_through_every_kind_switch(qtbot, dialog):
    note = dialog.credentials.status
    qtbot.waitUntil(note.isVisible, timeout=WAIT_MS)
    screen = dialog.screen().availableGeometry()
    seen = [dialog.kind()]
    for _ in range(len(KINDS) - 1):
        _next_kind(qtbot, dialog)
        qtbot.waitUntil(lambda: _whole_in_dialog(dialog, note), timeout=WAIT_MS)
        assert screen.contains(dialog.frameGeometry())
        seen.append(dialog.kind())
    assert seen == [kind for kind, _ in KINDS]


def test_each_kinds_url_field_shows_a_url_of_that_kind(qtbot, dialog):
    examples = {}
    for kind, _ in KINDS[1:]:
        dialog.set_kind(kind)
        examples[kind] = QUrl(dialog.url_edit.placeholderText())
        assert examples[kind].isValid() and examples[kind].scheme() in ("http", "https")
    assert examples["mcp-http"].path() == "/mcp"
    assert examples["mcp-sse"].path() == "/sse"
    assert examples["a2a"].path() in ("", "/")  # an agent's base URL (its card is under /.well-known/)


def test_the_oauth_note_keeps_its_last_line_after_a_url_error_appears(qtbot, ctx):
    window = QMainWindow()  # as in the app: over the main window, filling the screen; the fields scroll
    qtbot.addWidget(window)
    window.showMaximized()
    dialog = ConnectionDialog(None, window)
    with pytest.raises(SecureStorageUnavailableError) as no_keyring:  # keyring's fail backend, as in the demo
        ctx.services.credentials.backend()
    dialog.set_credentials_backend(None, no_keyring.value)
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)
    QTest.keyClicks(dialog.name_edit, "bad")
    dialog.set_kind("mcp-http")
    dialog.oauth.auth_combo.setCurrentIndex(dialog.oauth.auth_combo.findData("oauth"))
    note = dialog.oauth.note
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()) > 0, timeout=WAIT_MS)
    dialog.url_edit.setFocus()
    qtbot.waitUntil(dialog.url_edit.hasFocus, timeout=WAIT_MS)
    QTest.keyClicks(dialog.url_edit, "not a url")  # its error line appears under the URL
    QTest.keyClick(dialog.url_edit, Qt.Key.Key_Return)  # OK: every problem shown, the dialog stays
    assert dialog.isVisible() and "url" in dialog.field_errors()
    url_error = dialog.url_edit.parentWidget().error  # the URL's FieldRow
    qtbot.waitUntil(lambda: url_error.height() >= url_error.heightForWidth(url_error.width()) > 0, timeout=WAIT_MS)
    assert dialog.fields_area.verticalScrollBar().maximum() > 0  # the case seen: the fields scroll
    # every line of the note ("…the tokens go to the" / "system keyring.") gets its room
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()), timeout=WAIT_MS)
    assert note.heightForWidth(note.width()) > note.fontMetrics().lineSpacing() * 2  # three lines at this width
    assert dialog.fields_area.squeezed_labels() == []
    dialog.reject()
