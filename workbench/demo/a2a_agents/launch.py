"""Starts the demo A2A agents together (what ``workbench demo`` runs)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from workbench.demo.a2a_agents.common import serve_agent
from workbench.demo.a2a_agents.mcp_proxy import Target, mcp_proxy_app_factory
from workbench.demo.a2a_agents.travel import travel_app_factory


@contextlib.asynccontextmanager
async def run_demo_agents(
    *,
    mcp_targets: Mapping[str, Target] | None = None,
    chunk_delay: float = 0.3,
    host: str = "127.0.0.1",
    ports: Mapping[str, int] | None = None,
) -> AsyncIterator[dict[str, str]]:
    """Serve the travel agent and the MCP proxy agent; yields ``{"travel": url, "mcp-proxy": url}``.

    Args:
        mcp_targets: MCP servers the proxy may call (default: the demo MCP server over stdio, id
            ``demo``). Pass ``{"demo": <its Streamable HTTP URL>}`` when it already runs.
        chunk_delay: Seconds between the travel agent's streamed chunks (visible streaming).
        host: Loopback interface to bind.
        ports: The port each agent prefers (``travel``, ``mcp-proxy``); a taken one falls back to an
            ephemeral port. Default: ephemeral ports (``workbench demo`` passes its fixed ones).
    """
    wanted = ports or {}
    async with (
        serve_agent(
            travel_app_factory(chunk_delay=chunk_delay), host, wanted.get("travel", 0), any_port_if_taken=True
        ) as travel,
        serve_agent(
            mcp_proxy_app_factory(targets=mcp_targets), host, wanted.get("mcp-proxy", 0), any_port_if_taken=True
        ) as proxy,
    ):
        yield {"travel": travel, "mcp-proxy": proxy}
