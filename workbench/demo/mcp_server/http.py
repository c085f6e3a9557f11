"""Serving the demo server over Streamable HTTP or legacy HTTP+SSE with uvicorn on the running asyncio loop."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Literal

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.demo.mcp_server.app import build_server

HttpTransport = Literal["streamable-http", "sse"]
PATHS: dict[HttpTransport, str] = {"streamable-http": "/mcp", "sse": "/sse"}
STARTUP_TIMEOUT_S = 10.0
SHUTDOWN_TIMEOUT_S = 5.0
STREAM_GRACE_S = 1.0
"""How long exchanges may take to end after a simulated client disconnect at shutdown before they are cancelled."""
GRACEFUL_SHUTDOWN_S = 1
"""How long open streams (SSE, GET) may stay open after a stop request before uvicorn cancels them."""


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves signals to its host and announces when it is listening."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = asyncio.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The host (GUI, test, or our CLI) owns SIGINT/SIGTERM; uvicorn would replace and re-raise them.
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.listening.set()


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


async def _serve(server: _EmbeddedServer, sock: socket.socket) -> None:
    try:
        await server.serve(sockets=[sock])
    except SystemExit as exc:  # uvicorn exits the process when the app's lifespan fails to start
        raise RuntimeError(f"demo HTTP server failed to start (uvicorn exit {exc.code})") from None


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


@contextlib.asynccontextmanager
async def serve_http(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    transport: HttpTransport = "streamable-http",
    server: MCPServer | None = None,
) -> AsyncIterator[str]:
    """Serve the demo server over HTTP on the running asyncio loop while the context is open.

    Args:
        host: Interface to bind; keep it loopback (the app's Host/Origin checks assume so).
        port: TCP port; 0 picks a free ephemeral port.
        transport: "streamable-http" (endpoint `/mcp`) or "sse" (legacy HTTP+SSE, endpoint `/sse`).
        server: The MCPServer to serve; a fresh `build_server()` when omitted.

    Yields:
        The endpoint URL, e.g. `http://127.0.0.1:54321/mcp`.

    Raises:
        OSError: The address could not be bound.
        RuntimeError: The server did not start (e.g. its lifespan failed).
        TimeoutError: The server did not start within 10 s.
    """
    mcp = server if server is not None else build_server()
    app = _StoppableApp(
        mcp.streamable_http_app(host=host) if transport == "streamable-http" else mcp.sse_app(host=host)
    )
    sock = _bind(host, port)
    bound_port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_config=None,  # never reconfigure the host process's logging
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
    userver = _EmbeddedServer(config)
    task = asyncio.create_task(_serve(userver, sock), name=f"demo-mcp-{transport}-{bound_port}")
    try:
        with anyio.fail_after(STARTUP_TIMEOUT_S):
            listening = asyncio.create_task(userver.listening.wait())
            try:
                await asyncio.wait({task, listening}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                listening.cancel()
        if task.done():
            task.result()  # raises the startup failure
            raise RuntimeError("demo HTTP server stopped during startup")
        url_host = f"[{host}]" if ":" in host else host
        yield f"http://{url_host}:{bound_port}{PATHS[transport]}"
    except BaseException:
        await _stop(app, userver, task, sock)
        raise
    failure = await _stop(app, userver, task, sock)
    if failure is not None:
        raise RuntimeError("demo HTTP server failed while serving") from failure


async def _stop(
    app: _StoppableApp, userver: _EmbeddedServer, task: asyncio.Task[None], sock: socket.socket
) -> BaseException | None:
    """Stop serving (shielded from cancellation) and return what the server task failed with, if anything."""
    with anyio.CancelScope(shield=True):
        await app.stop(STREAM_GRACE_S)
        userver.should_exit = True
        with anyio.move_on_after(SHUTDOWN_TIMEOUT_S):
            await asyncio.wait({task})
        if not task.done():  # a stuck connection: stop waiting for it
            userver.force_exit = True
            task.cancel()
            await asyncio.wait({task})
    sock.close()
    return None if task.cancelled() else task.exception()
