"""Compressed response bodies in the shared HTTP layer: decoded in bounded pieces, limits counted on the decoded bytes.

The seam is each client's in-process ``MockTransport`` (real requests and responses, no socket);
bodies are async generators so the shims see the compressed bytes arrive chunk by chunk. The
bombs come from tests/servers/_bombs.py (~1 KiB on the wire per MiB decoded).
"""

from __future__ import annotations

import itertools
import json
import tracemalloc
import zlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.servers._bombs import bomb, compress
from tests.support.http_clients import CLIENTS, Body
from workbench.core.errors import ProtocolError
from workbench.core.http.decoding import DECODED_PIECE_BYTES, BodyDecoder, accepted_encodings
from workbench.core.http.limits import HTTPLimits, LimitGuard
from workbench.core.http.session_budget import SessionBudget
from workbench.core.http.tap import HTTPTap
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

URL = "http://peer.test/rpc"
KIB, MIB = 1024, 1024 * 1024
PREFIX, SUFFIX = b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "', b'"}}'
REQUEST = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}'


class Peer:
    """A client whose transport is the tap shim over a mock peer answering ``body`` with ``headers``."""

    def __init__(
        self, mod: ModuleType, shim: type, body: Body, headers: dict[str, str], *, status: int = 200, **guard: Any
    ) -> None:
        self.wire = WireRecorder()
        self.requests: list[Any] = []
        self.guard = LimitGuard(guard.pop("limits", HTTPLimits()), **guard)

        def handler(request: Any) -> Any:
            self.requests.append(request)
            return mod.Response(status, headers=headers, content=body)

        tap = HTTPTap(self.wire, "c1", protocol="mcp")
        self.http = mod.AsyncClient(transport=shim(tap, mod.MockTransport(handler), guard=self.guard))

    async def read(self, method: str = "POST", **kwargs: Any) -> tuple[Any, bytes]:
        async with self.http.stream(method, URL, content=REQUEST, **kwargs) as response:
            return response, b"".join([chunk async for chunk in response.aiter_bytes()])

    def records(self, kind: WireKind) -> list[Any]:
        return [r for r in self.wire.records() if r.kind is kind]


