"""Bounded, indexed storage of wire records: ring buffer, O(1) lookups, request pairing, export.

``WireStore`` is the storage half of ``WireRecorder`` (``workbench.core.wire``): it holds the newest
``capacity`` records in a list used as a ring (the slot of sequence number ``s`` is
``(s - base) % capacity``, so ``get`` is O(1) without a per-record dict), counts evictions, keeps the
request <-> response index and calls subscribers. Memory is bounded too: when the held payloads
pass ``max_chars`` characters the oldest records go first (a peer streaming 1 MB events forever
cannot fill the memory; the newest record is always kept). Not thread-safe: use it on the
event-loop thread.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from typing import TextIO

from workbench.core.errors import UsageError
from workbench.core.fastinit import fast_constructor
from workbench.core.wire.export import write_har, write_jsonl
from workbench.core.wire.records import Direction, WireKind, WireRecord

log = logging.getLogger(__name__)

Target = str | os.PathLike[str] | TextIO
_JSONRPC = WireKind.JSONRPC
_MAX_INTERNED = 4096  # distinct connection ids / method names shared between records
DEFAULT_MAX_CHARS = 512 * 1024 * 1024
"""Payload characters the wire log holds by default (about 0.5-2 GB of memory at most)."""


make_record = fast_constructor(WireRecord, positional=True)
"""``WireRecord(...)`` with the same positional fields, about twice as fast (see ``fastinit``)."""

_EVICTED = WireRecord(0, "", Direction.LOCAL, WireKind.ERROR, 0.0, 0.0, None, None, None, 0, "")
"""Placeholder left in a ring slot whose record was evicted for size (frees the record's memory)."""


class WireStore:
    """Holds the newest ``capacity`` wire records, indexed by sequence number and request pairing.

    Args:
        capacity: Most records held; older ones are evicted and counted in ``dropped``.
        max_chars: Most payload characters held; older records are evicted past it.

    Raises:
        UsageError: ``capacity`` or ``max_chars`` is smaller than 1.
    """

    def __init__(self, capacity: int = 1_000_000, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        if capacity < 1 or max_chars < 1:
            raise UsageError(
                "The wire log capacity and size must be at least 1.",
                details={"capacity": capacity, "max_chars": max_chars},
            )
        self._cap = capacity
        self._max_chars = max_chars
        self._chars = 0  # payload characters held
        self._buf: list[WireRecord] = []
        self._base = 1  # seq stored at buffer index 0 (buffer slot of seq s: (s - base) % cap)
        self._first = 1  # oldest seq held
        self._next = 1  # seq of the next record
        self._dropped = 0
        self._pending: dict[tuple[str, Direction, str], WireRecord] = {}  # open requests
        self._pairs: dict[int, int] = {}  # request seq <-> response seq, both ways
        self._names: dict[str, str] = {}  # interned connection ids and method names
        self._subscribers: tuple[Callable[[WireRecord], None], ...] = ()

    # ---- ring buffer -------------------------------------------------------------------------

    @property
    def capacity(self) -> int:
        """Most records held at once."""
        return self._cap

    @property
    def dropped(self) -> int:
        """Records evicted because the buffer was full (since creation or ``clear``)."""
        return self._dropped

    @property
    def first_seq(self) -> int:
        """Sequence number of the oldest record held (equals ``last_seq + 1`` when empty)."""
        return self._first

    @property
    def last_seq(self) -> int:
        """Sequence number of the newest record (0 before the first one)."""
        return self._next - 1

    @property
    def held_chars(self) -> int:
        """Payload characters of the records held."""
        return self._chars

    def __len__(self) -> int:
        return self._next - self._first

    def __iter__(self) -> Iterator[WireRecord]:
        return iter(self._ordered())

    def _ordered(self) -> list[WireRecord]:
        buf, cap = self._buf, self._cap
        start = (self._first - self._base) % cap
        held = self._next - self._first
        if start + held <= len(buf):
            return buf[start : start + held]
        return buf[start:] + buf[: held - (len(buf) - start)]

    def records(self, connection_id: str | None = None) -> list[WireRecord]:
        """Return the held records, oldest first, optionally of one connection only."""
        ordered = self._ordered()
        if connection_id is None:
            return ordered
        return [r for r in ordered if r.connection_id == connection_id]

    def get(self, seq: int) -> WireRecord | None:
        """Return the record with this sequence number, or None when evicted or unknown (O(1))."""
        if self._first <= seq < self._next:
            return self._buf[(seq - self._base) % self._cap]
        return None

    def find_response(self, record: WireRecord) -> WireRecord | None:
        """Return the partner of a request or response record (either way), if still held."""
        partner = self._pairs.get(record.seq)
        if partner is None or self.get(record.seq) is not record:
            return None
        return self.get(partner)

    def clear(self) -> None:
        """Forget every record, open request and the dropped count; sequence numbers continue."""
        self._buf = []
        self._chars = 0
        self._base = self._first = self._next
        self._dropped = 0
        self._pending.clear()
        self._pairs.clear()

    def subscribe(self, callback: Callable[[WireRecord], None]) -> Callable[[], None]:
        """Call ``callback`` synchronously with every new record; returns the unsubscribe function.

        A callback that raises is logged and does not affect recording or the other subscribers.
        """
        self._subscribers = (*self._subscribers, callback)

        def unsubscribe() -> None:
            subs = list(self._subscribers)
            if callback in subs:
                subs.remove(callback)
                self._subscribers = tuple(subs)

        return unsubscribe

    def _intern(self, name: str) -> str:
        got = self._names.get(name)
        if got is not None:
            return got
        if len(self._names) < _MAX_INTERNED:
            self._names[name] = name
        return name

    def _add(self, record: WireRecord) -> WireRecord:
        buf, cap = self._buf, self._cap
        if len(buf) < cap:
            buf.append(record)
        else:
            slot = (record.seq - self._base) % cap
            if self._first <= record.seq - cap:  # the slot still holds a live record: evict it
                self._evict(buf[slot])
                self._first += 1
            buf[slot] = record
        self._chars += len(record.payload)
        if self._chars > self._max_chars:
            self._evict_oldest_beyond_size()
        for callback in self._subscribers:
            try:
                callback(record)
            except Exception:  # a broken subscriber must never break recording
                log.exception("wire record subscriber %r failed", callback)
        return record

    def _evict_oldest_beyond_size(self) -> None:
        """Evict the oldest records until the payloads fit ``max_chars`` (the newest always stays)."""
        buf, cap, base = self._buf, self._cap, self._base
        while self._chars > self._max_chars and self._next - self._first > 1:
            slot = (self._first - base) % cap
            self._evict(buf[slot])
            buf[slot] = _EVICTED
            self._first += 1

    def _evict(self, old: WireRecord) -> None:
        self._chars -= len(old.payload)
        self._dropped += 1
        self._pairs.pop(old.seq, None)
        if old.rpc_id is not None and old.kind is _JSONRPC:
            key = (old.connection_id, old.direction, old.rpc_id)
            if self._pending.get(key) is old:
                del self._pending[key]

    def _take_seq(self) -> int:
        seq = self._next
        self._next = seq + 1
        return seq

    def _pair(self, request: WireRecord, seq: int) -> None:
        if self.get(request.seq) is request:
            self._pairs[request.seq] = seq
            self._pairs[seq] = request.seq

    # ---- export ------------------------------------------------------------------------------

    def export_jsonl(self, target: Target, *, connection_id: str | None = None) -> int:
        """Write one ``WireRecord.to_dict()`` JSON object per line; returns the number written."""
        return write_jsonl(self.records(connection_id), target)

    def export_har(self, target: Target, *, connection_id: str | None = None) -> int:
        """Write the HTTP records as a HAR 1.2 log (SSE events folded into their response).

        Returns:
            The number of HAR entries written (one per HTTP request, or per orphan response).
        """
        return write_har(self.records(connection_id), target)
