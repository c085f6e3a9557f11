"""A response's Content-Encoding undone in bounded pieces, so size limits count what a body decodes to.

A peer chooses how its body is compressed: a few KiB of gzip can inflate to gigabytes. The tap
transport (``transport.TapTransportBase``) therefore decodes every body itself with a
``BodyDecoder`` and passes it on decoded (its ``Content-Encoding`` header removed, so the client
does not decode it again); the size limits (``limits.BodyMeter``) count the decoded bytes, and
the wire log records them. No compressed input, however small, yields more than
``DECODED_PIECE_BYTES`` at a time (``zlib`` with ``max_length``), so memory stays bounded by the
limits, never by the compression ratio.

The client asks only for what is decoded here (``accepted_encodings`` rewrites a request's
``Accept-Encoding``): ``gzip`` (also ``x-gzip``) and ``deflate`` (zlib-wrapped, or raw as some
servers send it). Any other coding a peer sends anyway (``br``, ``zstd``, ``compress``, an unknown
one) is refused with a ``ProtocolError`` (``details["reason"] == "unsupported-encoding"``) before a
byte is read: it is neither passed on unmeasured nor guessed at. A body that is not valid for its
coding is refused the same way (``reason == "bad-encoding"``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from workbench.core.errors import ProtocolError
from workbench.core.http.limits import request_id_of
from workbench.core.http.status import public_url

DECODED_PIECE_BYTES = 64 * 1024
"""Most decoded bytes produced at a time from any compressed input."""

DECODED_CODINGS = ("gzip", "deflate")
"""The content codings decoded here, in the order a request's ``Accept-Encoding`` names them."""

_GZIP = ("gzip", "x-gzip")
_IDENTITY = ("", "identity")
_TOKEN = re.compile(r"[a-z0-9._+-]{1,32}")


def accepted_encodings(value: str) -> str:
    """A request's ``Accept-Encoding`` cut to the codings decoded here (``identity`` if none is left).

    Args:
        value: The header as the client would send it (``gzip, deflate, br, zstd``, with q-values or not).
    """
    kept = [item.strip() for item in value.split(",") if _coding(item.split(";")[0]) in (*DECODED_CODINGS, "identity")]
    return ", ".join(kept) if kept else "identity"


def _coding(token: str) -> str:
    token = token.strip().lower()
    return "gzip" if token in _GZIP else token


class _Zlib:
    """One zlib stream (gzip, zlib-wrapped or raw deflate, by ``wbits``), inflated in bounded pieces."""

    def __init__(self, wbits: int) -> None:
        self._inflate = zlib.decompressobj(wbits)

    def decode(self, data: bytes) -> Iterator[bytes]:
        inflate = self._inflate
        while not inflate.eof:  # bytes after the stream's end are ignored (as the HTTP clients do)
            piece = inflate.decompress(data, DECODED_PIECE_BYTES)
            if piece:
                yield piece
            data = inflate.unconsumed_tail
            if not data and len(piece) < DECODED_PIECE_BYTES:
                return  # all input used and the output not cut short: nothing is pending

    def flush(self) -> Iterator[bytes]:
        # decode() drained every piece it could, so what is left is at most a few bytes
        if rest := self._inflate.flush():
            yield rest


