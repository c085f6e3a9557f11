"""WireLogModel: the wire recorder's records as a filtered, coalesced Qt table (qt-async §5.1).

The model holds no copies: its rows are a Python list of references to the recorder's (immutable)
records, already filtered — the "index list" of qt-async §5.1, kept in sequence order so a record's
row is found by bisection. New records reach it through a recorder subscription whose callback only
appends to a pending list; a 50 ms single-shot timer moves them into the table in one
``beginInsertRows``/``endInsertRows`` per flush. Records the ring buffer evicted are removed from the
top at the next flush (``beginRemoveRows``), so every row refers to a record the recorder still holds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import replace
from operator import attrgetter
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal

from workbench.core.timefmt import time_of_day
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind, WireRecord
from workbench.ui.panels.wirelog.format import ARROWS, is_error, is_keepalive, latency_text, size_text
from workbench.ui.panels.wirelog.record_filter import WireFilter
from workbench.ui.theme import semantic_color
from workbench.ui.untrusted import plain_tooltip, shown

FLUSH_MS = 50
"""Appends are coalesced and shown at most this often (qt-async §5.1)."""

COLUMNS = ("Time", "Connection", "Dir", "Kind", "Method", "ID", "Latency", "Size", "Summary")
TIME, CONNECTION, DIRECTION, KIND, METHOD, ID, LATENCY, SIZE, SUMMARY = range(len(COLUMNS))

SORT_ROLE = Qt.ItemDataRole.UserRole
"""A cell's value to sort by: the Latency column's milliseconds and the Size column's bytes as numbers."""

_seq = attrgetter("seq")
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_PEER_TEXT = frozenset((CONNECTION, METHOD, ID, SUMMARY))
"""Columns whose text a peer chose (or could have): shown through the cleaner."""

Index = QModelIndex | QPersistentModelIndex


def _cell_time(r: WireRecord) -> str:
    return time_of_day(r.wall_time)


def _cell_dir(r: WireRecord) -> str:
    return ARROWS[r.direction]


def _cell_kind(r: WireRecord) -> str:
    return r.kind.value


def _cell_id(r: WireRecord) -> str:
    return r.rpc_id or ""


def _cell_latency(r: WireRecord) -> str:
    return latency_text(r.latency_ms)


def _cell_size(r: WireRecord) -> str:
    return size_text(r.size)


def _cell_summary(r: WireRecord) -> str:
    return r.summary


