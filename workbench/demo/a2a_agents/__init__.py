"""Demo A2A agents (deterministic, no LLM, loopback only): a travel planner and an MCP tool proxy.

``run_demo_agents()`` serves both in-process and yields their base URLs; ``serve_agent`` serves any
app factory (``factory(base_url) -> Starlette``) on an ephemeral loopback port.
"""

from workbench.demo.a2a_agents.common import make_app, make_card, serve_agent
from workbench.demo.a2a_agents.launch import run_demo_agents
from workbench.demo.a2a_agents.mcp_proxy import build_mcp_proxy_app, mcp_proxy_app_factory
from workbench.demo.a2a_agents.travel import build_travel_app, travel_app_factory

__all__ = [
    "build_mcp_proxy_app",
    "build_travel_app",
    "make_app",
    "make_card",
    "mcp_proxy_app_factory",
    "run_demo_agents",
    "serve_agent",
    "travel_app_factory",
]
