"""Composition of the demo MCP server: `build_server()` wires every tool, resource and prompt onto an MCPServer."""

from __future__ import annotations

from typing import Any

from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import MCPServer

from workbench.demo.mcp_server import (
    log_levels,
    prompts,
    resources,
    tasks_ext,
    tools_agent,
    tools_apps,
    tools_basic,
    tools_documents,
    tools_dynamic,
    tools_interactive,
    tools_media,
)
from workbench.demo.mcp_server.state import DemoState

SERVER_NAME = "workbench-demo"
SERVER_VERSION = "1.0.0"
INSTRUCTIONS = (
    "Deterministic demo server of Agent Workbench. Talk to the agent through the `ask` tool "
    "(its entry point); the other tools show one MCP feature each."
)


def build_server(state: DemoState | None = None) -> MCPServer:
    """Build a fresh demo server.

    Note: constructing an `MCPServer` configures the root logger (at WARNING here) if nothing
    configured it before, so configure logging first in processes that care.

    Args:
        state: State to share with the caller (e.g. tests reading `state.cancellations`);
            a new `DemoState` when omitted.

    Returns:
        The server, ready for `run_stdio_async()`, `serve_http()` or in-process `Client(server)`.
    """
    state = state if state is not None else DemoState()
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="Agent Workbench demo",
        version=SERVER_VERSION,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=[tools_basic.broken_output_tool()],
        extensions=[tasks_ext.DemoTasksExtension(), tools_apps.build_apps()],
    )
    tools_agent.register(server, state)
    tools_basic.register(server)
    tools_interactive.register(server)
    tools_media.register(server)
    tools_documents.register(server)
    tools_dynamic.register(server, state)
    resources.register(server, state)
    prompts.register(server)
    tasks_ext.register_tools(server)
    log_levels.add_legacy_set_level(server)
    _advertise_legacy_list_changed(server)
    return server


def _advertise_legacy_list_changed(server: MCPServer) -> None:
    """Make legacy `initialize` advertise `tools.listChanged: true` (add_tool sends it).

    MCPServer builds its handshake capabilities with default `NotificationOptions` (all false) and
    offers no setting; the low-level server's `create_initialization_options` is the one place
    that decides, so it is wrapped on this instance. Modern `server/discover` derives the flags
    from `subscriptions/listen` and is unaffected.
    """
    lowlevel = server._lowlevel_server  # private: see the docstring
    original = lowlevel.create_initialization_options

    def with_list_changed(
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> Any:
        return original(
            notification_options or NotificationOptions(tools_changed=True), experimental_capabilities, extensions
        )

    lowlevel.create_initialization_options = with_list_changed  # type: ignore[method-assign]
