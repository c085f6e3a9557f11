"""Build the SDK transport for an MCP connection, with the wire taps in place."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin, urlsplit

import anyio
import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from workbench.core.errors import ProtocolError
from workbench.core.http.httpx2_transport import Httpx2LimitError
from workbench.core.http.limits import HTTPLimits
from workbench.core.http.session_budget import SessionBudget
from workbench.core.protocols.mcp._sdk_compat import (
    lift_legacy_sse_event_limit,
    mark_stand_in_errors,
    watch_legacy_sse_events,
)
from workbench.core.protocols.mcp.provenance import ServerErrors
from workbench.core.protocols.mcp.tap import HTTPWireTransport, JSONRPCTap
from workbench.core.wire.recorder import WireRecorder


class ForeignEndpointError(ProtocolError, httpx2.SSEError):
    """A legacy HTTP+SSE server named an endpoint on another origin for the client's messages.

    Refused before anything is sent there, as the MCP SDK refuses it; raised as an
    ``httpx2.SSEError`` so that the SDK ends the connection at once instead of waiting for the
    connect timeout. Its details name both origins.
    """


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def refuse_foreign_endpoint(url: str, event: httpx2.ServerSentEvent) -> None:
    """Refuse a legacy SSE ``endpoint`` event that names another origin than the session stream's ``url``.

    Raises:
        ForeignEndpointError: The endpoint is on another origin (scheme, host or port).
    """
    if event.event != "endpoint":
        return
    endpoint, origin = _origin(urljoin(url, event.data)), _origin(url)
    if endpoint != origin:
        stream = origin + urlsplit(url).path  # without the query: it may hold a credential
        raise ForeignEndpointError(
            f"The legacy SSE server at {stream} named an endpoint on another origin ({endpoint}) for the "
            f"client's messages; they are sent only to {origin}.",
            hint="the server or a proxy in front of it is misconfigured; its messages must be on its own origin",
            details={"endpoint_origin": endpoint, "origin": origin},
        )


class _TeardownRaceFilter(logging.Filter):
    """Keep the SDK's teardown-race tracebacks off ERROR: the session closed under a reader, nothing was lost.

    A server may send a message while the session is being closed (a ``list_changed`` re-list
    answered as the command exits, a progress notification after the result); the SDK's reader then
    fails to hand it on (``BrokenResourceError`` / ``ClosedResourceError``) and logs a traceback at
    ERROR — "Error in sse_reader" (legacy SSE), "Error parsing SSE message" (Streamable HTTP),
    "Reading from the MCP server's stdout failed" (stdio). Nobody was waiting for it and the wire log
    has the message itself, so the record is kept at DEBUG for whoever reads the debug log.

    The same for a response refused for a size limit ("Error parsing JSON response", "Error in
    sse_reader"): the caller gets the typed error and the wire log a record naming the limit; and
    for an endpoint on another origin ("Encountered SSE exception"): the caller gets the typed error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, _DEMOTED) and record.levelno > logging.DEBUG:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


_DEMOTED = (anyio.BrokenResourceError, anyio.ClosedResourceError, Httpx2LimitError, ForeignEndpointError)

TEARDOWN_RACE_LOGGERS = ("mcp.client.sse", "mcp.client.streamable_http", "mcp.client.stdio")
"""The SDK transports' loggers whose teardown races are demoted to DEBUG."""
for _name in TEARDOWN_RACE_LOGGERS:
    logging.getLogger(_name).addFilter(_TeardownRaceFilter())
lift_legacy_sse_event_limit()  # max_message_bytes bounds legacy SSE events, not the SDK's fixed 1 MiB
watch_legacy_sse_events(refuse_foreign_endpoint)  # at once and typed, not after the connect timeout
mark_stand_in_errors()  # a server's own -32000 is not the transport's "the stream ended"

# The SDK refuses Streamable HTTP SSE events over 1 MiB; a workbench must show a 20 MB result. The
# connection's own limit (max_message_bytes, refused with a typed error) is the one that applies;
# this is only a backstop when that limit is turned off.
MAX_SSE_EVENT_BYTES = 512 * 1024 * 1024
# A legacy SSE stream that is quiet for a long time is still alive (no keep-alives required).
SSE_READ_TIMEOUT = 24 * 3600.0


def http_transport(
    url: str,
    *,
    sse: bool,
    headers: dict[str, str],
    connect_timeout: float,
    wire: WireRecorder,
    connection_id: str,
    auth: httpx2.Auth | None = None,
    http_inner: httpx2.AsyncBaseTransport | None = None,
    limits: HTTPLimits | None = None,
    server_errors: ServerErrors | None = None,
) -> tuple[JSONRPCTap, HTTPWireTransport]:
    """A Streamable HTTP (or legacy SSE) transport whose JSON-RPC and HTTP layers are both recorded.

    Reads have no timeout (a server may hold a stream open for minutes); connects and writes use
    ``connect_timeout``; per-request timeouts are the session's business. Response sizes are
    bounded by ``limits`` (default ``HTTPLimits()``); on legacy SSE, ``max_stream_bytes`` bounds
    what the session stream carries while a request waits for its answer (``SessionBudget``).
    ``server_errors`` is told of every error response that arrives.
    """
    limits = limits if limits is not None else HTTPLimits()
    budget = SessionBudget(limits.max_stream_bytes) if sse else None
    http_tap = HTTPWireTransport(wire, connection_id, http_inner, limits=limits, budget=budget)
    if sse:

        def factory(headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None) -> httpx2.AsyncClient:
            return httpx2.AsyncClient(headers=headers, timeout=timeout, auth=auth, transport=http_tap)

        inner: Any = sse_client(
            url,
            headers=headers or None,
            timeout=connect_timeout,
            sse_read_timeout=SSE_READ_TIMEOUT,
            auth=auth,
            httpx_client_factory=factory,
        )
    else:
        http = httpx2.AsyncClient(
            headers=headers, timeout=httpx2.Timeout(connect_timeout, read=None), transport=http_tap, auth=auth
        )
        inner = _ClosingTransport(
            streamable_http_client(url, http_client=http, max_sse_event_size=MAX_SSE_EVENT_BYTES), http
        )
    return JSONRPCTap(inner, wire, connection_id, budget=budget, server_errors=server_errors), http_tap


class _ClosingTransport:
    """Wrap a transport so the httpx2 client it uses is closed with it."""

    def __init__(self, inner: Any, http: httpx2.AsyncClient) -> None:
        self._inner = inner
        self._http = http

    async def __aenter__(self) -> Any:
        return await self._inner.__aenter__()

    async def __aexit__(self, *exc: Any) -> bool | None:
        try:
            return await self._inner.__aexit__(*exc)  # type: ignore[no-any-return]
        finally:
            await self._http.aclose()


def in_memory_transport(server: Any) -> Any:
    """The SDK's in-memory JSON-RPC transport to an ``mcp`` ``Server`` / ``MCPServer`` in this process.

    ``Client(server)`` would dispatch directly (no JSON-RPC, nothing to tap); the stream-based
    transport keeps the wire log and both protocol eras working as over stdio.
    """
    from workbench.core.protocols.mcp._sdk_compat import in_memory_transport as sdk_in_memory_transport

    return sdk_in_memory_transport(server)