class WireLogModel(QAbstractTableModel):
    """A table over a ``WireRecorder``: filtered rows, coalesced appends, pause, eviction-safe.

    Args:
        recorder: The recorder to follow (subscribed until ``close``).
        parent: Qt parent.
        flush_ms: Coalescing interval for appends.

    Signals:
        flushed(int): A flush ran; the argument is the number of rows appended (0 when none).
        new_count_changed(int): While paused: records recorded since the pause (0 after resume).
        filter_applied(int): The filter was (re)applied; the argument is the number of rows shown.
        connections_changed(): A record of a connection not seen before arrived.
        keepalives_changed(int): The number of SSE keep-alives the view took in changed.
    """

    flushed = Signal(int)
    keepalives_changed = Signal(int)
    new_count_changed = Signal(int)
    filter_applied = Signal(int)
    connections_changed = Signal()

    def __init__(self, recorder: WireRecorder, parent: QObject | None = None, *, flush_ms: int = FLUSH_MS) -> None:
        super().__init__(parent)
        self._recorder = recorder
        self._filter = WireFilter()
        self._names: dict[str, str] = {}
        self._pending: list[WireRecord] = []
        self._scheduled = False
        self._paused = False
        self._new = 0
        self._floor = recorder.first_seq  # "clear view" hides everything below this seq
        self._upto = recorder.last_seq  # newest seq the view has taken in (shown or filtered out)
        held = recorder.records()
        self._connections: dict[str, None] = dict.fromkeys(r.connection_id for r in held)
        self._keepalives = sum(1 for r in held if is_keepalive(r))
        self._rows: list[WireRecord] = self._filter.apply(held)  # keep-alives are hidden by default
        self._followed: set[tuple[str, str]] = set()  # requests a text filter kept (their notifications follow)
        self._cells: tuple[Callable[[WireRecord], str], ...] = (
            _cell_time, self._cell_connection, _cell_dir, _cell_kind, self._cell_method, _cell_id,
            _cell_latency, _cell_size, _cell_summary,
        )  # fmt: skip
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(flush_ms)
        self._timer.timeout.connect(self.flush)
        self._unsubscribe: Callable[[], None] | None = recorder.subscribe(self._on_record)
        self.destroyed.connect(self._unsubscribe)  # a deleted model must not be called by the recorder

    def _cell_method(self, r: WireRecord) -> str:
        """A response shows its request's method (JSON-RPC responses carry none of their own)."""
        if r.method:
            return r.method
        if r.kind is WireKind.JSONRPC and r.latency_ms is not None:
            request = self._recorder.find_response(r)
            if request is not None and request.method:
                return request.method
        return ""

    # ---- Qt model interface ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Number of rows shown."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        """Number of columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        """Cell text (a peer's text ``shown``), error colour, alignment, the summary's (escaped) tooltip.

        ``SORT_ROLE`` gives the Latency and Size cells as numbers (the text reads "57 ms", "1.3 s").
        """
        if role == _DISPLAY:
            column = index.column()
            text = self._cells[column](self._rows[index.row()])
            return shown(text) if column in _PEER_TEXT else text
        if role == _FOREGROUND:
            return semantic_color("error-text") if is_error(self._rows[index.row()]) else None
        if role == _ALIGN:
            return _RIGHT if index.column() in (LATENCY, SIZE, ID) else None
        if role == _TOOLTIP and index.column() == SUMMARY:
            return plain_tooltip(self._rows[index.row()].summary[:2000])
        if role == SORT_ROLE:
            column, record = index.column(), self._rows[index.row()]
            if column == LATENCY:
                return record.latency_ms
            if column == SIZE:
                return record.size
            return self._cells[column](record)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:  # noqa: N802
        """Column titles."""
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def _cell_connection(self, r: WireRecord) -> str:
        cid = r.connection_id
        return self._names.get(cid, cid)

    # ---- rows --------------------------------------------------------------------------------

    @property
    def recorder(self) -> WireRecorder:
        """The recorder this model follows."""
        return self._recorder

    def record(self, row: int) -> WireRecord | None:
        """The record shown in ``row`` (None when out of range)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rows(self) -> list[WireRecord]:
        """The shown records, oldest first (a copy)."""
        return list(self._rows)

    def row_of(self, record: WireRecord) -> int | None:
        """The row showing ``record``, or None when it is filtered out, evicted or not yet flushed."""
        rows = self._rows
        i = bisect_left(rows, record.seq, key=_seq)
        return i if i < len(rows) and rows[i] is record else None

    def connection_ids(self) -> list[str]:
        """Connection ids seen in the records, in order of first appearance."""
        return list(self._connections)

    def set_connection_names(self, names: dict[str, str]) -> None:
        """Show these display names instead of connection ids (unknown ids stay as they are)."""
        if names != self._names:
            self._names = dict(names)
            if self._rows:
                self.dataChanged.emit(self.index(0, CONNECTION), self.index(len(self._rows) - 1, CONNECTION))

    # ---- filter ------------------------------------------------------------------------------

    @property
    def filter(self) -> WireFilter:
        """The filter in force."""
        return self._filter

    def set_filter(self, new: WireFilter) -> None:
        """Show only what ``new`` accepts (a reset; a narrower text filter only rescans the shown rows)."""
        if new == self._filter:
            return
        if not self._paused:
            self.flush()
        old, self._filter = self._filter, new
        self._followed = set()
        rows = new.apply(
            self._rows if new.narrows(old) else self._source(), self._recorder.find_response, self._followed
        )
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()
        self.filter_applied.emit(len(rows))

    def update_filter(self, **changes: Any) -> None:
        """``set_filter`` with some fields of the current filter replaced."""
        self.set_filter(replace(self._filter, **changes))

    def _source(self) -> list[WireRecord]:
        """The records the view covers: held by the recorder, from ``floor`` up to ``upto``."""
        held = self._recorder.records()
        lo = bisect_left(held, self._floor, key=_seq) if held and held[0].seq < self._floor else 0
        hi = bisect_left(held, self._upto + 1, key=_seq) if held and held[-1].seq > self._upto else len(held)
        return held if lo == 0 and hi == len(held) else held[lo:hi]

    # ---- live appends ------------------------------------------------------------------------

    @property
    def flush_scheduled(self) -> bool:
        """Whether records arrived that the next flush (at most ``flush_ms`` away) will take in."""
        return self._scheduled

    def _on_record(self, record: WireRecord) -> None:
        # Called synchronously by the recorder for every record: keep it to an append.
        if self._paused:
            self._new += 1
        else:
            self._pending.append(record)
        if not self._scheduled:
            self._scheduled = True
            self._timer.start()

    def flush(self) -> None:
        """Drop evicted rows from the top and append the pending records (one insert per call)."""
        self._scheduled = False
        self._timer.stop()
        first = self._recorder.first_seq
        self._trim(first)
        if self._paused:
            self._pending.clear()
            self.new_count_changed.emit(self._new)
            self.flushed.emit(0)
            return
        pending = self._pending
        if not pending:
            self.flushed.emit(0)
            return
        self._pending = []
        self._upto = pending[-1].seq
        if pending[0].seq < first:  # evicted before they were ever shown
            pending = pending[bisect_left(pending, first, key=_seq) :]
        self._append(pending)

    @property
    def keepalives(self) -> int:
        """SSE keep-alive comments taken in since the view was last cleared (shown or hidden)."""
        return self._keepalives

    def _append(self, pending: list[WireRecord]) -> None:
        """Add the records the filter accepts at the bottom (one insert), then say how many came."""
        self._note_connections(pending)
        alive = sum(1 for r in pending if r.kind is WireKind.SSE_EVENT and is_keepalive(r))
        if alive:
            self._keepalives += alive
            self.keepalives_changed.emit(self._keepalives)
        added = (
            self._filter.apply(pending, self._recorder.find_response, self._followed)
            if self._filter.active
            else pending
        )
        if added:
            n = len(self._rows)
            self.beginInsertRows(QModelIndex(), n, n + len(added) - 1)
            self._rows.extend(added)
            self.endInsertRows()
        self.flushed.emit(len(added))

    def _trim(self, first: int) -> None:
        rows = self._rows
        if rows and rows[0].seq < first:
            k = bisect_left(rows, first, key=_seq)
            self.beginRemoveRows(QModelIndex(), 0, k - 1)
            del rows[:k]
            self.endRemoveRows()

    def _note_connections(self, records: Iterable[WireRecord]) -> None:
        seen = self._connections
        grew = False
        for cid in {r.connection_id for r in records}:
            if cid not in seen:
                seen[cid] = None
                grew = True
        if grew:
            self.connections_changed.emit()

    # ---- pause, clear, close -----------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether appends to the view are held back (recording goes on)."""
        return self._paused

    @property
    def new_count(self) -> int:
        """Records recorded while paused (not yet in the view)."""
        return self._new

    def set_paused(self, paused: bool) -> None:
        """Hold back (True) or take in (False) new records; resuming adds every record still held."""
        if paused == self._paused:
            return
        if paused:
            self.flush()
            self._paused = True
            return
        self._paused = False
        rec = self._recorder
        self._trim(rec.first_seq)
        get = rec.get
        lo = max(self._upto + 1, rec.first_seq)  # everything recorded meanwhile that is still held
        pending = [r for r in (get(s) for s in range(lo, rec.last_seq + 1)) if r is not None]
        self._upto = rec.last_seq
        self._new = 0
        self.new_count_changed.emit(0)
        self._append(pending)

    def clear_view(self) -> None:
        """Hide every record recorded so far (the recorder keeps them; exports of "all" still see them)."""
        rec = self._recorder
        self._floor = rec.last_seq + 1
        self._upto = rec.last_seq
        self._pending = []
        self._new = 0
        self._keepalives = 0
        self.beginResetModel()
        self._rows = []
        self.endResetModel()
        self.new_count_changed.emit(0)
        self.keepalives_changed.emit(0)

    def close(self) -> None:
        """Stop following the recorder (idempotent)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._timer.stop()
        self._pending = []
