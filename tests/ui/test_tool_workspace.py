"""The tool form and its result in use: kept forms, refusals that do not go stale, wrapped text, real height."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from workbench.ui.panels.inspector.mcp.server_info import NO_PING


@pytest.mark.asyncio
async def test_re_selecting_a_tool_brings_back_what_was_typed_into_its_form(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        tools = it.widget.tools
        assert tools.select_tool("echo")
        tools.detail.call.form.field("text").set_text("typed by hand")
        assert tools.select_tool("add")
        assert tools.select_tool("echo")
        assert tools.detail.call.form.value() == {"text": "typed by hand"}  # the form kept it, not started over


@pytest.mark.asyncio
async def test_a_refused_call_says_so_once_and_the_refusal_goes_when_the_arguments_change(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        tools = it.widget.tools
        assert tools.select_tool("add")
        call = tools.detail.call
        finished = SignalLog(it.widget.vm.calls.finished)
        call.form.set_value({"a": 1, "b": 2})
        call.call_button.click()
        await finished.wait_for()
        call.form.set_value({"a": "x"})
        call.call_button.click()
        assert call.refused
        refusal = call.form.errors_label.text()  # one message: the fields to fix, then why nothing was sent
        assert "(marked above): A, B" in refusal and "Not sent" in refusal
        for error in call.form.errors():  # the problems are marked in the form, not listed again here
            assert error not in refusal
        call.reuse_button.click()  # the earlier, valid arguments come back
        assert call.form.value() == {"a": 1, "b": 2}
        assert not call.refused  # the refusal of other arguments goes
        assert call.form.errors_label.isHidden()


@pytest.mark.asyncio
async def test_text_results_wrap_and_the_result_pane_gets_real_height(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        it.widget.resize(1100, 760)
        tools = it.widget.tools
        assert tools.select_tool("echo")
        call = tools.detail.call
        finished = SignalLog(it.widget.vm.calls.finished)
        call.form.set_value({"text": "word " * 400})
        call.call_button.click()
        await finished.wait_for()
        (part,) = call.result_view.parts.part_views
        editor = part.payload.editor
        assert editor.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
        assert editor.horizontalScrollBar().maximum() == 0  # no sideways scrolling to read a sentence
        assert call.result_view.height() >= 250  # the form does not take the rest
        assert call.splitter.orientation() == Qt.Orientation.Vertical


@pytest.mark.asyncio
async def test_a_greyed_out_ping_says_why_beside_the_button(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        server = it.widget.server
        server.refresh()
        if it.widget.vm.can_ping:
            pytest.skip("this server's protocol has ping")
        assert not server.ping_button.isEnabled()
        assert server.ping_result.text() == NO_PING
