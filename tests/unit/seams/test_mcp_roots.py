"""The roots capability is declared only when roots are offered (a server cannot ask a client that has none)."""

from __future__ import annotations

import json

import pytest

from workbench.core.errors import UsageError
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind
from workbench.demo.mcp_server.app import build_server


def declared_capabilities(wire: WireRecorder) -> dict[str, object]:
    [init] = [
        r
        for r in wire.records()
        if r.kind is WireKind.JSONRPC and r.direction is Direction.OUT and r.method == "initialize"
    ]
    return json.loads(init.payload)["params"]["capabilities"]


@pytest.mark.asyncio
async def test_without_roots_the_client_does_not_declare_them_and_cannot_announce_any() -> None:
    wire = WireRecorder()
    async with MCPAgent.in_process(build_server(), mode="legacy", wire=wire) as agent:
        assert "roots" not in declared_capabilities(wire)
        with pytest.raises(UsageError):
            await agent.server_features.set_roots([("file:///data", "data")])


@pytest.mark.asyncio
async def test_offered_roots_are_declared_listed_and_can_change() -> None:
    wire = WireRecorder()
    async with MCPAgent.in_process(build_server(), mode="legacy", wire=wire, roots=[("file:///a", "a")]) as agent:
        assert "roots" in declared_capabilities(wire)
        assert "file:///a" in (await agent.call_tool("show_roots", {})).text
        await agent.server_features.set_roots([("file:///b", "b")])
        assert "file:///b" in (await agent.call_tool("show_roots", {})).text
