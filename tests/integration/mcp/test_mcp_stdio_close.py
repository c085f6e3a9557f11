"""Closing a stdio server: no waiting out the grace for a child that sits idle, a working one may finish."""

from __future__ import annotations

import signal
import sys
import time

import pytest

from tests.servers import script_path
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.protocols.mcp.stdio import IDLE_EXIT, STDIN_CLOSE_GRACE

pytestmark = [pytest.mark.asyncio, pytest.mark.skipif(sys.platform != "linux", reason="CPU time from /proc")]


def slow_to_exit(*args: str) -> MCPAgent:
    return MCPAgent.stdio(sys.executable, [script_path("slow_to_exit"), *args], mode="legacy")


async def test_an_idle_child_that_ignores_stdin_close_is_terminated_without_waiting_the_grace() -> None:
    agent = slow_to_exit("idle")
    await agent.connect()
    started = time.monotonic()
    await agent.aclose()
    took = time.monotonic() - started
    info = agent.stdio_process
    assert info is not None
    assert info.returncode == -signal.SIGTERM  # reaped: no zombie left behind
    assert took < STDIN_CLOSE_GRACE - 0.5, f"close took {took:.2f} s"
    assert took >= IDLE_EXIT * 0.9  # it was given its moment to exit


async def test_a_child_still_working_after_stdin_close_may_finish_and_exit_by_itself() -> None:
    agent = slow_to_exit("busy", "0.8")
    await agent.connect()
    await agent.aclose()
    info = agent.stdio_process
    assert info is not None
    assert info.returncode == 0
