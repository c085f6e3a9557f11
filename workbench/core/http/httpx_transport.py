"""The ``httpx`` shim of the HTTP wire tap (the A2A SDK's client): hands each exchange to ``HTTPTap``.

Everything but moving bytes lives in ``workbench.core.http.tap``; ``httpx2_transport`` is the same
shim for ``httpx2`` (the MCP SDK's client). Bodies pass through unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import anyio
import httpx

from workbench.core.http.origins import OAUTH_ENDPOINT, CredentialBoundary
from workbench.core.http.tap import ERROR_BODY_WAIT, Exchange, HTTPTap


class HttpxCredentialGuard(httpx.AsyncBaseTransport):
    """An ``httpx`` transport that refuses requests carrying credentials outside ``boundary``.

    Every hop goes through it (redirects included: the client follows them, the transport sends each),
    so a credential never leaves for an origin the user did not configure or approve.

    Args:
        boundary: The allowed origins and the connection's secret values.
        inner: The transport that really talks HTTP (default ``httpx.AsyncHTTPTransport()``).
    """

    def __init__(self, boundary: CredentialBoundary, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.boundary = boundary
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Admit ``request`` past the boundary (asking its approver, or raising its typed error), then send it."""
        await self.boundary.admit(
            str(request.url),
            request.headers.multi_items(),
            oauth_endpoint=bool(request.extensions.get(OAUTH_ENDPOINT)),
        )
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()


class HttpxTapTransport(httpx.AsyncBaseTransport):
    """An ``httpx`` transport that records every exchange with ``tap`` (``None``: records nothing).

    Args:
        tap: The recorder of this connection's HTTP layer.
        inner: The transport that really talks HTTP (default ``httpx.AsyncHTTPTransport()``).
    """

    def __init__(self, tap: HTTPTap | None, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.tap = tap
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; record it, its response and the response body as it streams."""
        if self.tap is None:
            return await self._inner.handle_async_request(request)
        try:
            body: bytes | None = request.content
        except httpx.RequestNotRead:
            body = None
        exchange = self.tap.exchange(request.method, str(request.url), request.headers.multi_items(), body)
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as exc:  # recorded, then re-raised unchanged
            exchange.failed(exc)
            raise
        exchange.respond(response.status_code, response.headers.multi_items())
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Tee(response.stream, exchange),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()


class _Tee(httpx.AsyncByteStream):
    """Passes a response body through unchanged while the exchange records it."""

    def __init__(self, inner: httpx.SyncByteStream | httpx.AsyncByteStream, exchange: Exchange) -> None:
        self._inner = inner
        self._exchange = exchange

    async def __aiter__(self) -> AsyncIterator[bytes]:
        inner = self._inner
        assert isinstance(inner, httpx.AsyncByteStream), "an async transport returns async streams"
        try:
            async for chunk in inner:
                self._exchange.feed(chunk)
                yield chunk
        except Exception as exc:  # recorded, then re-raised unchanged
            self._exchange.body_failed(exc)
            raise
        self._exchange.finish()

    async def aclose(self) -> None:
        """Record what arrived (an unread error body is read first, bounded), then close the wrapped stream."""
        exchange, inner = self._exchange, self._inner
        if exchange.wants_unread_body and isinstance(inner, httpx.AsyncByteStream):
            with anyio.move_on_after(ERROR_BODY_WAIT), contextlib.suppress(httpx.HTTPError):
                async for chunk in inner:
                    exchange.feed(chunk)
                    if exchange.body_full:
                        break
        exchange.finish()
        if isinstance(inner, httpx.AsyncByteStream):
            await inner.aclose()
