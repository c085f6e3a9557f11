"""WireLogViewModel: the wire log's state and commands (filters, pause, follow, selection, export, curl)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication

from workbench.core.errors import WorkbenchError
from workbench.core.events import ConnectionStateChanged
from workbench.core.wire.curl import curl_command
from workbench.core.wire.export import write_har, write_jsonl
from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.panels.wirelog.itemmodel import WireLogModel

ALL_DIRECTIONS = frozenset(Direction)
ALL_KINDS = frozenset(WireKind)


class WireLogViewModel(QObject):
    """State and commands of the wire log pane; the widget only lays out and forwards.

    Args:
        ctx: The panel context (its wire recorder, connections, selection and error presenter).
        parent: Qt parent.
        model: The table model to drive (a fresh ``WireLogModel`` over ``ctx.services.wire``).

    Signals:
        current_changed(object): The record whose detail is shown (``WireRecord`` or None).
        row_requested(int): The view should select and reveal this row (after a jump or a refilter).
        paused_changed(bool), follow_changed(bool): Toolbar toggles changed.
        only_selected_changed(bool): The "selected connection only" toggle changed.
        connections_changed(): The list for the connection combo changed (``connection_choices``).
        status(str): A short note for the user ("The response is filtered out", "Copied …").
    """

    current_changed = Signal(object)
    row_requested = Signal(int)
    paused_changed = Signal(bool)
    follow_changed = Signal(bool)
    only_selected_changed = Signal(bool)
    connections_changed = Signal()
    status = Signal(str)

    def __init__(self, ctx: PanelContext, parent: QObject | None = None, *, model: WireLogModel | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._recorder = ctx.services.wire
        self.model = model if model is not None else WireLogModel(self._recorder, self)
        self._current: WireRecord | None = None
        self._follow = True
        self._only_selected = False
        self._chosen_connection: str | None = None  # the combo's choice (used when not following)
        self._closed = False
        self.model.connections_changed.connect(self.on_model_connections_changed)
        self.model.modelReset.connect(self.on_model_reset)
        ctx.selection.changed.connect(self.on_selection_changed)
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        self._refresh_names()

    # ---- connections -------------------------------------------------------------------------

    def connection_choices(self) -> list[tuple[str, str]]:
        """``(connection id, display name)`` for the combo: live connections, then ids seen in records."""
        ids = [c.id for c in self._ctx.services.connections.connections()]
        ids += [cid for cid in self.model.connection_ids() if cid not in ids]
        return [(cid, self.connection_name(cid)) for cid in ids]

    def connection_name(self, connection_id: str) -> str:
        """The profile name of a connection, or its id when the connection is unknown."""
        conn = self._ctx.services.connections.get(connection_id)
        return conn.profile.name if conn is not None else connection_id

    def _refresh_names(self) -> None:
        names = {c.id: c.profile.name for c in self._ctx.services.connections.connections()}
        self.model.set_connection_names(names)

    def on_model_connections_changed(self) -> None:
        """Pass on that the connection list grew."""
        self.connections_changed.emit()

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """Refresh connection names (a profile may have been renamed)."""
        self._refresh_names()
        self.connections_changed.emit()

    # ---- filters -----------------------------------------------------------------------------

    def set_text_filter(self, text: str) -> None:
        """Show only records whose text contains ``text`` (case-insensitive; empty: no text filter)."""
        self.model.update_filter(text=text.strip())

    def set_connection_filter(self, connection_id: str | None) -> None:
        """Show one connection (None: all); ignored for the view while "selected only" is on."""
        self._chosen_connection = connection_id
        if not self._only_selected:
            self.model.update_filter(connection=connection_id)

    @property
    def only_selected(self) -> bool:
        """Whether the connection filter follows the window's selected connection."""
        return self._only_selected

    def set_only_selected(self, on: bool) -> None:
        """Follow the selected connection (True) or use the combo's choice (False)."""
        if on == self._only_selected:
            return
        self._only_selected = on
        self.model.update_filter(connection=self._ctx.selection.current if on else self._chosen_connection)
        self.only_selected_changed.emit(on)

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Follow the window's selected connection when "selected only" is on."""
        if self._only_selected:
            self.model.update_filter(connection=connection_id)

    def set_directions(self, directions: Iterable[Direction]) -> None:
        """Show only these directions (all of them: no direction filter)."""
        chosen = frozenset(directions)
        self.model.update_filter(directions=None if chosen >= ALL_DIRECTIONS else chosen)

    def set_kinds(self, kinds: Iterable[WireKind]) -> None:
        """Show only these kinds (all of them: no kind filter)."""
        chosen = frozenset(kinds)
        self.model.update_filter(kinds=None if chosen >= ALL_KINDS else chosen)

    def set_keepalives_shown(self, shown: bool) -> None:
        """Show (True) or fold away (False, the default) SSE keep-alive comments."""
        self.model.update_filter(keepalives=shown)

    def keepalive_note(self) -> str:
        """What the toolbar says about folded keep-alives ("" when none arrived or they are shown)."""
        count = self.model.keepalives
        if not count or self.model.filter.keepalives:
            return ""
        return f"{count:,} keep-alive{'s' if count != 1 else ''} hidden"

    def on_model_reset(self) -> None:
        """Keep the selected record selected when it survives a refilter."""
        if self._current is not None:
            row = self.model.row_of(self._current)
            if row is not None:
                self.row_requested.emit(row)

    # ---- pause and follow --------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether new records are held back from the view (they are still recorded)."""
        return self.model.paused

    def set_paused(self, paused: bool) -> None:
        """Pause or resume appending to the view."""
        if paused != self.model.paused:
            self.model.set_paused(paused)
            self.paused_changed.emit(paused)

    @property
    def follow(self) -> bool:
        """Whether the view keeps the newest row in view (after new rows, a refilter, a resize)."""
        return self._follow

    def set_follow(self, follow: bool) -> None:
        """Turn following the tail on or off."""
        if follow != self._follow:
            self._follow = follow
            self.follow_changed.emit(follow)

    def on_user_scrolled(self, at_bottom: bool) -> None:
        """The user scrolled: away from the bottom stops following, back to the bottom resumes it."""
        self.set_follow(at_bottom)

    # ---- selection and jumps -----------------------------------------------------------------

    @property
    def current(self) -> WireRecord | None:
        """The record shown in the detail pane."""
        return self._current

    def select_row(self, row: int | None) -> WireRecord | None:
        """Show the detail of the record in ``row`` (None or out of range: nothing)."""
        record = None if row is None else self.model.record(row)
        if record is not self._current:
            self._current = record
            self.current_changed.emit(record)
        return record

    def partner(self) -> WireRecord | None:
        """The current record's request or response (JSON-RPC id or HTTP pairing), if still held."""
        return None if self._current is None else self._recorder.find_response(self._current)

    def jump_text(self) -> str:
        """The jump button's label for the current record ("" when it has no partner)."""
        partner, current = self.partner(), self._current
        if partner is None or current is None:
            return ""
        return "Jump to response" if partner.seq > current.seq else "Jump to request"

    def jump_to_partner(self) -> bool:
        """Select the current record's partner row; False (and a status note) when it is not shown."""
        partner = self.partner()
        if partner is None:
            self.status.emit("This record has no recorded partner.")
            return False
        row = self.model.row_of(partner)
        if row is None:
            self.status.emit(f"#{partner.seq} is not in the view (filtered out, cleared or paused).")
            return False
        self.set_follow(False)  # the user went to a row: keep it in view
        self.select_row(row)
        self.row_requested.emit(row)
        return True

    def select_seqs(self, connection_id: str | None, first: int, last: int) -> bool:
        """Select and reveal the first shown record with ``first <= seq <= last`` (a handoff hop's records).

        Only records of ``connection_id`` count (None: any connection). Records still waiting for the
        next coalesced flush are taken in first. Returns False (and a status note) when none is shown.
        """
        if first > last:
            first, last = last, first
        if not self.model.paused:
            self.model.flush()
        get, row_of = self._recorder.get, self.model.row_of
        for seq in range(max(first, self._recorder.first_seq), min(last, self._recorder.last_seq) + 1):
            record = get(seq)
            if record is None or (connection_id is not None and record.connection_id != connection_id):
                continue
            row = row_of(record)
            if row is not None:
                self.set_follow(False)  # the user went to a row: keep it in view
                self.select_row(row)
                self.row_requested.emit(row)
                where = f" of {self.connection_name(connection_id)}" if connection_id is not None else ""
                self.status.emit(f"Records #{first}–#{last}{where}.")
                return True
        self.status.emit(f"#{first}–#{last} are not in the view (filtered out, cleared, paused or evicted).")
        return False

    # ---- curl, export, clear -----------------------------------------------------------------

    def can_copy_curl(self) -> bool:
        """Whether the current record is an HTTP request (curl needs one)."""
        return self._current is not None and self._current.kind is WireKind.HTTP_REQUEST

    def curl_text(self) -> str | None:
        """The curl command for the current HTTP request (redacted values stay ``***``), else None."""
        if self._current is None or not self.can_copy_curl():
            return None
        return curl_command(self._current)

    def copy_curl(self) -> str | None:
        """Put the current request's curl command on the clipboard and return it."""
        try:
            text = self.curl_text()
        except WorkbenchError as err:  # a value no command line can carry (a NUL): said, nothing copied
            self.status.emit(err.message)
            return None
        if text is None:
            self.status.emit("Select an HTTP request to copy it as curl.")
            return None
        QGuiApplication.clipboard().setText(text)
        self.status.emit("Copied the request as a curl command.")
        return text

    def export_records(self, filtered: bool) -> list[WireRecord]:
        """The shown rows (``filtered``) or every record the recorder holds."""
        return self.model.rows() if filtered else self._recorder.records()

    async def export_jsonl(self, path: str | os.PathLike[str], *, filtered: bool = True) -> int:
        """Write the records as JSON Lines (in a worker thread; records are immutable); returns the count."""
        records = self.export_records(filtered)
        return await self._export(write_jsonl, records, os.fspath(path), "JSON Lines")

    async def export_har(self, path: str | os.PathLike[str], *, filtered: bool = True) -> int:
        """Write the HTTP exchanges among the records as HAR 1.2; returns the number of entries."""
        records = self.export_records(filtered)
        return await self._export(write_har, records, os.fspath(path), "HAR")

    async def _export(
        self, writer: Callable[[list[WireRecord], str], int], records: list[WireRecord], path: str, what: str
    ) -> int:
        try:
            count = await asyncio.to_thread(writer, records, path)
        except OSError as exc:
            raise WorkbenchError(
                f"Could not write the {what} file.", hint="choose another location", details={"path": path}
            ) from exc
        self.status.emit(f"Exported {count:,} {'entries' if what == 'HAR' else 'records'} to {path}.")
        return count

    def start_export(self, fmt: str, path: str, *, filtered: bool) -> asyncio.Task[int | None]:
        """Export in the background (``fmt`` ``jsonl`` or ``har``); a failure is reported, not raised."""
        return spawn(self._export_reporting(fmt, path, filtered), doing=f"exporting the wire log as {fmt.upper()}")

    async def _export_reporting(self, fmt: str, path: str, filtered: bool) -> int | None:
        try:
            if fmt == "jsonl":
                return await self.export_jsonl(path, filtered=filtered)
            return await self.export_har(path, filtered=filtered)
        except WorkbenchError as err:
            self.status.emit(err.message)
            self._ctx.errors.report(err, f"exporting the wire log as {fmt.upper()}")
            return None

    def clear_view(self) -> None:
        """Empty the view (the recorder keeps its records)."""
        self.model.clear_view()
        self.select_row(None)

    def close(self) -> None:
        """Stop following the recorder and the window's signals (idempotent)."""
        self.model.close()
        if self._closed:
            return
        self._closed = True
        self._ctx.selection.changed.disconnect(self.on_selection_changed)
        self._ctx.bridge.connection_state_changed.disconnect(self.on_bridge_connection_state_changed)
