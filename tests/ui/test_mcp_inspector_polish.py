"""Small things in the MCP inspector: no empty suggestion popup, the call's server log keeps its scroll position
when the call ends, the log level cannot be set on a server without logging."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.servers import script_path
from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog, wait_until
from workbench.core.profiles import MCPStdioProfile

LOG_LINES = 40
"""Log lines a running slow_count has sent before Cancel: more than its log pane shows at once."""


@pytest.mark.asyncio
async def test_a_template_field_shows_no_empty_popup_when_the_server_suggests_nothing(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        it.widget.tabs.setCurrentWidget(resources)
        assert resources.select_template("demo://items/{item_id}")
        field = resources.template_page.fields["item_id"]
        field.setFocus(Qt.FocusReason.MouseFocusReason)
        completions = SignalLog(it.widget.vm.completions_ready)
        qtbot.keyClicks(field, "4")
        await completions.wait_for(lambda key, values: values == ["42"] and field.text() == "4")
        popup = field.completer().popup()
        assert popup.isVisible()
        qtbot.keyClicks(field, "x")  # no item id starts with "4x"
        await completions.wait_for(lambda key, values: values == [] and field.text() == "4x")
        assert popup.model().rowCount() == 0
        assert not popup.isVisible()


def _at_bottom(bar) -> bool:
    return bar.value() == bar.maximum()


@pytest.mark.asyncio
async def test_the_calls_server_log_stays_at_its_end_after_cancel(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        assert it.widget.tools.select_tool("slow_count")
        call = it.widget.tools.detail.call
        call.form.set_value({"n": 2000, "delay": 0.005})
        logged = SignalLog(it.widget.vm.calls.logged)
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        await logged.wait_for(lambda record, line: len(record.logs) >= LOG_LINES)
        bar = call.call_log.text.verticalScrollBar()
        QApplication.processEvents()  # the pane lays out its lines
        assert bar.maximum() > 0 and _at_bottom(bar)  # following the newest line
        qtbot.mouseClick(call.cancel_button, Qt.MouseButton.LeftButton)
        (record,) = await finished.wait_for()
        assert record.outcome == "cancelled"
        QApplication.processEvents()
        assert bar.maximum() > 0 and _at_bottom(bar)
        assert call.call_log.text.toPlainText().splitlines() == record.logs


@pytest.mark.asyncio
async def test_the_calls_server_log_keeps_where_the_reader_scrolled_after_cancel(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        assert it.widget.tools.select_tool("slow_count")
        call = it.widget.tools.detail.call
        call.form.set_value({"n": 2000, "delay": 0.005})
        logged = SignalLog(it.widget.vm.calls.logged)
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        await logged.wait_for(lambda record, line: len(record.logs) >= LOG_LINES)
        QApplication.processEvents()
        bar = call.call_log.text.verticalScrollBar()
        assert bar.maximum() > 4
        qtbot.keyClick(bar, Qt.Key.Key_Home)  # the reader goes up to the start, then a few lines down
        for _ in range(3):
            qtbot.keyClick(bar, Qt.Key.Key_Down)
        kept = bar.value()
        assert 0 < kept < bar.maximum()
        qtbot.mouseClick(call.cancel_button, Qt.MouseButton.LeftButton)
        await finished.wait_for()
        QApplication.processEvents()
        assert bar.value() == kept


@pytest.mark.asyncio
async def test_the_log_level_cannot_be_set_on_a_server_that_declares_no_logging(qtbot, tmp_path):
    # a plain MCPServer (2026-07-28 era) with no logging capability, as a stdio child
    profile = MCPStdioProfile(name="plain", command=sys.executable, args=[script_path("crash_mid_call")])
    async with inspector(tmp_path, qtbot, profile) as it:
        caps = it.widget.vm.capabilities
        assert caps is not None and caps.era != "legacy" and not caps.supports_logging
        it.widget.tabs.setCurrentWidget(it.widget.server)
        combo = it.widget.server.log_level
        assert not combo.isEnabled()  # a level the server would ignore cannot be chosen
        assert "logging" in combo.toolTip()
        levels = SignalLog(it.widget.vm.log_level_set)
        qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
        qtbot.keyClick(combo, Qt.Key.Key_Down)
        assert levels.events == []


@pytest.mark.asyncio
async def test_the_log_level_can_be_set_on_the_demo_server_which_declares_logging(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        it.widget.tabs.setCurrentWidget(it.widget.server)
        combo = it.widget.server.log_level
        assert combo.isEnabled()
        assert "logging" not in combo.toolTip()
        levels = SignalLog(it.widget.vm.log_level_set)
        combo.setFocus()
        qtbot.keyClick(combo, Qt.Key.Key_Down)
        (level,) = await levels.wait_for()
        await wait_until(lambda: it.widget.server.log_status.text() == f"set to {level}", it.widget.vm.log_level_set)
