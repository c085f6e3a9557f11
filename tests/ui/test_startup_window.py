"""Start-up: a window frame is on screen before the core and the panels load, then the main window takes its place."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings

from tests.support.windows import plain_window
from workbench.core.config_dir import WINDOW_SETTINGS_FILE
from workbench.ui.startup import StartupWindow
from workbench.ui.window_layout import GEOMETRY_KEY, first_geometry, onto_screen

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent(
    """
    import json, sys
    from workbench.ui import startup

    loaded = {}
    show = startup.StartupWindow.show_painted

    def recording_show(self):
        heavy = ("pydantic", "mcp", "a2a", "asyncio", "workbench.core.profiles", "workbench.ui.mainwindow")
        loaded["at_show"] = [name for name in heavy if name in sys.modules]
        show(self)

    startup.StartupWindow.show_painted = recording_show
    from workbench.cli import main

    code = main(["--smoke-test", "--config-dir", sys.argv[1]])
    print(json.dumps({"code": code, "at_show": loaded.get("at_show")}), flush=True)
    """
)


def test_the_startup_frame_shows_before_the_core_the_panels_or_an_sdk_is_imported(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONWARNINGS": "error"}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "config")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the smoke test reports the frame first, then the main window once it is in its place
    assert [line.split(" in ")[0] for line in lines[:2]] == ["window shown", "window ready"]
    report = json.loads(lines[-1])
    assert report == {"code": 0, "at_show": []}


def test_the_startup_frame_opens_where_the_window_was_left_and_pulled_onto_the_screen(qtbot: Any, tmp_path: Path):
    config = tmp_path / "config"
    config.mkdir()
    placed = StartupWindow(config / WINDOW_SETTINGS_FILE)
    qtbot.addWidget(placed)
    available = placed.screen().availableGeometry()
    assert placed.geometry() == first_geometry(available)  # first launch: the main window's first size

    placed.setGeometry(QRect(40, 50, available.width() + 100, available.height() - 60))  # wider than this screen
    settings = QSettings(str(config / WINDOW_SETTINGS_FILE), QSettings.Format.IniFormat)
    settings.setValue(GEOMETRY_KEY, placed.saveGeometry())
    settings.sync()
    again = StartupWindow(config / WINDOW_SETTINGS_FILE)
    qtbot.addWidget(again)
    assert again.geometry() == onto_screen(placed.geometry(), available)
    assert again.geometry().height() == available.height() - 60


@pytest.mark.asyncio
async def test_the_main_window_opens_where_the_startup_frame_is(qtbot: Any, tmp_path: Path) -> None:
    config = tmp_path / "config"
    async with plain_window(config, qtbot) as window:
        window.setGeometry(QRect(30, 40, 1000, 640))
        window.save_layout()
    await asyncio.sleep(0)
    frame = StartupWindow(config / WINDOW_SETTINGS_FILE)
    qtbot.addWidget(frame)
    async with plain_window(config, qtbot) as again:
        assert again.geometry() == frame.geometry()
