"""The window as a new user walks it: Ctrl+Enter in a tool form inside the window, the keyring note
of the connection dialog shown whole, a wire-log row that keeps its highlight through a filter, an
error in the status bar that stays whole beside the labels that grow after it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QStatusBar, QWidget

from tests.support.panel_context import make_context
from tests.support.signals import SignalLog
from tests.support.windows import WAIT, demo_window
from workbench.app import build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConnectError, SecureStorageUnavailableError
from workbench.core.wire.records import Direction
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.errors import describe_error
from workbench.ui.panels.wirelog.widget import WireLogWidget


@pytest.mark.asyncio
async def test_ctrl_enter_in_a_tool_form_of_the_window_calls_the_tool(qtbot, tmp_path):
    # The window's "Send message" action has Ctrl+Return too; both matched, Qt called neither
    # ("Ambiguous shortcut overload") although the form says "Call (Ctrl+Enter)".
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-mcp")
        inspector = bench.window.inspector.inspector("mcp")
        assert inspector is not None and inspector.tools.select_tool("add")
        call = inspector.tools.detail.call
        assert call.form is not None
        call.form.set_value({"a": 2, "b": 3})
        finished = SignalLog(inspector.vm.calls.finished)
        assert call.form.json_editor is not None
        targets = (call.form.findChildren(QAbstractSpinBox)[0], call.form.json_editor)  # a field, the raw JSON
        for key, field in zip((Qt.Key.Key_Return, Qt.Key.Key_Enter), targets, strict=True):
            field.setFocus()
            qtbot.keyClick(field, key, Qt.KeyboardModifier.ControlModifier)
            (record,) = await finished.wait_for(timeout=WAIT)
            assert record.outcome == "ok" and record.arguments == {"a": 2, "b": 3}
            assert call.form.value() == {"a": 2, "b": 3}  # no new line typed into the JSON
            finished = SignalLog(inspector.vm.calls.finished)
        # the chat's Ctrl+Enter still sends (the demo server's chat: its "ask" tool)
        chat = bench.window.chat
        bench.window.focus_chat()
        finished = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
        chat.input.setPlainText("help")
        qtbot.keyClick(chat.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert chat.input.toPlainText() == ""  # sent
        _, state = await finished
        assert state == "completed"


def test_a_keyring_note_arriving_after_the_dialog_opened_is_shown_whole(qtbot):
    dialog = ConnectionDialog(None)
    qtbot.addWidget(dialog)
    dialog.set_kind("mcp-stdio")
    dialog.show()
    qtbot.waitExposed(dialog)
    error = SecureStorageUnavailableError(
        "No secure credential store is available (keyring backend: keyring.backends.fail.Keyring); nothing was stored.",
        hint="Install and unlock a Secret Service (GNOME Keyring, KWallet); then open this dialog again.",
    )
    dialog.set_credentials_backend(None, error)  # the sidebar's keyring check answers after show()
    note = dialog.credentials.status
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()), timeout=2000)  # every line of the note
    dialog.show_save_error(error)
    qtbot.waitUntil(
        lambda: all(
            label.height() >= label.heightForWidth(label.width())
            for label in (note, dialog.general_error)
            if label.isVisible()
        ),
        timeout=2000,
    )


def test_a_refilter_keeps_the_selected_wire_record_highlighted(
    tmp_path: Path, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    ctx = make_context(tmp_path)
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    vm, model, wire = widget.vm, widget.vm.model, ctx.services.wire
    with qtbot.waitSignal(model.flushed, timeout=5000):
        for i in range(1, 7):
            wire.jsonrpc("c1", Direction.OUT, {"jsonrpc": "2.0", "id": i, "method": "ping" if i % 2 else "tools/call"})
    widget.table.selectRow(3)
    chosen = vm.current
    assert chosen is not None and chosen.method == "tools/call"
    with qtbot.waitSignal(model.filter_applied, timeout=5000):
        widget.filters.text_filter.setText("tools/call")
    row = model.row_of(chosen)
    assert row is not None
    # the detail pane still shows the record, and the table marks which row it is
    assert widget.table.currentIndex().row() == row
    assert [i.row() for i in widget.table.selectionModel().selectedRows()] == [row]
    with qtbot.waitSignal(model.filter_applied, timeout=5000):
        widget.filters.text_filter.setText("")
    assert [i.row() for i in widget.table.selectionModel().selectedRows()] == [model.row_of(chosen)]
    vm.close()


def _lay_out(bar: QStatusBar) -> None:
    """Deliver the pending resize and layout events now (Qt lays the bar out on the next loop turn)."""
    QApplication.sendPostedEvents()
    layout = bar.layout()
    assert layout is not None
    layout.activate()


def _message_fits(bar: QStatusBar) -> bool:
    """The bar's message is drawn whole in the room its widgets leave (they sit on its right)."""
    widgets = [w for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly) if w.isVisible()]
    left_of_widgets = min((w.geometry().left() for w in widgets), default=bar.width())
    return bar.fontMetrics().horizontalAdvance(bar.currentMessage()) < left_of_widgets


@pytest.mark.asyncio
@pytest.mark.expected_error_logs  # the failure is logged with its traceback
async def test_an_error_in_the_status_bar_stays_whole_when_the_connection_label_grows(qtbot, tmp_path):
    # The labels on the right grow after the error is shown (another connection selected): the line is
    # elided again for the room they leave, so the message is never hidden under them. The window does
    # not put errors in the status bar (errors.py); the test drives its line directly.
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window, ctx = bench.window, bench.ctx
    qtbot.addWidget(window)
    window.resize(1024, 640)
    window.show()
    bar = window.statusBar()
    try:
        error = ConnectError("Cannot start the server for stdio: " + "/nonexistent/mcp-server " * 8)
        window.status.show_error(describe_error(error, "connecting to Broken server"))
        assert bar.currentMessage().endswith("…")
        ctx.selection.select("a-connection-whose-saved-profile-is-gone-and-whose-id-is-long")
        _lay_out(bar)
        assert bar.currentMessage().endswith("…") and _message_fits(bar)
        window.resize(900, 640)  # a narrower window elides it again
        _lay_out(bar)
        assert bar.currentMessage().endswith("…") and _message_fits(bar)
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
        window.close()
        await done
