"""The HTTP wire tap, free of any HTTP client: requests, responses and SSE events → wire records.

The tap transport (``transport.TapTransportBase``, with a client's classes in ``httpx_transport`` or
``httpx2_transport``) calls ``HTTPTap.exchange`` for each request and feeds the ``Exchange`` what
happens: the response head, each body chunk, the end or a failure. The tap records

- the request (headers, URL and body; the recorder redacts them),
- a transport failure as a local error record, with the time it took,
- an event-stream response's head at once, then every SSE frame the moment it is complete
  (keep-alive comments included), so the log shows events while the stream is still open,
- any other response with its body, when the body has been read (or the response closed; an
  error response closed unread, as SDKs do, still has its body read for the record, bounded),
- optionally (``jsonrpc_bodies``) the JSON-RPC messages in request bodies, response bodies and SSE
  payloads, for adapters that have no JSON-RPC seam of their own (A2A over HTTP).

It also keeps what the MCP adapter reads back: the last status, the last error response, the last
session id (``session_header``) and whether a GET stream was answered.
"""

from __future__ import annotations

import asyncio
import time

from workbench.core.errors import ProtocolError
from workbench.core.http.limits import RECORD_PREVIEW_BYTES, BodyMeter, LimitGuard
from workbench.core.http.sse import SSEFrame, SSEFramer
from workbench.core.http.status import StatusSeen
from workbench.core.timefmt import duration_text
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord

Headers = list[tuple[str, str]]

SSE_DATA_PREVIEW = 4096
"""Unused: SSE records keep their whole data. Kept because ``protocols.mcp.tap`` re-exports it."""

ERROR_BODY_LIMIT = 64 * 1024
"""Bytes of an unread error response body the shims still read for the record when it is closed."""
ERROR_BODY_WAIT = 2.0
"""Seconds the shims wait for such a body before closing without it."""


def is_jsonrpc(body: bytes | str) -> bool:
    """Whether a body (or SSE payload) looks like a JSON-RPC message or batch."""
    if isinstance(body, str):
        return body[:200].lstrip()[:1] in ("{", "[") and '"jsonrpc"' in body
    head = body[:200].lstrip()
    return head[:1] in (b"{", b"[") and b'"jsonrpc"' in body


def _head(chunks: list[bytes], most: int) -> bytes:
    """The first ``most`` bytes of ``chunks`` (without joining them all)."""
    out = bytearray()
    for chunk in chunks:
        out += chunk[: most - len(out)]
        if len(out) >= most:
            break
    return bytes(out)


def _header(headers: Headers, name: str) -> str | None:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


class HTTPTap:
    """Records the HTTP layer of one connection into a ``WireRecorder``.

    Args:
        wire: Where records go (it redacts).
        connection_id: The connection id the records carry.
        protocol: ``mcp`` or ``a2a``, stamped on every record.
        jsonrpc_bodies: Also record the JSON-RPC messages found in bodies and SSE payloads.
        session_header: A response header whose last value is kept as ``last_session_id``.
    """

    def __init__(
        self,
        wire: WireRecorder,
        connection_id: str,
        *,
        protocol: str,
        jsonrpc_bodies: bool = False,
        session_header: str | None = None,
    ) -> None:
        self.wire = wire
        self.connection_id = connection_id
        self.protocol = protocol
        self.jsonrpc_bodies = jsonrpc_bodies
        self.session_header = session_header.lower() if session_header else None
        self.last_status: int | None = None
        self.last_session_id: str | None = None
        self.error_count = 0
        self.last_error: StatusSeen | None = None
        self.get_stream_answered = asyncio.Event()
        """Set once the server answered a GET (handshake-era Streamable HTTP's standalone stream)."""

    def exchange(self, method: str, url: str, headers: Headers, body: bytes | None) -> Exchange:
        """Record a request about to be sent; returns the exchange to feed with what follows.

        Args:
            method: The HTTP method.
            url: The full URL.
            headers: The request headers (as sent, in order).
            body: The request body, or ``None`` when it is streamed (not known up front).
        """
        wire, cid, protocol = self.wire, self.connection_id, self.protocol
        record = wire.http_request(cid, method, url, headers, body or None, protocol=protocol)
        if body and self.jsonrpc_bodies and is_jsonrpc(body):
            wire.jsonrpc(cid, Direction.OUT, body.decode("utf-8", "replace"), protocol=protocol)
        return Exchange(self, method.upper(), url, record)


