"""Small bridges between Qt and asyncio on the qasync loop: tracked tasks and awaitable dialogs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QEventLoop, SignalInstance
from PySide6.QtWidgets import QApplication, QDialog

from workbench.ui._asyncio_compat import loop_marked_running, run_handle
from workbench.ui.dialog_rules import present

log = logging.getLogger(__name__)

T = TypeVar("T")


class AppEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """qasync's loop plus what ``asyncio.BaseEventLoop.run_forever`` does and qasync's does not.

    qasync replaces ``run_forever`` with ``app.exec()`` and never installs the async-generator hooks,
    so an async generator abandoned mid-iteration (httpx streams inside the A2A SDK) is finalised
    with no loop running ("Exception ignored … no running event loop"). Installing the hooks while
    the loop runs lets asyncio close them properly (and ``shutdown_asyncgens`` at the end).

    qasync runs each callback from a Qt timer, so any Qt event processing runs them: also a Qt loop
    nested inside a task's step (``qtbot.waitUntil``, ``QTest`` input, a modal ``exec()``) and Qt
    events processed while this loop is not running (pytest-qt between tests). asyncio refuses to
    step a task then ("Cannot enter into task … while another task is being executed", or "no
    running event loop") and the callback is gone: the task waits forever on a future that is
    already done, and cancelling it cannot wake it (seen as a stdio MCP close that never ended and a
    test run that hung in its loop's final cancel). Such a callback is held back instead and runs
    once the loop is free again: when the step that nested the Qt loop returns, or when the loop
    runs again.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._held_back: list[asyncio.Handle] = []
        super().__init__(*args, **kwargs)

    def _add_callback(self, handle: asyncio.Handle, delay: float = 0) -> asyncio.Handle:
        """Schedule ``handle`` (qasync's one way in for every callback) to run only when the loop is free."""
        super()._add_callback(asyncio.Handle(self._run_when_free, (handle,), self), delay)
        return handle

    def _is_free(self) -> bool:
        """Whether a callback may run now: this loop is the running one and no task is mid-step."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            return False
        return running is self and asyncio.current_task(self) is None

    def _run_when_free(self, handle: asyncio.Handle) -> None:
        if handle.cancelled():
            return
        if not self._is_free():
            self._held_back.append(handle)
            return
        run_handle(handle)
        if self._held_back and self._is_free():
            self._release_held_back()

    def _release_held_back(self) -> None:
        held, self._held_back = self._held_back, []
        for handle in held:
            if not handle.cancelled():
                self._add_callback(handle)

    def run_forever(self) -> None:
        """Run the Qt event loop with this loop's async-generator hooks installed."""
        self._release_held_back()
        previous = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(firstiter=self._asyncgen_firstiter_hook, finalizer=self._asyncgen_finalizer_hook)
        try:
            super().run_forever()
        finally:
            sys.set_asyncgen_hooks(*previous)

    def run_until_complete(self, future: Any) -> Any:
        """Qasync's ``run_until_complete``, but its final pass over pending Qt events runs with this loop current.

        qasync processes pending events once more after ``run_forever`` has cleared the running loop; a
        task step due at that moment (e.g. sse-starlette's shutdown poller) then dies with "no running
        event loop" and is logged as "Task exception was never retrieved".
        """
        if self.is_running():
            raise RuntimeError("Event loop already running")
        task = asyncio.ensure_future(future, loop=self)

        def stop(_fut: Any) -> None:
            self.stop()

        task.add_done_callback(stop)
        try:
            self.run_forever()
        finally:
            task.remove_done_callback(stop)
        with loop_marked_running(self):
            app = QApplication.instance()
            dispatcher = app.eventDispatcher() if app is not None else None
            if dispatcher is not None:
                dispatcher.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
        if not task.done():
            raise RuntimeError("Event loop stopped before Future completed.")
        return task.result()


_tasks: set[asyncio.Task[Any]] = set()
_error_sink: Callable[[BaseException, str], object] | None = None


def set_error_sink(sink: Callable[[BaseException, str], object] | None) -> None:
    """Route failures of background tasks started with ``spawn`` to ``sink(error, doing)``.

    The main window installs the ErrorPresenter here; without a sink failures are logged.
    """
    global _error_sink
    _error_sink = sink


def spawn[T](coro: Coroutine[Any, Any, T], *, doing: str = "", name: str | None = None) -> asyncio.Task[T]:
    """Start ``coro`` on the running loop and keep a reference until it ends.

    A failure (not a cancellation) goes to the error sink with ``doing`` ("calling tool add") so the
    user learns what failed. Returns the task so the caller can cancel it.
    """
    task = asyncio.ensure_future(coro)
    if name:
        task.set_name(name)
    _tasks.add(task)

    def done(t: asyncio.Task[T]) -> None:
        _tasks.discard(t)
        if t.cancelled():
            return
        exc = t.exception()
        if exc is None:
            return
        if _error_sink is not None:
            _error_sink(exc, doing)
        else:
            log.error("background task %s failed: %r", doing or t.get_name(), exc, exc_info=exc)

    task.add_done_callback(done)
    return task


async def wait_signal(signal: SignalInstance, timeout: float = 5.0) -> tuple[Any, ...]:
    """Wait for the next emission of ``signal`` and return its arguments (the async ``waitSignal``)."""
    fut: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def slot(*args: Any) -> None:
        if not fut.done():
            fut.set_result(args)

    signal.connect(slot)
    try:
        return await asyncio.wait_for(fut, timeout)
    finally:
        with contextlib.suppress(RuntimeError):  # the sender was deleted meanwhile
            signal.disconnect(slot)


async def open_dialog(dialog: QDialog) -> int:
    """Show ``dialog`` window-modally with ``open()`` and return its result code when it closes.

    It opens under the dialog rules (``dialog_rules.present``: placed on its parent's screen, its first
    focus in place, no destructive default). Never ``exec()``: a nested event loop inside a coroutine
    wedges every other task (qt-async §2.4). Cancelling the awaiting task rejects the dialog.
    """
    fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def finished(code: int) -> None:
        if not fut.done():
            fut.set_result(code)

    dialog.finished.connect(finished)
    present(dialog)
    try:
        return await fut
    except asyncio.CancelledError:
        if dialog.isVisible():
            dialog.reject()
        raise
    finally:
        with contextlib.suppress(RuntimeError):  # a WA_DeleteOnClose dialog is gone already
            dialog.finished.disconnect(finished)
