"""Capability inspector: what a connected server or agent offers, and trying it out (MCP and A2A)."""
