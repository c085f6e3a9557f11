"""The MCP adapter: the only place (with the demo servers) that imports the ``mcp`` SDK."""

from workbench.core.protocols.mcp.agent import MCPAgent

__all__ = ["MCPAgent"]
