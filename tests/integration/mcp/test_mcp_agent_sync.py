"""The synchronous façade of MCPAgent, used from plain (non-async) code."""

from __future__ import annotations

import sys

from workbench.core.protocols.agent_base import run_sync
from workbench.core.protocols.mcp import MCPAgent


def test_sync_api_outside_a_loop_connects_lazily_and_calls_tools() -> None:
    agent = MCPAgent.stdio(sys.executable, ["-m", "workbench.demo.mcp_server", "--stdio"])
    try:
        assert agent.tools["add"](a=2, b=3).structured_content == {"result": 5.0}
        assert "Paris" in agent("weather in Paris").text
    finally:
        run_sync(agent.aclose())
