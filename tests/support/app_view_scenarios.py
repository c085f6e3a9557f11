"""MCP Apps in a real web view, run in a process of their own: ``python -m tests.support.app_view_scenarios``.

Why a process of its own: QtWebEngine tears its context down on the first ``QApplication.exit()`` after it
started, and every async UI test's qasync loop calls ``exit()`` when it stops: after the first such test the
engine is gone for the rest of the process (and without ``page._guard_engine_quit`` the next ``exit()`` would
crash). Here the scenarios run as the window runs, under ``asyncio.run`` on one qasync loop, and the process
must end cleanly.

Prints one JSON object: what each scenario observed (the test asserts on it), and every Qt warning that is
not the engine's known noise under the offscreen platform (the test requires none).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if hasattr(os, "geteuid") and os.geteuid() == 0:
    os.environ["QTWEBENGINE_DISABLE_SANDBOX"] = "1"  # Chromium refuses to run as root with its sandbox on

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from tests.support.signals import SignalLog, wait_until
from tests.support.webengine import WEBENGINE_LOG_NOISE

WARNINGS: list[str] = []
ESCAPES = """<!doctype html><html><body><script>
function post(m) { parent.postMessage(Object.assign({jsonrpc: "2.0"}, m), "*"); }
var popup = window.open("https://example.com/");
var top_nav = "allowed";
try { top.location = "https://example.org/"; } catch (e) { top_nav = "refused"; }
var frame = document.createElement("iframe"); frame.src = "https://example.com/"; document.body.appendChild(frame);
location.href = "https://example.net/";  // were it allowed, this document would be gone before it reports
Promise.allSettled([fetch("file:///etc/passwd"), fetch("https://example.com/x"), fetch("qrc:///x")])
  .then(function (results) {
    post({method: "report", params: {popup: String(popup), top: top_nav,
                                     fetches: results.map(function (r) { return r.status; })}});
  });
</script></body></html>"""
FLOOD = """<!doctype html><html><body><script>
for (var i = 0; i < 5000; i++) { parent.postMessage({jsonrpc: "2.0", id: i, method: "ping"}, "*"); }
</script></body></html>"""
EXPECTED_REFUSALS = ("new window", "top-level window", "file:///etc/passwd", "https://example.com/x", "qrc:///x",
                     "frame 'https://example.com/'", "https://example.net/")  # fmt: skip
NOISE = re.compile("|".join(WEBENGINE_LOG_NOISE) + r"|This plugin does not support propagateSizeHints")


def _on_qt_message(kind: QtMsgType, context: Any, text: str) -> None:
    if kind != QtMsgType.QtDebugMsg and kind != QtMsgType.QtInfoMsg and not NOISE.search(text):
        WARNINGS.append(text)


class _Bot:
    """What ``tests.support.mcp_inspector.inspector`` needs of qtbot here: widgets closed at the end."""

    def __init__(self) -> None:
        self.widgets: list[Any] = []

    def addWidget(self, widget: Any) -> None:
        self.widgets.append(widget)


def _records(wire: Any, cid: str) -> list[dict[str, Any]]:
    return [
        {
            "direction": r.direction.value,
            "method": r.method,
            "latency": r.latency_ms,
            "payload": r.payload,
            "summary": r.summary,
        }
        for r in wire.records(cid)
    ]


async def demo(tmp: Path) -> dict[str, Any]:
    """The demo server's weather app, from the inspector's Call button to its teardown."""
    from tests.support.mcp_inspector import inspector
    from workbench.core.wire.records import Direction

    bot = _Bot()
    async with inspector(tmp, bot) as it:
        tools = it.widget.tools
        assert tools.select_tool("weather_app")
        call = tools.detail.call
        assert call.form is not None
        call.form.set_value({"city": "Oslo"})
        shown = SignalLog(call.app_slot.app_shown)
        call.call_button.click()
        (view,) = await shown.wait_for(timeout=20)
        wire, cid = it.ctx.services.wire, view.app_connection_id

        def forecast_logged() -> bool:
            records = wire.records(cid)
            return any("forecast shown: 3 days" in r.payload for r in records if r.direction is Direction.IN)

        await wait_until(forecast_logged, view._host_object.message_received, timeout=20)
        height = view.web.height() if view.web is not None else None
        await view.close_app("the test is over")
        out = {"records": _records(wire, cid), "height": height, "page_gone": view.page is None}
        for widget in bot.widgets:
            widget.close()
        return out


async def hostile() -> dict[str, Any]:
    """An app that opens popups, navigates, fetches files and remote URLs; another that floods the bridge."""
    from workbench.core.apps.resource import AppResource
    from workbench.core.errors import NotFoundError
    from workbench.core.protocols.catalog import ToolSpec
    from workbench.core.wire.recorder import WireRecorder
    from workbench.ui.apps.view import AppServices, AppView
    from workbench.ui.untrusted import LinkGate

    wire = WireRecorder()

    async def no_calls(name: str, arguments: dict[str, Any]) -> Any:
        raise NotFoundError("no tools here")

    async def no_reads(uri: str) -> Any:
        raise NotFoundError("no resources here")

    services = AppServices(lambda name: None, no_calls, no_reads, LinkGate(), wire, "hostile")
    escapes = AppView(AppResource("ui://hostile/escapes", ESCAPES), ToolSpec("t"), {}, services)
    escapes.show()

    def all_refused() -> bool:
        text = "\n".join(escapes.notice_lines)
        return all(what in text for what in EXPECTED_REFUSALS) and any(
            r.method == "report" for r in wire.records(escapes.app_connection_id)
        )

    await wait_until(all_refused, escapes.noticed, timeout=20)
    await escapes.close_app("the test is over")
    flood = AppView(AppResource("ui://hostile/flood", FLOOD), ToolSpec("t"), {}, services)
    closed = SignalLog(flood.closed)
    flood.show()
    (reason,) = await closed.wait_for(timeout=20)
    bridge = flood.bridge
    assert bridge is not None
    out = {
        "escapes": {"records": _records(wire, escapes.app_connection_id), "notices": escapes.notice_lines},
        "flood": {
            "records": _records(wire, flood.app_connection_id),
            "notices": flood.notice_lines,
            "dropped": bridge.dropped,
            "max_dropped": bridge.limits.max_dropped,
            "closed": reason,
        },
    }
    escapes.close()
    flood.close()
    return out


async def main() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        return {"demo": await demo(Path(tmp)), "hostile": await hostile()}


if __name__ == "__main__":
    qInstallMessageHandler(_on_qt_message)
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    from workbench.ui.asyncutil import AppEventLoop

    # As the window runs (workbench/app.py): asyncio.run on a qasync loop, which quits the application once per
    # run_until_complete; the process must end cleanly after showing apps (exit code 0 is checked).
    result = asyncio.run(main(), loop_factory=lambda: AppEventLoop(app))
    result["qt_warnings"] = WARNINGS
    print(json.dumps(result), flush=True)
