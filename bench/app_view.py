"""Cost of showing an MCP App: importing QtWebEngine, the first app's web view to its initialized handshake, a second.

Runs offscreen in a fresh interpreter (as root with QTWEBENGINE_DISABLE_SANDBOX=1, as the tests do). The
window pays the import and the engine's start the first time an app is shown, never at start-up.
Usage: python bench/app_view.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if hasattr(os, "geteuid") and os.geteuid() == 0:
    os.environ["QTWEBENGINE_DISABLE_SANDBOX"] = "1"

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

APP = """<!doctype html><html><body><p>bench</p><script>
parent.postMessage({jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {}}, "*");
window.addEventListener("message", function (e) {
  if (e.data && e.data.id === 1) { parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/initialized"}, "*"); }
});
</script></body></html>"""


async def show_one() -> float:
    from workbench.core.apps.resource import AppResource
    from workbench.core.protocols.catalog import ToolSpec
    from workbench.ui.apps.view import AppServices, AppView
    from workbench.ui.asyncutil import wait_signal
    from workbench.ui.untrusted import LinkGate

    async def never(*args: object) -> object:
        raise RuntimeError("not used")

    started = time.perf_counter()
    view = AppView(AppResource("ui://bench/app", APP), ToolSpec("t"), {}, AppServices(
        lambda name: None, never, never, LinkGate(), None, "bench"))  # fmt: skip
    view.show()
    await wait_signal(view.initialized, 30)
    elapsed = time.perf_counter() - started
    await view.close_app("bench", timeout=0.5)
    view.close()
    view.deleteLater()
    return elapsed


async def main(runs: int) -> None:
    started = time.perf_counter()
    import PySide6.QtWebEngineWidgets  # noqa: F401

    print(f"import QtWebEngineWidgets: {(time.perf_counter() - started) * 1000:.0f} ms")
    first = await show_one()
    print(f"first app shown and initialized: {first * 1000:.0f} ms (engine start included)")
    later = [await show_one() for _ in range(runs)]
    print(f"later apps: median {statistics.median(later) * 1000:.0f} ms (min {min(later) * 1000:.0f}, n={runs})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if importlib.util.find_spec("PySide6.QtWebEngineWidgets") is None:
        print("skipped: QtWebEngine is not installed (the apps extra)")
        sys.exit(0)
    qInstallMessageHandler(lambda kind, context, text: None if kind != QtMsgType.QtFatalMsg else print(text))
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    from workbench.ui.asyncutil import AppEventLoop

    loop = AppEventLoop(app)
    asyncio.set_event_loop(loop)
    loop.run_until_complete(main(args.runs))
    sys.stdout.flush()
    os._exit(0)  # QtWebEngine's teardown at exit adds nothing to measure
