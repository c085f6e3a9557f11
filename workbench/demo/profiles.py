"""Connection profiles for the running demo agents (what the window lists and connects at start)."""

from __future__ import annotations

from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile, MCPStdioProfile
from workbench.demo.launcher import DEMO_MCP_STDIO, DemoAgent


def demo_profiles(agents: list[DemoAgent]) -> list[ConnectionProfile]:
    """Connection profiles for the running demo agents (ids prefixed ``demo-``)."""
    out: list[ConnectionProfile] = []
    for agent in agents:
        pid = agent.name if agent.name.startswith("demo") else f"demo-{agent.name}"
        if agent.protocol == "mcp-http":
            out.append(MCPHTTPProfile(id=pid, name="Demo MCP (HTTP)", url=agent.target))
        elif agent.protocol == "mcp-sse":
            out.append(MCPSSEProfile(id=pid, name="Demo MCP (legacy SSE)", url=agent.target))
        elif agent.protocol == "mcp-stdio":
            out.append(
                MCPStdioProfile(id=pid, name="Demo MCP (stdio)", command=DEMO_MCP_STDIO[0], args=DEMO_MCP_STDIO[1:])
            )
        elif agent.protocol == "a2a":
            title = {"travel": "Travel planner (A2A)", "mcp-proxy": "MCP tool proxy (A2A)"}.get(agent.name, agent.name)
            out.append(A2AProfile(id=pid, name=title, url=agent.target))
    return out
