"""httpx transport for A2A: stream timeouts, size limits, and the shared HTTP wire tap (``workbench.core.http``).

``A2ATransport`` wraps the real transport. It always applies the stream policy (a request that
accepts ``text/event-stream`` gets ``stream_idle_timeout`` as its read timeout, ``None`` = wait
forever, so a silent agent is not an error). With a recorder it records every HTTP request and
response, every SSE event (keep-alive ``: ping`` comments included) at the moment its frame is
complete, and for JSON-RPC bodies and SSE payloads also the JSON-RPC message itself, so the wire
log shows methods, ids and latencies as it does for MCP. The recorder redacts everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from workbench.core.http.httpx_transport import HttpxTapTransport
from workbench.core.http.limits import HTTPLimits, LimitGuard
from workbench.core.http.tap import HTTPTap

if TYPE_CHECKING:
    from workbench.core.wire.recorder import WireRecorder

PROTOCOL = "a2a"


class A2ATransport(HttpxTapTransport):
    """Wraps an httpx transport with the A2A stream timeout policy and an optional wire tap.

    Args:
        inner: The transport that really talks HTTP (default ``httpx.AsyncHTTPTransport()``).
        stream_idle_timeout: Read timeout for SSE responses (seconds of silence allowed between
            bytes; ``None`` waits forever).
        limits: Response size limits (default ``HTTPLimits()``); every stream answers one request
            (a message or a task subscription), so ``max_stream_bytes`` applies to each.
        recorder: Where to record traffic; ``None`` records nothing.
        connection_id: The connection id the records carry.
    """

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        *,
        stream_idle_timeout: float | None = None,
        limits: HTTPLimits | None = None,
        recorder: WireRecorder | None = None,
        connection_id: str = "a2a",
    ) -> None:
        tap = None if recorder is None else HTTPTap(recorder, connection_id, protocol=PROTOCOL, jsonrpc_bodies=True)
        super().__init__(tap, inner, guard=LimitGuard(limits))
        self.stream_idle_timeout = stream_idle_timeout
        self.recorder = recorder
        self.connection_id = connection_id

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` (an event-stream request gets the stream read timeout); record it when tapped."""
        if "text/event-stream" in request.headers.get("accept", ""):
            timeouts = dict(request.extensions.get("timeout") or {})
            timeouts["read"] = self.stream_idle_timeout
            request.extensions["timeout"] = timeouts
        return await super().handle_async_request(request)
