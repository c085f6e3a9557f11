"""Making a tool's form must not tie the rest of the window to it: after the form is gone (another connection
selected), the chat still follows the selection.

PySide6 records each widget ``nextInFocusChain()`` returns as a child of the widget asked; walking the focus
chain round the window made every panel a "child" of the form's widgets, and deleting the form invalidated
their Qt-made parts (the chat transcript's document: the chat header stuck on an old connection).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.demo_mcp import InProcessDemoFactory
from tests.support.mcp_inspector import click_row, stdio_profile
from workbench.app import build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.ui.asyncutil import wait_signal

BOUND = 30.0


@pytest.mark.asyncio
async def test_after_calling_a_tool_and_switching_connections_the_chat_follows_the_selection(
    qtbot: Any, tmp_path: Any
) -> None:
    bench = build_workbench(
        tmp_path / "config",
        credentials=MemoryCredentialStore(),
        agent_factory=lambda **kw: InProcessDemoFactory(**kw),
    )
    window = bench.window
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    try:
        manager = bench.ctx.services.connections
        first = await manager.connect(stdio_profile(name="First demo"))
        second = await manager.connect(stdio_profile(name="Second demo"))
        bench.ctx.selection.select(first.id)
        qtbot.waitUntil(lambda: window.inspector.inspector("mcp") is not None, timeout=int(BOUND * 1000))
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        tools = mcp.tools
        click_row(qtbot, tools.list, "add")
        call = tools.detail.call
        assert call.form is not None
        call.form.set_value({"a": 2, "b": 3})
        finished = asyncio.get_running_loop().create_future()
        mcp.vm.calls.finished.connect(lambda *_: finished.done() or finished.set_result(None))
        qtbot.mouseClick(call.call_button, Qt.MouseButton.LeftButton)
        await asyncio.wait_for(finished, BOUND)
        form = call.form
        destroyed = asyncio.get_running_loop().create_future()
        form.destroyed.connect(lambda *_: destroyed.done() or destroyed.set_result(None))
        bench.ctx.selection.select(second.id)  # the first connection's form goes
        await asyncio.wait_for(destroyed, BOUND)
        assert window.chat.title.text() == "Second demo"
        bench.ctx.selection.select(first.id)
        assert window.chat.title.text() == "First demo"
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, BOUND))
        window.close()
        await done
