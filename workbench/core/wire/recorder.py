"""Wire recorder: transport taps become redacted ``WireRecord``s in a bounded ring buffer.

Taps call one method per observed unit (a JSON-RPC message, an HTTP request or response, an SSE
event, a stderr line, ...). The recorder redacts it (``Redactor``) before the record exists, gives it
a sequence number, correlates responses with their requests (latency, ``find_response``), keeps the
newest ``capacity`` records and tells subscribers. Storage, lookup and export live in
``workbench.core.wire.store``; JSON-RPC inspection in ``workbench.core.wire.parse``.

Threading: not thread-safe, by design. Every method must be called on the thread that runs the
event loop (under qasync: the Qt main thread), which is where transports deliver their traffic, so
no lock is taken on the hot path. Subscribers are called synchronously on that thread: keep them quick.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from workbench.core.timefmt import duration_text
from workbench.core.wire.parse import (
    INVALID,
    LARGE_TEXT,
    classify,
    compact_json,
    header,
    preview,
    scan_large,
    url_path,
    utf8_len,
)
from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.core.wire.redaction import Redactor
from workbench.core.wire.store import DEFAULT_MAX_CHARS, WireStore, make_record

__all__ = ["Redactor", "WireRecorder", "WireStore"]

Headers = Mapping[str, str] | Iterable[tuple[str, str]]

_ARROW = {Direction.OUT: "→", Direction.IN: "←", Direction.LOCAL: "·"}
_OPPOSITE = {Direction.OUT: Direction.IN, Direction.IN: Direction.OUT, Direction.LOCAL: Direction.LOCAL}
_JSONRPC, _HTTP_REQ, _HTTP_RESP, _SSE = (
    WireKind.JSONRPC,
    WireKind.HTTP_REQUEST,
    WireKind.HTTP_RESPONSE,
    WireKind.SSE_EVENT,
)
_wall, _mono = time.time, time.monotonic


class WireRecorder(WireStore):
    """Records wire traffic of every connection, redacted, in a ring buffer of ``capacity`` records.

    Args:
        capacity: Most records held; older ones are evicted and counted in ``dropped``.
        redactor: The redactor to apply (a fresh one by default); register secrets on it.
        max_chars: Most payload characters held; the oldest records are evicted past it.

    Raises:
        UsageError: ``capacity`` or ``max_chars`` is smaller than 1.
    """

    def __init__(
        self, capacity: int = 1_000_000, redactor: Redactor | None = None, *, max_chars: int = DEFAULT_MAX_CHARS
    ) -> None:
        super().__init__(capacity, max_chars)
        self.redactor: Redactor = redactor if redactor is not None else Redactor()

    # ---- JSON-RPC ----------------------------------------------------------------------------

    def jsonrpc(
        self, connection_id: str, direction: Direction, message: Mapping[str, Any] | str, *, protocol: str = "mcp"
    ) -> WireRecord:
        """Record one JSON-RPC message (or batch) as sent or received; never raises on bad input.

        Args:
            connection_id: The connection it travelled on.
            direction: ``OUT`` when the workbench sent it, ``IN`` when the peer did.
            message: The decoded message (serialized compactly here) or the JSON text as it travelled.
            protocol: ``mcp`` or ``a2a``.

        Returns:
            The record; a response carries ``latency_ms`` when its request was recorded.
        """
        mono = _mono()
        obj: Any
        if type(message) is dict:
            obj, text = message, compact_json(message)
        elif isinstance(message, str | bytes | bytearray):
            text = message if isinstance(message, str) else bytes(message).decode("utf-8", "replace")
            obj = scan_large(text) if len(text) > LARGE_TEXT else None
            if obj is None:
                try:
                    obj = json.loads(text)
                except (ValueError, RecursionError):
                    obj = INVALID
        else:
            try:
                obj = message if isinstance(message, dict | list) else dict(message)
                text = compact_json(obj)
            except (TypeError, ValueError):  # not a mapping after all: keep what it says it is
                obj, text = INVALID, repr(message)
        size = utf8_len(text)
        kind, method, rid, detail = ("invalid", None, None, "") if obj is INVALID else classify(obj)
        rpc_id = None if rid is None else (rid if isinstance(rid, str) else str(rid))
        cid = self._intern(connection_id)
        red = self.redactor
        if red.has_secrets:
            text, detail = red.text(text), red.text(detail)
            method = None if method is None else red.text(method)
            rpc_id = None if rpc_id is None else red.text(rpc_id)
        if method is not None:
            method = self._intern(method)
        arrow = _ARROW[direction]
        latency: float | None = None
        request: WireRecord | None = None
        opens: list[str] = []  # ids of the requests this record opens
        if kind == "request":
            opens.append(rpc_id)  # type: ignore[arg-type]
            summary = f"{arrow} {method} #{rpc_id} {detail}" if detail else f"{arrow} {method} #{rpc_id}"
        elif kind == "notification":
            summary = f"{arrow} {method}"
        elif kind == "response" or kind == "error":
            if rpc_id is not None:
                request = self._pending.pop((cid, _OPPOSITE[direction], rpc_id), None)
            word = "result" if kind == "response" else f"error {detail}" if detail else "error"
            summary = f"{arrow} {word} #{rpc_id}" if rpc_id is not None else f"{arrow} {word}"
        elif kind == "batch":
            request = self._batch(cid, direction, obj, opens)
            summary = f"{arrow} batch of {len(obj)}"
        elif kind == "invalid":
            summary = f"{arrow} invalid JSON ({size} B)"
        else:
            summary = f"{arrow} JSON, not JSON-RPC ({size} B)"
        if request is not None:
            latency = (mono - request.mono_time) * 1000.0
            summary = f"{summary} ({duration_text(latency / 1000)})"
        seq = self._take_seq()
        record = make_record(
            seq, cid, direction, _JSONRPC, _wall(), mono, method, rpc_id, latency, size, text, None, protocol, summary
        )
        if opens:
            pending = self._pending
            for opened in opens:
                pending[(cid, direction, opened)] = record
            while len(pending) > self._cap:  # unanswered batch requests are not cleaned on eviction
                del pending[next(iter(pending))]
        if request is not None:
            self._pair(request, seq)
        return self._add(record)

    def _batch(self, cid: str, direction: Direction, items: list[Any], opens: list[str]) -> WireRecord | None:
        """Collect a batch's request ids into ``opens`` and match its responses; return the first match."""
        first: WireRecord | None = None
        red = self.redactor
        for item in items:
            kind, _method, rid, _detail = classify(item)
            if rid is None:
                continue
            rpc_id = red.text(rid if isinstance(rid, str) else str(rid))
            if kind == "request":
                opens.append(rpc_id)
            elif kind in ("response", "error"):
                found = self._pending.pop((cid, _OPPOSITE[direction], rpc_id), None)
                first = first or found
        return first

    # ---- HTTP, SSE, stdio --------------------------------------------------------------------

    def _body(self, body: bytes | str | None, headers: dict[str, str]) -> tuple[str, int]:
        if body is None:
            return "", 0
        if isinstance(body, bytes | bytearray | memoryview):
            raw = bytes(body)
            text, size = raw.decode("utf-8", "replace"), len(raw)
        else:
            text, size = body, utf8_len(body)
        return self.redactor.body(text, header(headers, "content-type") or ""), size

    def http_request(
        self,
        connection_id: str,
        method: str,
        url: str,
        headers: Headers,
        body: bytes | str | None = None,
        *,
        protocol: str = "",
    ) -> WireRecord:
        """Record an HTTP request the workbench sent (headers, URL and body redacted).

        Returns:
            The record; pass it to ``http_response`` and ``sse_event`` for latency and pairing.
        """
        mono = _mono()
        red = self.redactor
        safe_headers = red.headers(headers)  # first: learns credentials before the URL and body
        safe_url = red.url(url)
        text, size = self._body(body, safe_headers)
        method = self._intern(method.upper())
        http = {
            "method": method,
            "url": safe_url,
            "headers": safe_headers,
            "session_id": header(safe_headers, "mcp-session-id"),
        }
        record = make_record(
            self._take_seq(), self._intern(connection_id), Direction.OUT, _HTTP_REQ, _wall(), mono,
            method, None, None, size, text, http, protocol, f"{method} {url_path(safe_url)}",
        )  # fmt: skip
        return self._add(record)

    def http_response(
        self,
        connection_id: str,
        request: WireRecord | None,
        status: int,
        headers: Headers,
        body: bytes | str | None = None,
        *,
        protocol: str = "",
    ) -> WireRecord:
        """Record the status, headers and (non-streamed) body of an HTTP response.

        Args:
            connection_id: The connection it belongs to.
            request: The ``http_request`` record it answers (None when unknown).
            status: HTTP status code.
            headers: Response headers (redacted here).
            body: The body when read whole; SSE streams are recorded event by event instead.
            protocol: ``mcp`` or ``a2a`` (defaults to the request's).
        """
        mono = _mono()
        safe_headers = self.redactor.headers(headers)
        text, size = self._body(body, safe_headers)
        req_http = request.http if request is not None and request.http is not None else {}
        method, url = req_http.get("method"), req_http.get("url", "")
        latency = None if request is None else (mono - request.mono_time) * 1000.0
        http = {
            "url": url,
            "method": method,
            "status": status,
            "headers": safe_headers,
            "session_id": header(safe_headers, "mcp-session-id") or req_http.get("session_id"),
            "request_seq": None if request is None else request.seq,
        }
        summary = f"{method or 'HTTP'} {url_path(url)} {status}"
        if latency is not None:
            summary = f"{summary} ({duration_text(latency / 1000)})"
        seq = self._take_seq()
        record = make_record(
            seq, self._intern(connection_id), Direction.IN, _HTTP_RESP, _wall(), mono, method, None, latency,
            size, text, http, protocol or (request.protocol if request is not None else ""), summary,
        )  # fmt: skip
        if request is not None:
            self._pair(request, seq)
        return self._add(record)

    def sse_event(
        self,
        connection_id: str,
        data: str,
        *,
        event: str | None = None,
        event_id: str | None = None,
        comment: bool = False,
        request: WireRecord | None = None,
        protocol: str = "",
    ) -> WireRecord:
        """Record one server-sent event (or keep-alive comment) as it arrived.

        Args:
            connection_id: The connection it belongs to.
            data: The event's data lines joined by newlines (the comment text for a comment).
            event: The event name (``message`` when the stream gave none).
            event_id: The event's ``id:`` field, if any.
            comment: True for a ``:`` comment line (keep-alive).
            request: The ``http_request`` record whose response stream carried it.
            protocol: ``mcp`` or ``a2a`` (defaults to the request's).
        """
        mono = _mono()
        red = self.redactor
        size = utf8_len(data)
        text = red.text(data)
        name = None if comment else self._intern(red.text(event or "message"))
        safe_id = None if event_id is None else red.text(event_id)
        http: dict[str, Any] | None = None
        if request is not None or safe_id is not None or comment:
            http = {"request_seq": None if request is None else request.seq, "event_id": safe_id, "comment": comment}
        # a keep-alive's time since the stream opened grows forever and measures nothing
        latency = None if request is None or comment else (mono - request.mono_time) * 1000.0
        if comment:
            summary = f"← sse comment: {preview(text)}"
        else:
            summary = f"← sse {name}{f' id={safe_id}' if safe_id else ''}: {preview(text)}"
        record = make_record(
            self._take_seq(), self._intern(connection_id), Direction.IN, _SSE, _wall(), mono, name, None, latency,
            size, text, http, protocol or (request.protocol if request is not None else ""), summary,
        )  # fmt: skip
        return self._add(record)

    def stderr_line(self, connection_id: str, line: str) -> WireRecord:
        """Record one line a stdio server wrote to its stderr (trailing newline removed)."""
        return self._plain(connection_id, Direction.LOCAL, WireKind.STDERR, line.rstrip("\r\n"), "stderr: ", "")

    def raw(
        self, connection_id: str, direction: Direction, text: str, *, note: str = "", protocol: str = ""
    ) -> WireRecord:
        """Record text that travelled but is not a protocol message (e.g. garbage on a stdio stdout)."""
        prefix = f"{_ARROW[direction]} raw ({note}): " if note else f"{_ARROW[direction]} raw: "
        return self._plain(connection_id, direction, WireKind.RAW, text, prefix, protocol)

    def local(
        self, connection_id: str, kind: WireKind, summary: str, payload: str = "", *, protocol: str = ""
    ) -> WireRecord:
        """Record a local observation: process started or exited, transport error, ..."""
        return self._plain(connection_id, Direction.LOCAL, kind, payload, summary, protocol, whole_summary=True)

    def _plain(
        self,
        connection_id: str,
        direction: Direction,
        kind: WireKind,
        text: str,
        prefix: str,
        protocol: str,
        *,
        whole_summary: bool = False,
    ) -> WireRecord:
        red = self.redactor
        safe = red.text(text)
        summary = red.text(prefix) if whole_summary else red.text(prefix) + preview(safe, 200)
        record = make_record(
            self._take_seq(), self._intern(connection_id), direction, kind, _wall(), _mono(), None, None, None,
            utf8_len(text), safe, None, protocol, summary,
        )  # fmt: skip
        return self._add(record)
