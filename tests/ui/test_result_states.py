"""A call's result says what it is: a schema violation is no plain "Done"/"ok"; durations read alike everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from workbench.ui.panels.inspector.mcp.per_connection import SCHEMA_VIOLATION


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
        assert "outputSchema" in call.status.text()

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
