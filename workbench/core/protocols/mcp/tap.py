"""Wire taps for MCP over HTTP: JSON-RPC messages at the session seam, HTTP and SSE at httpx2's.

- ``JSONRPCTap`` wraps any SDK ``Transport`` and records each message the session sends or
  receives (stdio does its own recording in ``stdio.py``, byte-exact).
- ``HTTPWireTransport`` wraps httpx2's transport and records each HTTP request, response and
  server-sent event as the bytes arrive (keep-alive comments included), with the session id.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
from mcp.client import Transport
from mcp.shared.message import SessionMessage

from workbench.core.models import Direction, WireKind, WireRecord
from workbench.core.wire import WireRecorder

SSE_DATA_PREVIEW = 4096


def _message_dict(item: SessionMessage) -> dict[str, Any]:
    return item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)


class _TapStream:
    """Shared closing behaviour of both tapped stream ends."""

    def __init__(self, inner: Any, tap: JSONRPCTap) -> None:
        self._inner = inner
        self._tap = tap

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if callable(close):
            close()

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _TapRead(_TapStream):
    """Read side: records each incoming message (or transport fault) as it is dequeued."""

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        item: SessionMessage | Exception = await self._inner.receive()
        self._tap.record_in(item)
        return item

    def __aiter__(self) -> _TapRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _TapRead:
        return self


class _TapWrite(_TapStream):
    """Write side: records each outgoing message before it is handed to the transport."""

    async def send(self, item: SessionMessage) -> None:
        self._tap.record_out(item)
        await self._inner.send(item)

    async def __aenter__(self) -> _TapWrite:
        return self


class JSONRPCTap:
    """Wrap an SDK transport so every JSON-RPC message is recorded in both directions."""

    def __init__(self, inner: Transport, wire: WireRecorder, connection_id: str) -> None:
        self._inner = inner
        self._wire = wire
        self._cid = connection_id

    def record_in(self, item: SessionMessage | Exception) -> None:
        """Record one incoming message, or a transport fault as a local error record."""
        if isinstance(item, Exception):
            self._wire.local(self._cid, WireKind.ERROR, f"transport fault: {item!r}"[:500], protocol="mcp")
        else:
            self._wire.jsonrpc(self._cid, Direction.IN, _message_dict(item), protocol="mcp")

    def record_out(self, item: SessionMessage) -> None:
        """Record one outgoing message."""
        self._wire.jsonrpc(self._cid, Direction.OUT, _message_dict(item), protocol="mcp")

    async def __aenter__(self) -> tuple[_TapRead, _TapWrite]:
        read, write = await self._inner.__aenter__()
        return _TapRead(read, self), _TapWrite(write, self)

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)


class _SSETee(httpx2.AsyncByteStream):
    """Pass response bytes through unchanged, recording each SSE frame as it completes."""

    def __init__(self, inner: httpx2.AsyncByteStream, owner: HTTPWireTransport, request: WireRecord) -> None:
        self._inner = inner
        self._owner = owner
        self._request = request
        self._buf = b""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._buf += chunk
            if b"\r" in self._buf:
                self._buf = self._buf.replace(b"\r\n", b"\n")
            while b"\n\n" in self._buf:
                frame, self._buf = self._buf.split(b"\n\n", 1)
                self._owner.record_sse_frame(frame.decode("utf-8", "replace"), self._request)
            yield chunk

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()


class HTTPWireTransport(httpx2.AsyncBaseTransport):
    """httpx2 transport wrapper recording the HTTP layer of an MCP connection."""

    def __init__(self, wire: WireRecorder, connection_id: str, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self._wire = wire
        self._cid = connection_id
        self._inner = inner or httpx2.AsyncHTTPTransport()
        self.last_session_id: str | None = None
        self.last_status: int | None = None
        self.error_count = 0
        self.last_error: tuple[int, str | None] | None = None
        self.get_stream_answered = asyncio.Event()
        """Set when the server answered the standalone GET stream (handshake-era Streamable HTTP)."""

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Record the request, forward it, record the response (and wrap SSE bodies to record events)."""
        body: bytes | None
        try:
            body = request.content
        except httpx2.RequestNotRead:
            body = None
        started = time.monotonic()
        req_record = self._wire.http_request(
            self._cid, request.method, str(request.url), list(request.headers.multi_items()), body, protocol="mcp"
        )
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as exc:
            elapsed = (time.monotonic() - started) * 1000
            self._wire.local(
                self._cid,
                WireKind.ERROR,
                f"{request.method} {request.url} failed after {elapsed:.0f} ms: {type(exc).__name__}: {exc}"[:500],
                protocol="mcp",
            )
            raise
        self.last_status = response.status_code
        if request.method == "GET":
            self.get_stream_answered.set()
        if response.status_code >= 400:
            self.error_count += 1
            self.last_error = (response.status_code, response.headers.get("www-authenticate"))
        session_id = response.headers.get("mcp-session-id")
        if session_id:
            self.last_session_id = session_id
        content_type = response.headers.get("content-type", "")
        is_sse = "text/event-stream" in content_type
        self._wire.http_response(
            self._cid, req_record, response.status_code, list(response.headers.multi_items()), None, protocol="mcp"
        )
        if not is_sse:
            return response
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_SSETee(response.stream, self, req_record),  # type: ignore[arg-type]
            extensions=response.extensions,
            request=request,
        )

    def record_sse_frame(self, frame: str, request: WireRecord) -> None:
        """Record one SSE frame (event, id, data lines or a comment) as it arrived."""
        event: str | None = None
        event_id: str | None = None
        data: list[str] = []
        comments: list[str] = []
        for line in frame.split("\n"):
            if line.startswith(":"):
                comments.append(line[1:].strip())
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if data:
            text = "\n".join(data)
            if len(text) > SSE_DATA_PREVIEW:
                text = f"{text[:SSE_DATA_PREVIEW]}… ({len(text)} chars; the whole message is in its JSON-RPC record)"
            self._wire.sse_event(self._cid, text, event=event, event_id=event_id, request=request, protocol="mcp")
        elif comments:
            self._wire.sse_event(self._cid, "\n".join(comments), comment=True, request=request, protocol="mcp")
        elif event_id is not None:
            self._wire.sse_event(self._cid, "", event=event, event_id=event_id, request=request, protocol="mcp")

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()
