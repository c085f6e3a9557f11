"""The `add_tool` demo tool: registers a new tool at runtime and announces the changed tool list."""

from __future__ import annotations

from mcp.server.mcpserver import Context, MCPServer

from workbench.demo.mcp_server.state import DemoState
from workbench.demo.mcp_server.support import is_modern, log


def register(server: MCPServer, state: DemoState) -> None:
    """Register `add_tool` on `server`."""

    @server.tool(
        description="Register a new tool (dynamic_tool_<n>) and send tools/list_changed.", structured_output=False
    )
    async def add_tool(ctx: Context) -> str:
        state.added_tools += 1
        name = f"dynamic_tool_{state.added_tools}"
        text = f"I am {name}, added at runtime."

        def dynamic_tool() -> str:
            return text

        server.add_tool(
            dynamic_tool,
            name=name,
            description=f"Added at runtime by add_tool (#{state.added_tools}).",
            structured_output=False,
        )
        # Modern connections hear about it on their subscriptions/listen streams; a legacy
        # connection gets a plain notification (sent on this connection only).
        await ctx.notify_tools_changed()
        if not is_modern(ctx):
            await ctx.session.send_tool_list_changed()
        await log(ctx, "info", f"add_tool: registered {name}")
        return name
