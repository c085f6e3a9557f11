"""How failures read: grammar, hints as sentences, the banner per connection, and a crash shown once,
in the banner (the status bar does not repeat errors)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.support.panel_context import make_context
from workbench.app import build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConnectError, WorkbenchError
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile
from workbench.ui.asyncutil import wait_signal
from workbench.ui.errors import describe_error
from workbench.ui.panels.chat import ChatWidget

WAIT = 30.0


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.asyncio
async def test_a_connection_that_could_not_connect_is_not_called_failed_with_is(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    profile = A2AProfile(name="travel", url=f"http://127.0.0.1:{closed_port()}")
    try:
        with pytest.raises(WorkbenchError):
            await asyncio.wait_for(ctx.services.connections.connect(profile), WAIT)  # refused: a real failure
        conn = ctx.services.connections.get(profile.id)
        assert conn is not None and conn.state is ConnectionState.FAILED
        ctx.selection.select(profile.id)
        reason = widget.banner.text()
        assert "is failed" not in reason
        assert reason.startswith("travel could not connect: ") and reason.endswith("Reconnect it to chat.")
    finally:
        await ctx.services.connections.aclose()


def test_hints_read_as_sentences() -> None:
    view = describe_error(ConnectError("The server refused.", hint="check the URL and that it runs"), "connecting")
    assert view.hint == "Check the URL and that it runs."
    assert view.headline == "Connecting failed"


@pytest.mark.asyncio
async def test_the_banner_counts_and_shows_only_the_selected_connections_errors(qtbot: Any, tmp_path: Path) -> None:
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window, ctx = bench.window, bench.ctx
    qtbot.addWidget(window)
    window.resize(1366, 700)
    window.show()
    banner = window.banner
    try:
        ctx.selection.select("conn-a")
        ctx.errors.report(ConnectError("A refused.", hint="start the server"), "connecting to a")
        ctx.errors.report(ConnectError("A refused again."), "connecting to a")
        assert banner.current is not None and banner.current.message == "A refused again."
        assert banner.count == 2 and "(2 errors" in banner.title.text()
        ctx.errors.report(ConnectError("B refused.", hint="start it"), "connecting to b", connection_id="conn-b")
        assert banner.current is not None and banner.current.message == "A refused again."  # not B's
        assert banner.count == 2  # B's error is not counted among A's
        ctx.selection.select("conn-b")  # B's own error, counted on its own
        assert banner.current is not None and banner.current.message == "B refused." and banner.count == 1
        assert banner.title.text() == "Connecting to b failed" and banner.hint.text() == "Start it."
        ctx.selection.select("conn-c")  # nothing failed here: the banner goes
        assert banner.current is None and banner.isHidden()
        ctx.selection.select("conn-a")
        assert banner.current is not None and banner.current.message == "A refused again."
        banner.dismiss()
        ctx.selection.select("conn-b")
        ctx.selection.select("conn-a")
        assert banner.current is None  # dismissed stays dismissed
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
        window.close()
        await done


@pytest.mark.asyncio
@pytest.mark.expected_error_logs  # an unexpected exception is logged as a warning with its traceback
async def test_a_crash_is_shown_once_in_the_banner_with_its_whole_text_under_details(
    qtbot: Any, tmp_path: Path
) -> None:
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window, ctx = bench.window, bench.ctx
    qtbot.addWidget(window)
    window.resize(1024, 640)
    window.show()
    bar = window.statusBar()
    long = "KeyError while reading the reply " + "x" * 3000 + "\nsecond line of the crash"
    try:
        ctx.errors.report(RuntimeError(long), "calling tool add")
        assert bar.currentMessage() == "" and bar.toolTip() == ""  # shown once: in the banner (errors.py)
        shown = window.banner.current
        assert shown is not None and shown.code == "internal" and window.banner.details_button.isVisible()
        assert "second line of the crash" in shown.message and "x" * 3000 in shown.message
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
        window.close()
        await done
