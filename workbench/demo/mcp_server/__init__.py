"""Deterministic demo MCP server for both protocol eras: `build_server()`, `serve_http()`, `python -m` entry point."""

from workbench.demo.mcp_server.app import build_server
from workbench.demo.mcp_server.http import serve_http
from workbench.demo.mcp_server.state import DemoState

__all__ = ["DemoState", "build_server", "serve_http"]
