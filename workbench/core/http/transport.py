"""The client-free half of the transport shims: credential guard, tapped and bounded exchange, body tee.

``httpx`` (the A2A SDK's client) and ``httpx2`` (the MCP SDK's, a fork with the same transport
interface but its own classes) each need transports and byte streams of their own classes, so
``httpx_transport`` and ``httpx2_transport`` subclass their client's ``AsyncBaseTransport`` and
``AsyncByteStream`` with the bases here and supply only what names a client class: the default
inner transport, reading a request body, building the passed-on response, and how a size-limit
refusal is raised. Everything but moving bytes lives in ``workbench.core.http.tap``; the size
limits in ``workbench.core.http.limits``. A compressed body is decoded here, in bounded pieces
(``workbench.core.http.decoding``), and passed on decoded: the limits count, and the wire log
records, what it decodes to.

A request sent inside ``resend_on_reset()`` (a read the caller knows is idempotent) is sent once
more when its connection breaks before the response starts: a server closes an idle keep-alive
connection (uvicorn after 5 s) just as a request reuses it, and the request gets a reset instead of
an answer. Both attempts are recorded.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping
from contextvars import ContextVar
from typing import ClassVar, Protocol

import anyio

from workbench.core.errors import ProtocolError
from workbench.core.http.decoding import BodyDecoder, accepted_encodings
from workbench.core.http.limits import LimitGuard
from workbench.core.http.origins import OAUTH_ENDPOINT, CredentialBoundary
from workbench.core.http.tap import ERROR_BODY_WAIT, BodyWatch, HTTPTap

_RESEND_ON_RESET: ContextVar[bool] = ContextVar("workbench_resend_on_reset", default=False)


@contextlib.contextmanager
def resend_on_reset() -> Iterator[None]:
    """Requests sent inside are sent once more when the connection breaks before their response starts.

    Only for requests that change nothing on the server (listing, getting): the server may have
    read one before its connection broke.
    """
    token = _RESEND_ON_RESET.set(True)
    try:
        yield
    finally:
        _RESEND_ON_RESET.reset(token)


class _Headers(Protocol):
    """The part of a client's ``Headers`` the transports read."""

    def multi_items(self) -> list[tuple[str, str]]: ...
    def get(self, key: str, /) -> str | None: ...
    def __setitem__(self, key: str, value: str, /) -> None: ...


class _Request(Protocol):
    """The part of a client's ``Request`` the transports read (``content`` raises while it is a stream)."""

    @property
    def method(self) -> str: ...
    @property
    def url(self) -> object: ...
    @property
    def headers(self) -> _Headers: ...
    @property
    def extensions(self) -> Mapping[str, object]: ...
    @property
    def content(self) -> bytes: ...


class _Response(Protocol):
    """The part of a client's ``Response`` the transports read."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> _Headers: ...


class _Sender[RequestT: _Request, ResponseT: _Response](Protocol):
    """A client's transport, as the transports here call the one they wrap."""

    async def handle_async_request(self, request: RequestT, /) -> ResponseT: ...
    async def aclose(self) -> None: ...


class _Body(Protocol):
    """A client's async response body stream."""

    def __aiter__(self) -> AsyncIterator[bytes]: ...
    async def aclose(self) -> None: ...


class CredentialGuardBase[RequestT: _Request, ResponseT: _Response]:
    """A transport that refuses requests carrying credentials outside ``boundary``, then sends them.

    Every hop goes through it (redirects included: the client follows them, the transport sends each),
    so a credential never leaves for an origin the user did not configure or approve.

    Args:
        boundary: The allowed origins and the connection's secret values.
        inner: The transport that really talks HTTP.
    """

    def __init__(self, boundary: CredentialBoundary, inner: _Sender[RequestT, ResponseT]) -> None:
        self.boundary = boundary
        self._inner = inner

    async def handle_async_request(self, request: RequestT) -> ResponseT:
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


Decoding = BodyDecoder | ProtocolError | None
"""How a response body is decoded: by a decoder, not at all (``None``), or refused (a coding not decoded here)."""

_ENCODING_HEADERS = ("content-encoding", "content-length")


def decoded_headers(headers: _Headers, decoding: Decoding) -> list[tuple[str, str]] | None:
    """The headers of a response passed on decoded (``None``: unchanged, the body is not encoded).

    Without ``Content-Encoding`` the client does not decode the body again; its ``Content-Length``
    (of the encoded body) no longer applies.
    """
    if decoding is None:
        return None
    return [(name, value) for name, value in headers.multi_items() if name.lower() not in _ENCODING_HEADERS]


