"""The shared HTTP wire tap through both client shims (httpx for A2A, httpx2 for MCP).

The seam is each client's in-process ``MockTransport``: real requests and responses, no socket.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from types import ModuleType
from typing import Any

import anyio
import httpx
import httpx2
import pytest

from tests.support.http_clients import CLIENTS
from workbench.core.http.httpx2_transport import Httpx2TapTransport
from workbench.core.http.httpx_transport import HttpxTapTransport
from workbench.core.http.status import StatusSeen
from workbench.core.http.tap import HTTPTap
from workbench.core.protocols.a2a.wire_tap import A2ATransport
from workbench.core.protocols.mcp.tap import HTTPWireTransport
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord

URL = "http://peer.test/rpc"
Handler = Callable[[Any], Any]


def client(mod: ModuleType, shim: type, tap: HTTPTap | None, handler: Handler) -> Any:
    return mod.AsyncClient(transport=shim(tap, mod.MockTransport(handler)))


def kinds(wire: WireRecorder) -> list[WireKind]:
    return [r.kind for r in wire.records()]


def of_kind(wire: WireRecorder, kind: WireKind) -> list[WireRecord]:
    return [r for r in wire.records() if r.kind is kind]


def rpc(**fields: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, **fields}).encode()


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_request_and_response_are_recorded_with_bodies_and_jsonrpc(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()
    tap = HTTPTap(wire, "c1", protocol="a2a", jsonrpc_bodies=True)

    def handler(request: Any) -> Any:
        return mod.Response(200, headers={"content-type": "application/json"}, content=rpc(result={"ok": True}))

    async with client(mod, shim, tap, handler) as http:
        response = await http.post(URL, content=rpc(method="GetTask"), headers={"content-type": "application/json"})
    assert response.json()["result"] == {"ok": True}
    assert kinds(wire) == [WireKind.HTTP_REQUEST, WireKind.JSONRPC, WireKind.HTTP_RESPONSE, WireKind.JSONRPC]
    out, back = of_kind(wire, WireKind.JSONRPC)
    assert (out.direction, out.method, back.direction) == (Direction.OUT, "GetTask", Direction.IN)
    assert back.latency_ms is not None
    answer = of_kind(wire, WireKind.HTTP_RESPONSE)[0]
    assert answer.http is not None and answer.http["status"] == 200 and '"ok"' in answer.payload
    assert {r.protocol for r in wire.records()} == {"a2a"}


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_without_jsonrpc_bodies_only_the_http_layer_is_recorded(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()
    tap = HTTPTap(wire, "c1", protocol="mcp")
    async with client(mod, shim, tap, lambda request: mod.Response(200, content=rpc(result={}))) as http:
        await http.post(URL, content=rpc(method="ping"))
    assert kinds(wire) == [WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE]


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_sse_events_are_recorded_when_their_frame_completes(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()
    tap = HTTPTap(wire, "c1", protocol="a2a", jsonrpc_bodies=True)

    async def body() -> AsyncIterator[bytes]:
        yield b": ping\n\n"
        yield b"event: message\nid: e1\ndata: " + rpc(result={"n": 1}) + b"\n\n"
        yield b"data: not json\n"  # no blank line: recorded when the stream ends

    def handler(request: Any) -> Any:
        return mod.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    seen: list[list[WireKind]] = []
    async with client(mod, shim, tap, handler) as http, http.stream("POST", URL, content=rpc(method="Send")) as r:
        async for _ in r.aiter_raw():
            seen.append(kinds(wire))
    head = [WireKind.HTTP_REQUEST, WireKind.JSONRPC, WireKind.HTTP_RESPONSE]
    assert seen[0] == [*head, WireKind.SSE_EVENT]  # the ping, before the next chunk was read
    assert seen[1] == [*head, WireKind.SSE_EVENT, WireKind.SSE_EVENT, WireKind.JSONRPC]
    assert kinds(wire) == [*head, WireKind.SSE_EVENT, WireKind.SSE_EVENT, WireKind.JSONRPC, WireKind.SSE_EVENT]
    ping, event, tail = of_kind(wire, WireKind.SSE_EVENT)
    assert ping.http is not None and ping.http["comment"] and ping.payload == "ping"
    assert event.http is not None and (event.method, event.http["event_id"]) == ("message", "e1")
    assert tail.payload == "not json"


@pytest.mark.asyncio
async def test_long_jsonrpc_sse_payload_is_whole_in_its_sse_record_and_in_its_jsonrpc_record() -> None:
    wire = WireRecorder()
    tap = HTTPTap(wire, "c1", protocol="a2a", jsonrpc_bodies=True)
    message = rpc(result={"text": "x" * 100_000})

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=b"data: " + message + b"\n\n")

    async with client(httpx, HttpxTapTransport, tap, handler) as http:
        await http.get(URL)
    (event,) = of_kind(wire, WireKind.SSE_EVENT)
    assert event.payload.encode() == message and event.size == len(message)  # what travelled, not a preview
    (answer,) = of_kind(wire, WireKind.JSONRPC)
    assert answer.size == len(message)


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_transport_failure_is_recorded_and_raised_unchanged(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()

    def refuse(request: Any) -> Any:
        raise mod.ConnectError("refused", request=request)

    async with client(mod, shim, HTTPTap(wire, "c1", protocol="mcp"), refuse) as http:
        with pytest.raises(mod.ConnectError):
            await http.get(URL)
    assert kinds(wire) == [WireKind.HTTP_REQUEST, WireKind.ERROR]


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_body_failure_mid_stream_keeps_the_events_that_arrived(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()

    async def body() -> AsyncIterator[bytes]:
        yield b"data: first\n\n"
        raise mod.ReadError("peer went away")

    def handler(request: Any) -> Any:
        return mod.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    async with client(mod, shim, HTTPTap(wire, "c1", protocol="a2a"), handler) as http:
        with pytest.raises(mod.ReadError):
            await http.get(URL)
    assert kinds(wire) == [WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE, WireKind.SSE_EVENT, WireKind.ERROR]


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_error_status_session_id_and_get_stream_are_kept_for_the_adapter(mod: ModuleType, shim: type) -> None:
    wire = WireRecorder()
    tap = HTTPTap(wire, "c1", protocol="mcp", session_header="Mcp-Session-Id")

    def handler(request: Any) -> Any:
        if request.method == "GET":
            return mod.Response(200, headers={"content-type": "text/event-stream"}, content=b"")
        headers = {"www-authenticate": 'Bearer realm="x"', "mcp-session-id": "s-1"}
        return mod.Response(401, headers=headers, content=b"no")

    async with client(mod, shim, tap, handler) as http:
        await http.post(f"{URL}?key=secret", content=b"{}")
        assert not tap.get_stream_answered.is_set()
        await http.get(URL)
    assert tap.get_stream_answered.is_set()
    assert tap.last_error == StatusSeen(401, 'Bearer realm="x"', f"{URL}?key=secret")
    assert (tap.error_count, tap.last_status, tap.last_session_id) == (1, 200, "s-1")


@pytest.mark.asyncio
async def test_both_clients_give_the_same_records_for_the_same_exchange() -> None:
    def script(mod: ModuleType) -> Handler:
        def handler(request: Any) -> Any:
            if request.method == "GET":
                stream = b": ping\n\nid: 3\ndata: " + rpc(result=1) + b"\n\n"
                return mod.Response(200, headers={"content-type": "text/event-stream"}, content=stream)
            return mod.Response(503, headers={"content-type": "text/plain"}, content=b"busy")

        return handler

    views = []
    for mod, shim in ((httpx, HttpxTapTransport), (httpx2, Httpx2TapTransport)):
        wire = WireRecorder()
        async with client(mod, shim, HTTPTap(wire, "c1", protocol="a2a", jsonrpc_bodies=True), script(mod)) as http:
            await http.post(URL, content=rpc(method="SendMessage"))
            await http.get(URL)
        http_of = [r.http or {} for r in wire.records()]
        views.append(
            [
                (r.kind, r.direction, r.method, r.payload, h.get("status"), h.get("url"))
                for r, h in zip(wire.records(), http_of, strict=True)
            ]
        )
    assert views[0] == views[1]
    assert [view[0] for view in views[0]] == [
        WireKind.HTTP_REQUEST,
        WireKind.JSONRPC,
        WireKind.HTTP_RESPONSE,
        WireKind.HTTP_REQUEST,
        WireKind.HTTP_RESPONSE,
        WireKind.SSE_EVENT,
        WireKind.SSE_EVENT,
        WireKind.JSONRPC,
    ]


@pytest.mark.asyncio
async def test_no_tap_passes_requests_through_without_records() -> None:
    async with client(httpx, HttpxTapTransport, None, lambda request: httpx.Response(204)) as http:
        assert (await http.get(URL)).status_code == 204


@pytest.mark.asyncio
async def test_a2a_transport_gives_event_stream_requests_the_stream_idle_timeout() -> None:
    seen: dict[str, Any] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen[request.headers.get("accept", "")] = request.extensions["timeout"]["read"]
        return httpx.Response(200, content=b"{}")

    wire = WireRecorder()
    transport = A2ATransport(httpx.MockTransport(handler), stream_idle_timeout=None, recorder=wire, connection_id="a")
    async with httpx.AsyncClient(transport=transport, timeout=5.0) as http:
        await http.get(URL, headers={"accept": "text/event-stream"})
        await http.get(URL, headers={"accept": "application/json"})
    assert seen == {"text/event-stream": None, "application/json": 5.0}
    assert {r.protocol for r in wire.records()} == {"a2a"} and {r.connection_id for r in wire.records()} == {"a"}


@pytest.mark.asyncio
async def test_mcp_http_wire_transport_is_the_shared_tap_with_mcp_settings() -> None:
    wire = WireRecorder()

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(500, headers={"mcp-session-id": "abc"}, content=rpc(result={}))

    transport = HTTPWireTransport(wire, "m", httpx2.MockTransport(handler))
    with anyio.fail_after(5):
        async with httpx2.AsyncClient(transport=transport) as http:
            await http.post(URL, content=rpc(method="initialize"))
    assert kinds(wire) == [WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE]  # JSON-RPC is JSONRPCTap's job
    assert (transport.last_session_id, transport.error_count) == ("abc", 1)
    assert transport.last_error == StatusSeen(500, None, URL)


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
@pytest.mark.parametrize(("status", "kept"), [(500, "broken"), (200, "")])
async def test_an_error_body_closed_unread_is_still_recorded(
    mod: ModuleType, shim: type, status: int, kept: str
) -> None:
    wire = WireRecorder()

    def handler(request: Any) -> Any:
        return mod.Response(status, headers={"content-type": "text/plain"}, content=b"broken")

    tap = HTTPTap(wire, "c1", protocol="mcp")
    async with client(mod, shim, tap, handler) as http, http.stream("POST", URL, content=b"{}") as response:
        assert response.status_code == status  # and closed without reading the body, as SDKs do
    (answer,) = of_kind(wire, WireKind.HTTP_RESPONSE)
    assert answer.payload == kept


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_an_error_response_closed_while_its_caller_is_cancelled_is_still_recorded(
    mod: ModuleType, shim: type
) -> None:
    # The MCP SDK hands a 5xx to the waiting request from inside its `async with stream(...)`; the
    # failed connect then cancels the transport's task group while the response is being closed.
    wire = WireRecorder()

    async def slow_body() -> AsyncIterator[bytes]:
        await anyio.sleep_forever()
        yield b"never"

    def handler(request: Any) -> Any:
        return mod.Response(500, headers={"content-type": "text/plain"}, content=slow_body())

    tap = HTTPTap(wire, "c1", protocol="mcp")
    async with client(mod, shim, tap, handler) as http:
        with anyio.fail_after(5):
            async with anyio.create_task_group() as tg:

                async def post() -> None:
                    async with http.stream("POST", URL, content=b"{}") as response:
                        assert response.status_code == 500
                        tg.cancel_scope.cancel()  # the caller gave up: closing happens under cancellation

                tg.start_soon(post)
    (answer,) = of_kind(wire, WireKind.HTTP_RESPONSE)
    assert answer.http["status"] == 500
