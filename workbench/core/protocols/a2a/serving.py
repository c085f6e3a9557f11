"""Serves an ASGI app in-process with uvicorn on a loopback socket bound before the app is built.

Binding first means the app (e.g. an agent card) can name its real port. Used by the push
receiver and by the demo agents.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn

from workbench.core.errors import ConnectError

ASGIApp = Any
"""An ASGI application (Starlette, FastAPI, ...)."""

STARTUP_TIMEOUT = 10.0
log = logging.getLogger(__name__)


def bind_loopback(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 = an ephemeral port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def base_url_of(sock: socket.socket) -> str:
    """``http://host:port`` of a bound socket."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@contextlib.asynccontextmanager
async def serve_asgi(
    app_factory: Callable[[str], ASGIApp],
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    log_level: str = "warning",
    graceful_timeout: float = 2.0,
) -> AsyncIterator[str]:
    """Run ``app_factory(base_url)`` under uvicorn on the running loop; yields the base URL.

    Args:
        app_factory: Builds the app, given its own base URL (``http://127.0.0.1:<port>``).
        host: Interface to bind (loopback by default).
        port: Port to bind (0 = ephemeral).
        log_level: uvicorn's log level.
        graceful_timeout: Seconds open connections get on shutdown.

    Raises:
        ConnectError: The server failed to start.
    """
    sock = bind_loopback(host, port)
    try:
        base = base_url_of(sock)
        app = app_factory(base)
        config = uvicorn.Config(
            app, log_level=log_level, timeout_graceful_shutdown=graceful_timeout, access_log=False, lifespan="auto"
        )
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve(sockets=[sock]), name=f"uvicorn {base}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STARTUP_TIMEOUT
        # uvicorn offers no startup event; the socket already accepts connections, so this only
        # surfaces a failed startup (e.g. a lifespan error) before the caller uses the URL.
        while not server.started:
            if task.done():
                exc = task.exception() if not task.cancelled() else None
                raise ConnectError(f"The local server for {base} failed to start: {exc!r}")
            if loop.time() > deadline:
                server.should_exit = True
                raise ConnectError(f"The local server for {base} did not start within {STARTUP_TIMEOUT} s.")
            await asyncio.sleep(0.005)
        try:
            yield base
        finally:
            server.should_exit = True
            await asyncio.wait({task})  # does not cancel the server task if we are cancelled
            if not task.cancelled() and (exc := task.exception()) is not None:
                log.warning("local server %s stopped with %r", base, exc)
    finally:
        sock.close()
