"""httpx transport for A2A: stream timeouts, and a tap feeding the wire recorder as bytes arrive.

``A2ATransport`` wraps the real transport. It always applies the stream policy (a request that
accepts ``text/event-stream`` gets ``stream_idle_timeout`` as its read timeout, ``None`` = wait
forever, so a silent agent is not an error). With a recorder it records every HTTP request and
response, every SSE event (keep-alive ``: ping`` comments included) at the moment its frame is
complete, and for JSON-RPC bodies and SSE payloads also the JSON-RPC message itself, so the wire
log shows methods, ids and latencies as it does for MCP. The recorder redacts everything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import httpx

from workbench.core.models import Direction, WireKind, WireRecord

if TYPE_CHECKING:
    from workbench.core.wire import WireRecorder

PROTOCOL = "a2a"


def _is_jsonrpc(body: bytes) -> bool:
    head = body[:200].lstrip()
    return head.startswith(b"{") and b'"jsonrpc"' in body


class A2ATransport(httpx.AsyncBaseTransport):
    """Wraps an httpx transport with the A2A stream timeout policy and an optional wire tap.

    Args:
        inner: The transport that really talks HTTP (default ``httpx.AsyncHTTPTransport()``).
        stream_idle_timeout: Read timeout for SSE responses (seconds of silence allowed between
            bytes; ``None`` waits forever).
        recorder: Where to record traffic; ``None`` records nothing.
        connection_id: The connection id the records carry.
    """

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        *,
        stream_idle_timeout: float | None = None,
        recorder: WireRecorder | None = None,
        connection_id: str = "a2a",
    ) -> None:
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        self.stream_idle_timeout = stream_idle_timeout
        self.recorder = recorder
        self.connection_id = connection_id

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; record it and its response when a recorder is set."""
        sse_request = "text/event-stream" in request.headers.get("accept", "")
        if sse_request:
            timeouts = dict(request.extensions.get("timeout") or {})
            timeouts["read"] = self.stream_idle_timeout
            request.extensions["timeout"] = timeouts
        rec = self.recorder
        if rec is None:
            return await self._inner.handle_async_request(request)
        cid = self.connection_id
        try:
            body: bytes | None = request.content or None
        except httpx.RequestNotRead:
            body = None
        req_record = rec.http_request(
            cid, request.method, str(request.url), request.headers.multi_items(), body, protocol=PROTOCOL
        )
        if body is not None and _is_jsonrpc(body):
            rec.jsonrpc(cid, Direction.OUT, body.decode("utf-8", "replace"), protocol=PROTOCOL)
        try:
            response = await self._inner.handle_async_request(request)
        except httpx.HTTPError as exc:
            summary = f"{request.method} {request.url}: {type(exc).__name__}: {exc}"
            rec.local(cid, WireKind.ERROR, summary, protocol=PROTOCOL)
            raise
        sse = "text/event-stream" in response.headers.get("content-type", "")
        if sse:
            rec.http_response(cid, req_record, response.status_code, response.headers.multi_items(), protocol=PROTOCOL)
        tee = _Tee(response.stream, rec, cid, req_record, response, sse)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=tee,
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()


class _Tee(httpx.AsyncByteStream):
    """Passes a response body through unchanged while recording it (SSE: frame by frame)."""

    def __init__(
        self,
        inner: httpx.AsyncByteStream | httpx.SyncByteStream | object,
        rec: WireRecorder,
        cid: str,
        req_record: WireRecord,
        response: httpx.Response,
        sse: bool,
    ) -> None:
        self._inner = inner
        self._rec = rec
        self._cid = cid
        self._req = req_record
        self._status = response.status_code
        self._headers = response.headers.multi_items()
        self._sse = sse
        self._buf = bytearray()
        self._body: list[bytes] = []
        self._done = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        inner = self._inner
        assert isinstance(inner, httpx.AsyncByteStream)
        try:
            async for chunk in inner:
                if self._sse:
                    self._feed(chunk)
                else:
                    self._body.append(chunk)
                yield chunk
        except httpx.HTTPError as exc:
            self._rec.local(self._cid, WireKind.ERROR, f"response body: {type(exc).__name__}: {exc}", protocol=PROTOCOL)
            self._finish()
            raise
        self._finish()

    async def aclose(self) -> None:
        self._finish()
        inner = self._inner
        if isinstance(inner, httpx.AsyncByteStream):
            await inner.aclose()

    def _feed(self, chunk: bytes) -> None:
        buf = self._buf
        buf += chunk
        if b"\r" in buf:
            self._buf = buf = bytearray(buf.replace(b"\r\n", b"\n"))
        while (end := buf.find(b"\n\n")) >= 0:
            frame = bytes(buf[:end])
            del buf[: end + 2]
            self._frame(frame)

    def _frame(self, frame: bytes) -> None:
        rec, cid, req = self._rec, self._cid, self._req
        event: str | None = None
        event_id: str | None = None
        data: list[str] = []
        for line in frame.decode("utf-8", "replace").split("\n"):
            if not line:
                continue
            if line.startswith(":"):
                rec.sse_event(cid, line[1:].strip(), comment=True, request=req, protocol=PROTOCOL)
                continue
            key, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if key == "data":
                data.append(value)
            elif key == "event":
                event = value
            elif key == "id":
                event_id = value
        if not data and event is None:
            return
        text = "\n".join(data)
        rec.sse_event(cid, text, event=event, event_id=event_id, request=req, protocol=PROTOCOL)
        if text.startswith("{") and '"jsonrpc"' in text:
            rec.jsonrpc(cid, Direction.IN, text, protocol=PROTOCOL)

    def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        if self._sse:
            if self._buf.strip():
                self._frame(bytes(self._buf))
            return
        body = b"".join(self._body)
        self._rec.http_response(self._cid, self._req, self._status, self._headers, body or None, protocol=PROTOCOL)
        if body and _is_jsonrpc(body):
            self._rec.jsonrpc(self._cid, Direction.IN, body.decode("utf-8", "replace"), protocol=PROTOCOL)
