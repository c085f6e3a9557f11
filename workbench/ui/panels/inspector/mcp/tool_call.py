"""The call form of one tool: arguments (SchemaForm), Call / Cancel, progress, elapsed time, result, history."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.timefmt import duration_text
from workbench.ui.apps.slot import AppSlot
from workbench.ui.errors import ErrorView
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.panels.inspector.mcp.call_layout import CallAreaBudget
from workbench.ui.panels.inspector.mcp.call_log import CallLogWidget
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.mcp.per_connection import CallRecord, MCPConnectionViewModel
from workbench.ui.panels.inspector.mcp.viewmodel import MCPInspectorViewModel
from workbench.ui.panels.inspector.results import ToolResultView
from workbench.ui.untrusted import plain_label, set_plain_tooltip, shown_on_button

ELAPSED_TICK_MS = 100
PROGRESS_STEPS = 1000
REFUSAL_NOTE = "Not sent: fix what is marked, or tick “Send even if invalid” to send anyway."
"""Said under the form's problem list when Call found problems (the list names them; this says why nothing went)."""
OUTCOME_GAP = 12
"""Pixels between the call's state and the "History" label beside it."""
CANCEL_TIP = "Cancel the call under way (the server is told to stop)"
CANCEL_ELSEWHERE_TIP = "The call under way is {tool}'s: cancel it on its page (Go to {tool})"


