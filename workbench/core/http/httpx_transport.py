"""The ``httpx`` shim of the HTTP wire tap (the A2A SDK's client): ``httpx`` classes over ``transport``.

The credential guard, the tapped and bounded exchange and the body tee live in
``workbench.core.http.transport``; this module names the ``httpx`` classes they need.
``httpx2_transport`` is the same shim for ``httpx2`` (the MCP SDK's client). Bodies pass through
decoded (a compressed one in bounded pieces), counted against the connection's size limits
(``workbench.core.http.limits``); a refused one raises its ``ProtocolError``.
"""

from __future__ import annotations

import httpx

from workbench.core.http.limits import LimitGuard
from workbench.core.http.origins import CredentialBoundary
from workbench.core.http.tap import BodyWatch, HTTPTap
from workbench.core.http.tls import verifying_context
from workbench.core.http.transport import (
    BodyTeeBase,
    CredentialGuardBase,
    Decoding,
    TapTransportBase,
    decoded_headers,
)


def _default_inner() -> httpx.AsyncHTTPTransport:
    """The transport that talks HTTP, verifying servers with the process's shared TLS context (``tls``)."""
    return httpx.AsyncHTTPTransport(verify=verifying_context())


class HttpxCredentialGuard(CredentialGuardBase[httpx.Request, httpx.Response], httpx.AsyncBaseTransport):
    """An ``httpx`` transport that refuses requests carrying credentials outside ``boundary``.

    Every hop goes through it (redirects included: the client follows them, the transport sends each),
    so a credential never leaves for an origin the user did not configure or approve.

    Args:
        boundary: The allowed origins and the connection's secret values.
        inner: The transport that really talks HTTP (default: ``_default_inner()``).
    """

    def __init__(self, boundary: CredentialBoundary, inner: httpx.AsyncBaseTransport | None = None) -> None:
        super().__init__(boundary, inner if inner is not None else _default_inner())


class HttpxTapTransport(TapTransportBase[httpx.Request, httpx.Response], httpx.AsyncBaseTransport):
    """An ``httpx`` transport that records every exchange with ``tap`` and bounds every response body.

    Args:
        tap: The recorder of this connection's HTTP layer (``None``: records nothing).
        inner: The transport that really talks HTTP (default: ``_default_inner()``).
        guard: The response size limits (``None``: none); a refused body raises its ``ProtocolError``.
    """

    _reset_errors = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)

    def __init__(
        self,
        tap: HTTPTap | None,
        inner: httpx.AsyncBaseTransport | None = None,
        *,
        guard: LimitGuard | None = None,
    ) -> None:
        super().__init__(tap, inner if inner is not None else _default_inner(), guard=guard)

    def _request_body(self, request: httpx.Request) -> bytes | None:
        try:
            return request.content
        except httpx.RequestNotRead:
            return None

    def _passed_on(
        self, request: httpx.Request, response: httpx.Response, watch: BodyWatch, decoding: Decoding
    ) -> httpx.Response:
        headers = decoded_headers(response.headers, decoding)
        return httpx.Response(
            response.status_code,
            headers=response.headers if headers is None else headers,
            stream=_Tee(response.stream, watch, decoding),
            extensions=response.extensions,
            request=request,
        )


class _Tee(BodyTeeBase, httpx.AsyncByteStream):
    """The body tee as an ``httpx`` stream."""

    _read_error = httpx.HTTPError

    def __init__(
        self, inner: httpx.SyncByteStream | httpx.AsyncByteStream, watch: BodyWatch, decoding: Decoding
    ) -> None:
        super().__init__(inner if isinstance(inner, httpx.AsyncByteStream) else None, watch, decoding)
