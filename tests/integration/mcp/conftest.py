"""Fixtures: the demo MCP server over every transport, as MCPAgent targets."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest_asyncio

from workbench.core.protocols.mcp import MCPAgent

DEMO_STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]


@pytest_asyncio.fixture(params=["stdio", "http", "sse"])
async def demo_agent_factory(request: Any) -> AsyncIterator[Callable[..., MCPAgent]]:
    """A factory of MCPAgents for the demo server on one transport (stdio child, in-process HTTP or SSE)."""
    transport = request.param
    if transport == "stdio":
        yield lambda **kw: MCPAgent.stdio(DEMO_STDIO[0], DEMO_STDIO[1:], **kw)
        return
    from workbench.demo.mcp_server import serve_http

    kind = "sse" if transport == "sse" else "streamable-http"
    async with serve_http(transport=kind) as url:
        yield lambda **kw: MCPAgent(url, transport=kind, **kw)
