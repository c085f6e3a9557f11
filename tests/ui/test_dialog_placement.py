"""Dialogs open on their parent's screen, centred over its window, whole, at their final size (dialog_rules, rule 1).

A window that grows right after it is mapped races the window manager, which may then drop it at the
screen's corner with its title bar off the screen: the dialog must be complete and sized when shown.
The offscreen platform has one 800×800 screen; the main window is moved into its lower right part.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QMessageBox, QPlainTextEdit, QVBoxLayout, QWidget

from workbench.app import build_workbench
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.store import ProfileStore
from workbench.ui.dialog_rules import place_on_parent_screen, present, show_window
from workbench.ui.dialogs.connection import ConnectionDialog

WAIT_MS = 10_000


class _Resizes(QObject):
    """Records a window's resizes after it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shown = False
        self.after_show: list[tuple[int, int]] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show:
            self.shown = True
        elif event.type() == QEvent.Type.Resize and self.shown and isinstance(watched, QWidget):
            self.after_show.append((watched.width(), watched.height()))
        return False


@pytest.fixture
def bench(tmp_path: Path, qtbot: Any, qloop: asyncio.AbstractEventLoop, fail_keyring: None) -> Iterator[Any]:
    """The real window over a saved HTTP profile, no usable keyring, the window in the screen's lower right."""
    config = tmp_path / "config"
    ProfileStore(config).upsert(MCPHTTPProfile(id="remote", name="remote", url="http://127.0.0.1:9/mcp"))
    workbench = build_workbench(config, credentials=KeyringCredentialStore(allow_insecure=False))
    window = workbench.window
    window.resize(820, 560)  # the window's minimum size: most of it off the screen's right and bottom
    window.move(300, 420)
    window.show()
    qtbot.waitExposed(window)
    try:
        yield workbench
    finally:
        with qtbot.waitSignal(window.shutdown_finished, timeout=WAIT_MS):
            window.close()


def _expected_left(parent: QRect, frame: QRect, screen: QRect) -> int:
    """Where a frame centred over ``parent`` starts, pulled onto ``screen``."""
    left = parent.center().x() - frame.width() // 2
    return max(screen.left(), min(left, screen.right() + 1 - frame.width()))


def _open_edit_dialog(qtbot: Any, window: Any, resizes: _Resizes) -> ConnectionDialog:
    window.sidebar.select("remote")
    window.sidebar.dialog_opened.connect(lambda dialog: dialog.installEventFilter(resizes))
    window.activateWindow()
    with qtbot.waitSignal(window.sidebar.dialog_opened, timeout=WAIT_MS) as opened:
        QTest.keyClick(window.windowHandle(), Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = opened.args[0]
    assert isinstance(dialog, ConnectionDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=WAIT_MS)
    return dialog


def test_ctrl_e_opens_the_connection_dialog_whole_over_its_window_and_it_is_not_resized_once_shown(qtbot, bench):
    window = bench.window
    resizes = _Resizes()
    dialog = _open_edit_dialog(qtbot, window, resizes)
    note = dialog.credentials.status
    qtbot.waitUntil(note.isVisible, timeout=WAIT_MS)  # the keyring note ("no secure keyring") is in place
    screen = window.screen().availableGeometry()
    frame = dialog.frameGeometry()
    assert screen.contains(frame), (frame, screen)
    assert frame.topLeft() != QPoint(0, 0)
    assert abs(frame.left() - _expected_left(window.frameGeometry(), frame, screen)) <= 2
    assert resizes.after_show == []  # complete when shown: nothing made it grow after it was mapped
    assert note.height() >= note.heightForWidth(note.width())  # the note is whole
    QTest.keyClick(dialog.windowHandle(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.sidebar.dialog is None, timeout=WAIT_MS)


def test_a_dialog_taller_than_the_screen_is_shrunk_onto_it(qtbot, bench):
    window = bench.window
    dialog = QDialog(window)
    QVBoxLayout(dialog).addWidget(QPlainTextEdit("\n".join(f"line {i}" for i in range(200))))
    dialog.resize(500, 1400)
    qtbot.addWidget(dialog)
    present(dialog)
    qtbot.waitExposed(dialog)
    screen = window.screen().availableGeometry()
    assert screen.contains(dialog.frameGeometry()), (dialog.frameGeometry(), screen)
    dialog.reject()


def test_a_window_placed_again_keeps_where_the_user_moved_it_on_the_screen(qtbot, bench):
    window = bench.window
    box = QMessageBox(QMessageBox.Icon.Information, "Note", "Moved by the user", parent=window)
    qtbot.addWidget(box)
    show_window(box)
    qtbot.waitExposed(box)
    box.move(10, 30)
    box.hide()
    placed = place_on_parent_screen(box)
    assert placed.topLeft() == QPoint(10, 30)
    box.move(760, 780)  # partly off the screen
    placed = place_on_parent_screen(box)
    assert window.screen().availableGeometry().contains(placed)
