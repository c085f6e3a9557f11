"""A burst of ``list_changed`` notifications costs one re-list, not one per notification."""

from __future__ import annotations

import asyncio

import pytest
from mcp.server.mcpserver import Context, MCPServer

from tests.support.everything import StdioCommand
from workbench.core.events import EventBus, ListChanged
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

pytestmark = pytest.mark.asyncio

BURST = 5


def bursting_server() -> MCPServer:
    """A server whose ``burst`` tool adds five tools and announces each one separately."""
    server = MCPServer("burst")

    @server.tool(structured_output=False)
    async def burst(ctx: Context) -> str:
        for n in range(BURST):

            def added() -> str:
                return "added"

            server.add_tool(added, name=f"added_{n}", structured_output=False)
            await ctx.notify_tools_changed()  # 2026 era: on the listen stream
            if ctx.session.client_params is not None:  # handshake era: a plain notification
                await ctx.session.send_tool_list_changed()
        return "done"

    return server


def sent(wire: WireRecorder, method: str) -> int:
    return sum(
        1 for r in wire.records() if r.kind is WireKind.JSONRPC and r.direction is Direction.OUT and r.method == method
    )


def received(wire: WireRecorder, method: str) -> int:
    return sum(
        1 for r in wire.records() if r.kind is WireKind.JSONRPC and r.direction is Direction.IN and r.method == method
    )


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_five_tools_list_changed_in_a_row_cause_one_tools_list(mode: str) -> None:
    wire, bus = WireRecorder(), EventBus()
    changed = asyncio.Event()
    bus.subscribe(ListChanged, lambda e: e.what == "tools" and changed.set())
    async with MCPAgent.in_process(bursting_server(), mode=mode, wire=wire, bus=bus) as agent:
        listed_at_connect = sent(wire, "tools/list")
        assert (await agent.call_tool("burst", {})).text == "done"
        await asyncio.wait_for(changed.wait(), 10)
        assert received(wire, "notifications/tools/list_changed") == BURST
        assert sent(wire, "tools/list") == listed_at_connect + 1
        assert {f"added_{n}" for n in range(BURST)} <= set(agent.tools)


@pytest.mark.everything
async def test_server_everything_announcing_its_tools_at_start_up_costs_one_re_list(
    everything_stdio: StdioCommand,
) -> None:
    """It registers its client-dependent tools after ``initialized`` and says so once per tool."""
    wire = WireRecorder()
    cmd = everything_stdio
    async with MCPAgent.stdio(cmd.command, list(cmd.args), env=dict(cmd.env or {}), mode="legacy", wire=wire) as agent:
        announced = received(wire, "notifications/tools/list_changed")
        assert announced >= 3
        assert 1 <= sent(wire, "tools/list") <= 2  # the listing, and at most one re-list for the burst
        # announced during the burst, and listed before connect returned
        assert "trigger-elicitation-request" in agent.tools