def events(count: int, size: int) -> bytes:
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "n" * size}}
    return f"event: message\ndata: {json.dumps(note)}\n\n".encode() * count


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
@pytest.mark.parametrize(("coding", "header"), [("gzip", "gzip"), ("deflate", "deflate"), ("raw-deflate", "deflate")])
async def test_a_compressed_body_reaches_the_client_and_the_wire_log_decoded_and_whole(
    mod: ModuleType, shim: type, coding: Any, header: str
) -> None:
    document = PREFIX + b"ok" * 50_000 + SUFFIX
    data = compress(document, coding)
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)]  # the deflate header split too
    peer = Peer(mod, shim, Body(chunks), {"content-type": "application/json", "content-encoding": header})
    async with peer.http:
        response, body = await peer.read()
    assert body == document
    assert "content-encoding" not in response.headers  # the client does not decode it again
    [record] = peer.records(WireKind.HTTP_RESPONSE)
    assert record.payload == document.decode()


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
@pytest.mark.parametrize("coding", ["gzip", "deflate", "raw-deflate"])
async def test_a_bomb_is_refused_a_piece_past_the_limit_and_never_inflated_whole(
    mod: ModuleType, shim: type, coding: Any
) -> None:
    body = Body(bomb(PREFIX, SUFFIX, 1024, coding))  # 1 GiB decoded, in writes of 64 MiB decoded each
    header = "gzip" if coding == "gzip" else "deflate"
    limits = HTTPLimits(max_message_bytes=MIB)
    peer = Peer(mod, shim, body, {"content-type": "application/json", "content-encoding": header}, limits=limits)
    tracemalloc.start()
    try:
        async with peer.http:
            with pytest.raises(ProtocolError) as refused:
                await peer.read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    details = refused.value.details
    assert details["limit"] == "max_message_bytes" and details["limit_bytes"] == MIB
    assert MIB < details["received_bytes"] <= MIB + DECODED_PIECE_BYTES and details["request_id"] == "1"
    assert body.pulled <= 4  # the frame, the prefix, the first 64 MiB's worth: no further
    assert peak < 16 * MIB
    [response] = peer.records(WireKind.HTTP_RESPONSE)
    assert response.payload.startswith(PREFIX.decode()) and response.size <= MIB  # a decoded preview
    assert peer.guard.last_refusal is not None and peer.guard.last_refusal.details == details  # for the adapter


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_compressed_event_stream_is_counted_event_by_event_as_decoded(mod: ModuleType, shim: type) -> None:
    headers = {"content-type": "text/event-stream", "content-encoding": "gzip"}
    small = compress(events(3, 1000), "gzip")  # three events of ~1 KiB each: they pass
    peer = Peer(mod, shim, Body([small]), headers, limits=HTTPLimits(max_message_bytes=2 * KIB))
    async with peer.http:
        _, body = await peer.read()
    assert body == events(3, 1000) and len(peer.records(WireKind.SSE_EVENT)) == 3
    big = compress(events(1, 300 * KIB), "gzip")  # one event of ~300 KiB: over the message limit
    peer = Peer(mod, shim, Body([big]), headers, limits=HTTPLimits(max_message_bytes=100 * KIB))
    async with peer.http:
        with pytest.raises(ProtocolError) as refused:
            await peer.read()
    assert refused.value.details["limit"] == "max_message_bytes"
    assert 100 * KIB < refused.value.details["received_bytes"] <= 100 * KIB + DECODED_PIECE_BYTES
    many = compress(events(1000, 1000), "gzip")  # ~1 MiB of events from ~10 KiB: over the stream limit
    assert len(many) < 64 * KIB
    peer = Peer(mod, shim, Body([many]), headers, limits=HTTPLimits(max_stream_bytes=256 * KIB))
    async with peer.http:
        with pytest.raises(ProtocolError) as refused:
            await peer.read()
    details = refused.value.details
    assert details["limit"] == "max_stream_bytes" and 256 * KIB < details["received_bytes"] <= 320 * KIB


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_legacy_session_stream_spends_a_waiting_requests_budget_in_decoded_bytes(
    mod: ModuleType, shim: type
) -> None:
    budget = SessionBudget(256 * KIB)
    budget.sent(7, "tools/call")
    many = compress(events(1000, 1000), "gzip")
    peer = Peer(
        mod,
        shim,
        Body([many]),
        {"content-type": "text/event-stream", "content-encoding": "gzip"},
        limits=HTTPLimits(max_stream_bytes=256 * KIB),
        listening=lambda method, body: True,
        budget=budget,
    )
    async with peer.http:
        with pytest.raises(ProtocolError) as refused:
            await peer.read("GET")
    details = refused.value.details
    assert details["limit"] == "max_stream_bytes" and details["request_id"] == "7"
    assert 256 * KIB < details["received_bytes"] <= 320 * KIB


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
@pytest.mark.parametrize("header", ["br", "zstd", "gzip, compress", "\x1b]0;owned\x07"])
async def test_a_coding_that_is_not_decoded_is_refused_before_a_byte_is_read(
    mod: ModuleType, shim: type, header: str
) -> None:
    body = Body(itertools.repeat(b"\x00" * KIB, 100))
    peer = Peer(mod, shim, body, {"content-type": "application/json", "content-encoding": header})
    async with peer.http:
        with pytest.raises(ProtocolError) as refused:
            await peer.read()
    assert body.pulled == 0
    details = refused.value.details
    assert details["reason"] == "unsupported-encoding" and details["request_id"] == "1"
    assert all(c.isprintable() and c.isascii() for c in refused.value.message + "".join(details["encoding"]))
    assert peer.guard.last_refusal is not None and peer.guard.last_refusal.details["reason"] == "unsupported-encoding"
    assert peer.records(WireKind.ERROR)  # the wire log says what was refused


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
@pytest.mark.parametrize("broken", ["header", "block"])
async def test_a_body_that_is_not_valid_for_its_coding_is_refused_typed(
    mod: ModuleType, shim: type, broken: str
) -> None:
    good = compress(PREFIX + b"ok" * 1000 + SUFFIX, "gzip")
    reserved_block_type = bytes([good[10] | 0b110])  # the first block's type made the reserved one (0b11)
    chunks = [b"not gzip at all", good] if broken == "header" else [good[:10], reserved_block_type + good[11:]]
    peer = Peer(mod, shim, Body(chunks), {"content-type": "application/json", "content-encoding": "gzip"})
    async with peer.http:
        with pytest.raises(ProtocolError) as refused:
            await peer.read()
    assert refused.value.details["reason"] == "bad-encoding" and refused.value.details["encoding"] == ["gzip"]
    assert refused.value.details["request_id"] == "1"
    assert peer.records(WireKind.ERROR)


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_a_request_asks_only_for_the_codings_that_are_decoded(mod: ModuleType, shim: type) -> None:
    peer = Peer(mod, shim, Body([b"{}"]), {"content-type": "application/json"})
    async with peer.http:
        await peer.read()
        await peer.read(headers={"Accept-Encoding": "br;q=1.0, zstd, gzip;q=0.5"})
        await peer.read(headers={"Accept-Encoding": "br"})
    assert [r.headers["accept-encoding"] for r in peer.requests] == ["gzip, deflate", "gzip;q=0.5", "identity"]
    sent = [dict(r.http["headers"]) for r in peer.records(WireKind.HTTP_REQUEST)]  # the log shows what was sent
    assert [h.get("accept-encoding") for h in sent] == ["gzip, deflate", "gzip;q=0.5", "identity"]