class _Deflate:
    """``deflate``: zlib-wrapped as the standard says, or raw as some servers send it (told by its first two bytes)."""

    def __init__(self) -> None:
        self._head = b""
        self._inner: _Zlib | None = None

    def decode(self, data: bytes) -> Iterator[bytes]:
        if self._inner is None:
            self._head += data
            if len(self._head) < 2:
                return
            data, self._head = self._head, b""
            wrapped = data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0  # RFC 1950 header check
            self._inner = _Zlib(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        yield from self._inner.decode(data)

    def flush(self) -> Iterator[bytes]:
        if self._inner is None and self._head:
            self._inner = _Zlib(-zlib.MAX_WBITS)
            yield from self._inner.decode(self._head)
        if self._inner is not None:
            yield from self._inner.flush()


_Stage = _Zlib | _Deflate


class BodyDecoder:
    """Undoes a response's content codings, innermost last, yielding at most ``DECODED_PIECE_BYTES`` at a time.

    Build one with ``for_response``; feed it the body as it arrives (``decode``), then ``flush`` at its end.

    Args:
        codings: The codings as the header lists them (applied in that order), each ``gzip`` or ``deflate``.
        url: The request's URL (for errors; its query is dropped).
        request_body: The request's body (an error names its JSON-RPC id, as a size-limit refusal does).
    """

    def __init__(self, codings: list[str], url: str, request_body: bytes | None = None) -> None:
        self.codings = tuple(codings)
        self._url = url
        self._request_body = request_body
        # Applied first, undone last: the stages run in the header's reverse order.
        self._stages: list[_Stage] = [
            _Zlib(zlib.MAX_WBITS | 16) if coding == "gzip" else _Deflate() for coding in reversed(codings)
        ]

    @classmethod
    def for_response(
        cls, content_encoding: str | None, url: str, request_body: bytes | None = None
    ) -> BodyDecoder | None:
        """The decoder for a response's ``Content-Encoding`` (``None``: the body is not encoded).

        Args:
            content_encoding: The response's ``Content-Encoding`` header, if any.
            url: The request's URL (for errors; its query is dropped).
            request_body: The request's body (an error names its JSON-RPC id).

        Raises:
            ProtocolError: A coding not decoded here (``details["reason"] == "unsupported-encoding"``).
        """
        codings = [_coding(token) for token in (content_encoding or "").split(",")]
        codings = [coding for coding in codings if coding not in _IDENTITY]
        unsupported = [coding for coding in codings if coding not in DECODED_CODINGS]
        if unsupported:
            where = public_url(url)
            named = [c if _TOKEN.fullmatch(c) else ascii(c)[:40] for c in unsupported[:3]]  # inert either way
            shown = ", ".join(named)
            details: dict[str, object] = {"reason": "unsupported-encoding", "encoding": named, "url": where}
            if (request_id := request_id_of(request_body)) is not None:
                details["request_id"] = request_id
            raise ProtocolError(
                f"{where} sent a body encoded as {shown}, which the workbench did not ask for and cannot "
                "measure; it was refused before it was read.",
                hint="the server should answer in a coding the request accepts (gzip, deflate or none)",
                details=details,
            )
        return cls(codings, url, request_body) if codings else None

    def decode(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of ``data`` (the next part of the body), each at most ``DECODED_PIECE_BYTES``.

        Raises:
            ProtocolError: The body is not valid for its coding (``details["reason"] == "bad-encoding"``).
        """
        return self._through(0, data)

    def flush(self) -> Iterator[bytes]:
        """The last decoded pieces, once the whole body arrived.

        Raises:
            ProtocolError: The body is not valid for its coding.
        """
        for index, stage in enumerate(self._stages):
            for piece in self._checked(stage.flush()):
                yield from self._through(index + 1, piece)

    def _through(self, index: int, data: bytes) -> Iterator[bytes]:
        """``data`` fed to stage ``index``, each piece it yields fed on to the next stage."""
        if index == len(self._stages):
            if data:
                yield data
            return
        for piece in self._checked(self._stages[index].decode(data)):
            yield from self._through(index + 1, piece)

    def _checked(self, pieces: Iterator[bytes]) -> Iterator[bytes]:
        try:
            yield from pieces
        except zlib.error as exc:
            raise self._bad(exc) from None

    def _bad(self, exc: zlib.error) -> ProtocolError:
        where = public_url(self._url)
        details: dict[str, object] = {"reason": "bad-encoding", "encoding": list(self.codings), "url": where}
        if (request_id := request_id_of(self._request_body)) is not None:
            details["request_id"] = request_id
        coding = " + ".join(self.codings)
        return ProtocolError(f"{where} sent a body that is not valid {coding} ({exc}).", details=details)
