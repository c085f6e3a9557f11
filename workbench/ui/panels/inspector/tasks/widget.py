"""The tasks tab: the agent's tasks in a table, the selected task's details, and Get / Cancel / Resubscribe."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QFontDatabase, QHideEvent, QResizeEvent, QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.snapshot import TaskSnapshot, TaskSummary
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.rowtree import RowTree
from workbench.ui.panels.inspector.tasks.itemmodel import A2A_COLUMNS, TASK_ID_ROLE, TaskTableModel
from workbench.ui.panels.inspector.tasks.viewmodel import TasksViewModel
from workbench.ui.payload import PayloadView
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label, set_plain_tooltip, shown

ROW_HEIGHT = 22
COLUMN_WIDTHS = {"ID": 220, "Context": 220, "Tool": 200, "State": 120, "Created": 100, "Updated": 100}
"""First widths of the columns (ids are UUIDs, elided in the middle; the last column takes the rest).
The state column is never narrower than its longest state."""
LONGEST_STATE = "input-required"
TABLE_MAX_SHARE = 0.5
"""The most of the tab's height the task table takes; below its rows the selected task's details get the rest."""
TABLE_MIN_ROWS = 2
"""Rows of room the task table keeps however few tasks there are."""
RESUBSCRIBE_TIP = "Follow the task's events live"
ENDED_TIP = "The task has ended ({state}): there are no more events to follow"
"""Resubscribe's tooltip while it is off for a task in a final state (cancelled, completed, failed)."""


