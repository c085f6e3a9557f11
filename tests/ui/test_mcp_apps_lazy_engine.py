"""The window loads QtWebEngine only when an MCP App is shown, and says so where the apps extra is missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = textwrap.dedent(
    """
    import json, sys
    import workbench.ui.mainwindow, workbench.ui.panels.inspector.mcp.tool_call, workbench.ui.apps.slot
    print(json.dumps(sorted(m for m in sys.modules if m.startswith(("PySide6.QtWebEngine", "PySide6.QtWebChannel")))))
    """
)


def test_importing_the_window_and_the_app_slot_loads_no_web_engine() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_without_the_apps_extra_the_view_says_so_instead_of_rendering(qtbot, monkeypatch) -> None:
    from workbench.core.apps.resource import AppResource
    from workbench.core.protocols.catalog import ToolSpec
    from workbench.ui.apps import view as app_view
    from workbench.ui.untrusted import LinkGate

    async def never(*args: object) -> object:
        raise AssertionError("nothing is called without a web view")

    monkeypatch.setattr(app_view, "HAS_WEBENGINE", False)
    services = app_view.AppServices(lambda name: None, never, never, LinkGate(), None, "c1")
    shown = app_view.AppView(AppResource("ui://demo/app", "<p>hi</p>"), ToolSpec("t"), {}, services)
    qtbot.addWidget(shown)
    assert shown.missing.text() == app_view.MISSING_EXTRA
    assert shown.page is None and shown.bridge is None


def test_as_root_with_chromiums_sandbox_on_the_view_says_why_instead_of_letting_the_engine_end_the_window(
    qtbot, monkeypatch
) -> None:
    from workbench.core.apps.resource import AppResource
    from workbench.core.protocols.catalog import ToolSpec
    from workbench.ui.apps import view as app_view
    from workbench.ui.untrusted import LinkGate

    async def never(*args: object) -> object:
        raise AssertionError("nothing is called without a web view")

    monkeypatch.setattr(app_view, "HAS_WEBENGINE", True)
    monkeypatch.setattr(app_view.os, "geteuid", lambda: 0)
    monkeypatch.delenv("QTWEBENGINE_DISABLE_SANDBOX", raising=False)
    monkeypatch.setenv("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu")
    services = app_view.AppServices(lambda name: None, never, never, LinkGate(), None, "c1")
    shown = app_view.AppView(AppResource("ui://demo/app", "<p>hi</p>"), ToolSpec("t"), {}, services)
    qtbot.addWidget(shown)
    assert shown.missing.text() == app_view.AS_ROOT
    assert shown.page is None and shown.bridge is None
    monkeypatch.setenv("QTWEBENGINE_DISABLE_SANDBOX", "1")  # the user's own choice lets the engine start
    assert app_view.engine_refusal() is None