class ToolCallWidget(QWidget):
    """Fill a tool's arguments, call it (Ctrl+Enter), watch progress, cancel, and read the result.

    Form and result share the area: side by side when there is width for both, stacked otherwise
    (``call_layout.CallAreaBudget``); the server's log during the call shows under the result.
    The widget serves every connection and keeps nothing of its own: what the user types, the call
    under way, the history and the result on show are the shown connection's (``vm.state``, see
    per_connection.py), written there as they happen and redrawn from there by ``set_tool``.
    Ctrl+Enter is the tools page's (``ToolsWidget``), wherever the focus is on it.

    Signals:
        go_to_tool_requested(str): The user asked to see the tool whose call is under way.
    """

    go_to_tool_requested = Signal(str)

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.spec: ToolSpec | None = None
        self.form: SchemaForm | None = None
        self.refused = False  # Call was refused for the arguments on show (the form's list says why)
        self._form_holder = QWidget(self)
        self._form_layout = QVBoxLayout(self._form_holder)
        self._form_layout.setContentsMargins(0, 0, 0, 0)
        self._shown: tuple[str | None, str | None, object] = (None, None, None)  # connection, tool, schema
        self._form_owner: tuple[MCPConnectionViewModel, str] | None = None  # whose arguments the form edits
        self.skip_validation = QCheckBox("Send even if invalid", self)
        self.skip_validation.setToolTip("Send the arguments even if they do not match the input schema")

        self.call_button = QPushButton("Call", self)
        self.call_button.setToolTip("Call the tool (Ctrl+Enter)")
        self.call_button.clicked.connect(self.on_call_button_clicked)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.setToolTip(CANCEL_TIP)
        self.cancel_button.clicked.connect(vm.calls.cancel)
        # another tool's call under way on this connection: which one, and the way to it (``_sync_buttons``)
        self.running_note = plain_label("", self)
        self.running_note.setVisible(False)
        self.go_to_running = QPushButton("", self)
        self.go_to_running.setVisible(False)
        self.go_to_running.clicked.connect(self.on_go_to_running_clicked)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setVisible(False)
        self.progress_message = plain_label("", self)
        self.progress_separator = QLabel("·", self)  # between the server's progress message and the clock
        self.progress_separator.setVisible(False)
        self.elapsed = plain_label("", self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.call_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.progress_message)
        buttons.addWidget(self.progress_separator)
        buttons.addWidget(self.elapsed)
        buttons.addWidget(self.running_note)
        buttons.addWidget(self.go_to_running)
        buttons.addStretch(0)
        buttons.addWidget(self.skip_validation)

        self.history = QComboBox(self)
        self.history.setMinimumContentsLength(22)
        self.history.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.history.activated.connect(self.on_history_activated)
        self.reuse_button = QPushButton("Reuse arguments", self)
        self.reuse_button.clicked.connect(self.on_reuse_button_clicked)
        self.banner = InlineErrorWidget(self)
        self.status = plain_label("", self)  # a short state ("Done in 49 ms · schema violation"): never squeezed
        self.status.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)
        self.history_label = QLabel("History", self)
        history_row = QHBoxLayout()
        history_row.addWidget(self.history_label)
        history_row.addWidget(self.history, 1)  # the width the state leaves: an entry keeps its duration
        history_row.addWidget(self.reuse_button)
        # The state beside the history on a wide result pane, above it on a narrow one (``_place_status``).
        self.outcome_row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.outcome_row.setSpacing(OUTCOME_GAP)
        self.outcome_row.addWidget(self.status)
        self.outcome_row.addLayout(history_row, 1)

        self.result_view = ToolResultView(self)
        self.result_view.link_clicked.connect(vm.ctx.links.offer)
        self.result_view.link_read_requested.connect(self.on_result_link_read_requested)
        self.result_split = QSplitter(Qt.Orientation.Vertical, self)
        self.result_split.setObjectName("resultSplitter")
        self.result_split.addWidget(self.result_view)
        self.call_log = CallLogWidget(self.result_split, self.result_view)  # the server's log during the call shown
        self.result_split.setStretchFactor(0, 3)
        self.result_split.setStretchFactor(1, 1)
        self.result_split.setChildrenCollapsible(False)

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 4, 4, 0)
        top_layout.setSpacing(2)  # the form's lines before white space (space budget: see call_layout.py)
        top_layout.addWidget(self._form_holder, 1)
        top_layout.addLayout(buttons)
        top_layout.addStretch(0)  # side by side, the blank space under a short form's Call row (``CallAreaBudget``)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(4, 4, 0, 0)
        bottom_layout.setSpacing(2)  # the result's lines before white space (space budget: see call_layout.py)
        bottom_layout.addLayout(self.outcome_row)
        bottom_layout.addWidget(self.banner)
        # a tool's MCP App, above its result
        self.app_slot = AppSlot(vm.ctx.links, vm.ctx.services.wire, bottom, services=vm.ctx.services)
        bottom_layout.addWidget(self.app_slot)
        bottom_layout.addWidget(self.result_split, 1)
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("callSplitter")
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        splitter.setChildrenCollapsible(False)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        self.budget = CallAreaBudget(self, splitter, self._has_outcome)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self._ticker = QTimer(self)
        self._ticker.setInterval(ELAPSED_TICK_MS)
        self._ticker.timeout.connect(self.on_ticker_timeout)

        vm.calls.started.connect(self.on_calls_started)
        vm.calls.progressed.connect(self.on_calls_progressed)
        vm.calls.logged.connect(self.call_log.on_calls_logged)
        vm.calls.finished.connect(self.on_calls_finished)
        vm.resource_read.connect(self.on_vm_resource_read)
        vm.resource_read_failed.connect(self.on_vm_resource_read_failed)
        self._sync_buttons()

    # ------------------------------------------------------------------ layout

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Lay the form and the result out for the new size (see ``CallAreaBudget.arrange``)."""
        super().resizeEvent(event)
        self.budget.arrange()
        self._place_status()

    def _place_status(self) -> None:
        """Put the call's state beside the history, or above it when form and result are side by side.

        Stacked, the result pane is the call area's width and both fit on one line; side by side it has
        about half of it, and the state and a history entry with its duration do not both fit there.
        """
        beside = self.splitter.orientation() == Qt.Orientation.Horizontal
        direction = QBoxLayout.Direction.TopToBottom if beside else QBoxLayout.Direction.LeftToRight
        if self.outcome_row.direction() != direction:
            self.outcome_row.setDirection(direction)
            self.outcome_row.setSpacing(2 if beside else OUTCOME_GAP)

    def _has_outcome(self) -> bool:
        """Whether the result pane has something of the tool on show: a call running or ended, or its result."""
        return bool(self.status.text()) or self.result_view.result is not None

    # ------------------------------------------------------------------ the tool on show

    def set_tool(self, spec: ToolSpec | None) -> None:
        """Show ``spec`` as the shown connection left it: its arguments, its result on show, its call under way.

        ``None`` shows nothing. The same tool of the same connection again (its list was refreshed)
        keeps the form as it is.
        """
        state = self.vm.state
        cid = state.connection_id if state is not None else None
        shown = (cid, spec.name, spec.input_schema) if spec is not None else (cid, None, None)
        if spec is not None and self.spec is not None and shown == self._shown:
            self.spec = spec
            return
        self._shown = shown
        self.spec = spec
        if self.form is not None:
            self.form.setParent(None)
            self.form.deleteLater()
            self.form = None
        self._form_owner = None
        self.refused = False
        self.banner.clear()
        if spec is not None:
            schema: dict[str, Any] = dict(spec.input_schema or {}) or {"type": "object"}
            self.form = SchemaForm(schema, show_json=True, parent=self._form_holder)
            kept = state.tool_arguments.get(spec.name) if state is not None else None
            if kept is not None and kept != self.form.value():
                self.form.set_value(kept)
            self._form_owner = (state, spec.name) if state is not None else None
            self.form.changed.connect(self.on_form_changed)
            self._form_layout.addWidget(self.form)
        self.budget.form = self.form
        record = state.shown_call(spec.name) if state is not None and spec is not None else None
        self._fill_history(record)
        if record is None:
            self.result_view.clear()
            self.status.clear()
            self.call_log.show_record(None)
        else:
            self._show_record(record)
        self.budget.on_form_resized()  # the result's budget depends on whether there is an outcome
        self._sync_buttons()
        self._sync_running_view()
        self.budget.follow_form()

    def tab_chain(self) -> list[QWidget]:
        """The call area's Tab order: the form's fields, Call, then the secondary controls.

        The secondary ones follow Call: Cancel, the raw JSON, "Send even if invalid", the history, Reuse,
        then the fields' small tool buttons (clear, today, move and remove an item), which would
        otherwise come between one field and the next.
        """
        form = self.form
        fields, field_buttons = form.tab_stops() if form is not None else ([], [])
        json = [form.json_editor] if form is not None and form.json_editor is not None else []
        secondary = [self.cancel_button, *json, self.skip_validation, self.history, self.reuse_button, *field_buttons]
        return [*fields, self.call_button, *secondary]

    def _fill_history(self, select: CallRecord | None = None) -> None:
        self.history.clear()
        records = self.vm.calls.history(self.spec.name) if self.spec is not None else []
        for record in records:
            self.history.addItem(record.label(), record)
        if select is not None and select in records:
            self.history.setCurrentIndex(records.index(select))
        self.history.setEnabled(bool(records))
        self.reuse_button.setEnabled(bool(records))

    def _show_record(self, record: CallRecord) -> None:
        self.banner.clear()
        self.call_log.show_record(record)
        if record.outcome == "running":
            self.result_view.clear()
            self.app_slot.clear()
            self.status.setText("Calling…")
            return
        if record.result is not None:
            self.result_view.show_result(record.result, has_output_schema=record.has_output_schema)
        else:
            self.result_view.clear()
        self.app_slot.show_record(record, self.spec, self.vm.agent_of(record.connection_id))
        if record.error is not None:
            self.banner.show_error(record.error)
        self.status.setText(record.status_text())

    def _is_mine(self, record: CallRecord) -> bool:
        """Whether ``record`` is a call of the tool on show, on the connection on show."""
        return self.spec is not None and (record.tool, record.connection_id) == (
            self.spec.name,
            self.vm.connection_id,
        )

    def _sync_running_view(self) -> None:
        """Progress bar and clock belong to the running call: show them only with its tool and connection."""
        record = self.vm.calls.current
        mine = self.vm.calls.running and record is not None and self._is_mine(record)
        self.progress.setVisible(mine)
        if not mine or record is None:
            self._ticker.stop()
            self._show_progress_message("")
            self.elapsed.clear()
            return
        self.progress.setRange(0, 0)
        self._show_progress_message("")
        if record.progress is not None:
            self.on_calls_progressed(*record.progress)
        self.on_ticker_timeout()
        self._ticker.start()

    def _sync_buttons(self) -> None:
        """Call, Cancel and the note of another tool's call, for the tool on show and its connection's call.

        The rule (as in Postman or Insomnia, where a request's Cancel is on that request's own tab):
        a connection runs one call at a time, and only the running tool's page offers Cancel. Another
        tool's page has Call off, says which tool's call runs, and offers "Go to <tool>" to reach its
        Cancel, so no page's Cancel stops a call the user cannot see.

        The focus stays where the hands are: on Call or Cancel, it moves to whichever of the two is
        enabled now (Call after a call ends or is cancelled, as Qt would otherwise hand it to the next
        widget in the chain, the form's JSON).
        """
        running = self.vm.calls.running
        record = self.vm.calls.current
        mine = running and record is not None and self._is_mine(record)
        elsewhere = record.tool if running and record is not None and not mine else None
        on_buttons = self.call_button.hasFocus() or self.cancel_button.hasFocus()
        self.call_button.setEnabled(self.spec is not None and not running)
        self.cancel_button.setEnabled(mine)
        if on_buttons:
            if self.call_button.isEnabled():
                self.call_button.setFocus(Qt.FocusReason.OtherFocusReason)
            elif self.cancel_button.isEnabled():
                self.cancel_button.setFocus(Qt.FocusReason.OtherFocusReason)
        set_plain_tooltip(self.cancel_button, CANCEL_ELSEWHERE_TIP.format(tool=elsewhere) if elsewhere else CANCEL_TIP)
        self.running_note.setText(f"{elsewhere} is running" if elsewhere else "")
        self.running_note.setVisible(elsewhere is not None)
        self.go_to_running.setText(shown_on_button(f"Go to {elsewhere}") if elsewhere else "")
        self.go_to_running.setVisible(elsewhere is not None)

    # ------------------------------------------------------------------ user intent

    def on_call_button_clicked(self) -> None:
        """Check the arguments against the schema, then call."""
        if self.spec is None or self.form is None or self.vm.calls.running:
            return
        if self.form.errors() and not self.skip_validation.isChecked():
            # one message: the form's own list of the fields to fix, with why nothing was sent under it
            self.refused = True
            self.form.reveal_errors()
            self.form.set_summary_note(REFUSAL_NOTE)
            return
        self._forget_refusal()
        self.vm.calls.call(self.spec.name, self.form.value())

    def on_go_to_running_clicked(self) -> None:
        """Show the tool whose call is under way on this connection (its page has the call's progress and Cancel)."""
        record = self.vm.calls.current
        if self.vm.calls.running and record is not None:
            self.go_to_tool_requested.emit(record.tool)

    def on_form_changed(self) -> None:
        """The arguments changed: keep them for the connection and tool they belong to; a refusal no longer holds."""
        if self.form is not None and self._form_owner is not None:
            state, tool = self._form_owner
            state.tool_arguments[tool] = self.form.value()
        self._forget_refusal()

    def _forget_refusal(self) -> None:
        if self.refused and self.form is not None:
            self.form.set_summary_note("")
        self.refused = False

    def on_history_activated(self, index: int) -> None:
        """Show an earlier result (it stays on show for this tool and connection until the next call)."""
        record = self.history.itemData(index)
        state = self.vm.state
        if isinstance(record, CallRecord):
            if state is not None and state.connection_id == record.connection_id:
                state.shown_calls[record.tool] = record
            self._show_record(record)

    def on_reuse_button_clicked(self) -> None:
        """Put the selected earlier call's arguments back into the form."""
        record = self.history.currentData()
        if isinstance(record, CallRecord) and self.form is not None:
            self.form.set_value(record.arguments)

    def on_result_link_read_requested(self, uri: str) -> None:
        """A resource link in the result wants reading."""
        self.vm.read_resource(uri, "link")

    # ------------------------------------------------------------------ view-model events

    def on_calls_started(self, record: CallRecord) -> None:
        """A call went out: busy bar until the first progress, elapsed clock running."""
        if record.connection_id != self.vm.connection_id:
            return
        self._sync_buttons()
        if not self._is_mine(record):
            return
        self.banner.clear()
        self.result_view.clear()
        self.call_log.show_record(record)
        self.status.setText("Calling…")
        self.budget.on_form_resized()  # a call has an outcome on its way: the result takes its budget
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self._show_progress_message("")
        self.elapsed.setText("0.0 s")
        self._ticker.start()
        self._fill_history(record)

    def on_calls_progressed(self, progress: float, total: float | None, message: str) -> None:
        """Move the bar (busy when the total is unknown) and show the progress message."""
        if not self.progress.isVisibleTo(self):
            return
        if total:
            self.progress.setRange(0, PROGRESS_STEPS)
            self.progress.setValue(int(min(progress / total, 1.0) * PROGRESS_STEPS))
        else:
            self.progress.setRange(0, 0)
        self._show_progress_message(message or (f"{progress:g}/{total:g}" if total else f"{progress:g}"))

    def _show_progress_message(self, text: str) -> None:
        """Show the server's progress message, set off from the clock after it ("step 20/60 · 4.1 s")."""
        self.progress_message.setText(text)
        self.progress_separator.setVisible(bool(text))

    def on_calls_finished(self, record: CallRecord) -> None:
        """Show the result (if its tool and connection are on show, and it is the result on show) and stop the clock."""
        if record.connection_id != self.vm.connection_id:
            return  # another connection's call: its view-model has it for when it is shown again
        self._ticker.stop()
        self.progress.setVisible(False)
        self._show_progress_message("")
        self._sync_buttons()
        if not self._is_mine(record):
            return
        self.elapsed.setText(duration_text((record.duration_ms or 0) / 1000))
        state = self.vm.state
        shown = state.shown_call(record.tool) if state is not None else record
        self._fill_history(shown)
        if shown is not None:
            self._show_record(shown)
        QTimer.singleShot(0, self, self._keep_focused_field_in_view)

    def _keep_focused_field_in_view(self) -> None:
        """The field that keeps the focus (Ctrl+Enter was pressed in it) stays on screen when the result takes room.

        The form then has less height and scrolls; a field scrolled out of view would still take the next key.
        """
        focused = QApplication.focusWidget()
        if self.form is not None and focused is not None and self.form.form_area.isAncestorOf(focused):
            self.form.form_area.ensureWidgetVisible(focused)

    def on_ticker_timeout(self) -> None:
        """Update the elapsed time."""
        if self.progress.isVisibleTo(self):
            self.elapsed.setText(duration_text(self.vm.calls.elapsed_ms() / 1000))

    def on_vm_resource_read(self, purpose: str, uri: str, contents: ResourceContents) -> None:
        """A resource link from a result was read."""
        if purpose == "link":
            self.result_view.show_link_contents(uri, contents)

    def on_vm_resource_read_failed(self, purpose: str, uri: str, view: ErrorView) -> None:
        """Reading a resource link failed."""
        if purpose == "link":
            self.result_view.show_link_error(uri, f"{view.message}")
