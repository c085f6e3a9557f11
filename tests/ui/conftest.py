"""pytest-qt fixtures for the window's tests (offscreen Qt on a qasync loop).

Two patterns (qt-async §4.1): ``async def`` tests marked ``@pytest.mark.asyncio`` run inside a qasync
loop (this conftest's ``pytest_asyncio_loop_factories``) and wait with ``workbench.ui.asyncutil.
wait_signal`` — never ``qtbot.wait*`` inside them; sync tests take the ``qloop`` fixture and use
``qtbot.waitSignal`` / ``waitUntil``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import keyring.backends.fail
import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from tests.support.keyrings import using_keyring
from tests.support.no_keyring import null_keyring
from tests.support.processes import no_leaked_children
from workbench.ui.asyncutil import AppEventLoop

__all__ = ["no_leaked_children"]  # an autouse fixture: no child process may outlive a test


@pytest.fixture(autouse=True)
def _qt_objects_die_with_their_test(qapp: QApplication) -> Iterator[None]:
    """Delete what a test left for later, and collect its Python wrappers, before the next test starts.

    Without this a widget or model of one test could be destroyed during a later test's event
    processing, after the objects it refers to (its loop, its recorder) are gone: a segfault far from
    its cause (seen with the wire-log tests followed by the sidebar's).
    """
    yield
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


@pytest.fixture(scope="session", autouse=True)
def _no_quit_on_last_window(qapp: QApplication) -> None:
    # Closing a window inside an async test must not end the loop.
    qapp.setQuitOnLastWindowClosed(False)


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, Callable[[], Any]]:
    """Async tests under tests/ui run on a qasync loop over the session's QApplication."""
    return {"qasync": lambda: AppEventLoop(QApplication.instance() or QApplication([]))}


class _AttachedQEventLoop(AppEventLoop):  # type: ignore[misc]
    def stop(self) -> None:
        # qasync's stop() calls QApplication.exit(); outside exec() that sets Qt's quitNow flag and every
        # later nested loop (qtbot.wait*) returns at once. Keep qasync pinned instead (private attribute).
        self._QEventLoop__is_running = False


@pytest.fixture
def fail_keyring() -> Iterator[None]:
    """keyring's ``fail`` backend (what a box without Secret Service gets), restored afterwards."""
    with using_keyring(keyring.backends.fail.Keyring()):
        yield


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """keyring's ``null`` backend (PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring), restored afterwards."""
    with null_keyring():
        yield


@pytest.fixture
def qloop(qapp: QApplication, qtbot: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop marked running, pumped by qtbot's nested Qt loops (sync tests)."""
    loop = _AttachedQEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for t in pending:
            t.cancel()
        end = time.monotonic() + 5
        while any(not t.done() for t in pending) and time.monotonic() < end:
            qtbot.wait(10)
        stuck = [t for t in pending if not t.done()]
        loop.stop()
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)
        assert not stuck, f"tasks ignored cancellation: {stuck}"
