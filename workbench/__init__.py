"""Agent Workbench: a desktop workbench and Qt-free library for remote agents (MCP and A2A)."""

__version__ = "0.1.0"
