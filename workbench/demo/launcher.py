"""Start every bundled demo agent on 127.0.0.1 ephemeral ports (what ``workbench demo`` runs)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass

from workbench.demo.a2a_agents import run_demo_agents
from workbench.demo.mcp_server import serve_http

DEMO_MCP_STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]


@dataclass(frozen=True)
class DemoAgent:
    """One running (or, for stdio, startable) demo agent.

    Attributes:
        name: Short name (``demo-mcp``, ``travel`` ...).
        protocol: ``mcp-http``, ``mcp-sse``, ``mcp-stdio`` or ``a2a``.
        target: URL, or for stdio the command line that starts it.
    """

    name: str
    protocol: str
    target: str

    def line(self) -> str:
        """``NAME PROTOCOL TARGET``, the line ``workbench demo --headless`` prints."""
        return f"{self.name:<16} {self.protocol:<10} {self.target}"


@contextlib.asynccontextmanager
async def run_demo(*, chunk_delay: float = 0.3) -> AsyncIterator[list[DemoAgent]]:
    """Serve the demo MCP server (Streamable HTTP and SSE) and the demo A2A agents until exit.

    The A2A MCP-proxy agent is configured to reach the demo MCP server over Streamable HTTP (id ``demo``).
    """
    async with (
        serve_http(transport="streamable-http") as mcp_url,
        serve_http(transport="sse") as sse_url,
        run_demo_agents(mcp_targets={"demo": mcp_url}, chunk_delay=chunk_delay) as a2a,
    ):
        yield [
            DemoAgent("demo-mcp", "mcp-http", mcp_url),
            DemoAgent("demo-mcp-sse", "mcp-sse", sse_url),
            DemoAgent("demo-mcp-stdio", "mcp-stdio", " ".join(DEMO_MCP_STDIO)),
            DemoAgent("travel", "a2a", a2a["travel"]),
            DemoAgent("mcp-proxy", "a2a", a2a["mcp-proxy"]),
        ]
