"""Liberal in what the A2A client accepts: payloads real agents send, made parseable before the SDK reads them.

The A2A SDK parses JSON into protobuf, which takes a ``google.protobuf.Timestamp`` only in RFC 3339
with a time zone. Real agents differ: fasta2a (pydantic-ai) sends ``datetime.now().isoformat()``,
``2026-11-24T23:47:56.203316`` with no zone, and the parse fails with a misleading excerpt
(``'2026-11'``). ``NormalisingTransport`` sits between the SDK and the wire tap, so the wire log
keeps every payload exactly as the agent sent it while the SDK reads the repaired one. In a task
status (``{"status": {"timestamp": ...}}`` anywhere in a JSON-RPC or HTTP+JSON payload):

- a timestamp without a zone is read as UTC (``Z`` appended); ``z`` becomes ``Z``;
- a space between date and time becomes ``T``; more than 9 fractional digits are cut to 9.

Nothing else is touched (a data part's own ``timestamp`` stays as the agent wrote it), and a
payload whose timestamps are all valid is passed on byte for byte without being parsed. A
timestamp that cannot be repaired (``"yesterday"``) is left as it is and remembered, so the parse
error that follows can name the field and the value the agent sent (``Unreadable``). SSE bodies
are repaired line by line (each ``data:`` line one JSON document) and passed on as each line
completes; a JSON body is repaired whole when it is at most ``MAX_REPAIRED_BYTES`` (a larger
one is passed on as it arrives, unrepaired, so a huge body is never held twice). A request
carrying the ``VERBATIM`` extension (the agent-card fetch, which bounds its own read and checks
``Content-Length``) gets the response exactly as it came.

The transport also shows each JSON document holding a data part (a JSON body, an SSE event's
``data:`` line) to an observer before the SDK reads it: ``json_order.DataOrder`` keeps the key order
the agent wrote, which the SDK's protobuf ``Struct`` loses. A gzip or deflate JSON body is passed
on as it came and observed decompressed once whole (up to ``MAX_REPAIRED_BYTES`` either way).
"""

from __future__ import annotations

import json
import re
import zlib
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx

_KEY = b'"timestamp"'
_ANY_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"((?:[^"\\]|\\.){0,200})"')
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})")
_REPAIRABLE = re.compile(r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})?")
MAX_REMEMBERED = 8
"""Unreadable values kept per connection (the newest; one is enough to name in an error)."""
MAX_REPAIRED_BYTES = 8 * 1024 * 1024
"""Largest JSON body held whole to be repaired; larger ones pass unrepaired as they arrive."""
VERBATIM = "workbench.verbatim"
"""Request extension: set (to ``True``) on a request whose response must not be touched."""
MAX_DEPTH = 64
"""Deepest JSON nesting searched for task statuses (A2A payloads are a few levels deep)."""
_DATA_KEY = b'"data"'
_COMPRESSED = ("gzip", "x-gzip", "deflate")

Observer = Callable[[bytes], None]
"""Sees each JSON document that may hold a data part (its bytes as the agent sent them)."""


class Unreadable:
    """Values an agent sent that could not be repaired, newest last, by field name."""

    def __init__(self) -> None:
        self._values: deque[tuple[str, str]] = deque(maxlen=MAX_REMEMBERED)

    def add(self, field: str, value: str) -> None:
        """Remember ``value`` of ``field``."""
        self._values.append((field, value))

    def last(self, field: str) -> str | None:
        """The newest unreadable value of ``field``, if any."""
        for name, value in reversed(self._values):
            if name == field:
                return value
        return None


def repair_timestamp(value: str) -> str | None:
    """``value`` in RFC 3339 with a zone (see the module docstring), or ``None`` if it cannot be."""
    if _RFC3339.fullmatch(value):
        return value
    match = _REPAIRABLE.fullmatch(value)
    if match is None:
        return None
    date, time, fraction, zone = match.groups()
    fraction = "." + fraction[:9] if fraction else ""
    zone = "Z" if zone is None or zone in ("z", "Z") else zone
    return f"{date}T{time}{fraction}{zone}"


def _needs_repair(data: bytes) -> bool:
    return _KEY in data and any(
        not _RFC3339.fullmatch(m.group(1).decode("utf-8", "replace")) for m in _ANY_TIMESTAMP.finditer(data)
    )


