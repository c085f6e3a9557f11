"""Demo resources (readme, logo, counter, items template), the counter's tools and legacy subscriptions."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp_types import EmptyResult, SubscribeRequestParams, ToolAnnotations, UnsubscribeRequestParams

from workbench.demo.mcp_server.media import make_png
from workbench.demo.mcp_server.state import DemoState
from workbench.demo.mcp_server.support import is_modern, log

README_URI = "demo://readme"
LOGO_URI = "demo://logo.png"
COUNTER_URI = "demo://counter"
ITEMS_TEMPLATE = "demo://items/{item_id}"

ITEMS: dict[str, str] = {
    "1": "Compass",
    "2": "Map",
    "3": "Lantern",
    "7": "Rope",
    "12": "Tent",
    "42": "Towel",
    "100": "Kettle",
}

README = """# Agent Workbench demo server

A deterministic MCP server for exploring the protocol. Start with the **ask** tool: it is the
server's agent entry point (tool `_meta` `io.workbench/agent-entry`).

- Tools with rich input schemas (`plan_trip`), structured output (`weather`), media, errors.
- Elicitation (`book_table`, `connect_account`), sampling (`handoff`), roots (`show_roots`).
- Progress and cancellation (`slow_count`), dynamic tools (`add_tool`), a counter resource
  that changes (`bump_counter`), prompts with completions (`greet`, `summarize`).
"""


def register(server: MCPServer, state: DemoState) -> None:
    """Register the resources, the items template and `bump_counter` on `server`."""

    @server.resource(README_URI, name="readme", title="Demo README", mime_type="text/markdown")
    def readme() -> str:
        return README

    @server.resource(LOGO_URI, name="logo", title="Demo logo", mime_type="image/png")
    def logo() -> bytes:
        return make_png(32)

    @server.resource(
        COUNTER_URI, name="counter", description="A number that bump_counter increments", mime_type="text/plain"
    )
    def counter() -> str:
        return f"counter = {state.counter}"

    @server.resource(ITEMS_TEMPLATE, name="item", description="One item of the demo catalogue", mime_type="text/plain")
    def item(item_id: str) -> str:
        name = ITEMS.get(item_id)
        if name is None:
            raise ResourceNotFoundError(f"No item {item_id!r}; known ids: {', '.join(ITEMS)}")
        return f"Item {item_id}: {name}"

    @server.tool(
        description="Increment demo://counter and notify subscribers (resources/updated).", structured_output=False
    )
    async def bump_counter(ctx: Context) -> str:
        state.counter += 1
        await ctx.notify_resource_updated(COUNTER_URI)  # modern: subscriptions/listen streams
        await notify_legacy_subscribers(state, COUNTER_URI)
        await log(ctx, "info", f"bump_counter: now {state.counter} ({'modern' if is_modern(ctx) else 'legacy'} caller)")
        return f"counter = {state.counter}"

    @server.tool(
        description="Set demo://counter back to 0 (destructive: the count is lost).",
        annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=True, open_world_hint=False),
        structured_output=False,
    )
    async def reset_counter(ctx: Context) -> str:
        state.counter = 0
        await ctx.notify_resource_updated(COUNTER_URI)
        await notify_legacy_subscribers(state, COUNTER_URI)
        return "counter = 0"

    add_legacy_subscriptions(server, state)


async def notify_legacy_subscribers(state: DemoState, uri: str) -> None:
    """Send `notifications/resources/updated` to every legacy connection subscribed to `uri`.

    Connections that have gone away are dropped from the list.
    """
    sessions = state.subscribers.get(uri, [])
    for session in list(sessions):
        try:
            await session.send_resource_updated(uri)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            sessions.remove(session)


def add_legacy_subscriptions(server: MCPServer, state: DemoState) -> None:
    """Serve `resources/subscribe` and `resources/unsubscribe` on legacy connections.

    MCPServer does not implement them (they were removed in 2026-07-28, which has
    `subscriptions/listen` instead); the SDK's advice for re-providing a removed spec method is the
    low-level `Server.add_request_handler`, reached here through MCPServer's `_lowlevel_server`.
    Registering the handler also makes legacy `initialize` advertise `resources.subscribe: true`.
    A connection is recognised by the identity of its handshake `client_params` (one object per
    connection), which is what `unsubscribe` compares.
    """

    async def subscribe(ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams) -> EmptyResult:
        state.subscribers.setdefault(str(params.uri), []).append(ctx.session)
        return EmptyResult()

    async def unsubscribe(ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams) -> EmptyResult:
        mine = ctx.session.client_params
        sessions = state.subscribers.get(str(params.uri), [])
        sessions[:] = [s for s in sessions if s.client_params is not mine]
        return EmptyResult()

    lowlevel = server._lowlevel_server  # private: see the docstring
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)
