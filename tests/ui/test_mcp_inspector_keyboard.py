"""The MCP inspector by keyboard against the demo server: Tab through a tool's form to Call, Ctrl+Enter from the
tool list, Enter in a template or prompt field."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.mcp_inspector import activate, click_row, focused_template_field, inspector
from tests.support.signals import SignalLog


def _focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _tab(qtbot: Any) -> QWidget:
    """Press Tab where the focus is; the widget that has the focus afterwards."""
    qtbot.keyClick(_focus(), Qt.Key.Key_Tab)
    return _focus()


def _inside(widget: QWidget, owner: QWidget) -> bool:
    return widget is owner or owner.isAncestorOf(widget)


@pytest.mark.asyncio
async def test_tab_goes_from_the_tool_filter_to_the_list_then_the_forms_fields_then_call(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        call = tools.detail.call
        qtbot.mouseClick(tools.list.filter_edit, Qt.MouseButton.LeftButton)
        assert tools.list.filter_edit.hasFocus()
        qtbot.keyClicks(tools.list.filter_edit, "add two")
        assert tools.list.model.visible_keys() == ["add"]
        assert _tab(qtbot) is tools.list.view
        qtbot.keyClick(tools.list.view, Qt.Key.Key_Space)  # picks the current (only) tool
        assert tools.list.current_key == "add" and call.form is not None
        QApplication.processEvents()  # a new form shows on the next turn of the loop, before the next key
        a, b = call.form.field("a"), call.form.field("b")
        assert a is not None and b is not None
        assert _inside(_tab(qtbot), a)  # the form's first field comes next, before Schemas, Call or the tab bar
        qtbot.keyClicks(_focus(), "2")
        assert _inside(_tab(qtbot), b)
        qtbot.keyClicks(_focus(), "3")
        assert _tab(qtbot) is call.call_button
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.keyClick(call.call_button, Qt.Key.Key_Space)
        (record,) = await finished.wait_for()
        assert record.arguments == {"a": 2, "b": 3}
        assert record.result.structured_content == {"result": 5.0}
        # the secondary controls come after Call
        after = _tab(qtbot)
        assert after is not tools.list.filter_edit and not _inside(after, a) and not _inside(after, b)


@pytest.mark.asyncio
async def test_ctrl_enter_calls_the_selected_tool_while_the_tool_list_has_the_focus(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        click_row(qtbot, tools.list, "echo")
        call = tools.detail.call
        assert call.form is not None
        call.form.set_value({"text": "from the list"})
        assert tools.list.view.hasFocus()  # the click on the tool put it there
        finished = SignalLog(it.widget.vm.calls.finished)
        qtbot.keyClick(tools.list.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert it.widget.vm.calls.running
        assert call.status.text() == "Calling…"
        (record,) = await finished.wait_for()
        assert record.tool == "echo" and record.arguments == {"text": "from the list"}
        assert tools.list.view.hasFocus()  # the focus stays where it was


@pytest.mark.asyncio
async def test_enter_in_a_template_field_reads_the_resource_even_with_suggestions_open(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        field = await focused_template_field(qtbot, it)
        page = it.widget.resources.template_page
        completions = SignalLog(it.widget.vm.completions_ready)
        reads = SignalLog(it.widget.vm.resource_read)
        qtbot.keyClicks(field, "42")
        await completions.wait_for(lambda key, values: values == ["42"] and field.text() == "42")
        popup = field.completer().popup()
        assert popup.isVisible()  # the server suggests "42"
        qtbot.keyClick(popup, Qt.Key.Key_Return)  # the key goes to the open popup, as for a user
        purpose, uri, _contents = await reads.wait_for()
        assert (purpose, uri) == ("template", "demo://items/42")
        assert page.status.text().startswith("demo://items/42")
        # with no popup open, Enter reads too
        if popup.isVisible():
            qtbot.keyClick(popup, Qt.Key.Key_Escape)
        seen = len(reads.events)
        qtbot.keyClick(field, Qt.Key.Key_Return)
        await reads.wait_for(lambda *args: len(reads.events) > seen)


@pytest.mark.asyncio
async def test_enter_in_a_prompt_argument_gets_the_prompt(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        prompts = it.widget.prompts
        it.widget.tabs.setCurrentWidget(prompts)
        click_row(qtbot, prompts.list, "summarize")
        topic = prompts.detail.fields["topic"]
        QApplication.processEvents()  # the new field is laid out before the user can click it
        qtbot.mouseClick(topic, Qt.MouseButton.LeftButton)
        received = SignalLog(it.widget.vm.prompt_received)
        qtbot.keyClicks(topic, "tides")
        qtbot.keyClick(topic, Qt.Key.Key_Return)
        name, _result = await received.wait_for()
        assert name == "summarize"
        assert len(prompts.detail.messages) == 1


@pytest.mark.asyncio
async def test_the_tool_list_shows_that_it_has_the_focus_on_its_selected_row(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        view = tools.list.view
        click_row(qtbot, tools.list, "add")
        row = view.visualRect(tools.list.model.index(tools.list.model.visible_keys().index("add")))
        qtbot.mouseClick(tools.list.filter_edit, Qt.MouseButton.LeftButton)  # the focus elsewhere
        QApplication.processEvents()
        away = view.viewport().grab(row).toImage()
        assert _tab(qtbot) is view  # Tab from the filter into the list
        QApplication.processEvents()
        here = view.viewport().grab(row).toImage()
        marked = sum(
            _contrast(here.pixelColor(x, y), away.pixelColor(x, y)) >= FOCUS_CONTRAST
            for x in range(here.width())
            for y in range(here.height())
        )
        assert marked >= 2 * (row.width() + row.height()), marked  # a ring round the row that stands out


FOCUS_CONTRAST = 150
"""How far (summed over R, G, B) a focus mark's pixels are from the row without it: plain to see."""


def _contrast(a: QColor, b: QColor) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())