def _repair_statuses(doc: Any, unreadable: Unreadable | None) -> bool:
    """Repair every ``status.timestamp`` in ``doc`` in place; whether anything changed."""
    changed = False
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(node, dict):
            status = node.get("status")
            if isinstance(status, dict) and isinstance(stamp := status.get("timestamp"), str):
                fixed = repair_timestamp(stamp)
                if fixed is None:
                    if unreadable is not None:
                        unreadable.add("timestamp", stamp[:200])
                elif fixed != stamp:
                    status["timestamp"] = fixed
                    changed = True
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, dict | list))
    return changed


def _repair_document(text: bytes, unreadable: Unreadable | None) -> bytes | None:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None  # not JSON after all: the SDK says so itself
    if not _repair_statuses(doc, unreadable):
        return None
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def normalise_json(data: bytes, unreadable: Unreadable | None = None) -> bytes:
    """A JSON document with its task statuses' timestamps repaired (``data`` itself if none needed it)."""
    if not _needs_repair(data):
        return data
    return _repair_document(data, unreadable) or data


def normalise_sse(data: bytes, unreadable: Unreadable | None = None) -> bytes:
    """Complete SSE lines with each ``data:`` line's task-status timestamps repaired."""
    if not _needs_repair(data):
        return data
    out, changed = [], False
    for line in data.splitlines(keepends=True):
        if line.startswith(b"data:") and _needs_repair(line):
            body = line[5:]
            ending = body[len(body.rstrip(b"\r\n")) :]
            repaired = _repair_document(body.strip(), unreadable)
            if repaired is not None:
                line, changed = b"data: " + repaired + ending, True
        out.append(line)
    return b"".join(out) if changed else data


def _last_break(chunk: bytes) -> int:
    return max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))


def _observe_sse(lines: bytes, observe: Observer) -> None:
    """Show ``observe`` each complete ``data:`` line of ``lines`` that may hold a data part."""
    if _DATA_KEY not in lines:
        return
    for line in lines.splitlines():
        if line.startswith(b"data:") and _DATA_KEY in line:
            observe(line[5:].strip())


class _SSEStream(httpx.AsyncByteStream):
    """An SSE body passed on as each line completes, its ``data:`` lines observed and repaired."""

    def __init__(self, inner: httpx.AsyncByteStream, unreadable: Unreadable, observe: Observer | None) -> None:
        self._inner = inner
        self._unreadable = unreadable
        self._observe = observe

    async def __aiter__(self) -> AsyncIterator[bytes]:
        held: list[bytes] = []  # the start of a line whose end has not arrived yet
        unreadable, observe = self._unreadable, self._observe
        async for chunk in self._inner:
            cut = _last_break(chunk)
            if cut < 0:
                if chunk:
                    held.append(chunk)
                continue
            if held:
                held.append(chunk[: cut + 1])
                head = b"".join(held)
                held.clear()
            else:
                head = chunk if cut == len(chunk) - 1 else chunk[: cut + 1]
            if cut < len(chunk) - 1:
                held.append(chunk[cut + 1 :])
            if observe is not None:
                _observe_sse(head, observe)
            yield normalise_sse(head, unreadable)
        if held:
            rest = b"".join(held)
            if observe is not None:
                _observe_sse(rest, observe)
            yield normalise_sse(rest, unreadable)

    async def aclose(self) -> None:
        """Close the wrapped stream."""
        await self._inner.aclose()


class _JSONStream(httpx.AsyncByteStream):
    """A JSON body passed on whole once it has arrived, repaired (the SDK reads it whole anyway).

    A body over ``MAX_REPAIRED_BYTES`` is passed on unrepaired (and unobserved) as it arrives.
    """

    def __init__(self, inner: httpx.AsyncByteStream, unreadable: Unreadable, observe: Observer | None) -> None:
        self._inner = inner
        self._unreadable = unreadable
        self._observe = observe

    async def __aiter__(self) -> AsyncIterator[bytes]:
        held: list[bytes] = []
        size = 0
        chunks = self._inner.__aiter__()
        async for chunk in chunks:
            held.append(chunk)
            size += len(chunk)
            if size > MAX_REPAIRED_BYTES:
                break
        else:
            body = b"".join(held)
            if self._observe is not None and _DATA_KEY in body:
                self._observe(body)
            if body:
                yield normalise_json(body, self._unreadable)
            return
        for chunk in held:  # too large to hold for repair: passed on as it came
            yield chunk
        held.clear()
        async for chunk in chunks:
            yield chunk

    async def aclose(self) -> None:
        """Close the wrapped stream."""
        await self._inner.aclose()


