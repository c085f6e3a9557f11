"""The same HTTP 5xx from an MCP server and from an A2A agent gives the same typed error and details.

One real loopback server plays both peers: it serves an A2A agent card whose JSON-RPC endpoint is
``/rpc``, and ``/rpc`` answers every request with the same 5xx, whoever sends it.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from workbench.core.errors import RemoteError, WorkbenchError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.serving import serve_asgi
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

BOUND = 30


def failing_peer(status: int) -> Any:
    def factory(base: str) -> Starlette:
        card = {
            "name": "failing",
            "description": "answers every call with an HTTP error",
            "version": "1.0.0",
            "supportedInterfaces": [{"url": f"{base}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": False},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [],
        }

        async def agent_card(request: Request) -> Response:
            return JSONResponse(card)

        async def rpc(request: Request) -> Response:
            await request.body()
            return PlainTextResponse("the peer is broken", status_code=status)

        return Starlette(
            routes=[
                Route("/.well-known/agent-card.json", agent_card),
                Route("/rpc", rpc, methods=["GET", "POST", "DELETE"]),
            ]
        )

    return factory


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [500, 503])
async def test_the_same_http_5xx_from_an_mcp_and_an_a2a_peer_gives_the_same_error(status: int) -> None:
    async with serve_asgi(failing_peer(status)) as base:
        mcp = MCPAgent(f"{base}/rpc", mode="legacy")
        with anyio.fail_after(BOUND), pytest.raises(WorkbenchError) as from_mcp:
            await mcp.connect()
        a2a = A2AAgent(base, streaming=False, wire=WireRecorder())
        try:
            with anyio.fail_after(BOUND), pytest.raises(WorkbenchError) as from_a2a:
                await a2a.invoke_async("hello")
        finally:
            await a2a.aclose()
    assert type(from_mcp.value) is type(from_a2a.value) is RemoteError
    assert from_mcp.value.details == from_a2a.value.details
    assert from_mcp.value.details == {"http_status": status, "url": f"{base}/rpc", "remote_code": status}
    # Both wire logs keep the raw response, body included.
    for wire, cid in ((mcp.config.wire, mcp.connection_id), (a2a.config.wire, a2a.connection_id)):
        answers = [r for r in wire.records(cid) if r.kind is WireKind.HTTP_RESPONSE and r.http]
        assert any(r.http["status"] == status and "broken" in r.payload for r in answers if r.http)
