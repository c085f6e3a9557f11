"""How wire records read in the wire log: cell texts, error rows, the detail pane's info and payload."""

from __future__ import annotations

import json

from workbench.core.safe_text import escape_json_text, neutralise
from workbench.core.timefmt import duration_text, time_of_day
from workbench.core.wire.records import Direction, WireKind, WireRecord

ARROWS = {Direction.OUT: "→", Direction.IN: "←", Direction.LOCAL: "·"}
DIRECTION_LABELS = {Direction.OUT: "→ sent", Direction.IN: "← received", Direction.LOCAL: "· local"}
PRETTY_LIMIT = 1_000_000
"""Payloads above this many characters are shown as sent, not re-indented (PayloadView cuts them)."""

_J = WireKind.JSONRPC


def latency_text(ms: float | None) -> str:
    """A latency in milliseconds as every panel writes a duration (``timefmt.duration_text``), or empty when unknown."""
    return "" if ms is None else duration_text(ms / 1000)


def size_text(size: int) -> str:
    """Bytes in a short human unit (``218 B``, ``4.1 KB``, ``12.0 MB``)."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def is_error(record: WireRecord) -> bool:
    """Whether the row reads as a failure: JSON-RPC error, HTTP status >= 400, fault, raw text, failed login step."""
    kind = record.kind
    if kind is _J:
        return record.summary[2:7] == "error"
    if kind is WireKind.AUTH_STEP:
        return ": ✗ failed" in record.summary
    if kind is WireKind.HTTP_RESPONSE:
        status = (record.http or {}).get("status")
        return isinstance(status, int) and status >= 400
    return kind is WireKind.ERROR or kind is WireKind.RAW


def is_keepalive(record: WireRecord) -> bool:
    """Whether the record is an SSE comment line (a server's keep-alive, not a message)."""
    return record.kind is WireKind.SSE_EVENT and bool((record.http or {}).get("comment"))


def haystack(record: WireRecord) -> str:
    """The text the filter searches (not lowered): the payload, plus summary and URL for non-JSON-RPC.

    A JSON-RPC record's summary repeats what its payload says (method, id, tool name), so only the
    payload is searched; HTTP, SSE and local records add their summary line and URL.
    """
    if record.kind is _J:
        return record.payload
    url = (record.http or {}).get("url") or ""
    return f"{record.summary}\n{url}\n{record.payload}"


def correlation(record: WireRecord) -> str:
    """The ids that tie the record to others: JSON-RPC id, MCP session, request seq, SSE event id."""
    parts = []
    if record.rpc_id is not None:
        parts.append(f"JSON-RPC id {record.rpc_id}")
    http = record.http or {}
    if http.get("session_id"):
        parts.append(f"session {http['session_id']}")
    if http.get("request_seq") is not None:
        what = "keep-alive on the stream of request" if http.get("comment") else "request"
        parts.append(f"{what} #{http['request_seq']}")
    if http.get("event_id") is not None:
        parts.append(f"event id {http['event_id']}")
    return ", ".join(parts)


def info_text(record: WireRecord, connection_name: str, partner: WireRecord | None) -> str:
    """The detail pane's description: timing, correlation, HTTP line and (redacted) headers.

    A peer's text in it (method, summary, URL, headers, ids) is shown through the cleaner: invisible
    and control characters as escapes.
    """
    lines = [
        f"#{record.seq}  {time_of_day(record.wall_time)}  {DIRECTION_LABELS[record.direction]}  {record.kind.value}",
        f"Connection: {connection_name}"
        + (f" ({record.connection_id})" if connection_name != record.connection_id else ""),
    ]
    if record.protocol:
        lines.append(f"Protocol: {record.protocol}")
    if record.method:
        lines.append(f"Method: {record.method}")
    corr = correlation(record)
    if corr:
        lines.append(f"Correlation: {corr}")
    if record.latency_ms is not None:
        lines.append(f"Latency: {duration_text(record.latency_ms / 1000)}")
    if partner is not None:
        delta = duration_text(abs(partner.mono_time - record.mono_time))
        later = partner.seq > record.seq
        role, when = ("response", f"{delta} later") if later else ("request", f"{delta} earlier")
        lines.append(f"Paired {role}: #{partner.seq} ({when})")
    lines.append(f"Size: {size_text(record.size)} ({record.size} bytes)")
    lines.append(f"Summary: {record.summary}")
    http = record.http
    if http and record.kind in (WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE):
        lines.append("")
        if record.kind is WireKind.HTTP_REQUEST:
            lines.append(f"{http.get('method') or record.method} {http.get('url', '')}")
        else:
            lines.append(f"HTTP {http.get('status')}  ({http.get('method') or ''} {http.get('url', '')})")
        for name, value in (http.get("headers") or {}).items():
            lines.append(f"{name}: {value}")
    return neutralise("\n".join(lines))


def pretty_payload(record: WireRecord) -> str:
    r"""The payload re-indented when it is JSON of at most ``PRETTY_LIMIT`` characters, else as sent.

    Re-indented JSON writes invisible and format characters as ``\uXXXX`` escapes: still JSON, the same value.
    """
    text = record.payload
    if not text or len(text) > PRETTY_LIMIT or text.lstrip()[:1] not in ("{", "["):
        return text
    try:
        return escape_json_text(json.dumps(json.loads(text), indent=2, ensure_ascii=False))
    except (ValueError, RecursionError):
        return text
