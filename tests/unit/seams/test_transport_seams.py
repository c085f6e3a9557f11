"""The transport seams: an MCP SDK server object and an A2A ASGI app reached in process, wire-tapped."""

from __future__ import annotations

import httpx
import pytest

from workbench.core.errors import ConfigError
from workbench.core.protocols.a2a.agent import A2AAgent
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.a2a_agents.travel import build_travel_app
from workbench.demo.mcp_server.app import build_server


@pytest.mark.asyncio
@pytest.mark.parametrize(("mode", "era"), [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")])
async def test_in_process_mcp_server_speaks_json_rpc_in_both_eras_and_is_recorded(mode: str, era: str) -> None:
    wire = WireRecorder()
    async with MCPAgent.in_process(build_server(), mode=mode, wire=wire) as agent:
        result = await agent.call_tool("echo", {"text": "hi"})
        assert agent.capabilities.protocol_version == era
    assert result.text == "hi"
    methods = [r.method for r in wire.records() if r.kind is WireKind.JSONRPC]
    assert "tools/call" in methods


def test_in_process_needs_exactly_one_server_or_transport() -> None:
    with pytest.raises(ConfigError):
        MCPAgent(None, transport="in-process")


@pytest.mark.asyncio
async def test_a2a_agent_over_an_asgi_transport_streams_a_task_and_records_it() -> None:
    wire = WireRecorder()
    app = build_travel_app("http://travel.test", chunk_delay=0)
    async with A2AAgent("http://travel.test", http_transport=httpx.ASGITransport(app), wire=wire) as agent:
        result = await agent.invoke_async("Plan a trip to Lisbon")
    assert result.state == "input_required"
    assert any(r.kind is WireKind.HTTP_REQUEST for r in wire.records())
