"""Bounded waits on Qt signals, and a recorder of a signal's emissions, for async UI tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import SignalInstance

from workbench.ui.asyncutil import wait_signal

WAIT = 30.0
"""Seconds a wait on a signal may take unless a test says otherwise."""


async def wait_until(predicate: Callable[[], bool], signal: SignalInstance, timeout: float = WAIT) -> None:
    """Re-check ``predicate`` each time ``signal`` fires, until it holds or ``timeout`` passes.

    Raises:
        TimeoutError: ``predicate`` still fails after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("condition not reached")
        await wait_signal(signal, remaining)


async def until(signal: SignalInstance, predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    """``wait_until`` with the signal named first."""
    await wait_until(predicate, signal, timeout)


class SignalLog:
    """Records every emission of a signal from creation on; ``wait_for`` returns the first match."""

    def __init__(self, signal: SignalInstance) -> None:
        self.events: list[tuple[Any, ...]] = []
        self._changed = asyncio.Event()
        self._signal = signal
        signal.connect(self._on)

    def _on(self, *args: Any) -> None:
        self.events.append(args)
        self._changed.set()

    async def wait_for(self, predicate: Callable[..., bool] = lambda *a: True, timeout: float = 15) -> tuple[Any, ...]:
        """The first emission (its arguments) for which ``predicate`` holds, recorded or still to come."""

        async def scan() -> tuple[Any, ...]:
            seen = 0
            while True:
                for args in self.events[seen:]:
                    if predicate(*args):
                        return args
                seen = len(self.events)
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(scan(), timeout)

    def close(self) -> None:
        """Stop recording."""
        self._signal.disconnect(self._on)
