"""pytest fixtures for the reference MCP server `server-everything` (registered in tests/conftest.py).

Fixtures:
    everything_stdio: a `StdioCommand` (command, args, env) that spawns the server in stdio mode.
    everything_http_url: URL of a fresh Streamable HTTP server, `http://127.0.0.1:<port>/mcp`.
    everything_sse_url: URL of a fresh HTTP+SSE server, `http://127.0.0.1:<port>/sse`.
    everything_leak_check: fails the test if a node process it started is still alive afterwards
        (all three fixtures above use it).

Each fixture skips the test with the reason when node or the npm package is missing.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.support.everything import (
    StdioCommand,
    leftover_everything_processes,
    run_everything_http,
    stdio_params,
    unavailable_reason,
)


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


@pytest_asyncio.fixture
async def everything_http_url(everything_leak_check: None) -> AsyncIterator[str]:
    """A running server-everything in Streamable HTTP mode on 127.0.0.1; stopped after the test."""
    _skip_if_unavailable()
    async with run_everything_http("streamableHttp") as url:
        yield url


@pytest_asyncio.fixture
async def everything_sse_url(everything_leak_check: None) -> AsyncIterator[str]:
    """A running server-everything in HTTP+SSE mode on 127.0.0.1; stopped after the test."""
    _skip_if_unavailable()
    async with run_everything_http("sse") as url:
        yield url
