"""AuthStepsWidget: the OAuth steps of the selected connection; clicking one asks for its wire records."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QPushButton, QTableView, QVBoxLayout, QWidget

from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.itemmodel import Column
from workbench.ui.panels.authsteps.viewmodel import AuthStepsViewModel
from workbench.ui.untrusted import plain_label

EMPTY_TEXT = "No auth steps for this connection yet (OAuth logins, refreshes and logouts show here)."


class AuthStepsWidget(QWidget):
    """A table of the selected connection's auth steps (stage, ✓/✗ status, detail, time, wire records).

    Steps arrive through ``ctx.bridge.auth_step`` (the connection's own OAuth flow, and logins/logouts
    started from the sidebar). Clicking (or activating) a step with wire records emits
    ``wire_records_requested(connection_id, first_seq, last_seq)``; the window selects them in the wire log.

    Args:
        ctx: The panel context.
        parent: Qt parent.
    """

    wire_records_requested = Signal(str, int, int)

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.viewmodel = AuthStepsViewModel(ctx, self)
        self.viewmodel.wire_records_requested.connect(self.wire_records_requested)
        self.model = self.viewmodel.model

        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setAccessibleName("Auth steps")
        vertical = self.table.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        # Fixed widths from sample text, not ResizeToContents (which measures every row on each insert).
        metrics = self.fontMetrics()
        samples = {
            Column.TIME: "00:00:00.000",
            Column.STAGE: "registration",
            Column.STATUS: "✗ skipped",
            Column.WIRE: "#00000–#00000 (00)",
        }
        for column in Column:
            if column is Column.DETAIL:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
                header.resizeSection(column, metrics.horizontalAdvance(samples[column]) + 16)
        self.empty_label = plain_label(EMPTY_TEXT, self, wrap=True)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Forget the steps listed for this connection")

        bottom = QHBoxLayout()
        bottom.setContentsMargins(4, 0, 4, 2)
        bottom.addWidget(self.empty_label, 1)
        bottom.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

        self.table.clicked.connect(self.on_table_clicked)
        self.table.activated.connect(self.on_table_clicked)
        self.clear_button.clicked.connect(self.viewmodel.clear)
        self.model.modelReset.connect(self.update_state)
        self.model.rowsInserted.connect(self.update_state)
        self.update_state()

    def on_table_clicked(self, index: QModelIndex) -> None:
        """Ask for the clicked step's wire records."""
        if index.isValid():
            self.viewmodel.request_wire_records(index.row())

    def update_state(self) -> None:
        """Say so when there is nothing to list; scroll to the newest step."""
        rows = self.model.rowCount()
        self.empty_label.setText(EMPTY_TEXT if rows == 0 else "Click a step to show its requests in the wire log.")
        self.clear_button.setEnabled(rows > 0)
        if rows:
            self.table.scrollToBottom()
