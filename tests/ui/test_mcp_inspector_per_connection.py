"""The MCP inspector keeps each connection's own state: tool, arguments, result, history, selections, tab.

Two connections to the demo server (served in process) offer the same tools, resources and prompts, so
nothing but the connection tells their state apart: what one connection shows must never appear on the
other, and a connection opened later starts empty.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.demo_mcp import InProcessDemoFactory
from tests.support.mcp_inspector import stdio_profile
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget
from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget
from workbench.ui.panels.inspector.widget import InspectorWidget

LISBON = {
    "destination": "Lisbon",
    "dates": {"start": "2026-05-01", "end": "2026-05-04"},
    "travellers": [{"name": "Ada", "age": 36, "email": "ada@example.com"}],
}


@contextlib.asynccontextmanager
async def _window(tmp_path: Path, qtbot: Any) -> AsyncIterator[tuple[PanelContext, InspectorWidget]]:
    """The inspector dock over a context whose demo connections are served in process."""
    ctx = make_context(tmp_path, factory=InProcessDemoFactory())
    try:
        dock = InspectorWidget(ctx)
        qtbot.addWidget(dock)
        dock.resize(1300, 800)
        dock.show()
        yield ctx, dock
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()


async def _connect(ctx: PanelContext, name: str) -> str:
    conn = await ctx.services.connections.connect(stdio_profile(name=name))
    return conn.id


def _mcp(dock: InspectorWidget) -> MCPInspectorWidget:
    widget = dock.current_inspector
    assert isinstance(widget, MCPInspectorWidget)
    return widget


def _click(qtbot: Any, catalog: CatalogListWidget, key: str) -> None:
    """Filter the list by typing, then click the entry (as a user picks a tool they know by name)."""
    catalog.filter_edit.clear()
    qtbot.keyClicks(catalog.filter_edit, key)
    row = catalog.model.visible_keys().index(key)
    rect = catalog.view.visualRect(catalog.model.index(row))
    qtbot.mouseClick(catalog.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert catalog.current_key == key


async def _call_plan_trip(qtbot: Any, widget: MCPInspectorWidget, destination: str) -> Any:
    """Fill plan_trip (the destination typed), press Ctrl+Enter in the form, wait for the result."""
    call = widget.tools.detail.call
    assert call.form is not None
    call.form.set_value(LISBON)
    field = call.form.field("destination")
    assert field is not None
    field.editor.clear()
    qtbot.keyClicks(field.editor, destination)
    finished = SignalLog(widget.vm.calls.finished)
    qtbot.keyClick(field.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    (record,) = await finished.wait_for()
    assert record.outcome == "ok"
    return record


@pytest.mark.asyncio
async def test_each_connection_shows_its_own_tool_result_history_and_arguments(qtbot, tmp_path):
    async with _window(tmp_path, qtbot) as (ctx, dock):
        north = await _connect(ctx, "north")
        ctx.selection.select(north)
        widget = _mcp(dock)
        tools, call = widget.tools, widget.tools.detail.call
        _click(qtbot, tools.list, "plan_trip")
        await _call_plan_trip(qtbot, widget, "Lisbon")
        assert call.result_view.result.structured_content["destination"] == "Lisbon"

        # a connection opened afterwards starts empty: no tool picked, no filter, no result, no history
        south = await _connect(ctx, "south")
        ctx.selection.select(south)
        assert _mcp(dock) is widget
        assert tools.list.current_key is None
        assert tools.list.filter_edit.text() == ""
        assert tools.detail.name_label.text() == "Pick a tool"
        assert not tools.detail.pages.isVisibleTo(tools.detail)
        _click(qtbot, tools.list, "plan_trip")
        assert call.form is not None and "destination" not in call.form.value()  # not north's Lisbon
        assert call.result_view.result is None
        assert call.status.text() == ""
        assert call.history.count() == 0
        await _call_plan_trip(qtbot, widget, "Porto")

        # back to north: its own tool, arguments, result and history, as it left them
        ctx.selection.select(north)
        assert tools.list.current_key == "plan_trip"
        assert call.form.value()["destination"] == "Lisbon"
        assert call.result_view.result.structured_content["destination"] == "Lisbon"
        assert call.status.text().startswith("Done")
        assert call.history.count() == 1
        assert widget.vm.calls.history("plan_trip", north)[0].arguments["destination"] == "Lisbon"

        ctx.selection.select(south)
        assert call.form.value()["destination"] == "Porto"
        assert call.result_view.result.structured_content["destination"] == "Porto"
        assert call.history.count() == 1


@pytest.mark.asyncio
async def test_a_call_running_on_one_connection_leaves_the_other_free_and_its_progress_stays_home(qtbot, tmp_path):
    async with _window(tmp_path, qtbot) as (ctx, dock):
        north, south = await _connect(ctx, "north"), await _connect(ctx, "south")
        ctx.selection.select(north)
        widget = _mcp(dock)
        tools, call = widget.tools, widget.tools.detail.call
        _click(qtbot, tools.list, "slow_count")
        assert call.form is not None
        call.form.set_value({"n": 400, "delay": 0.05})
        progress = SignalLog(widget.vm.calls.progressed)
        finished = SignalLog(widget.vm.calls.finished)
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        await progress.wait_for()

        ctx.selection.select(south)
        _click(qtbot, tools.list, "slow_count")
        assert not call.progress.isVisibleTo(call)  # north's call is not south's
        assert call.call_button.isEnabled() and not call.cancel_button.isEnabled()
        _click(qtbot, tools.list, "add")
        call.form.set_value({"a": 1, "b": 2})
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        (record,) = await finished.wait_for(lambda r: r.connection_id == south)
        assert record.outcome == "ok"
        assert call.result_view.result.structured_content == {"result": 3.0}

        ctx.selection.select(north)
        assert tools.list.current_key == "slow_count"
        assert call.progress.isVisibleTo(call) and call.cancel_button.isEnabled()
        assert call.status.text() == "Calling…"
        qtbot.mouseClick(call.cancel_button, Qt.MouseButton.LeftButton)
        (record,) = await finished.wait_for(lambda r: r.connection_id == north)
        assert record.outcome == "cancelled"
        assert call.status.text().startswith("Cancelled")


@pytest.mark.asyncio
async def test_resource_and_prompt_selections_their_values_and_the_tab_belong_to_their_connection(qtbot, tmp_path):
    async with _window(tmp_path, qtbot) as (ctx, dock):
        north = await _connect(ctx, "north")
        ctx.selection.select(north)
        widget = _mcp(dock)
        resources, prompts = widget.resources, widget.prompts
        widget.tabs.setCurrentWidget(resources)
        _click(qtbot, resources.template_list, "demo://items/{item_id}")
        item_id = resources.template_page.fields["item_id"]
        qtbot.keyClicks(item_id, "42")
        QApplication.processEvents()
        widget.tabs.setCurrentWidget(prompts)
        _click(qtbot, prompts.list, "greet")
        qtbot.keyClicks(prompts.detail.fields["name"], "Ada")

        south = await _connect(ctx, "south")
        ctx.selection.select(south)
        assert widget.tabs.currentWidget() is widget.tools  # a new connection starts on its first tab
        assert prompts.list.current_key is None and prompts.detail.name_label.text() == "Pick a prompt"
        assert resources.template_list.current_key is None
        assert resources.pages.currentWidget() is resources.empty_page
        widget.tabs.setCurrentWidget(prompts)
        _click(qtbot, prompts.list, "greet")
        assert prompts.detail.fields["name"].text() == ""  # not north's Ada

        ctx.selection.select(north)
        assert widget.tabs.currentWidget() is prompts
        assert prompts.list.current_key == "greet"
        assert prompts.detail.fields["name"].text() == "Ada"
        assert resources.template_list.current_key == "demo://items/{item_id}"
        assert resources.pages.currentWidget() is resources.template_page
        assert resources.template_page.fields["item_id"].text() == "42"
        assert resources.template_page.uri_label.text() == "demo://items/42"
