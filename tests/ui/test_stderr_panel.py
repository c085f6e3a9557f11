"""The stderr panel: a real stdio server's stderr lines per connection, bounded, plain text, exit code shown."""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.support.panel_context import make_context
from tests.support.signals import wait_until
from workbench.core.errors import WorkbenchError
from workbench.core.events import ServerProcessExited, ServerStderrLine
from workbench.core.profiles import MCPStdioProfile
from workbench.ui.panels.stderr.viewmodel import StderrViewModel
from workbench.ui.panels.stderr.widget import StderrWidget

BOUND = 30.0
HTML = "<b style='color:red'>URGENT</b> <img src='file:///etc/passwd'>"


@pytest.fixture
def ctx(tmp_path):
    return make_context(tmp_path)


@pytest.fixture
def panel(qtbot, ctx) -> StderrWidget:
    widget = StderrWidget(ctx)
    qtbot.addWidget(widget)
    return widget


@pytest.mark.asyncio
async def test_stderr_lines_of_the_stdio_demo_server_appear_and_its_exit_is_shown(panel, ctx):
    # -X importtime makes the real demo server write one stderr line per imported module.
    profile = MCPStdioProfile(
        id="demo", name="demo", command=sys.executable, args=["-X", "importtime", "-m", "workbench.demo.mcp_server"]
    )
    ctx.selection.select("demo")
    try:
        await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
        await wait_until(lambda: "workbench.demo.mcp_server" in panel.plain_text(), panel.viewmodel.lines_added)
        lines = panel.plain_text().splitlines()
        assert lines[0].startswith("import time:")
        assert panel.viewmodel.lines("demo")[: len(lines)] == lines
        await ctx.services.connections.disconnect("demo")
        await wait_until(lambda: "exited with code" in panel.plain_text(), panel.viewmodel.lines_added)
        last = panel.plain_text().splitlines()[-1]
        assert "exited with code 0" in last
        assert "unexpectedly" not in last
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_a_crashing_server_shows_its_stderr_literally_and_the_exit_code(panel, ctx):
    script = f"import sys; sys.stderr.write({HTML!r} + '\\n'); sys.stderr.flush(); sys.exit(3)"
    profile = MCPStdioProfile(id="crash", name="crash", command=sys.executable, args=["-c", script], connect_timeout=10)
    ctx.selection.select("crash")
    try:
        with pytest.raises(WorkbenchError):
            await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
        await wait_until(lambda: "exited" in panel.plain_text(), panel.viewmodel.lines_added)
        text = panel.plain_text()
        assert text.splitlines()[0] == HTML  # literal: a QPlainTextEdit never renders markup
        assert "code 3" in text
        assert panel.text.document().toPlainText() == text
    finally:
        await ctx.services.connections.aclose()


def test_lines_are_kept_per_connection_and_the_selection_switches_between_them(qtbot, qloop, ctx, panel):
    ctx.services.bus.publish(ServerStderrLine(connection_id="a", line="from a"))
    ctx.services.bus.publish(ServerStderrLine(connection_id="b", line="from b 1"))
    ctx.services.bus.publish(ServerStderrLine(connection_id="b", line="from b 2"))
    ctx.selection.select("a")
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        pass
    assert panel.plain_text() == "from a"  # once, and b's lines do not leak into a's view
    ctx.selection.select("b")
    assert panel.plain_text() == "from b 1\nfrom b 2"
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        ctx.services.bus.publish(ServerProcessExited(connection_id="b", pid=42, returncode=-9, expected=False))
    assert panel.plain_text().splitlines()[-1] == "── process 42 was killed by signal 9 (unexpectedly) ──"
    ctx.selection.select(None)
    assert panel.plain_text() == ""


def test_many_lines_arrive_in_one_coalesced_batch(qtbot, qloop, ctx, panel):
    ctx.selection.select("a")
    batches: list[int] = []
    panel.viewmodel.lines_added.connect(lambda cid, lines: batches.append(len(lines)))
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        for i in range(500):
            ctx.services.bus.publish(ServerStderrLine(connection_id="a", line=f"line {i}"))
    assert batches == [500]
    assert panel.text.document().blockCount() == 500
    assert panel.plain_text().splitlines()[-1] == "line 499"


def test_the_buffer_is_bounded_per_connection(qtbot, ctx):
    vm = StderrViewModel(ctx, max_lines=100)
    for i in range(250):
        vm.append("a", f"line {i}")
    vm.append("b", "other")
    assert vm.lines("a") == [f"line {i}" for i in range(150, 250)]
    assert vm.lines("b") == ["other"]


def test_clear_forgets_the_shown_connections_lines(qtbot, qloop, ctx, panel):
    ctx.selection.select("a")
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        ctx.services.bus.publish(ServerStderrLine(connection_id="a", line="noise"))
        ctx.services.bus.publish(ServerStderrLine(connection_id="b", line="keep"))
    assert panel.plain_text() == "noise"
    panel.clear_button.click()
    assert panel.plain_text() == ""
    assert panel.viewmodel.lines("a") == []
    assert panel.viewmodel.lines("b") == ["keep"]


def test_selecting_a_connection_between_flushes_shows_every_line_once(qtbot, qloop, ctx, panel):
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        ctx.services.bus.publish(ServerStderrLine(connection_id="a", line="one"))
    ctx.services.bus.publish(ServerStderrLine(connection_id="a", line="two"))  # not flushed yet
    ctx.selection.select("a")
    assert panel.plain_text() == "one"
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        pass
    assert panel.plain_text() == "one\ntwo"
