"""The ``httpx2`` shim of the HTTP wire tap (the MCP SDK's client): ``httpx2`` classes over ``transport``.

The credential guard, the tapped and bounded exchange and the body tee live in
``workbench.core.http.transport``; this module names the ``httpx2`` classes they need.
``httpx_transport`` is the same shim for ``httpx`` (the A2A SDK's client). ``httpx2`` is a fork of
``httpx`` with the same transport interface but its own classes, so each client needs its own
subclasses. Bodies pass through decoded (a compressed one in bounded pieces), counted against the
connection's size limits (``workbench.core.http.limits``); a refused one raises ``Httpx2LimitError``.
"""

from __future__ import annotations

import httpx2

from workbench.core.errors import ProtocolError
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


def _default_inner() -> httpx2.AsyncHTTPTransport:
    """The transport that talks HTTP, verifying servers with the process's shared TLS context (``tls``)."""
    return httpx2.AsyncHTTPTransport(verify=verifying_context())


class Httpx2CredentialGuard(CredentialGuardBase[httpx2.Request, httpx2.Response], httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that refuses requests carrying credentials outside ``boundary``.

    The ``httpx2`` twin of ``httpx_transport.HttpxCredentialGuard``; every hop (redirects included)
    goes through it.

    Args:
        boundary: The allowed origins and the connection's secret values.
        inner: The transport that really talks HTTP (default: ``_default_inner()``).
    """

    def __init__(self, boundary: CredentialBoundary, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        super().__init__(boundary, inner if inner is not None else _default_inner())


class Httpx2LimitError(ProtocolError, httpx2.StreamError):
    """A response refused for a size limit, as the MCP SDK expects a failed body to look.

    The SDK answers the waiting request with an error when reading a body raises
    ``httpx2.StreamError`` (and keeps the connection); any other exception there would end the
    whole transport. It is a ``ProtocolError`` too, with the limit in its details.
    """


class Httpx2TapTransport(TapTransportBase[httpx2.Request, httpx2.Response], httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that records every exchange with ``tap`` and bounds every response body.

    Args:
        tap: The recorder of this connection's HTTP layer (``None``: records nothing).
        inner: The transport that really talks HTTP (default: ``_default_inner()``).
        guard: The response size limits (``None``: none); a refused body raises ``Httpx2LimitError``.
    """

    _reset_errors = (httpx2.ReadError, httpx2.WriteError, httpx2.RemoteProtocolError)

    def __init__(
        self,
        tap: HTTPTap | None,
        inner: httpx2.AsyncBaseTransport | None = None,
        *,
        guard: LimitGuard | None = None,
    ) -> None:
        super().__init__(tap, inner if inner is not None else _default_inner(), guard=guard)

    def _request_body(self, request: httpx2.Request) -> bytes | None:
        try:
            return request.content
        except httpx2.RequestNotRead:
            return None

    def _passed_on(
        self, request: httpx2.Request, response: httpx2.Response, watch: BodyWatch, decoding: Decoding
    ) -> httpx2.Response:
        headers = decoded_headers(response.headers, decoding)
        return httpx2.Response(
            response.status_code,
            headers=response.headers if headers is None else headers,
            stream=_Tee(response.stream, watch, decoding),
            extensions=response.extensions,
            request=request,
        )


class _Tee(BodyTeeBase, httpx2.AsyncByteStream):
    """The body tee as an ``httpx2`` stream; a refusal is raised as ``Httpx2LimitError``."""

    _refusal_type = Httpx2LimitError
    _read_error = httpx2.HTTPError

    def __init__(
        self, inner: httpx2.SyncByteStream | httpx2.AsyncByteStream, watch: BodyWatch, decoding: Decoding
    ) -> None:
        super().__init__(inner if isinstance(inner, httpx2.AsyncByteStream) else None, watch, decoding)

    def _raised(self, refusal: ProtocolError) -> Httpx2LimitError:
        return Httpx2LimitError(refusal.message, hint=refusal.hint, details=refusal.details)
