"""Replies a client cannot read answer their request with a typed error instead of leaving it waiting.

A stdio server's reply nested 100,000 levels deep, cut off mid-object or longer than the message
limit is still matched to its request, so the call ends with the error instead of waiting forever.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.servers import script_path
from workbench.core.errors import ProtocolError
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.protocols.mcp.stdio import StdioTransport
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

SERVER = [sys.executable, script_path("unreadable_replies")]
BOUND = 20.0


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "reason"), [("nested", "too-deep"), ("broken", "invalid")])
async def test_an_unreadable_reply_fails_its_call_at_once_and_the_connection_goes_on(tool: str, reason: str) -> None:
    wire = WireRecorder()
    async with MCPAgent.stdio(SERVER[0], SERVER[1:], wire=wire) as agent:
        with pytest.raises(ProtocolError) as failed:
            await asyncio.wait_for(agent.call_tool(tool, {}), BOUND)
        assert failed.value.details["reason"] == reason
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    raw = [r for r in wire.records() if r.kind is WireKind.RAW]
    assert len(raw) == 1 and raw[0].payload.startswith('{"jsonrpc":"2.0"')  # kept as it arrived


@pytest.mark.asyncio
async def test_a_reply_over_the_message_limit_is_refused_naming_the_limit_and_not_kept() -> None:
    wire = WireRecorder()
    transport = StdioTransport(SERVER[0], SERVER[1:], wire=wire, max_message_chars=100_000)
    async with MCPAgent.in_process(None, sdk_transport=transport, wire=wire) as agent:
        small = await asyncio.wait_for(agent.call_tool("huge", {"chars": 50_000}), BOUND)
        assert len(small.content[0].text or "") == 50_000
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool("huge", {"chars": 3_000_000}), BOUND)
        assert refused.value.details["reason"] == "too-large"
        assert refused.value.details["size"] > 3_000_000
        assert "100,000" in refused.value.message
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    [raw] = [r for r in wire.records() if r.kind is WireKind.RAW]
    assert len(raw.payload) <= 64 * 1024  # the head is kept, not the 3 MB
