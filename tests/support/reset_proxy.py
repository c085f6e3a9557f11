"""A TCP proxy on 127.0.0.1 that resets chosen requests, as a server closing an idle keep-alive connection does.

uvicorn closes a keep-alive connection after 5 s of quiet; a request that reuses the connection at
that moment meets a reset (RST) instead of an answer. The proxy plays that moment on demand:
after ``reset_next(n)``, the next ``n`` requests to arrive (on any connection, old or new) are
answered with a reset and never reach the server behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator

CHUNK = 64 * 1024


class ResettingProxy:
    """Forwards bytes between clients and ``target``; resets the requests it is told to.

    Attributes:
        url: ``http://127.0.0.1:<port>`` of the proxy (set once it listens).
        target: ``http://host:port`` of the server behind it (set before the first request).
        resets: How many requests were answered with a reset.
    """

    def __init__(self) -> None:
        self.url = ""
        self.target = ""
        self.resets = 0
        self._to_reset = 0
        self._server: asyncio.Server | None = None
        self._pumps: set[asyncio.Task[None]] = set()

    def reset_next(self, count: int) -> None:
        """Answer the next ``count`` requests with a reset."""
        self._to_reset = count

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[ResettingProxy]:
        """Listen on an ephemeral port until the block ends; every open connection is closed then."""
        self._server = await asyncio.start_server(self._on_client, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        try:
            yield self
        finally:
            self._server.close()
            for pump in list(self._pumps):
                pump.cancel()
            await asyncio.gather(*self._pumps, return_exceptions=True)
            await self._server.wait_closed()

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, port = self.target.removeprefix("http://").rsplit(":", 1)
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        back = asyncio.create_task(self._pump(up_reader, writer))
        self._pumps.add(back)
        back.add_done_callback(self._pumps.discard)
        try:
            while chunk := await reader.read(CHUNK):
                if self._to_reset:  # a request starts on this connection: the server "closed" it just now
                    self._to_reset -= 1
                    self.resets += 1
                    _reset(writer)
                    return
                up_writer.write(chunk)
                await up_writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            back.cancel()
            up_writer.close()
            writer.close()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while chunk := await source.read(CHUNK):
                sink.write(chunk)
                await sink.drain()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close the connection with a reset (RST), its unread request discarded, as a closing server's kernel does."""
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
