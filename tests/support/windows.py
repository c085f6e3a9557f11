"""The whole window for tests, built as the app builds it: on the demo agents, or with no connections."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from tests.support.demo_mcp import InProcessDemoFactory
from workbench.app import Workbench, build_workbench
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.demo.launcher import EPHEMERAL_PORTS, run_demo
from workbench.demo.profiles import demo_profiles
from workbench.ui.asyncutil import wait_signal
from workbench.ui.demo_session import connect_demo
from workbench.ui.mainwindow import MainWindow

WAIT = 30.0
"""Seconds a window test waits for a connection, a reply or the window's shutdown."""


def unmaximise(window: MainWindow) -> None:
    """Take back a first launch's maximised state: the tests size the window themselves.

    The offscreen screen (800×800) is a small screen, where a first launch opens maximised
    (``window_layout.opens_maximised``); a maximised window would ignore the sizes a test gives it.
    """
    window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMaximized)


@contextlib.asynccontextmanager
async def demo_window(tmp_path: Path, qtbot: Any, *, child_process: bool = False) -> AsyncIterator[Workbench]:
    """The real window (as ``workbench demo`` builds it), connected to every demo agent.

    The demo server's stdio profile (``demo-mcp-stdio``) is served in process unless ``child_process``:
    a stdio child spends ~1.7 s of CPU importing the SDK, and most window tests are not about it.
    """
    opened: list[str] = []
    factory = DefaultAgentFactory if child_process else InProcessDemoFactory
    async with run_demo(chunk_delay=0.0, ports=EPHEMERAL_PORTS) as agents:
        bench = build_workbench(
            tmp_path / "config", credentials=MemoryCredentialStore(), url_opener=opened.append, agent_factory=factory
        )
        window = bench.window
        qtbot.addWidget(window)
        unmaximise(window)
        window.resize(1400, 900)
        window.show()
        try:
            await asyncio.wait_for(connect_demo(window, demo_profiles(agents)), WAIT)
            yield bench
        finally:
            done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
            window.close()
            await done


@contextlib.asynccontextmanager
async def plain_window(config: Path, qtbot: Any, **kwargs: Any) -> AsyncIterator[MainWindow]:
    """A window with no connections, shut down properly at the end (``kwargs`` go to ``build_workbench``)."""
    window = build_workbench(config, credentials=MemoryCredentialStore(), **kwargs).window
    qtbot.addWidget(window)
    unmaximise(window)
    try:
        yield window
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, 10))
        window.close()
        await done
