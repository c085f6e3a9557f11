"""AuthStepsViewModel: every auth step seen (from the bridge), and those of the selected connection."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from workbench.core.auth_steps import AuthStep
from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.events import SessionAuthStep, owner_of
from workbench.ui.panels.authsteps.itemmodel import AuthStepsModel, StepRow

MAX_STEPS = 5000
"""Steps kept in total (the oldest go first); a login makes about five."""


class AuthStepsViewModel(QObject):
    """Collects ``AuthStep`` events from ``ctx.bridge.auth_step`` and shows the selected connection's in ``model``.

    Steps of a login/logout run for a profile (``SessionAuthStep``) are listed with that profile.

    Signals:
        wire_records_requested(str, int, int): The user asked to see a step's wire records: the
            connection id of the records (a login session's own id for a login), first and last seq.
        shown_changed(str): The connection whose steps are shown changed (``""`` for none).
        attention_requested(): A step of the shown connection arrived that the user will want to see: a
            step of a login or logout they started (``SessionAuthStep``), or a failed one.

    Args:
        ctx: The panel context (its bridge and selection).
        parent: Qt parent.
        clock: Seconds since the epoch, for the arrival time.
    """

    wire_records_requested = Signal(str, int, int)
    shown_changed = Signal(str)
    attention_requested = Signal()

    def __init__(
        self, ctx: PanelContext, parent: QObject | None = None, *, clock: Callable[[], float] = time.time
    ) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._clock = clock
        self._rows: list[StepRow] = []
        self.model = AuthStepsModel(self)
        self.connection_id: str | None = ctx.selection.current
        ctx.bridge.auth_step.connect(self.on_bridge_auth_step)
        ctx.selection.changed.connect(self.on_selection_changed)

    def steps(self, connection_id: str | None = None) -> list[AuthStep]:
        """The steps listed under ``connection_id`` (default: the shown connection), oldest first."""
        cid = self.connection_id if connection_id is None else connection_id
        return [r.step for r in self._rows if r.owner == cid]

    def show_connection(self, connection_id: str | None) -> None:
        """Show the steps of ``connection_id`` (``None``: none)."""
        self.connection_id = connection_id
        self.model.set_rows([r for r in self._rows if r.owner == connection_id] if connection_id else [])
        self.shown_changed.emit(connection_id or "")

    def clear(self) -> None:
        """Forget the shown connection's steps."""
        cid = self.connection_id
        self._rows = [r for r in self._rows if r.owner != cid]
        self.model.set_rows([])

    def request_wire_records(self, row: int) -> bool:
        """Ask for the wire records of the step in ``row`` of the model; False when it has none.

        A step's HTTP exchanges when it has any, else its own record (the browser's legs are not on the wire).
        """
        shown = self.model.row(row)
        if shown is None:
            return False
        step = shown.step
        seqs = step.wire_seqs or ((step.record_seq,) if step.record_seq is not None else ())
        if not seqs:
            return False
        self.wire_records_requested.emit(step.connection_id, min(seqs), max(seqs))
        return True

    def on_bridge_auth_step(self, step: AuthStep) -> None:
        """Keep a step that finished; show it when it belongs to the shown connection."""
        row = StepRow(self._clock(), owner_of(step), step)
        self._rows.append(row)
        if len(self._rows) > MAX_STEPS:
            del self._rows[: len(self._rows) - MAX_STEPS]
            self.show_connection(self.connection_id)
            return
        if row.owner == self.connection_id:
            self.model.append(row)
            if isinstance(step, SessionAuthStep) or step.status == "failed":
                self.attention_requested.emit()

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Follow the selected connection."""
        if connection_id != self.connection_id:
            self.show_connection(connection_id)

    def detach(self) -> None:
        """Stop following the bridge and the selection."""
        self._ctx.bridge.auth_step.disconnect(self.on_bridge_auth_step)
        self._ctx.selection.changed.disconnect(self.on_selection_changed)
