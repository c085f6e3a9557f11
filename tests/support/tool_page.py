"""The MCP inspector's tools page for tests, driven as a person does: pick a tool by its row, fill, click Call."""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.mcp_inspector import Inspected, click_row
from tests.support.signals import SignalLog, until
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord
from workbench.ui.panels.inspector.mcp.tool_call import ToolCallWidget


def pick_tool(qtbot: Any, it: Inspected, name: str) -> ToolCallWidget:
    """Click ``name`` in the tool list; its call area once laid out."""
    it.widget.tabs.setCurrentWidget(it.widget.tools)
    click_row(qtbot, it.widget.tools.list, name)
    QApplication.processEvents()  # the new form is laid out before the user can click into it
    return it.widget.tools.detail.call


def click_call(qtbot: Any, it: Inspected, name: str, arguments: dict[str, Any] | None = None) -> SignalLog:
    """Pick ``name``, fill ``arguments`` in (if any) and click Call; what the calls' ``finished`` says from then on."""
    call = pick_tool(qtbot, it, name)
    assert call.form is not None
    if arguments is not None:
        call.form.set_value(arguments)
    finished = SignalLog(it.widget.vm.calls.finished)
    qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
    assert it.widget.vm.calls.running
    return finished


async def click_cancel_once_running(qtbot: Any, it: Inspected, timeout: float = 30.0) -> None:
    """Once the server reported the call's first progress (it is under way there), click the page's Cancel."""
    calls = it.widget.vm.calls
    await until(calls.progressed, lambda: calls.current is not None and calls.current.progress is not None, timeout)
    qtbot.mouseClick(it.widget.tools.detail.call.cancel_button, Qt.MouseButton.LeftButton)


async def call_then_cancel(
    qtbot: Any, it: Inspected, name: str, arguments: dict[str, Any] | None = None, timeout: float = 30.0
) -> CallRecord:
    """Click Call on ``name`` as ``click_call`` does, then the page's Cancel once the call is under way.

    Returns:
        The call's record, once the call has ended.
    """
    finished = click_call(qtbot, it, name, arguments)
    await click_cancel_once_running(qtbot, it, timeout)
    (record,) = await finished.wait_for(timeout=timeout)
    return cast(CallRecord, record)
