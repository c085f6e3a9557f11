"""pytest fixtures for the reference MCP server `server-everything` (registered in tests/conftest.py).

Fixtures:
    everything_stdio: a `StdioCommand` (command, args, env) that spawns the server in stdio mode.
    everything_http_url: URL of a Streamable HTTP server, `http://127.0.0.1:<port>/mcp`.
    everything_sse_url: URL of an HTTP+SSE server, `http://127.0.0.1:<port>/sse`.
    everything_leak_check: fails the test if a node process it started is still alive afterwards
        (all three fixtures above use it).

The two HTTP servers are shared by the tests of one worker (started on first use, started again if
one has died, stopped at the end): server-everything gives every session its own server instance,
so tests stay independent, and a fresh node process per test cost ~0.6 s of CPU and ~1 s of
waiting. Tests about the process itself start their own (`start_everything_http`).

Each fixture skips the test with the reason when node or the npm package is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.everything import (
    EverythingProcess,
    HttpMode,
    StdioCommand,
    leftover_everything_processes,
    start_everything_http,
    stdio_params,
    unavailable_reason,
)
from tests.support.processes import SHARED_SERVER_PIDS


def _skip_if_unavailable() -> None:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(reason)


@pytest.fixture
def everything_leak_check() -> Iterator[None]:
    """After the test, no node process started by this test process may survive (checked in /proc)."""
    yield
    leftovers = leftover_everything_processes()
    if not leftovers:
        return
    for leftover in leftovers:  # clean up so one leak does not fail every later test
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(leftover.pid, signal.SIGKILL)
    described = "; ".join(f"pid {p.pid} state {p.state}: {p.cmdline}" for p in leftovers)
    pytest.fail(f"node processes survived the test: {described}")


@pytest.fixture
def everything_stdio(everything_leak_check: None) -> StdioCommand:
    """How to spawn server-everything over stdio; the SDK's stdio client owns the process."""
    _skip_if_unavailable()
    return stdio_params()


class _SharedEverything:
    """server-everything in its HTTP modes, run from an event loop of its own in a thread."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="shared-everything", daemon=True)
        self._thread.start()
        self._stack = contextlib.AsyncExitStack()
        self._running: dict[HttpMode, EverythingProcess] = {}

    def url(self, mode: HttpMode) -> str:
        """The URL of the running server for ``mode``, started now if there is none or it died."""
        running = self._running.get(mode)
        if running is None or not Path(f"/proc/{running.pid}").exists():
            running = asyncio.run_coroutine_threadsafe(self._start(mode), self._loop).result(60)
            self._running[mode] = running
            SHARED_SERVER_PIDS.add(running.pid)
        return running.url

    async def _start(self, mode: HttpMode) -> EverythingProcess:
        return await self._stack.enter_async_context(start_everything_http(mode))

    def close(self) -> None:
        """Stop every server and the thread."""
        try:
            asyncio.run_coroutine_threadsafe(self._stack.aclose(), self._loop).result(30)
        finally:
            SHARED_SERVER_PIDS.difference_update(p.pid for p in self._running.values())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()


@pytest.fixture(scope="session")
def _shared_everything() -> Iterator[_SharedEverything]:
    shared = _SharedEverything()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def everything_http_url(everything_leak_check: None, _shared_everything: _SharedEverything) -> str:
    """The URL of a running server-everything in Streamable HTTP mode on 127.0.0.1 (shared, see above)."""
    _skip_if_unavailable()
    return _shared_everything.url("streamableHttp")


@pytest.fixture
def everything_sse_url(everything_leak_check: None, _shared_everything: _SharedEverything) -> str:
    """The URL of a running server-everything in HTTP+SSE mode on 127.0.0.1 (shared, see above)."""
    _skip_if_unavailable()
    return _shared_everything.url("sse")
