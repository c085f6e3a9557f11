"""Start every bundled demo agent on 127.0.0.1 (what ``workbench demo`` runs), each on its own fixed port.

The demo's ports are stable so that a connection saved to a demo agent (a duplicated profile, a
``workbench profile add … http://127.0.0.1:47803``) reaches it again the next time: each agent has a
default port in ``DEMO_PORT_RANGE`` (``DEMO_PORTS``). A port another program holds is not fought
over: that agent falls back to a free ephemeral port and its ``DemoAgent`` says so (``fallback_note``),
which ``workbench demo`` prints. Tests pass ``ports=EPHEMERAL_PORTS`` (every agent on port 0).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from workbench.demo.a2a_agents import run_demo_agents
from workbench.demo.mcp_server import serve_http

log = logging.getLogger(__name__)

DEMO_MCP_STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]

DEMO_BASE_PORT = 47801
"""The first of the demo's ports (above the registered services most machines run, below the ephemeral range)."""
DEMO_PORTS: Mapping[str, int] = {
    "demo-mcp": DEMO_BASE_PORT,  # Streamable HTTP: http://127.0.0.1:47801/mcp
    "demo-mcp-sse": DEMO_BASE_PORT + 1,  # legacy SSE: http://127.0.0.1:47802/sse
    "travel": DEMO_BASE_PORT + 2,  # A2A travel planner: http://127.0.0.1:47803
    "mcp-proxy": DEMO_BASE_PORT + 3,  # A2A→MCP tool proxy: http://127.0.0.1:47804
}
"""Each networked demo agent's default port, by agent name (the stdio server needs none)."""
DEMO_PORT_RANGE = range(DEMO_BASE_PORT, DEMO_BASE_PORT + 5)
"""127.0.0.1:47801–47805, the demo's documented ports (47805 is kept for the next demo agent)."""
EPHEMERAL_PORTS: Mapping[str, int] = dict.fromkeys(DEMO_PORTS, 0)
"""Every agent on a free ephemeral port (tests, and ``workbench demo --base-port 0``)."""


def demo_ports(base: int = DEMO_BASE_PORT) -> Mapping[str, int]:
    """The agents' ports counted up from ``base`` in ``DEMO_PORTS``' order; 0 gives ``EPHEMERAL_PORTS``.

    Raises:
        ValueError: ``base`` leaves no room for every agent below 65536 (or is negative).
    """
    if base == 0:
        return EPHEMERAL_PORTS
    if not 0 < base <= 65536 - len(DEMO_PORTS):
        raise ValueError(f"a base port must be 0 (any free ports) or 1..{65536 - len(DEMO_PORTS)}, not {base}")
    return {name: base + offset for offset, name in enumerate(DEMO_PORTS)}


@dataclass(frozen=True)
class DemoAgent:
    """One running (or, for stdio, startable) demo agent.

    Attributes:
        name: Short name (``demo-mcp``, ``travel`` ...).
        protocol: ``mcp-http``, ``mcp-sse``, ``mcp-stdio`` or ``a2a``.
        target: URL, or for stdio the command line that starts it.
        wanted_port: The port it was to listen on (``None``: stdio, or any port was fine).
    """

    name: str
    protocol: str
    target: str
    wanted_port: int | None = None

    @property
    def port(self) -> int | None:
        """The port it listens on (``None`` for stdio)."""
        return urlsplit(self.target).port if self.target.startswith("http") else None

    @property
    def fell_back(self) -> bool:
        """Whether its port was taken, so it listens on an ephemeral port instead."""
        return self.wanted_port is not None and self.port != self.wanted_port

    @property
    def fallback_note(self) -> str:
        """What to tell the user when it fell back, one sentence with its full stop (empty otherwise)."""
        if not self.fell_back:
            return ""
        return (
            f"{self.name}: port {self.wanted_port} is taken (another demo running?), so it listens on "
            f"{self.target} instead; connections saved with port {self.wanted_port} will not reach it this time."
        )

    def line(self) -> str:
        """``NAME PROTOCOL TARGET``, the line ``workbench demo --headless`` prints."""
        return f"{self.name:<16} {self.protocol:<10} {self.target}"


@contextlib.asynccontextmanager
async def run_demo(
    *, chunk_delay: float = 0.3, ports: Mapping[str, int] = DEMO_PORTS
) -> AsyncIterator[list[DemoAgent]]:
    """Serve the demo MCP server (Streamable HTTP and SSE) and the demo A2A agents until exit.

    The A2A MCP-proxy agent is configured to reach the demo MCP server over Streamable HTTP (id ``demo``).

    Args:
        chunk_delay: Seconds between the travel agent's streamed chunks (visible streaming).
        ports: Each agent's port by name (``DEMO_PORTS`` by default; 0, or a missing name: any free
            port). A port that cannot be bound (taken) falls back to a free ephemeral port.
    """
    wanted = {name: ports.get(name, 0) for name in DEMO_PORTS}
    async with (
        serve_http(transport="streamable-http", port=wanted["demo-mcp"], any_port_if_taken=True) as mcp_url,
        serve_http(transport="sse", port=wanted["demo-mcp-sse"], any_port_if_taken=True) as sse_url,
        run_demo_agents(
            mcp_targets={"demo": mcp_url},
            chunk_delay=chunk_delay,
            ports={"travel": wanted["travel"], "mcp-proxy": wanted["mcp-proxy"]},
        ) as a2a,
    ):

        def agent(name: str, protocol: str, target: str) -> DemoAgent:
            return DemoAgent(name, protocol, target, wanted[name] or None)

        agents = [
            agent("demo-mcp", "mcp-http", mcp_url),
            agent("demo-mcp-sse", "mcp-sse", sse_url),
            DemoAgent("demo-mcp-stdio", "mcp-stdio", " ".join(DEMO_MCP_STDIO)),
            agent("travel", "a2a", a2a["travel"]),
            agent("mcp-proxy", "a2a", a2a["mcp-proxy"]),
        ]
        for each in agents:
            if each.fell_back:
                log.info("%s", each.fallback_note)  # `workbench demo` prints it; the window logs it
        yield agents
