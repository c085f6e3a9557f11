"""The MCP adapter: the only place (with the demo servers) that imports the ``mcp`` SDK."""

from workbench.core.protocols.mcp.agent import MCPAgent, MCPConfig, MCPServerFeatures, MCPTaskOperations

__all__ = ["MCPAgent", "MCPConfig", "MCPServerFeatures", "MCPTaskOperations"]
