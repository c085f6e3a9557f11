"""A call's result says what it is: a schema violation is no plain "Done"/"ok"; durations read alike everywhere."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QStyle, QStyleOptionComboBox

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from tests.support.tool_calls import call_anyway
from tests.support.windows import demo_window
from workbench.core.timefmt import duration_text
from workbench.ui.panels.inspector.mcp.per_connection import SCHEMA_VIOLATION

SMALL, LAPTOP, WIDE = QSize(1280, 692), QSize(1366, 740), QSize(1920, 1052)
"""1280×720, 1366×768 and 1920×1080 screens less a window's title bar: the window's client area."""


async def settle() -> None:
    """Let the layouts run after a resize before anything is measured."""
    for _ in range(4):
        await asyncio.sleep(0.02)
        QApplication.processEvents()


async def _call(widget: Any, tool: str, arguments: dict[str, Any] | None = None) -> Any:
    assert widget.tools.select_tool(tool)
    call = widget.tools.detail.call
    if arguments is not None:
        call.form.set_value(arguments)
    finished = SignalLog(widget.vm.calls.finished)
    QTest.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
    (record,) = await finished.wait_for()
    return call, record


@pytest.mark.asyncio
async def test_a_result_that_breaks_its_output_schema_shows_as_a_schema_violation_not_done(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        call, record = await _call(it.widget, "broken_output")
        assert record.result.schema_errors and record.outcome == SCHEMA_VIOLATION
        assert call.result_view.schema_banner.isVisible()
        assert not call.result_view.error_banner.isVisible()
        assert SCHEMA_VIOLATION in call.history.itemText(0)
        assert call.status.text().endswith(f" · {SCHEMA_VIOLATION}")  # a state; the banner says what is wrong

        call, record = await _call(it.widget, "add", {"a": 1, "b": 2})  # a result that matches: no warning
        assert record.outcome == "ok" and not call.result_view.schema_banner.isVisible()


@pytest.mark.asyncio
async def test_the_calls_duration_reads_the_same_in_the_clock_the_status_and_the_history(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        call, _record = await _call(it.widget, "add", {"a": 1, "b": 2})
        clock = call.elapsed.text()
        assert clock.endswith((" ms", " s")) and clock in call.status.text() and clock in call.history.itemText(0)


def _fits(label: QLabel) -> bool:
    """Whether ``label`` shows its whole text: on one line within its width, or wrapped within its height."""
    metrics = label.fontMetrics()
    room = label.contentsRect()
    if label.wordWrap():
        needed = metrics.boundingRect(room.adjusted(0, 0, 0, 10_000), Qt.TextFlag.TextWordWrap, label.text())
        return needed.height() <= room.height()
    return metrics.horizontalAdvance(label.text()) <= room.width()


def _combo_fits(combo: QComboBox) -> bool:
    """Whether the combo box's current entry is drawn whole in its edit field."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, combo
    )
    return combo.fontMetrics().horizontalAdvance(combo.currentText()) <= field.width()


@pytest.mark.asyncio
async def test_a_schema_violations_status_and_history_entry_are_whole_at_1280_1366_and_1920(
    qtbot: Any, tmp_path: Path
) -> None:
    async with demo_window(tmp_path, qtbot) as bench:
        window = bench.window
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        assert mcp.tools.select_tool("broken_output")
        call = mcp.tools.detail.call
        await call_anyway(call, qtbot)
        record = call.history.currentData()
        assert record.outcome == SCHEMA_VIOLATION
        took = duration_text(record.duration_ms / 1000)
        for size in (SMALL, LAPTOP, WIDE):
            window.resize(size)
            await settle()
            assert call.status.text() == f"Done in {took} · {SCHEMA_VIOLATION}", size
            assert _fits(call.status), (size, call.status.text(), call.status.width())
            assert not call.status.geometry().intersects(call.history_label.geometry()), size  # not under "History"
            assert took in call.history.currentText() and SCHEMA_VIOLATION in call.history.currentText()
            assert _combo_fits(call.history), (size, call.history.currentText(), call.history.width())
