"""Response size limits of the shared HTTP layer, through both client shims (httpx for A2A, httpx2 for MCP).

The seam is each client's in-process ``MockTransport`` (real requests and responses, no socket);
bodies are async generators so the shims see them arrive chunk by chunk, and can stop reading.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import httpx2
import pytest

from tests.support.http_clients import CLIENTS, Body
from workbench.core.errors import ConfigError, ProtocolError
from workbench.core.http.httpx2_transport import Httpx2LimitError, Httpx2TapTransport
from workbench.core.http.limits import BodyMeter, HTTPLimits, LimitGuard
from workbench.core.http.tap import HTTPTap
from workbench.core.protocols.mcp.tap import is_listening
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

URL = "http://peer.test/rpc?key=secret"
KIB = 1024


def endless(chunk: bytes) -> Iterable[bytes]:
    while True:
        yield chunk


def serve(
    mod: ModuleType, shim: type, limits: HTTPLimits, body: Body, headers: dict[str, str], wire: WireRecorder
) -> Any:
    def handler(request: Any) -> Any:
        return mod.Response(200, headers=headers, content=body)

    tap = HTTPTap(wire, "c1", protocol="mcp")
    return mod.AsyncClient(transport=shim(tap, mod.MockTransport(handler), guard=LimitGuard(limits)))


async def read_all(http: Any, method: str = "POST") -> bytes:
    async with http.stream(method, URL, content=b"{}") as response:
        return b"".join([chunk async for chunk in response.aiter_raw()])


def refused_details(excinfo: pytest.ExceptionInfo[ProtocolError]) -> dict[str, Any]:
    return excinfo.value.details


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_body_announced_larger_than_the_limit_is_refused_before_a_byte_is_read(
    mod: ModuleType, shim: type
) -> None:
    wire, body = WireRecorder(), Body([b"x" * KIB] * 10)
    headers = {"content-type": "application/json", "content-length": str(10 * KIB)}
    async with serve(mod, shim, HTTPLimits(max_message_bytes=4 * KIB), body, headers, wire) as http:
        with pytest.raises(ProtocolError) as refused:
            await read_all(http)
    assert body.pulled == 0
    details = refused_details(refused)
    assert details["limit"] == "max_message_bytes" and details["limit_bytes"] == 4 * KIB
    assert details["received_bytes"] == 10 * KIB and details["url"] == "http://peer.test/rpc"
    response = [r for r in wire.records() if r.kind is WireKind.HTTP_RESPONSE]
    [error] = [r for r in wire.records() if r.kind is WireKind.ERROR]
    assert len(response) == 1 and "max_message_bytes" in error.summary


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_body_without_a_length_is_refused_the_moment_it_passes_the_limit_and_the_record_keeps_its_head(
    mod: ModuleType, shim: type
) -> None:
    wire, body = WireRecorder(), Body(endless(b"x" * KIB))
    async with serve(
        mod, shim, HTTPLimits(max_message_bytes=8 * KIB), body, {"content-type": "application/json"}, wire
    ) as http:
        with pytest.raises(ProtocolError) as refused:
            await read_all(http)
    assert body.pulled == 9  # 9 KiB arrived; nothing after
    assert refused_details(refused)["received_bytes"] == 9 * KIB
    [response] = [r for r in wire.records() if r.kind is WireKind.HTTP_RESPONSE]
    assert response.payload == "x" * 9 * KIB  # all that arrived: under the record's 1 MiB preview
    [error] = [r for r in wire.records() if r.kind is WireKind.ERROR]
    assert "9,216 of 9,216 bytes" in error.summary


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_body_at_the_limit_passes_whole(mod: ModuleType, shim: type) -> None:
    wire, body = WireRecorder(), Body([b"x" * KIB] * 4)
    headers = {"content-type": "application/json", "content-length": str(4 * KIB)}
    async with serve(mod, shim, HTTPLimits(max_message_bytes=4 * KIB), body, headers, wire) as http:
        assert await read_all(http) == b"x" * 4 * KIB


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_an_event_larger_than_the_message_limit_is_refused_and_smaller_ones_pass(
    mod: ModuleType, shim: type
) -> None:
    wire = WireRecorder()
    small = [b"data: " + b"a" * 3000 + b"\n\n", b"data: " + b"b" * 3000 + b"\r\n", b"\r\ndata: c\r\r"]
    body = Body(itertools.chain(small, [b"data: "], endless(b"y" * KIB)))
    async with serve(
        mod, shim, HTTPLimits(max_message_bytes=4 * KIB), body, {"content-type": "text/event-stream"}, wire
    ) as http:
        with pytest.raises(ProtocolError) as refused:
            await read_all(http)
    details = refused_details(refused)
    assert details["limit"] == "max_message_bytes" and 4 * KIB < details["received_bytes"] <= 5 * KIB
    events = [r for r in wire.records() if r.kind is WireKind.SSE_EVENT]
    assert [len(e.payload) for e in events] == [3000, 3000, 1]  # the three small ones were recorded
    [error] = [r for r in wire.records() if r.kind is WireKind.ERROR]
    assert error.payload.startswith("data: yyy")  # the unfinished event's head is kept


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_an_endless_stream_of_small_events_stops_at_the_stream_limit(mod: ModuleType, shim: type) -> None:
    wire, body = WireRecorder(), Body(endless(b"data: " + b"z" * 1000 + b"\n\n"))
    limits = HTTPLimits(max_message_bytes=4 * KIB, max_stream_bytes=64 * KIB)
    async with serve(mod, shim, limits, body, {"content-type": "text/event-stream"}, wire) as http:
        with pytest.raises(ProtocolError) as refused:
            await read_all(http)
    details = refused_details(refused)
    assert details["limit"] == "max_stream_bytes" and details["limit_bytes"] == 64 * KIB
    assert body.pulled == 66  # 1,008 bytes each: the 66th took it over 64 KiB


@pytest.mark.asyncio
async def test_the_mcp_sdk_sees_a_refusal_as_a_failed_stream() -> None:
    body = Body(endless(b"x" * KIB))
    async with serve(httpx2, Httpx2TapTransport, HTTPLimits(max_message_bytes=KIB), body, {}, WireRecorder()) as http:
        with pytest.raises(httpx2.StreamError) as refused:
            await read_all(http)
    assert isinstance(refused.value, Httpx2LimitError) and isinstance(refused.value, ProtocolError)


def test_a_listening_stream_has_no_stream_limit_but_its_events_are_still_bounded() -> None:
    limits = HTTPLimits(max_message_bytes=2 * KIB, max_stream_bytes=4 * KIB)
    meter = BodyMeter(limits, URL, content_type="text/event-stream", content_length=None, listening=True)
    for _ in range(100):
        assert meter.count(b"data: " + b"z" * 1000 + b"\n\n") is None
    assert meter.count(b"data: " + b"z" * 3000) is not None
    assert is_listening("GET", None)
    assert is_listening("POST", b'{"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {}}')
    assert not is_listening("POST", b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {}}')


def test_a_blank_line_split_across_chunks_ends_the_event() -> None:
    for first, second in ((b"\n", b"\n"), (b"\r", b"\r"), (b"\r\n", b"\r\n"), (b"\n", b"\rdata: x")):
        meter = BodyMeter(HTTPLimits(max_message_bytes=150), URL, content_type="text/event-stream", content_length=None)
        assert meter.count(b"data: " + b"a" * 100 + first) is None
        assert meter.count(second) is None
        assert meter.count(b"data: " + b"b" * 100) is None  # a new event: the first one's bytes are not counted


def test_limits_must_be_positive_or_none() -> None:
    assert HTTPLimits(max_message_bytes=None, max_stream_bytes=None).max_stream_bytes is None
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ConfigError) as refused:
            HTTPLimits(max_stream_bytes=bad)  # type: ignore[arg-type]
        assert refused.value.details["option"] == "max_stream_bytes"


def test_the_defaults_are_the_ones_docs_agents_md_lists() -> None:
    from pathlib import Path

    from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES
    from workbench.core.profiles import MCPHTTPProfile

    rows = {
        line.split("|")[1].strip().split()[0].strip("`"): line.split("|")[2].strip()
        for line in (Path(__file__).resolve().parents[3] / "docs" / "agents.md").read_text().splitlines()
        if line.startswith("| `max_")
    }
    assert rows == {"max_message_bytes": "64 MiB", "max_stream_bytes": "128 MiB"}
    assert (DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES) == (64 << 20, 128 << 20)
    assert HTTPLimits() == MCPHTTPProfile(name="p", url="http://127.0.0.1:1/mcp").http_limits()
