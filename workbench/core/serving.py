"""Serves an ASGI app in-process with uvicorn on a loopback socket bound before the app is built.

Binding first means the app (e.g. an agent card) can name its real port. Used by the A2A push
receiver and by every demo agent (A2A agents, the MCP server over HTTP and SSE). The embedded
server leaves SIGINT/SIGTERM to its host: uvicorn
would otherwise swap the process's handlers per server and restore them out of order when several
servers start and stop at different times (leaving Ctrl-C pointing at a stopped server).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Literal

import anyio
import uvicorn

from workbench.core.errors import ConnectError

ASGIApp = Any
"""An ASGI application (Starlette, FastAPI, ...)."""

STARTUP_TIMEOUT = 10.0
SHUTDOWN_TIMEOUT = 5.0
log = logging.getLogger(__name__)


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves signals alone and says when it listens."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = asyncio.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.listening.set()


async def _serve(server: _EmbeddedServer, sock: socket.socket) -> None:
    try:
        await server.serve(sockets=[sock])
    except SystemExit as exc:  # uvicorn exits when the app's lifespan fails to start
        raise ConnectError(f"The local server failed to start (uvicorn exit {exc.code}).") from None


def bind_loopback(host: str = "127.0.0.1", port: int = 0, *, any_port_if_taken: bool = False) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 = an ephemeral port).

    Args:
        host: Interface to bind.
        port: Port to bind (0 = ephemeral).
        any_port_if_taken: When ``port`` cannot be bound (another program listens there, or the
            system reserves it), bind an ephemeral port instead of raising.

    Raises:
        OSError: The address could not be bound.
    """
    try:
        return _bind(host, port)
    except OSError:
        if not any_port_if_taken or port == 0:
            raise
        log.info("port %s on %s cannot be bound; using an ephemeral port", port, host)
        return _bind(host, 0)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if sys.platform == "win32":  # there SO_REUSEADDR would let this socket share a port another one listens on
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:  # a port left in TIME_WAIT by the last run can be bound again at once
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
    graceful_timeout: int = 2,
    lifespan: Literal["auto", "on", "off"] = "auto",
    before_stop: Callable[[], Awaitable[None]] | None = None,
    any_port_if_taken: bool = False,
) -> AsyncIterator[str]:
    """Run ``app_factory(base_url)`` under uvicorn on the running loop; yields the base URL.

    Args:
        app_factory: Builds the app, given its own base URL (``http://127.0.0.1:<port>``).
        host: Interface to bind (loopback by default).
        port: Port to bind (0 = ephemeral).
        log_level: uvicorn's log level.
        graceful_timeout: Seconds open connections (e.g. SSE streams) get on shutdown.
        lifespan: uvicorn's lifespan mode (``on`` when the app needs its startup to run).
        before_stop: Awaited (shielded) before uvicorn is told to stop, e.g. to end open streams.
        any_port_if_taken: Listen on an ephemeral port when ``port`` is taken (the yielded URL
            names the port it got).

    Raises:
        ConnectError: The server failed to start.
        OSError: The address could not be bound.
    """
    sock = bind_loopback(host, port, any_port_if_taken=any_port_if_taken)
    try:
        base = base_url_of(sock)
        config = uvicorn.Config(
            app_factory(base),
            log_config=None,  # never reconfigure the host process's logging
            log_level=log_level,
            access_log=False,
            lifespan=lifespan,
            timeout_graceful_shutdown=graceful_timeout,
        )
        server = _EmbeddedServer(config)
        _running_servers.add(server)
        task = asyncio.create_task(_serve(server, sock), name=f"uvicorn {base}")
        try:
            listening = asyncio.create_task(server.listening.wait())
            try:
                done, _ = await asyncio.wait({task, listening}, timeout=STARTUP_TIMEOUT, return_when="FIRST_COMPLETED")
            finally:
                listening.cancel()
            if task.done():
                task.result()  # raises the startup failure
                raise ConnectError(f"The local server for {base} stopped during startup.")
            if not done:
                raise ConnectError(f"The local server for {base} did not start within {STARTUP_TIMEOUT} s.")
            yield base
        finally:
            with anyio.CancelScope(shield=True):
                if before_stop is not None:
                    await before_stop()
                server.should_exit = True
                with anyio.move_on_after(SHUTDOWN_TIMEOUT):
                    await asyncio.wait({task})
                if not task.done():  # a stuck connection: stop waiting for it
                    server.force_exit = True
                    task.cancel()
                    await asyncio.wait({task})
            if not task.cancelled() and (exc := task.exception()) is not None:
                log.warning("local server %s stopped with %r", base, exc)
            _running_servers.discard(server)
            if not _running_servers:
                await _stop_sse_shutdown_watcher()
    finally:
        sock.close()


_running_servers: set[uvicorn.Server] = set()


async def _stop_sse_shutdown_watcher() -> None:
    """End sse-starlette's per-loop shutdown poller once the last in-process server has stopped.

    sse-starlette starts one task per loop on the first streamed response that polls every 0.5 s
    forever (to drain streams when uvicorn exits). Left running, it outlives every server and steps
    after its loop has stopped (e.g. a test's). Its state is reset so a later server restarts it.
    """
    sse = sys.modules.get("sse_starlette.sse")
    if sse is None:
        return
    watchers = [t for t in asyncio.all_tasks() if getattr(t.get_coro(), "__qualname__", "") == "_shutdown_watcher"]
    for watcher in watchers:
        watcher.cancel()
    if watchers:
        await asyncio.wait(watchers)
    state_of = getattr(sse, "_get_shutdown_state", None)
    if state_of is not None:
        state_of().watcher_started = False


@contextlib.contextmanager
def stop_on_signals(stop: asyncio.Event) -> Iterator[None]:
    """While open, SIGINT and SIGTERM set ``stop`` (the graceful path of a process that serves)."""
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # Windows: no loop signal handlers
            signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
