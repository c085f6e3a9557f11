"""Export of wire records: JSON Lines (every record) and HAR 1.2 (the HTTP exchanges)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, TextIO
from urllib.parse import parse_qsl, urlsplit

import workbench
from workbench.core.wire.records import WireKind, WireRecord

Target = str | os.PathLike[str] | TextIO


@contextmanager
def _opened(target: Target) -> Iterator[TextIO]:
    """Yield a text stream for ``target``: an open stream as is, or a path opened for writing."""
    if isinstance(target, str | os.PathLike):
        with open(target, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
    else:
        yield target


def write_jsonl(records: Iterable[WireRecord], target: Target) -> int:
    """Write one ``WireRecord.to_dict()`` per line to ``target``; returns the number of lines."""
    count = 0
    with _opened(target) as out:
        for record in records:
            out.write(json.dumps(record.to_dict(), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
            count += 1
    return count


def _iso(wall: float) -> str:
    return datetime.fromtimestamp(wall, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _pairs(headers: dict[str, str] | None) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in (headers or {}).items()]


def _header(headers: dict[str, str] | None, name: str) -> str:
    return next((v for k, v in (headers or {}).items() if k.lower() == name), "")


def _sse_text(events: list[WireRecord]) -> str:
    """Render recorded SSE events back into ``text/event-stream`` form."""
    chunks = []
    for ev in events:
        meta = ev.http or {}
        if meta.get("comment"):
            chunks.append(f": {ev.payload}\n\n")
            continue
        lines = [] if ev.method in (None, "message") else [f"event: {ev.method}"]
        if meta.get("event_id") is not None:
            lines.append(f"id: {meta['event_id']}")
        lines.extend(f"data: {line}" for line in ev.payload.split("\n"))
        chunks.append("\n".join(lines) + "\n\n")
    return "".join(chunks)


def _status_text(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _entry(request: WireRecord | None, response: WireRecord | None, events: list[WireRecord]) -> dict[str, Any]:
    """Build one HAR entry; ``request`` or ``response`` may be missing (evicted or never came)."""
    first = request or response
    assert first is not None
    req_http = (request.http if request else None) or {}
    resp_http = (response.http if response else None) or {}
    url = req_http.get("url") or resp_http.get("url") or ""
    req_headers = req_http.get("headers")
    har_request: dict[str, Any] = {
        "method": req_http.get("method") or resp_http.get("method") or "GET",
        "url": url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": _pairs(req_headers),
        "queryString": [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)],
        "headersSize": -1,
        "bodySize": request.size if request else -1,
    }
    if request is not None and request.payload:
        har_request["postData"] = {"mimeType": _header(req_headers, "content-type"), "text": request.payload}
    resp_headers = resp_http.get("headers")
    text = (response.payload if response else "") + _sse_text(events)
    body_size = (response.size if response else 0) + sum(ev.size for ev in events)
    wait = response.latency_ms if response is not None and response.latency_ms is not None else 0.0
    receive = 0.0
    if events and response is not None:
        receive = max(0.0, (events[-1].mono_time - response.mono_time) * 1000.0)
    status = resp_http.get("status") or 0
    entry: dict[str, Any] = {
        "startedDateTime": _iso(first.wall_time),
        "time": wait + receive,
        "request": har_request,
        "response": {
            "status": status,
            "statusText": _status_text(status),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": _pairs(resp_headers),
            "content": {
                "size": body_size,
                "mimeType": _header(resp_headers, "content-type") or "x-unknown",
                "text": text,
            },
            "redirectURL": _header(resp_headers, "location"),
            "headersSize": -1,
            "bodySize": body_size if response else -1,
        },
        "cache": {},
        "timings": {"send": 0.0, "wait": wait, "receive": receive},
        "_connectionId": first.connection_id,
        "_protocol": first.protocol,
        "_requestSeq": request.seq if request else None,
        "_sessionId": resp_http.get("session_id") or req_http.get("session_id"),
    }
    if response is None:
        entry["comment"] = "no response recorded"
    return entry


def har_log(records: Iterable[WireRecord]) -> dict[str, Any]:
    """Return a HAR 1.2 document for the HTTP records among ``records`` (in the given order).

    A request is paired with the response that names it (``http["request_seq"]``); SSE events that
    name the request are folded into the response's content text, in arrival order.
    """
    order: list[int] = []  # request seqs, plus negative seqs of orphan responses
    requests: dict[int, WireRecord] = {}
    responses: dict[int, WireRecord] = {}
    orphans: dict[int, WireRecord] = {}  # responses whose request is not among the records
    events: dict[int, list[WireRecord]] = {}
    for rec in records:
        req_seq = (rec.http or {}).get("request_seq")
        if rec.kind is WireKind.HTTP_REQUEST:
            requests[rec.seq] = rec
            order.append(rec.seq)
        elif rec.kind is WireKind.HTTP_RESPONSE:
            if req_seq in requests:
                responses[req_seq] = rec
            else:
                orphans[rec.seq] = rec
                order.append(-rec.seq)
        elif rec.kind is WireKind.SSE_EVENT and req_seq is not None:
            events.setdefault(req_seq, []).append(rec)
    entries = []
    for key in order:
        if key > 0:
            entries.append(_entry(requests[key], responses.get(key), events.get(key, [])))
        else:
            orphan = orphans[-key]
            entries.append(_entry(None, orphan, events.get((orphan.http or {}).get("request_seq", 0), [])))
    creator = {"name": "Agent Workbench", "version": workbench.__version__}
    return {"log": {"version": "1.2", "creator": creator, "pages": [], "entries": entries}}


def write_har(records: Iterable[WireRecord], target: Target) -> int:
    """Write a HAR 1.2 log of the HTTP records to ``target``; returns the number of entries."""
    doc = har_log(records)
    with _opened(target) as out:
        json.dump(doc, out, ensure_ascii=False, indent=1)
        out.write("\n")
    return len(doc["log"]["entries"])
