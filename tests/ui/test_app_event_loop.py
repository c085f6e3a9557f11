"""AppEventLoop never loses a callback that Qt fires while asyncio cannot run it.

Qt runs qasync's callbacks whenever it processes events: also in a Qt loop nested inside a task's step
(``qtbot.waitUntil`` or a modal ``exec()`` inside a coroutine) and between two runs of the loop. Each
test runs its own loop with a bounded wait, so a lost callback fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from workbench.agents import MCPAgent
from workbench.ui.asyncutil import AppEventLoop

DEMO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]
NESTED_MS = 800
"""How long the nested Qt loop runs: several of the stdio transport's 0.25 s exit polls fall inside it."""
BOUND = 10.0


@pytest.fixture
def loop(qapp: QApplication) -> Iterator[AppEventLoop]:
    loop = AppEventLoop(qapp)
    try:
        yield loop
    finally:
        # No cancel-and-gather: a task that lost its wakeup would make that wait forever.
        asyncio.set_event_loop(None)
        loop.close()


def run_nested_qt_loop(ms: int) -> None:
    """What ``qtbot.waitUntil`` does: a Qt loop of its own, here inside the calling task's step."""
    nested = QEventLoop()
    QTimer.singleShot(ms, nested.quit)
    nested.exec()


def run(loop: AppEventLoop, coro: Coroutine[Any, Any, Any]) -> Any:
    return loop.run_until_complete(coro)


def test_a_wakeup_due_inside_a_nested_qt_loop_runs_once_the_nesting_step_returns(loop: AppEventLoop) -> None:
    async def scenario() -> bool:
        sleeper = asyncio.ensure_future(asyncio.sleep(0.05, "woke"))
        await asyncio.sleep(0)  # the sleeper is now waiting on its timer
        run_nested_qt_loop(300)  # its timer and its wakeup fall due in here
        done, _ = await asyncio.wait({sleeper}, timeout=BOUND)
        return sleeper in done and sleeper.result() == "woke"

    assert run(loop, scenario())


def test_a_task_step_due_while_the_loop_is_not_running_runs_when_it_runs_again(
    loop: AppEventLoop, qapp: QApplication
) -> None:
    async def needs_its_loop() -> asyncio.AbstractEventLoop:
        await asyncio.sleep(0.05)
        return asyncio.get_running_loop()

    async def start() -> asyncio.Task[asyncio.AbstractEventLoop]:
        task = asyncio.ensure_future(needs_its_loop())
        await asyncio.sleep(0)
        return task

    task = run(loop, start())
    for _ in range(3):  # what pytest-qt does between tests: the timer, then the task's step, fire with no loop
        time.sleep(0.05)
        qapp.processEvents()
    done, _ = run(loop, asyncio.wait({task}, timeout=BOUND))
    assert task in done
    assert task.result() is loop


def test_a_stdio_connection_closes_within_a_bound_after_a_nested_qt_loop(loop: AppEventLoop) -> None:
    async def scenario() -> None:
        agent = MCPAgent.stdio(DEMO[0], DEMO[1:], name="demo")
        await asyncio.wait_for(agent.connect(), BOUND)
        run_nested_qt_loop(NESTED_MS)  # the transport's exit watcher wakes up in here
        closing = asyncio.ensure_future(agent.aclose())
        done, _ = await asyncio.wait({closing}, timeout=BOUND)
        assert closing in done, "closing the stdio connection never finished"
        closing.result()

    started = time.monotonic()
    run(loop, scenario())
    assert time.monotonic() - started < BOUND