class TapTransportBase[RequestT: _Request, ResponseT: _Response]:
    """A transport that records every exchange with ``tap`` and bounds every response body.

    A compressed body is decoded here, in bounded pieces, and the limits count what it decodes to;
    a request asks only for the codings decoded here (``Accept-Encoding``). A client's subclass
    says how a request body is read (``_request_body``) and how the response is passed on with its
    body going through a tee (``_passed_on``).

    Inside ``resend_on_reset()``, a request whose connection breaks before its response starts (one
    of ``_reset_errors``) is sent once more; if that fails too, the first failure is raised.

    Args:
        tap: The recorder of this connection's HTTP layer (``None``: records nothing).
        inner: The transport that really talks HTTP.
        guard: The response size limits (``None``: none).
    """

    _reset_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """The client's errors for a connection that broke before the response started."""

    def __init__(self, tap: HTTPTap | None, inner: _Sender[RequestT, ResponseT], *, guard: LimitGuard | None) -> None:
        self.tap = tap
        self.guard = guard
        self._inner = inner

    async def handle_async_request(self, request: RequestT) -> ResponseT:
        """Send ``request``; record it, its response and the response body as it streams (bounded)."""
        tap, guard = self.tap, self.guard
        if tap is None and guard is None:
            return await self._inner.handle_async_request(request)
        if (asked := request.headers.get("accept-encoding")) is not None:
            request.headers["Accept-Encoding"] = accepted_encodings(asked)
        body = self._request_body(request)
        url = str(request.url)
        resend = _RESEND_ON_RESET.get() and body is not None  # a streamed body cannot be sent twice
        first: Exception | None = None
        while True:
            exchange = tap.exchange(request.method, url, request.headers.multi_items(), body) if tap else None
            try:
                response = await self._inner.handle_async_request(request)
            except Exception as exc:  # recorded, then re-raised unchanged (or sent once more)
                if exchange is not None:
                    exchange.failed(exc)
                if first is not None:
                    raise first from None
                if not (resend and isinstance(exc, self._reset_errors)):
                    raise
                first = exc
                continue
            break
        if exchange is not None:
            exchange.respond(response.status_code, response.headers.multi_items())
        headers = response.headers
        decoding: Decoding
        try:
            decoding = BodyDecoder.for_response(headers.get("content-encoding"), url, body)
        except ProtocolError as refusal:
            decoding = refusal
        meter = None
        if guard is not None:
            # An encoded body's Content-Length is not what it decodes to: it is counted instead.
            length = headers.get("content-length") if decoding is None else None
            meter = guard.meter(request.method, url, body, headers.get("content-type"), length)
        return self._passed_on(request, response, BodyWatch(exchange, meter, guard), decoding)

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()

    def _request_body(self, request: RequestT) -> bytes | None:
        """The request body, or ``None`` when it is streamed (not known up front)."""
        raise NotImplementedError

    def _passed_on(self, request: RequestT, response: ResponseT, watch: BodyWatch, decoding: Decoding) -> ResponseT:
        """``response`` as the client gets it: its head (``decoded_headers``), its body through a tee to ``watch``."""
        raise NotImplementedError


class BodyTeeBase:
    """Passes a response body through, decoded, while it is counted and recorded.

    A client's subclass is also that client's ``AsyncByteStream`` and may raise a size-limit refusal
    as another ``ProtocolError`` (``_raised`` and ``_refusal_type``).

    Args:
        inner: The response's body (``None``: a sync stream, which an async transport never returns).
        watch: What counts and records each chunk.
        decoding: How the body is decoded (``None``: passed through unchanged); a ``ProtocolError``
            (a coding not decoded here) is raised before the body is read.
    """

    _refusal_type: ClassVar[type[ProtocolError]] = ProtocolError
    """What ``_raised`` returns: passed through, never recorded as a failure of the body."""
    _read_error: ClassVar[type[Exception]]
    """The client's base HTTP error, ignored while an unread error body is read for the record."""

    def __init__(self, inner: _Body | None, watch: BodyWatch, decoding: Decoding = None) -> None:
        self._inner = inner
        self._watch = watch
        self._decoding = decoding

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """The body's decoded pieces, each counted and recorded; raises the refusal when one is over a limit."""
        inner, watch, decoding = self._inner, self._watch, self._decoding
        assert inner is not None, "an async transport returns async streams"
        exchange = watch.exchange
        if isinstance(decoding, ProtocolError):
            raise self._raised(watch.refuse(decoding))
        if (refusal := watch.at_start()) is not None:
            raise self._raised(refusal)
        try:
            async for chunk in inner:
                pieces = decoding.decode(chunk) if decoding is not None else iter((chunk,))
                while (piece := self._next(pieces)) is not None:
                    if (refusal := watch.take(piece)) is not None:
                        raise self._raised(refusal)
                    yield piece
            if decoding is not None:
                pieces = decoding.flush()
                while (piece := self._next(pieces)) is not None:
                    if (refusal := watch.take(piece)) is not None:
                        raise self._raised(refusal)
                    yield piece
        except self._refusal_type:
            raise
        except Exception as exc:  # recorded, then re-raised unchanged
            if exchange is not None:
                exchange.body_failed(exc)
            raise
        if exchange is not None:
            exchange.finish()

    async def aclose(self) -> None:
        """Record what arrived (an unread error body is read first, bounded), then close the wrapped stream."""
        exchange, inner, decoding = self._watch.exchange, self._inner, self._decoding
        try:
            readable = not isinstance(decoding, ProtocolError)
            if exchange is not None and exchange.wants_unread_body and inner is not None and readable:
                suppressed = contextlib.suppress(self._read_error, ProtocolError)  # (a body not valid for its coding)
                with anyio.move_on_after(ERROR_BODY_WAIT), suppressed:
                    async for chunk in inner:
                        for piece in decoding.decode(chunk) if isinstance(decoding, BodyDecoder) else (chunk,):
                            exchange.feed(piece)
                            if exchange.body_full:
                                break
                        if exchange.body_full:
                            break
        finally:  # recorded even when the close is cancelled (an SDK that gave up on the request)
            if exchange is not None:
                exchange.finish()
            if inner is not None:
                await inner.aclose()

    def _next(self, pieces: Iterator[bytes]) -> bytes | None:
        """The next decoded piece (``None``: no more); a body not valid for its coding is refused."""
        try:
            return next(pieces, None)
        except ProtocolError as bad:
            raise self._raised(self._watch.refuse(bad)) from None

    def _raised(self, refusal: ProtocolError) -> ProtocolError:
        """The exception raised for a size-limit ``refusal`` (default: the refusal itself)."""
        return refusal
