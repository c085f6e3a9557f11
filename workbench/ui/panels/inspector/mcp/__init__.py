"""The MCP capability inspector: server facts, tools (with a call form), resources, templates and prompts."""

from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget

__all__ = ["MCPInspectorWidget"]