class TasksWidget(QWidget):
    """Lays out the task table and detail views and forwards the user's intent to the view-model.

    Args:
        vm: The tasks' view-model (it works on any agent's ``tasks``).
        parent: Qt parent.
        columns: The table's columns (``itemmodel.A2A_COLUMNS`` for A2A, ``MCP_COLUMNS`` for MCP).
    """

    def __init__(
        self, vm: TasksViewModel, parent: QWidget | None = None, *, columns: tuple[str, ...] = A2A_COLUMNS
    ) -> None:
        super().__init__(parent)
        self.vm = vm
        self.listing_label = plain_label("", self, wrap=True)
        self.refresh_button = QPushButton("Refresh", self)
        self.busy_label = plain_label("", self)
        self.error_label = plain_label("", self, wrap=True)
        set_tone(self.error_label, "error")
        self.error_label.hide()

        self.model = TaskTableModel(self, columns)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        padding = 3 * self.table.fontMetrics().horizontalAdvance("M")
        state_width = self.table.fontMetrics().horizontalAdvance(LONGEST_STATE) + padding
        for column, title in enumerate(columns[:-1]):
            width = COLUMN_WIDTHS.get(title, 120)
            self.table.setColumnWidth(column, max(width, state_width) if title == "State" else width)
        self.table.selectionModel().selectionChanged.connect(self.on_table_selection_changed)

        self.get_button = QPushButton("Get", self)
        self.get_button.setToolTip("Fetch the task from the agent again")
        self.cancel_button = QPushButton("Cancel task", self)
        self.cancel_button.setToolTip("Ask the agent to cancel the task")
        self.resubscribe_button = QPushButton("Resubscribe", self)
        self.resubscribe_button.setToolTip(RESUBSCRIBE_TIP)
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setToolTip("Stop following the task (it keeps running on the agent)")

        self.detail_tree = RowTree(self)
        self.detail_tree.setColumnWidth(0, 280)
        self.events_view = QPlainTextEdit(self)
        self.events_view.setReadOnly(True)
        self.events_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.events_view.setPlaceholderText("Resubscribe to follow the selected task's events live.")
        self.json_view = PayloadView(self)
        self.detail_tabs = QTabWidget(self)
        self.detail_tabs.addTab(self.detail_tree, "Details")
        self.detail_tabs.addTab(self.events_view, "Live events")
        self.detail_tabs.addTab(self.json_view, "JSON")

        top = QHBoxLayout()
        top.addWidget(self.listing_label, 1)
        top.addWidget(self.busy_label)
        top.addWidget(self.refresh_button)
        actions = QHBoxLayout()
        for button in (self.get_button, self.cancel_button, self.resubscribe_button, self.stop_button):
            actions.addWidget(button)
        actions.addStretch(1)
        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addLayout(actions)
        lower_layout.addWidget(self.detail_tabs, 1)
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(lower)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        self._user_split = False  # once the user drags the handle, their split is kept
        splitter.splitterMoved.connect(self.on_splitter_moved)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.error_label)
        layout.addWidget(splitter, 1)

        self.refresh_button.clicked.connect(vm.refresh)
        self.get_button.clicked.connect(vm.fetch_task)
        self.cancel_button.clicked.connect(vm.cancel_task)
        self.resubscribe_button.clicked.connect(self.on_resubscribe_clicked)
        self.stop_button.clicked.connect(vm.stop_subscription)
        vm.tasks_changed.connect(self.on_vm_tasks_changed)
        vm.task_changed.connect(self.on_vm_task_changed)
        vm.listing_changed.connect(self.listing_label.setText)
        vm.busy_changed.connect(self.on_vm_busy_changed)
        vm.error_shown.connect(self.on_vm_error_shown)
        vm.events_appended.connect(self.on_vm_events_appended)
        vm.events_cleared.connect(self.events_view.clear)
        vm.subscription_changed.connect(self.on_vm_subscription_changed)
        self._update_buttons(None)

    # ------------------------------------------------------------------ on screen or not

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        """On screen (its tab chosen, the window shown): re-read the tasks now and every few seconds."""
        super().showEvent(event)
        self.vm.set_polling(True)
        self.fit_table()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Share the new height out again: the table as tall as its rows, the details the rest."""
        super().resizeEvent(event)
        self.fit_table()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        """Off screen: stop polling."""
        super().hideEvent(event)
        self.vm.set_polling(False)

    # ------------------------------------------------------------------ from the view-model

    def on_vm_tasks_changed(self, rows: list[TaskSummary]) -> None:
        """Show the rows and keep the selected task selected."""
        grew = len(rows) != self.model.rowCount()
        self.model.set_rows(rows)
        if grew:
            self.fit_table()
        row = self.model.row_of(self.vm.selected_task_id)
        selection = self.table.selectionModel()
        current = selection.selectedRows()
        if row >= 0 and not (current and current[0].row() == row):
            self.table.selectRow(row)

    def on_vm_task_changed(self, view: TaskSnapshot | None) -> None:
        """Show the selected task's details and JSON."""
        if view is None:
            self.detail_tree.set_sections(())
            self.json_view.set_text("")
        else:
            self.detail_tree.set_sections(view.sections)
            self.json_view.set_text(view.json, suggested_name=f"task-{view.task_id}.json")
        self._update_buttons(view)

    def on_vm_busy_changed(self, doing: str) -> None:
        """Say what runs."""
        self.busy_label.setText(f"{doing[:1].upper()}{doing[1:]}…" if doing else "")

    def on_vm_error_shown(self, error: ErrorView | None) -> None:
        """Show or hide the failure banner."""
        if error is None:
            self.error_label.hide()
            self.error_label.clear()
            return
        text = f"{error.title}: {error.message}" + (f" — {error.hint}" if error.hint else "")
        self.error_label.setText(text)
        self.error_label.show()

    def on_vm_events_appended(self, lines: list[str]) -> None:
        """Append live event lines (one insert per batch; an agent's text ``shown``)."""
        cursor = self.events_view.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        prefix = "\n" if not self.events_view.document().isEmpty() else ""
        cursor.insertText(prefix + shown("\n".join(lines)))
        bar = self.events_view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def on_vm_subscription_changed(self, running: bool) -> None:
        """Enable Stop while following a task."""
        self.stop_button.setEnabled(running)

    # ------------------------------------------------------------------ from the user

    def on_table_selection_changed(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        """Select the task in the view-model."""
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.vm.select_task(str(self.model.data(rows[0], TASK_ID_ROLE)))

    def on_splitter_moved(self, pos: int, index: int) -> None:
        """The user dragged the handle: keep their split from now on."""
        self._user_split = True

    def fit_table(self) -> None:
        """Make the table as tall as its header and rows; the selected task's details take the rest.

        At least ``TABLE_MIN_ROWS`` rows of room, at most ``TABLE_MAX_SHARE`` of the splitter (more
        rows scroll). A split the user dragged is kept.
        """
        total = sum(self.splitter.sizes())
        if self._user_split or total <= 0:
            return
        table = self.table
        rows = max(self.model.rowCount(), TABLE_MIN_ROWS)
        need = table.horizontalHeader().sizeHint().height() + rows * ROW_HEIGHT + 2 * table.frameWidth()
        scroll = table.horizontalScrollBar()
        if scroll.maximum() > 0:  # columns wider than the view: the bar takes a row's room
            need += scroll.sizeHint().height()
        height = min(need, int(total * TABLE_MAX_SHARE))
        if self.splitter.sizes()[0] != height:
            self.splitter.setSizes([height, total - height])

    def on_resubscribe_clicked(self) -> None:
        """Follow the selected task and show its live events."""
        if self.vm.resubscribe() is not None:
            self.detail_tabs.setCurrentWidget(self.events_view)

    def _update_buttons(self, view: TaskSnapshot | None) -> None:
        """Get for any task; Cancel and Resubscribe only for one that has not ended (an ended one says why not)."""
        has = view is not None
        running = view is not None and not view.summary.terminal
        self.get_button.setEnabled(has)
        self.resubscribe_button.setEnabled(running)
        ended = view.summary.state if view is not None and view.summary.terminal else None
        set_plain_tooltip(self.resubscribe_button, ENDED_TIP.format(state=ended) if ended else RESUBSCRIBE_TIP)
        self.cancel_button.setEnabled(running)
        self.stop_button.setEnabled(self.vm.subscribed)
