"""Helpers for the inspector tests: bounded signal waits, and a qasync loop left quiet after each test."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from PySide6.QtCore import SignalInstance

from workbench.ui.asyncutil import wait_signal

BOUND = 30.0
"""Seconds any single wait in these tests may take."""


async def until(signal: SignalInstance, predicate: Callable[[], bool], timeout: float = BOUND) -> None:
    """Wait (bounded) until ``predicate()`` holds, re-checking after each emission of ``signal``."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await wait_signal(signal, timeout)


@contextlib.asynccontextmanager
async def settled() -> AsyncIterator[None]:
    """Wrap an async test body (kept for readability; loop hygiene now lives in AppEventLoop and serve_asgi)."""
    yield
