"""Prompt argument completion: a pick, Escape or a click on "Get prompt" asks the server nothing more."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from workbench.ui.panels.inspector.mcp.completing import DEBOUNCE_MS, CompletingLineEdit

QUIET_MS = DEBOUNCE_MS * 3
"""Long enough for a debounced request to have gone out had one been started."""


class Server:
    """Answers each request at once with the values starting with the text (like a real server)."""

    def __init__(self, field: CompletingLineEdit, values: list[str]) -> None:
        self.asked: list[str] = []
        self.values = values
        self.field = field
        field.completion_requested.connect(self.on_requested)

    def on_requested(self, text: str) -> None:
        self.asked.append(text)
        self.field.offer([v for v in self.values if v.startswith(text)])


@pytest.fixture
def window(qtbot: Any) -> QWidget:
    window = QWidget()
    qtbot.addWidget(window)
    return window


@pytest.fixture
def form(qtbot: Any, window: QWidget) -> tuple[CompletingLineEdit, QPushButton, Server]:
    layout = QVBoxLayout(window)
    button = QPushButton("Get prompt", window)
    field = CompletingLineEdit(window)
    layout.addWidget(field)
    layout.addWidget(button)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    button.setFocus()
    server = Server(field, ["pirate", "pirouette", "poet"])
    field.setFocus(Qt.FocusReason.MouseFocusReason)  # the user clicks into the field
    qtbot.waitUntil(lambda: server.asked == [""])
    return field, button, server


def _type_and_wait_for_popup(qtbot: Any, field: CompletingLineEdit, server: Server, text: str) -> None:
    before = len(server.asked)
    qtbot.keyClicks(field, text)
    qtbot.waitUntil(lambda: len(server.asked) == before + 1 and field.completer().popup().isVisible())


def test_picking_a_suggestion_closes_the_popup_and_asks_nothing_more(qtbot: Any, form: Any) -> None:
    field, _button, server = form
    _type_and_wait_for_popup(qtbot, field, server, "pi")
    popup = field.completer().popup()
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert field.text() == "pirate" and not popup.isVisible()
    with qtbot.assertNotEmitted(field.completion_requested, wait=QUIET_MS):
        pass
    assert not popup.isVisible()
    assert server.asked == ["", "pi"]
    qtbot.keyClicks(field, "x")  # typing again asks again
    qtbot.waitUntil(lambda: server.asked[-1:] == ["piratex"])
    assert field.values() == [] and not popup.isVisible()  # nothing suggested: no empty popup


def test_escape_closes_the_popup_for_good(qtbot: Any, form: Any) -> None:
    field, _button, server = form
    _type_and_wait_for_popup(qtbot, field, server, "p")
    popup = field.completer().popup()
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    assert not popup.isVisible()
    with qtbot.assertNotEmitted(field.completion_requested, wait=QUIET_MS):
        pass
    assert not popup.isVisible() and server.asked == ["", "p"]


def test_clicking_the_button_while_suggestions_show_asks_nothing_and_a_late_answer_pops_nothing(
    qtbot: Any, form: Any
) -> None:
    field, button, server = form
    _type_and_wait_for_popup(qtbot, field, server, "po")
    popup = field.completer().popup()
    popup.hide()  # a click outside the popup closes it first…
    button.setFocus(Qt.FocusReason.MouseFocusReason)  # …then the button takes the focus and the click
    with qtbot.assertNotEmitted(field.completion_requested, wait=QUIET_MS):
        button.click()
    field.offer(["poet"])  # an answer still on its way arrives after the click
    assert not popup.isVisible() and server.asked == ["", "po"]


@pytest.mark.asyncio
async def test_tab_goes_from_the_last_argument_to_get_prompt(qtbot: Any, tmp_path: Any) -> None:
    async with inspector(tmp_path, qtbot) as it:
        prompts = it.widget.prompts
        assert prompts.select_prompt("greet")
        detail = prompts.detail
        detail.fields["name"].setText("Ada")
        name, style = detail.fields["name"], detail.fields["style"]
        it.widget.tabs.setCurrentWidget(prompts)
        window = it.widget.window()
        window.activateWindow()
        for _ in range(200):  # an async test must not nest a Qt loop (qtbot.waitUntil): poll from the loop
            if window.isActiveWindow():
                break
            await asyncio.sleep(0.01)
        assert window.isActiveWindow()
        name.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.keyClick(name, Qt.Key.Key_Tab)
        assert style.hasFocus()
        qtbot.keyClick(style, Qt.Key.Key_Tab)
        assert detail.get_button.hasFocus()
        completions = SignalLog(it.widget.vm.completions_ready)
        style.setText("p")
        style.request_now()
        await completions.wait_for(lambda key, values: values == ["pirate"])
        assert style.values() == ["pirate"]
