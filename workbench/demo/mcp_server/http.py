"""Serving the demo server over Streamable HTTP or legacy HTTP+SSE with uvicorn on the running asyncio loop."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Literal
from urllib.parse import parse_qs

import anyio
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.core.serving import serve_asgi
from workbench.demo.mcp_server.app import build_server

HttpTransport = Literal["streamable-http", "sse"]
PATHS: dict[HttpTransport, str] = {"streamable-http": "/mcp", "sse": "/sse"}
STREAM_GRACE_S = 1.0
"""How long exchanges may take to end after a simulated client disconnect at shutdown before they are cancelled."""
GRACEFUL_SHUTDOWN_S = 1
"""How long open streams (SSE, GET) may stay open after a stop request before uvicorn cancels them."""


_DISCONNECT: Message = {"type": "http.disconnect"}


class _StoppableApp:
    """ASGI wrapper that can end every in-flight HTTP exchange at once.

    Long-lived responses (the legacy SSE stream, the Streamable HTTP GET stream) would otherwise keep
    uvicorn waiting at shutdown until its graceful timeout, which then cancels them with tracebacks
    (and the SDK's SSE transport leaks its streams when cancelled). `stop()` first tells every
    exchange that its client disconnected, which the SDK handles cleanly, and cancels only what is
    still running after a short grace. Each exchange still ends with a complete HTTP response.
    """

    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._exchanges: dict[anyio.CancelScope, anyio.Event] = {}
        self._idle = anyio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        stopping = anyio.Event()
        started = finished = dropping = False

        async def stoppable_receive() -> Message:
            if stopping.is_set():
                return _DISCONNECT
            message = _DISCONNECT
            async with anyio.create_task_group() as race:

                async def get() -> None:
                    nonlocal message
                    message = await receive()
                    race.cancel_scope.cancel()

                race.start_soon(get)
                await stopping.wait()
                race.cancel_scope.cancel()
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started, finished, dropping
            if message["type"] == "http.response.start" and started:
                dropping = True  # a second response after a (simulated) disconnect: nobody reads it
            if dropping or finished:
                return
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                finished = True
            await send(message)

        with anyio.CancelScope() as exchange:
            self._exchanges[exchange] = stopping
            try:
                await self._app(scope, stoppable_receive, tracking_send)
            finally:
                del self._exchanges[exchange]
                if not self._exchanges:
                    self._idle.set()
        if finished:
            return
        if not started:
            await send({"type": "http.response.start", "status": 503, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def stop(self, grace: float) -> None:
        """Tell every exchange its client left, give them `grace` seconds to end, then cancel the rest."""
        for stopping in self._exchanges.values():
            stopping.set()
        with anyio.move_on_after(grace):
            while self._exchanges:
                self._idle = anyio.Event()
                await self._idle.wait()
        for exchange in list(self._exchanges):
            exchange.cancel()


class RequireBearer:
    """ASGI wrapper answering 401 (with ``WWW-Authenticate: Bearer``) unless the request carries the token.

    With ``query_param`` set, the token is expected as that URL query parameter instead (an API key).
    """

    def __init__(self, app: ASGIApp, token: str, *, query_param: str | None = None) -> None:
        self._app = app
        self._token = token
        self._expected = f"Bearer {token}".encode()
        self._query_param = query_param

    def _authorised(self, scope: Scope) -> bool:
        if self._query_param is not None:
            values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(self._query_param, [])
            return values == [self._token]
        return bool(dict(scope.get("headers", [])).get(b"authorization") == self._expected)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass authorised HTTP requests on; refuse the others."""
        if scope["type"] == "http" and not self._authorised(scope):
            body = b'{"error": "invalid_token"}'
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"www-authenticate", b'Bearer realm="workbench-demo", error="invalid_token"'),
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app(scope, receive, send)


@contextlib.asynccontextmanager
async def serve_http(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    transport: HttpTransport = "streamable-http",
    server: MCPServer | None = None,
    require_bearer: str | None = None,
    require_query_key: tuple[str, str] | None = None,
    any_port_if_taken: bool = False,
) -> AsyncIterator[str]:
    """Serve the demo server over HTTP on the running asyncio loop while the context is open.

    Args:
        host: Interface to bind; keep it loopback (the app's Host/Origin checks assume so).
        port: TCP port; 0 picks a free ephemeral port.
        transport: "streamable-http" (endpoint `/mcp`) or "sse" (legacy HTTP+SSE, endpoint `/sse`).
        server: The MCPServer to serve; a fresh `build_server()` when omitted.
        require_bearer: If given, every request must carry `Authorization: Bearer <this>` (else 401).
        require_query_key: `(param, value)`: every request must carry `?param=value` (else 401).
        any_port_if_taken: Listen on a free ephemeral port when `port` is taken (the URL says which).

    Yields:
        The endpoint URL, e.g. `http://127.0.0.1:54321/mcp`.

    Raises:
        OSError: The address could not be bound (and `any_port_if_taken` was not set).
        ConnectError: The server did not start (its lifespan failed, or not within 10 s).
    """
    mcp = server if server is not None else build_server()
    app = _StoppableApp(
        mcp.streamable_http_app(host=host) if transport == "streamable-http" else mcp.sse_app(host=host)
    )
    served: ASGIApp = app
    if require_bearer:
        served = RequireBearer(app, require_bearer)
    elif require_query_key:
        served = RequireBearer(app, require_query_key[1], query_param=require_query_key[0])
    async with serve_asgi(
        lambda _base: served,
        host,
        port,
        lifespan="on",
        graceful_timeout=GRACEFUL_SHUTDOWN_S,
        before_stop=lambda: app.stop(STREAM_GRACE_S),
        any_port_if_taken=any_port_if_taken,
    ) as base:
        yield f"{base}{PATHS[transport]}"