class Exchange:
    """One request/response on a tapped connection; the shim feeds it, it records."""

    def __init__(self, tap: HTTPTap, method: str, url: str, request: WireRecord) -> None:
        self._tap = tap
        self.method = method
        self.url = url
        self.request = request
        self._started = time.monotonic()
        self._status = 0
        self._headers: Headers = []
        self._framer: SSEFramer | None = None
        self._body: list[bytes] = []
        self._size = 0
        self._done = False

    @property
    def is_sse(self) -> bool:
        """Whether the response is an event stream (known once ``respond`` was called)."""
        return self._framer is not None

    @property
    def wants_unread_body(self) -> bool:
        """Whether a closing shim should still read the body: an error response nobody read yet."""
        return not self._done and self._framer is None and self._status >= 400 and self._size == 0

    @property
    def body_full(self) -> bool:
        """Whether the record already has ``ERROR_BODY_LIMIT`` bytes (a shim reading for it stops)."""
        return self._size >= ERROR_BODY_LIMIT

    def failed(self, exc: BaseException) -> None:
        """The request failed before a response arrived (refused, timed out, ...)."""
        self._done = True
        elapsed = duration_text(time.monotonic() - self._started)
        summary = f"{self.method} {self.url} failed after {elapsed}: {type(exc).__name__}: {exc}"
        self._local_error(summary)

    def respond(self, status: int, headers: Headers) -> None:
        """The response head arrived; an event stream's head is recorded now, other bodies at the end."""
        tap = self._tap
        self._status, self._headers = status, headers
        tap.last_status = status
        if self.method == "GET":
            tap.get_stream_answered.set()
        if status >= 400:
            tap.error_count += 1
            tap.last_error = StatusSeen(status, _header(headers, "www-authenticate"), self.url)
        if tap.session_header is not None and (session := _header(headers, tap.session_header)):
            tap.last_session_id = session
        if "text/event-stream" in (_header(headers, "content-type") or ""):
            self._framer = SSEFramer()
            tap.wire.http_response(tap.connection_id, self.request, status, headers, None, protocol=tap.protocol)

    def feed(self, chunk: bytes) -> None:
        """A chunk of the response body arrived (recorded frame by frame for an event stream)."""
        if self._done:
            return
        if self._framer is None:
            self._body.append(chunk)
            self._size += len(chunk)
            return
        for frame in self._framer.feed(chunk):
            self._frame(frame)

    def body_failed(self, exc: BaseException) -> None:
        """Reading the body failed (the peer went away mid-stream); what arrived is still recorded."""
        if not self._done:
            self._local_error(f"response body of {self.method} {self.url}: {type(exc).__name__}: {exc}")
        self.finish()

    def refused(self, error: ProtocolError) -> None:
        """The body was refused for a size limit: what arrived is recorded, cut to ``RECORD_PREVIEW_BYTES``.

        A response record keeps the body's first bytes (an event stream's record, its head, is
        already there); a local error record says what was refused, naming the limit, and holds the
        first bytes of an unfinished event.
        """
        if self._done:
            return
        self._done = True
        tap = self._tap
        pending, kept = b"", ""
        if self._framer is None:
            body = _head(self._body, RECORD_PREVIEW_BYTES)
            self._body.clear()
            tap.wire.http_response(
                tap.connection_id, self.request, self._status, self._headers, body or None, protocol=tap.protocol
            )
            if self._size:
                kept = f"; the response record keeps its first {len(body):,} of {self._size:,} bytes"
        else:
            pending = self._framer.take_pending(RECORD_PREVIEW_BYTES)
        summary = f"{self.method} {self.url}: {error.message}{kept}"
        tap.wire.local(
            tap.connection_id,
            WireKind.ERROR,
            summary[:500],
            pending.decode("utf-8", "replace"),
            protocol=tap.protocol,
        )

    def finish(self) -> None:
        """The body ended or the response was closed (idempotent)."""
        if self._done:
            return
        self._done = True
        tap = self._tap
        if self._framer is not None:
            if (last := self._framer.close()) is not None:
                self._frame(last)
            return
        body = b"".join(self._body)
        self._body.clear()
        tap.wire.http_response(
            tap.connection_id, self.request, self._status, self._headers, body or None, protocol=tap.protocol
        )
        if body and tap.jsonrpc_bodies and is_jsonrpc(body):
            tap.wire.jsonrpc(tap.connection_id, Direction.IN, body.decode("utf-8", "replace"), protocol=tap.protocol)

    def _frame(self, frame: SSEFrame) -> None:
        tap = self._tap
        wire, cid, protocol, request = tap.wire, tap.connection_id, tap.protocol, self.request
        for comment in frame.comments:
            wire.sse_event(cid, comment, comment=True, request=request, protocol=protocol)
        if not frame.is_event:
            return
        text = frame.data or ""
        # Whole, however long: the SSE record is what travelled (a HAR export holds no JSON-RPC
        # records to point to); the recorder's size bound evicts old records instead.
        wire.sse_event(cid, text, event=frame.event, event_id=frame.event_id, request=request, protocol=protocol)
        if tap.jsonrpc_bodies and is_jsonrpc(text):
            wire.jsonrpc(cid, Direction.IN, text, protocol=protocol)

    def _local_error(self, summary: str) -> None:
        tap = self._tap
        tap.wire.local(tap.connection_id, WireKind.ERROR, summary[:500], protocol=tap.protocol)


class BodyWatch:
    """What a transport shim does with each chunk of one response body: count it, then record it.

    Either part may be missing (no recorder, no limits). The shim asks ``at_start`` before reading
    and ``take`` for every chunk; a ``ProtocolError`` returned means: stop reading, raise it.

    Args:
        exchange: The tap's record of this exchange (``None``: nothing is recorded).
        meter: The body's meter (``None``: no limits).
        guard: Where refusals are noted for the adapter.
    """

    def __init__(self, exchange: Exchange | None, meter: BodyMeter | None, guard: LimitGuard | None) -> None:
        self.exchange = exchange
        self._meter = meter
        self._guard = guard

    def at_start(self) -> ProtocolError | None:
        """The refusal of a body announced too large (``Content-Length``), before it is read."""
        refusal = self._meter.refusal_from_headers() if self._meter is not None else None
        return self.refuse(refusal) if refusal is not None else None

    def take(self, chunk: bytes) -> ProtocolError | None:
        """Record and count ``chunk`` (it arrived); the refusal when it took the body over a limit."""
        if self.exchange is not None:
            self.exchange.feed(chunk)
        if self._meter is not None and (refusal := self._meter.count(chunk)) is not None:
            return self.refuse(refusal)
        return None

    def refuse(self, refusal: ProtocolError) -> ProtocolError:
        """Note ``refusal`` for the adapter and the wire log (the body is not read further); returns it."""
        if self._guard is not None:
            self._guard.refused(refusal)
        if self.exchange is not None:
            self.exchange.refused(refusal)
        return refusal
