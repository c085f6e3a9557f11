"""Fixtures: the demo MCP server over every transport, as MCPAgent targets."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from tests.support.demo_mcp import demo_stdio_command
from workbench.core.protocols.mcp import MCPAgent

TRANSPORTS = ["in-process", "http", "sse"]
WITH_STDIO = pytest.mark.parametrize("demo_agent_factory", ["stdio", *TRANSPORTS], indirect=True)
"""For the tests where a stdio child is worth its ~1.7 s of CPU: what crosses the process boundary
(discovery, streamed progress and logs, requests from the server, cancellation, notifications, the
wire log). The others run on the adapter in process and on both HTTP transports."""


@pytest_asyncio.fixture(params=TRANSPORTS)
async def demo_agent_factory(request: Any) -> AsyncIterator[Callable[..., MCPAgent]]:
    """A factory of MCPAgents for the demo server on one transport (in process, a stdio child, or
    HTTP / legacy SSE served in this process)."""
    transport = request.param
    if transport == "stdio":
        command = demo_stdio_command()
        yield lambda **kw: MCPAgent.stdio(command[0], command[1:], **kw)
        return
    if transport == "in-process":
        from workbench.demo.mcp_server.app import build_server

        yield lambda **kw: MCPAgent.in_process(build_server(), **kw)
        return
    from workbench.demo.mcp_server import serve_http

    kind = "sse" if transport == "sse" else "streamable-http"
    async with serve_http(transport=kind) as url:
        yield lambda **kw: MCPAgent(url, transport=kind, **kw)
