"""Which wire records the log shows: a filter's criteria, and a text filter keeping the answers to what it matched."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.ui.panels.wirelog.format import haystack, is_keepalive

_J = WireKind.JSONRPC


@dataclass(frozen=True, slots=True)
class WireFilter:
    """What the wire log shows.

    Attributes:
        text: Case-insensitive substring of the payload (plus summary and URL for non-JSON-RPC).
        connection: Only this connection id (None: every connection).
        directions: Only these directions (None: all).
        kinds: Only these kinds (None: all).
        keepalives: Whether SSE keep-alive comments are shown (hidden by default: a server sends one
            every few seconds per open stream and they say nothing but "still here").
    """

    text: str = ""
    connection: str | None = None
    directions: frozenset[Direction] | None = None
    kinds: frozenset[WireKind] | None = None
    keepalives: bool = False

    @property
    def active(self) -> bool:
        """Whether anything is filtered out at all (keep-alives are, unless shown)."""
        return (
            bool(self.text)
            or self.connection is not None
            or self.directions is not None
            or self.kinds is not None
            or not self.keepalives
        )

    def narrows(self, other: WireFilter) -> bool:
        """Whether every record this filter accepts is also accepted by ``other`` (refine, don't rescan)."""
        return (
            self.connection == other.connection
            and self.directions == other.directions
            and self.kinds == other.kinds
            and self.keepalives == other.keepalives
            and other.text.lower() in self.text.lower()
        )

    def apply(
        self,
        records: list[WireRecord],
        partner: Callable[[WireRecord], WireRecord | None] | None = None,
        followed: set[tuple[str, str]] | None = None,
    ) -> list[WireRecord]:
        """Return the accepted records, in order (one list comprehension per active criterion).

        Args:
            records: The records to filter, in sequence order.
            partner: The recorder's request/response pairing (``WireRecorder.find_response``). With
                it, a JSON-RPC response the text does not match is kept when its request matches, so
                filtering by a method keeps the answers too.
            followed: With ``partner``: the progress tokens and request ids of the requests kept so
                far (updated). A progress or cancellation notification naming one of them is kept
                with its request. Pass the same set to later calls for records appended live.
        """
        out = records
        if not self.keepalives:
            out = [r for r in out if not is_keepalive(r)]
        if self.connection is not None:
            cid = self.connection
            out = [r for r in out if r.connection_id == cid]
        if self.directions is not None:
            dirs = self.directions
            out = [r for r in out if r.direction in dirs]
        if self.kinds is not None:
            kinds = self.kinds
            out = [r for r in out if r.kind in kinds]
        if self.text:
            needle = self.text.lower()
            if needle == needle.upper():  # no cased letters: no need to lower every record

                def hit(r: WireRecord) -> bool:
                    return needle in (r.payload if r.kind is _J else haystack(r))
            else:

                def hit(r: WireRecord) -> bool:
                    return needle in (r.payload if r.kind is _J else haystack(r)).lower()

            if partner is None:
                out = [r for r in out if hit(r)]
            else:
                out = _with_correlated(out, hit, partner, set() if followed is None else followed)
        return out if out is not records else list(records)


_CORRELATED = {"notifications/progress": "progressToken", "notifications/cancelled": "requestId"}
"""Notifications that name a request of their connection (by its progress token or its id)."""


def _params(record: WireRecord) -> dict[str, Any]:
    try:
        message = json.loads(record.payload)
    except (ValueError, RecursionError):
        return {}
    params = message.get("params") if isinstance(message, dict) else None
    return params if isinstance(params, dict) else {}


def _with_correlated(
    records: list[WireRecord],
    hit: Callable[[WireRecord], bool],
    partner: Callable[[WireRecord], WireRecord | None],
    followed: set[tuple[str, str]],
) -> list[WireRecord]:
    """The records ``hit`` accepts, plus the responses and notifications that belong to a kept request."""
    out = []
    for r in records:
        if hit(r):
            out.append(r)
            if r.kind is _J and r.method and r.rpc_id is not None and not r.method.startswith("notifications/"):
                followed.add((r.connection_id, f"id:{r.rpc_id}"))
                if "progressToken" in r.payload:
                    meta = _params(r).get("_meta")
                    token = meta.get("progressToken") if isinstance(meta, dict) else None
                    if isinstance(token, str | int):
                        followed.add((r.connection_id, f"token:{token}"))
        elif _answers_a_hit(r, partner, hit):
            out.append(r)
        elif followed and r.kind is _J and r.method in _CORRELATED:
            value = _params(r).get(_CORRELATED[r.method])
            key = "token" if r.method == "notifications/progress" else "id"
            if isinstance(value, str | int) and (r.connection_id, f"{key}:{value}") in followed:
                out.append(r)
    return out


def _answers_a_hit(
    record: WireRecord, partner: Callable[[WireRecord], WireRecord | None], hit: Callable[[WireRecord], bool]
) -> bool:
    """Whether ``record`` is a JSON-RPC response whose (still held) request the filter accepts."""
    if record.kind is not _J or record.method or record.rpc_id is None:
        return False
    request = partner(record)
    return request is not None and request.seq < record.seq and hit(request)
