"""A stateless Streamable HTTP server (no ``Mcp-Session-Id``) gets no GET stream, and connecting waits for none."""

from __future__ import annotations

import pytest

from workbench.core.protocols.mcp import _session
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.serving import serve_asgi
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.mcp_server.app import build_server

pytestmark = pytest.mark.asyncio


async def test_a_stateless_handshake_era_server_is_connected_without_waiting_for_a_get_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A wait for the GET stream would outlast the test's timeout: connecting must not start one.
    monkeypatch.setattr(_session, "GET_STREAM_WAIT", 3600.0)
    app = build_server().streamable_http_app(stateless_http=True)
    wire = WireRecorder()
    async with (
        serve_asgi(lambda _base: app, lifespan="on") as base,
        MCPAgent(f"{base}/mcp", mode="legacy", wire=wire) as agent,
    ):
        assert agent.tools
    assert "GET" not in {record.method for record in wire.records() if record.kind is WireKind.HTTP_REQUEST}
