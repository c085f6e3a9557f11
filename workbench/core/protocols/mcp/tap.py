"""Wire taps for MCP: JSON-RPC messages at the session seam, HTTP and SSE at httpx2's.

- ``JSONRPCTap`` wraps any SDK ``Transport`` and records each message the session sends or
  receives (stdio does its own recording in ``stdio.py``, byte-exact, so it is wrapped without a
  recorder), notes the errors the server sent (``provenance.ServerErrors``) and the ids of the
  requests each caller sends; a listing page with too many items is replaced by an error reply
  before the SDK builds its models or the wire log copies it (``listing_cap.ListingCap``).
- ``HTTPWireTransport`` is the shared HTTP tap of ``workbench.core.http`` (the same one A2A uses)
  set up for MCP: each HTTP request, response and server-sent event as the bytes arrive
  (keep-alive comments included), with the session id; response sizes are bounded
  (``workbench.core.http.limits``) and refusals kept for the request funnel, each with the id of
  the request it answered when known.
- ``capture_sent_requests`` collects the ids of the requests a caller's task sends, so the funnel
  can tell its own refusal from a concurrent request's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import anyio
import httpx2
from mcp.client import Transport
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from workbench.core.errors import ProtocolError
from workbench.core.http.httpx2_transport import Httpx2TapTransport
from workbench.core.http.limits import HTTPLimits, LimitGuard, rpc_id_key
from workbench.core.http.session_budget import SessionBudget
from workbench.core.http.status import StatusSeen
from workbench.core.http.tap import SSE_DATA_PREVIEW, HTTPTap
from workbench.core.protocols.mcp.listing_cap import ListingCap
from workbench.core.protocols.mcp.provenance import ServerErrors
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

__all__ = ["SSE_DATA_PREVIEW", "HTTPWireTransport", "JSONRPCTap", "capture_sent_requests"]

_SENT: ContextVar[tuple[set[str], ...]] = ContextVar("workbench_mcp_sent_requests", default=())


@contextlib.contextmanager
def capture_sent_requests() -> Iterator[set[str]]:
    """Collect the JSON-RPC ids (``rpc_id_key``) of the requests this task sends inside the block.

    The SDK writes a request in the task that asked for it, so the ids a ``JSONRPCTap`` records
    there are the caller's own (pages of a listing, a retried input-required call: all of them).
    """
    ids: set[str] = set()
    token = _SENT.set((*_SENT.get(), ids))
    try:
        yield ids
    finally:
        _SENT.reset(token)


_LISTEN = b'"subscriptions/listen"'


def is_listening(method: str, body: bytes | None) -> bool:
    """Whether an MCP HTTP request opens a stream that lives as long as the connection.

    The handshake era's standalone GET stream (Streamable HTTP) and session stream (legacy SSE), and
    the 2026 ``subscriptions/listen`` request: no ``max_stream_bytes`` for them, only the message limit.
    """
    return method == "GET" or (body is not None and _LISTEN in body[:4096])


def _is_cancel(message: JSONRPCNotification) -> bool:
    """A ``notifications/cancelled`` naming a request: that request no longer waits for an answer."""
    params = message.params
    return message.method == "notifications/cancelled" and isinstance(params, dict) and "requestId" in params


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
        item = self._tap.listing_cap.check_message(item) or item
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
    """Wrap an SDK transport so every JSON-RPC message is recorded in both directions.

    Args:
        inner: The SDK transport.
        wire: Where records go (``None``: the transport records its messages itself).
        connection_id: The connection id the records carry.
        budget: The session stream's per-request budget (legacy SSE): told which requests went
            out and which were answered or cancelled.
        server_errors: Told of every error response that arrives (it keeps the server's own).
    """

    def __init__(
        self,
        inner: Transport,
        wire: WireRecorder | None,
        connection_id: str,
        *,
        budget: SessionBudget | None = None,
        server_errors: ServerErrors | None = None,
    ) -> None:
        self._inner = inner
        self._wire = wire
        self._cid = connection_id
        self.budget = budget
        self.server_errors = server_errors
        self.listing_cap = ListingCap()

    def record_in(self, item: SessionMessage | Exception) -> None:
        """Record one incoming message, or a transport fault as a local error record."""
        if self.server_errors is not None:
            self.server_errors.note(item)
        if isinstance(item, Exception):
            if self._wire is not None:
                self._wire.local(self._cid, WireKind.ERROR, f"transport fault: {item!r}"[:500], protocol="mcp")
            return
        if self._wire is not None:
            self._wire.jsonrpc(self._cid, Direction.IN, _message_dict(item), protocol="mcp")
        message = item.message
        if self.budget is not None and isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self.budget.answered(message.id)

    def record_out(self, item: SessionMessage) -> None:
        """Record one outgoing message (a request's id goes to the budget and the caller's capture)."""
        if self._wire is not None:
            self._wire.jsonrpc(self._cid, Direction.OUT, _message_dict(item), protocol="mcp")
        message = item.message
        self.listing_cap.sent(message)
        if isinstance(message, JSONRPCRequest):
            if self.budget is not None:
                self.budget.sent(message.id, message.method)
            key = rpc_id_key(message.id)
            for ids in _SENT.get():
                ids.add(key)
        elif self.budget is not None and isinstance(message, JSONRPCNotification) and _is_cancel(message):
            self.budget.answered((message.params or {})["requestId"])

    async def __aenter__(self) -> tuple[_TapRead, _TapWrite]:
        read, write = await self._inner.__aenter__()
        return _TapRead(read, self), _TapWrite(write, self)

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)


class HTTPWireTransport(Httpx2TapTransport):
    """The shared HTTP wire tap (``workbench.core.http``) set up for an MCP connection.

    Records with protocol ``mcp``; JSON-RPC messages are recorded at the session seam by
    ``JSONRPCTap``, so bodies are not parsed for them here. Keeps the session id
    (``Mcp-Session-Id``), the last status and the last error response for the adapter.
    """

    def __init__(
        self,
        wire: WireRecorder,
        connection_id: str,
        inner: httpx2.AsyncBaseTransport | None = None,
        *,
        limits: HTTPLimits | None = None,
        budget: SessionBudget | None = None,
    ) -> None:
        self.http_tap = HTTPTap(wire, connection_id, protocol="mcp", session_header="mcp-session-id")
        super().__init__(self.http_tap, inner, guard=LimitGuard(limits, listening=is_listening, budget=budget))
        self._budget = budget

    @property
    def budget(self) -> SessionBudget | None:
        """The session stream's per-request budget (legacy SSE only)."""
        return self._budget

    def refusal_for(self, request_ids: set[str], since: int) -> ProtocolError | None:
        """The size-limit refusal that answered one of ``request_ids`` (see ``LimitGuard.refusal_for``)."""
        return self.guard.refusal_for(request_ids, since) if self.guard is not None else None

    @property
    def refusal_count(self) -> int:
        """How many response bodies or events were refused for a size limit."""
        return self.guard.refusal_count if self.guard is not None else 0

    @property
    def last_refusal(self) -> ProtocolError | None:
        """The last size-limit refusal (the SDK reports it as a generic failure of the request)."""
        return self.guard.last_refusal if self.guard is not None else None

    @property
    def last_session_id(self) -> str | None:
        """The last ``Mcp-Session-Id`` the server sent."""
        return self.http_tap.last_session_id

    @property
    def last_status(self) -> int | None:
        """The status of the last response."""
        return self.http_tap.last_status

    @property
    def error_count(self) -> int:
        """How many error responses (status 400 and up) arrived."""
        return self.http_tap.error_count

    @property
    def last_error(self) -> StatusSeen | None:
        """The last error response: status, ``WWW-Authenticate`` and URL (a tuple)."""
        return self.http_tap.last_error

    @property
    def get_stream_answered(self) -> asyncio.Event:
        """Set when the server answered the standalone GET stream (handshake-era Streamable HTTP)."""
        return self.http_tap.get_stream_answered
