"""The ``httpx2`` shim of the HTTP wire tap (the MCP SDK's client): hands each exchange to ``HTTPTap``.

Everything but moving bytes lives in ``workbench.core.http.tap``; ``httpx_transport`` is the same
shim for ``httpx`` (the A2A SDK's client). ``httpx2`` is a fork of ``httpx`` with the same transport
interface but its own classes, so each client needs its own subclass. Bodies pass through unchanged,
counted against the connection's size limits (``workbench.core.http.limits``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import anyio
import httpx2

from workbench.core.errors import ProtocolError
from workbench.core.http.limits import LimitGuard
from workbench.core.http.origins import OAUTH_ENDPOINT, CredentialBoundary
from workbench.core.http.tap import ERROR_BODY_WAIT, BodyWatch, HTTPTap


class Httpx2CredentialGuard(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that refuses requests carrying credentials outside ``boundary``.

    The ``httpx2`` twin of ``httpx_transport.HttpxCredentialGuard``; every hop (redirects included)
    goes through it.

    Args:
        boundary: The allowed origins and the connection's secret values.
        inner: The transport that really talks HTTP (default ``httpx2.AsyncHTTPTransport()``).
    """

    def __init__(self, boundary: CredentialBoundary, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self.boundary = boundary
        self._inner = inner if inner is not None else httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
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


class Httpx2LimitError(ProtocolError, httpx2.StreamError):
    """A response refused for a size limit, as the MCP SDK expects a failed body to look.

    The SDK answers the waiting request with an error when reading a body raises
    ``httpx2.StreamError`` (and keeps the connection); any other exception there would end the
    whole transport. It is a ``ProtocolError`` too, with the limit in its details.
    """


class Httpx2TapTransport(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that records every exchange with ``tap`` and bounds every response body.

    Args:
        tap: The recorder of this connection's HTTP layer (``None``: records nothing).
        inner: The transport that really talks HTTP (default ``httpx2.AsyncHTTPTransport()``).
        guard: The response size limits (``None``: none); a refused body raises ``Httpx2LimitError``.
    """

    def __init__(
        self,
        tap: HTTPTap | None,
        inner: httpx2.AsyncBaseTransport | None = None,
        *,
        guard: LimitGuard | None = None,
    ) -> None:
        self.tap = tap
        self.guard = guard
        self._inner = inner if inner is not None else httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request``; record it, its response and the response body as it streams (bounded)."""
        tap, guard = self.tap, self.guard
        if tap is None and guard is None:
            return await self._inner.handle_async_request(request)
        try:
            body: bytes | None = request.content
        except httpx2.RequestNotRead:
            body = None
        url = str(request.url)
        exchange = tap.exchange(request.method, url, request.headers.multi_items(), body) if tap else None
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as exc:  # recorded, then re-raised unchanged
            if exchange is not None:
                exchange.failed(exc)
            raise
        if exchange is not None:
            exchange.respond(response.status_code, response.headers.multi_items())
        meter = None
        if guard is not None:
            headers = response.headers
            meter = guard.meter(request.method, url, body, headers.get("content-type"), headers.get("content-length"))
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_Tee(response.stream, BodyWatch(exchange, meter, guard)),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()


class _Tee(httpx2.AsyncByteStream):
    """Passes a response body through unchanged while it is counted and recorded."""

    def __init__(self, inner: httpx2.SyncByteStream | httpx2.AsyncByteStream, watch: BodyWatch) -> None:
        self._inner = inner
        self._watch = watch

    async def __aiter__(self) -> AsyncIterator[bytes]:
        inner, watch = self._inner, self._watch
        assert isinstance(inner, httpx2.AsyncByteStream), "an async transport returns async streams"
        exchange = watch.exchange
        if (refusal := watch.at_start()) is not None:
            raise _as_stream_error(refusal)
        try:
            async for chunk in inner:
                if (refusal := watch.take(chunk)) is not None:
                    raise _as_stream_error(refusal)
                yield chunk
        except Httpx2LimitError:
            raise
        except Exception as exc:  # recorded, then re-raised unchanged
            if exchange is not None:
                exchange.body_failed(exc)
            raise
        if exchange is not None:
            exchange.finish()

    async def aclose(self) -> None:
        """Record what arrived (an unread error body is read first, bounded), then close the wrapped stream."""
        exchange, inner = self._watch.exchange, self._inner
        if exchange is not None:
            if exchange.wants_unread_body and isinstance(inner, httpx2.AsyncByteStream):
                with anyio.move_on_after(ERROR_BODY_WAIT), contextlib.suppress(httpx2.HTTPError):
                    async for chunk in inner:
                        exchange.feed(chunk)
                        if exchange.body_full:
                            break
            exchange.finish()
        if isinstance(inner, httpx2.AsyncByteStream):
            await inner.aclose()


def _as_stream_error(refusal: ProtocolError) -> Httpx2LimitError:
    return Httpx2LimitError(refusal.message, hint=refusal.hint, details=refusal.details)
