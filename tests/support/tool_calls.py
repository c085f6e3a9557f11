"""Calling the tool on show in the window's inspector as a person does, for tests that measure what a call changes."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


async def call_anyway(call: Any, qtbot: Any, timeout: float = 10.0) -> None:
    """Call the tool on ``call`` (a ``ToolCallWidget``) as filled in ("Send even if invalid", Ctrl+Enter); await it."""
    ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_finished(_record: object) -> None:
        if not ended.done():
            ended.set_result(None)

    call.vm.calls.finished.connect(on_finished)
    try:
        call.skip_validation.setChecked(True)
        call.call_button.setFocus()
        qtbot.keyClick(call.call_button, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        await asyncio.wait_for(ended, timeout)
    finally:
        call.vm.calls.finished.disconnect(on_finished)
    for _ in range(4):  # the layouts run before anything is measured
        await asyncio.sleep(0.02)
        QApplication.processEvents()