def _decompressed(data: bytes, encoding: str) -> bytes | None:
    """``data`` decompressed, or ``None`` when it is not ``encoding`` or decompresses past ``MAX_REPAIRED_BYTES``."""
    # "deflate" is meant to be zlib-wrapped; some servers send it raw.
    for wbits in (zlib.MAX_WBITS | 16,) if "gzip" in encoding else (zlib.MAX_WBITS, -zlib.MAX_WBITS):
        decoder = zlib.decompressobj(wbits)
        try:
            out = decoder.decompress(data, MAX_REPAIRED_BYTES)
        except zlib.error:
            continue
        return None if decoder.unconsumed_tail else out
    return None


class _CompressedJSONStream(httpx.AsyncByteStream):
    """A compressed JSON body passed on as it arrives; a copy is observed, decompressed, once it is whole."""

    def __init__(self, inner: httpx.AsyncByteStream, encoding: str, observe: Observer) -> None:
        self._inner = inner
        self._encoding = encoding
        self._observe = observe

    async def __aiter__(self) -> AsyncIterator[bytes]:
        held: list[bytes] | None = []
        size = 0
        async for chunk in self._inner:
            if held is not None:
                size += len(chunk)
                if size > MAX_REPAIRED_BYTES:
                    held = None  # too large to hold a copy of: passed on unobserved
                else:
                    held.append(chunk)
            yield chunk
        # Runs when the reader asks past the last chunk, so before the SDK parses the body.
        body = _decompressed(b"".join(held), self._encoding) if held else None
        if body is not None and _DATA_KEY in body:
            self._observe(body)

    async def aclose(self) -> None:
        """Close the wrapped stream."""
        await self._inner.aclose()


class NormalisingTransport(httpx.AsyncBaseTransport):
    """Wraps the (tapped) transport: JSON and SSE response bodies reach the SDK with repaired timestamps.

    Args:
        inner: The transport below (the wire tap, which records the bodies as they were sent).
        unreadable: Where to remember values that could not be repaired (default: a new one).
        observe: Shown each JSON document that may hold a data part, before the SDK reads it.
    """

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        unreadable: Unreadable | None = None,
        observe: Observer | None = None,
    ) -> None:
        self._inner = inner
        self._observe = observe
        self.unreadable = unreadable if unreadable is not None else Unreadable()
        """Timestamps this connection's agent sent that could not be repaired."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; a JSON or SSE response's body is repaired on its way to the SDK."""
        response = await self._inner.handle_async_request(request)
        if request.extensions.get(VERBATIM):
            return response
        content_type = response.headers.get("content-type", "").lower()
        encoding = response.headers.get("content-encoding", "identity").lower()
        stream = response.stream
        if not isinstance(stream, httpx.AsyncByteStream):
            return response
        if encoding not in ("", "identity"):  # compressed bodies are passed on as they are
            if self._observe is None or "json" not in content_type or encoding not in _COMPRESSED:
                return response
            wrapped: httpx.AsyncByteStream = _CompressedJSONStream(stream, encoding, self._observe)
            return httpx.Response(
                response.status_code,
                headers=response.headers.raw,
                stream=wrapped,
                extensions=response.extensions,
                request=request,
            )
        if "event-stream" in content_type:
            wrapped = _SSEStream(stream, self.unreadable, self._observe)
        elif "json" in content_type:
            wrapped = _JSONStream(stream, self.unreadable, self._observe)
        else:
            return response
        headers = [(k, v) for k, v in response.headers.raw if k.lower() != b"content-length"]  # lengths may change
        return httpx.Response(
            response.status_code, headers=headers, stream=wrapped, extensions=response.extensions, request=request
        )

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self._inner.aclose()
