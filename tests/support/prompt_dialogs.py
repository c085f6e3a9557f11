"""The dialogs an agent's requests open (``UserPrompts``) for tests: ask, type, press keys, close; sample requests."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QWidget

from tests.support.panel_context import make_context
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest
from workbench.ui.prompts import UserPrompts

DIALOG_WAIT_MS = 5000
"""Milliseconds a dialog may take to show, become active, or answer (offscreen: at once)."""


def user_prompts(tmp_path: Path) -> UserPrompts:
    """The app's ``UserPrompts`` over a fresh panel context (call it with a qasync loop set, e.g. under ``qloop``)."""
    return UserPrompts(make_context(tmp_path), lambda: None)


def ask(qtbot: Any, prompts: UserPrompts, question: Any) -> tuple[QDialog, asyncio.Future[Any]]:
    """Start ``question`` (a prompts coroutine); its dialog once shown and active, and the answer to come."""
    with qtbot.waitSignal(prompts.prompt_shown, timeout=DIALOG_WAIT_MS) as shown:
        answer = asyncio.ensure_future(question)
    dialog = shown.args[0]
    qtbot.waitUntil(dialog.isActiveWindow, timeout=DIALOG_WAIT_MS)
    return dialog, answer


def type_text(dialog: QWidget, text: str) -> None:
    """Type ``text`` on the keyboard: each key goes to the dialog's window, to whatever has the focus there."""
    window = dialog.windowHandle()
    for char in text:
        QTest.keyClick(window, char)


def press(dialog: QWidget, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Press ``key`` (with ``modifiers``) on the keyboard: it goes to the dialog's window, to the focused widget."""
    QTest.keyClick(dialog.windowHandle(), key, modifiers)


def finish(qtbot: Any, dialog: QDialog, answer: asyncio.Future[Any]) -> None:
    """Reject ``dialog`` if it is still open and wait for ``answer``; its exception, if any, is retrieved."""
    if dialog.isVisible():
        dialog.reject()
    qtbot.waitUntil(answer.done, timeout=DIALOG_WAIT_MS)
    answer.exception()  # retrieved: a rejected sampling request raises


def sampling_request() -> SamplingRequest:
    """A sampling request from the agent ``demo``: one user message asking about the weather in Oslo."""
    text = "What is the weather in Oslo?"
    return SamplingRequest([SamplingMessage("user", [ContentPart("text", text=text)])], max_tokens=50, agent="demo")


class WeatherHandoff:
    """A handoff approval request (as the approval dialog reads one): the planner asks the weather agent about Oslo."""

    source, target, protocol, kind, summary = "planner", "weather", "a2a", "message", "Weather in Oslo?"
    arguments: dict[str, Any] = {"city": "Oslo"}  # noqa: RUF012
