"""What a third walk through the window by keyboard found: Down or Enter on the only tool the filter left
picks it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.mcp_inspector import activate, inspector

WAIT = 10.0


def _focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _tab() -> QWidget:
    """Press Tab where the focus is; the widget that has the focus afterwards."""
    QTest.keyClick(_focus(), Qt.Key.Key_Tab)
    return _focus()


def _inside(widget: QWidget, owner: QWidget | None) -> bool:
    return owner is not None and (widget is owner or owner.isAncestorOf(widget))


@pytest.mark.asyncio
@pytest.mark.parametrize("key", [Qt.Key.Key_Down, Qt.Key.Key_Return])
async def test_down_or_enter_on_the_only_tool_the_filter_left_opens_it(qtbot, tmp_path: Path, key: Qt.Key) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        qtbot.mouseClick(tools.list.filter_edit, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(tools.list.filter_edit, "plan_trip")
        assert tools.list.model.visible_keys() == ["plan_trip"]
        assert _tab() is tools.list.view  # the only row is current (drawn so), not yet picked
        QTest.keyClick(tools.list.view, key)
        assert tools.list.current_key == "plan_trip"
        assert tools.detail.call.form is not None