@pytest.mark.asyncio
@pytest.mark.parametrize(("mod", "shim"), CLIENTS)
async def test_an_unread_compressed_error_body_is_recorded_decoded_and_bounded(mod: ModuleType, shim: type) -> None:
    body = Body(bomb(b'{"error": "', b'"}', 1024, "gzip"))
    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    peer = Peer(mod, shim, body, headers, status=500)
    async with peer.http, peer.http.stream("POST", URL, content=REQUEST) as response:
        assert response.status_code == 500  # closed unread, as SDKs do with an error answer
    [record] = peer.records(WireKind.HTTP_RESPONSE)
    assert record.payload.startswith('{"error": "xxx') and record.size <= 128 * KIB


def pieces(decoder: BodyDecoder, data: bytes, most: int) -> Iterator[bytes]:
    return itertools.islice(decoder.decode(data), most)


def test_no_input_however_compressed_yields_more_than_a_piece_at_a_time() -> None:
    gzip_bomb = b"".join(bomb(PREFIX, SUFFIX, 1024, "gzip"))  # ~1 MiB, all at once
    twice = compress(gzip_bomb, "gzip")  # gzip of a gzip bomb: ~1,000,000 to 1 again
    for header, data in (("gzip", gzip_bomb), ("gzip, gzip", twice), ("x-gzip, identity", gzip_bomb)):
        decoder = BodyDecoder.for_response(header, URL)
        assert decoder is not None
        got = list(pieces(decoder, data, 64))
        assert len(got) == 64 and all(0 < len(piece) <= DECODED_PIECE_BYTES for piece in got)
        assert got[0].startswith(PREFIX)


def test_a_whole_body_decodes_to_what_was_compressed_whatever_its_chunks() -> None:
    document = PREFIX + bytes(range(256)) * 4000 + SUFFIX
    for header, data in (
        ("gzip", compress(document, "gzip")),
        ("deflate", compress(document, "deflate")),
        ("deflate", compress(document, "raw-deflate")),
        ("deflate, gzip", compress(compress(document, "deflate"), "gzip")),
    ):
        for size in (1, 1000, len(data)):
            decoder = BodyDecoder.for_response(header, URL)
            assert decoder is not None
            out = b"".join(b"".join(decoder.decode(data[i : i + size])) for i in range(0, len(data), size))
            assert out + b"".join(decoder.flush()) == document, (header, size)
    assert BodyDecoder.for_response(None, URL) is None and BodyDecoder.for_response("identity", URL) is None
    assert zlib.decompress(compress(document, "deflate")) == document


def test_accept_encoding_keeps_only_the_decoded_codings() -> None:
    assert accepted_encodings("gzip, deflate") == "gzip, deflate"
    assert accepted_encodings("gzip, deflate, br, zstd") == "gzip, deflate"
    assert accepted_encodings("zstd") == "identity"
    assert accepted_encodings("identity") == "identity"
