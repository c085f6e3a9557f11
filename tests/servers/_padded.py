"""Bodies too big to hold, for the hand-written HTTP fault servers (stdlib only).

A padded answer is a JSON document whose one empty string value is filled with `mib` MiB of `x`,
streamed in 1 MiB writes, framed by its Content-Length, chunked, or ended by closing the connection.
An event stream goes out without a length, ended by closing the connection. Both stop when the
client goes away and say how many MiB it took first, for the server's `gone … after <n> MiB` line.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

MIB = 1024 * 1024

Framing = Literal["length", "chunked", "close"]


def padded_parts(document: dict[str, Any], key: str) -> tuple[bytes, bytes]:
    """`document` as JSON around its empty string `key`: the bytes before the padding and after it."""
    before, found, after = json.dumps(document).partition(f'"{key}": ""')
    assert found, f"no empty {key!r} in the document"
    return (before + f'"{key}": "').encode(), ('"' + after).encode()


def tool_result_parts(request_id: Any) -> tuple[bytes, bytes]:
    """A JSON-RPC tool result answering `request_id` around its one text: the bytes before it and after it."""
    result = {"content": [{"type": "text", "text": ""}]}
    return padded_parts({"jsonrpc": "2.0", "id": request_id, "result": result}, "text")


def padded(prefix: bytes, suffix: bytes, mib: int) -> Iterator[bytes]:
    """`prefix`, then `mib` pieces of 1 MiB of `x`, then `suffix`."""
    yield prefix
    chunk = b"x" * MIB
    for _ in range(mib):
        yield chunk
    yield suffix


def send_padded(
    handler: BaseHTTPRequestHandler, prefix: bytes, suffix: bytes, mib: int, *, framing: Framing = "length"
) -> int | None:
    """Answer `200 application/json` with the padded body; the MiB sent before the client went away (None: all)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    if framing == "length":
        handler.send_header("Content-Length", str(len(prefix) + mib * MIB + len(suffix)))
    elif framing == "chunked":
        handler.send_header("Transfer-Encoding", "chunked")
    else:
        handler.close_connection = True
    handler.end_headers()
    pieces: Iterable[bytes] = padded(prefix, suffix, mib)
    if framing == "chunked":
        pieces = itertools.chain((b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces), [b"0\r\n\r\n"])
    return _write_until_gone(handler, pieces)


def send_event_stream(handler: BaseHTTPRequestHandler, events: Iterable[bytes]) -> int | None:
    """Answer `200 text/event-stream` with `events`; the MiB sent before the client went away (None: all)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.end_headers()  # no Content-Length, no chunking: the body ends when the connection does
    handler.close_connection = True
    return _write_until_gone(handler, events)


def _write_until_gone(handler: BaseHTTPRequestHandler, pieces: Iterable[bytes]) -> int | None:
    sent = 0
    try:
        for piece in pieces:
            handler.wfile.write(piece)
            sent += len(piece)
    except (BrokenPipeError, ConnectionResetError):
        return sent // MIB
    return None
