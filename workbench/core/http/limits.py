"""Response size limits of the shared HTTP layer: one message, one response stream.

A peer is untrusted, so no response is read without a bound. ``HTTPLimits`` holds two, both
configurable per profile (``None`` turns one off):

- ``max_message_bytes`` (default 64 MiB): one response body (JSON) or one server-sent event. A
  body whose ``Content-Length`` is larger is refused from its headers, before a byte of it is read;
  a body without one is counted as it arrives and refused the moment it passes the limit. An event
  is counted from its first byte to its blank line. The same limit for both, because a server may
  send the same result either way.
- ``max_stream_bytes`` (default 128 MiB): everything one event stream that answers one request
  carries (a tool call's progress, log messages and result; an A2A task's stream). A stream that
  never ends — or never delivers its answer — stops there, even when no request timeout is set.
  Streams that listen for as long as the connection lives (MCP's GET stream, a 2026
  ``subscriptions/listen``) are exempt; only the message limit applies to them. The legacy SSE
  session stream carries every request's answer: there the limit applies to what arrives while a
  request waits for its answer (``session_budget.SessionBudget``).

Both count decoded bytes: the tap transport decodes a compressed body in bounded pieces before the
meter sees it (``decoding``), so a small gzip bomb is refused after the limit's worth of what it
inflates to; an encoded body's ``Content-Length`` (its compressed size) is not used.

``BodyMeter`` counts one response body; the tap transport's body tee (``transport``, shared by
``httpx_transport`` and ``httpx2_transport``) asks it about every chunk and stops reading when it
refuses. The refusal is a ``ProtocolError`` whose details name the limit (``limit``, ``limit_bytes``,
``received_bytes``) and, when known, the JSON-RPC id of the request whose answer it was
(``request_id``): the adapter reports it against that request, not against whichever request failed
at the time.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from workbench.core.errors import ConfigError, ProtocolError
from workbench.core.http.status import public_url

MIB = 1024 * 1024
DEFAULT_MAX_MESSAGE_BYTES = 64 * MIB
"""One response body or one SSE event (as the stdio transport's 64 Mi-character line limit)."""
DEFAULT_MAX_STREAM_BYTES = 128 * MIB
"""Everything one request's event stream carries (room for a largest message and as much again)."""
RECORD_PREVIEW_BYTES = 1 * MIB
"""How much of a refused body or event the wire log keeps."""


@dataclass(frozen=True, slots=True)
class HTTPLimits:
    """How much a peer may send in answer to one request.

    Attributes:
        max_message_bytes: Most bytes of one response body or one SSE event (``None``: no limit).
        max_stream_bytes: Most bytes of one event stream that answers a request (``None``: no limit).
    """

    max_message_bytes: int | None = DEFAULT_MAX_MESSAGE_BYTES
    max_stream_bytes: int | None = DEFAULT_MAX_STREAM_BYTES

    def __post_init__(self) -> None:
        for option in ("max_message_bytes", "max_stream_bytes"):
            value = getattr(self, option)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
                raise ConfigError(
                    f"{option} must be a positive number of bytes, got {value!r}.",
                    hint="use None for no limit",
                    details={"option": option},
                )


def _size(n: int) -> str:
    return f"{n / MIB:,.1f} MiB" if n >= MIB else f"{n:,} bytes"


def limit_hint(option: str) -> str:
    """What to do about a refusal for ``option``."""
    flag = "--" + option.replace("_", "-")
    return f"if this peer is trusted to send that much, raise {option} in the connection profile ({flag} in the CLI)"


def limit_error(
    option: str,
    limit: int,
    received: int,
    url: str,
    what: str,
    *,
    announced: bool = False,
    request_id: str | None = None,
    during: str = "",
) -> ProtocolError:
    """The typed refusal of something larger than a limit.

    Args:
        option: The limit's option name (``max_message_bytes`` or ``max_stream_bytes``).
        limit: Its value in bytes.
        received: How many bytes arrived (or, with ``announced``, the ``Content-Length``).
        url: The request's URL (its query is dropped in the message).
        what: What was refused, for the message ("a response body", "an event").
        announced: Refused from its ``Content-Length``, before any of it was read.
        request_id: The JSON-RPC id of the request it answered, when known (``details["request_id"]``).
        during: When it happened, for the message (" while 'tools/call' waited for its answer").
    """
    where = public_url(url)
    how = (
        f"it announced {_size(received)} and was refused before it was read"
        if announced
        else f"it was refused after {_size(received)} and not read further"
    )
    details: dict[str, object] = {
        "limit": option,
        "limit_bytes": limit,
        "received_bytes": received,
        "reason": "too-large",
        "url": where,
    }
    if request_id is not None:
        details["request_id"] = request_id
    return ProtocolError(
        f"{where} sent {what} larger than the {_size(limit)} limit ({option}){during}; {how}.",
        hint=limit_hint(option),
        details=details,
    )


def request_id_of(body: bytes | None) -> str | None:
    """The JSON-RPC id of the one request in a request body (``None``: no body, a batch, a notification).

    Only asked when a response is refused; the body is the client's own, already in memory.
    """
    if not body or body[:1024].lstrip()[:1] != b"{":
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message or message.get("id") is None:
        return None
    return rpc_id_key(message["id"])


def rpc_id_key(rpc_id: object) -> str:
    """A JSON-RPC id as compared here: ``7`` and ``"7"`` are the same request (as the MCP SDK matches them)."""
    return str(rpc_id)


# A blank line ends an SSE event. Line ends are LF, CRLF or CR, so two in a row always show one of
# these pairs (CR followed by LF is one line end, never two).
_BLANK_LINE_ENDS = (b"\n\n", b"\n\r", b"\r\r")


class StreamBudget(Protocol):
    """A listening stream's per-request budget, as ``BodyMeter`` uses it (``session_budget.SessionBudget``)."""

    def count(self, n: int, url: str) -> ProtocolError | None:
        """Count ``n`` bytes the stream carried; the refusal when a waiting request is over its limit."""


class BodyMeter:
    """Counts one response body against ``limits``; ``count`` says when it must be refused.

    Args:
        limits: The limits.
        url: The request's URL (for the message).
        content_type: The response's ``Content-Type`` (an event stream is counted event by event).
        content_length: The announced length, if any (checked at once by ``refusal_from_headers``).
        listening: The stream listens for as long as the connection lives (no stream limit).
        request_body: The request's body (its JSON-RPC id names the request a refusal answers).
        budget: A listening stream that carries requests' answers (legacy SSE): ``max_stream_bytes``
            applies to what arrives while a request waits.
    """

    def __init__(
        self,
        limits: HTTPLimits,
        url: str,
        *,
        content_type: str | None,
        content_length: str | None,
        listening: bool = False,
        request_body: bytes | None = None,
        budget: StreamBudget | None = None,
    ) -> None:
        self._limits = limits
        self._url = url
        self.is_sse = "text/event-stream" in (content_type or "").lower()
        self._listening = listening
        self._request_body = request_body
        self._budget = budget if listening and self.is_sse else None
        self._announced = _length(content_length)
        self.received = 0
        self._event = 0  # bytes of the event being received
        self._last = b""  # the previous chunk's last byte (a blank line may straddle two chunks)

    def refusal_from_headers(self) -> ProtocolError | None:
        """The refusal of a body whose ``Content-Length`` is over the message limit (else ``None``)."""
        limit = self._limits.max_message_bytes
        if self.is_sse or limit is None or self._announced is None or self._announced <= limit:
            return None
        return limit_error(
            "max_message_bytes",
            limit,
            self._announced,
            self._url,
            "a response body",
            announced=True,
            request_id=request_id_of(self._request_body),
        )

    def count(self, chunk: bytes) -> ProtocolError | None:
        """Count ``chunk``; the refusal when the body, the event or the stream is now over its limit."""
        self.received += len(chunk)
        limits = self._limits
        if not self.is_sse:
            limit = limits.max_message_bytes
            if limit is not None and self.received > limit:
                return limit_error(
                    "max_message_bytes",
                    limit,
                    self.received,
                    self._url,
                    "a response body",
                    request_id=request_id_of(self._request_body),
                )
            return None
        stream_limit = limits.max_stream_bytes
        if stream_limit is not None and not self._listening and self.received > stream_limit:
            return limit_error(
                "max_stream_bytes",
                stream_limit,
                self.received,
                self._url,
                "more on one response stream",
                request_id=request_id_of(self._request_body),
            )
        if self._budget is not None and (refusal := self._budget.count(len(chunk), self._url)) is not None:
            return refusal
        limit = limits.max_message_bytes
        if limit is None or not chunk:
            return None
        if b"\n" in chunk or b"\r" in chunk or self._last:
            # (a large event's data is one line: most of its chunks have no line end at all)
            seen = self._last + chunk
            end = max(seen.rfind(pair) for pair in _BLANK_LINE_ENDS)
            self._event = self._event + len(chunk) if end < 0 else len(seen) - end - 2
        else:
            self._event += len(chunk)
        self._last = chunk[-1:] if chunk[-1:] in (b"\n", b"\r") else b""
        if self._event > limit:
            # (on a listening stream the event's request is not known before the event is read)
            request_id = None if self._listening else request_id_of(self._request_body)
            return limit_error("max_message_bytes", limit, self._event, self._url, "an event", request_id=request_id)
        return None


def _length(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


Listening = Callable[[str, bytes | None], bool]
"""Whether a request (method, body) opens a stream that lives as long as the connection."""


RECENT_REFUSALS = 64
"""Refusals a ``LimitGuard`` remembers for ``refusal_for``."""


class LimitGuard:
    """The limits of one connection's HTTP client, and the refusals they caused (for the adapter).

    Args:
        limits: The limits (default ``HTTPLimits()``).
        listening: Tells a listening stream (exempt from ``max_stream_bytes``) from a request's
            answer; default: none is.
        budget: The session stream's per-request budget (legacy SSE), if any.
    """

    def __init__(
        self,
        limits: HTTPLimits | None = None,
        listening: Listening | None = None,
        *,
        budget: StreamBudget | None = None,
    ) -> None:
        self.limits = limits if limits is not None else HTTPLimits()
        self._listening = listening
        self.budget = budget
        self.refusal_count = 0
        """How many bodies were refused so far."""
        self.last_refusal: ProtocolError | None = None
        """The last refusal (an SDK may report it as a generic failure; the adapter reads it here)."""
        self._recent: deque[ProtocolError] = deque(maxlen=RECENT_REFUSALS)

    def meter(
        self, method: str, url: str, body: bytes | None, content_type: str | None, content_length: str | None
    ) -> BodyMeter:
        """A meter for the body of one response."""
        listening = self._listening is not None and self._listening(method.upper(), body)
        return BodyMeter(
            self.limits,
            url,
            content_type=content_type,
            content_length=content_length,
            listening=listening,
            request_body=body,
            budget=self.budget,
        )

    def refused(self, error: ProtocolError) -> None:
        """Note a refusal."""
        self.refusal_count += 1
        self.last_refusal = error
        self._recent.append(error)

    def refusal_for(self, request_ids: Collection[str], since: int) -> ProtocolError | None:
        """The refusal that answered one of ``request_ids``, among those after the first ``since``.

        A refusal whose request is known belongs to that request only. One whose request is not
        known (an event on a shared stream refused before it was read) may belong to any request
        that was waiting: the latest such is returned when none names one of ``request_ids``.

        Args:
            request_ids: The JSON-RPC ids a caller sent (as ``rpc_id_key`` writes them).
            since: ``refusal_count`` when the caller started.
        """
        new = min(self.refusal_count - since, len(self._recent))
        if new <= 0:
            return None
        recent = list(self._recent)[-new:]
        for refusal in reversed(recent):
            if refusal.details.get("request_id") in request_ids:
                return refusal
        return next((r for r in reversed(recent) if r.details.get("request_id") is None), None)
