"""AuthStepsWidget, the Login view: a connection's OAuth steps as they happen, with checks, requests and answers."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.detail import failure_text, step_text
from workbench.ui.panels.authsteps.itemmodel import Column
from workbench.ui.panels.authsteps.viewmodel import AuthStepsViewModel
from workbench.ui.untrusted import plain_label, shown

EMPTY_TEXT = (
    "The Login view shows each step of an OAuth login as it happens: resource and authorization-server "
    "metadata, client registration, the authorization request (PKCE) and callback, the token, refresh and "
    "logout, with what each checked and its requests and answers (tokens ***). Log in to an OAuth profile "
    "from the Connections list to watch one."
)
CHOOSE_TEXT = "Choose a step to see what it checked and its requests and answers."


class AuthStepsWidget(QWidget):
    """The Login view: the selected connection's auth steps, and the chosen step's details beside them.

    Steps arrive through ``ctx.bridge.auth_step`` (the connection's own OAuth flow, and logins/logouts
    started from the sidebar) and are listed as they finish. The step chosen in the table (the newest
    by default; a failed one as soon as it arrives) shows its failure in the error colour (what failed,
    why, what to change), what it checked, and its requests and answers. Activating a step (Enter,
    double-click), clicking it, or "Show in wire log" emits
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
        self.table.setAccessibleName("Login steps")
        vertical = self.table.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        # Fixed widths from sample text, not ResizeToContents (which measures every row on each insert).
        metrics = self.fontMetrics()
        samples = {
            Column.TIME: "00:00:00.000",
            Column.STAGE: "Authorization-server metadata",
            Column.STATUS: "✗ skipped",
            Column.WIRE: "#00000–#00000 (00)",
        }
        for column in Column:
            if column is Column.DETAIL:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            else:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
                header.resizeSection(column, metrics.horizontalAdvance(samples[column]) + 16)
        self.table.setColumnHidden(Column.TIME, True)  # the wire log has the times; room for the step's words

        self.failure_label = plain_label("", self, wrap=True)
        self.failure_label.setObjectName("loginStepFailure")
        self.failure_label.setProperty("banner", "error")  # the theme's error colours (resources/styles)
        self.failure_label.setMargin(6)
        self.failure_label.setVisible(False)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.details.setAccessibleName("Login step details")
        self.details.setPlaceholderText(CHOOSE_TEXT)
        self.wire_button = QPushButton("Show in wire log", self)
        self.wire_button.setToolTip("Select this step's requests and answers in the wire log")
        self.wire_button.setEnabled(False)
        detail_pane = QWidget(self)
        detail_column = QVBoxLayout(detail_pane)
        detail_column.setContentsMargins(0, 0, 0, 0)
        detail_column.setSpacing(2)
        detail_column.addWidget(self.failure_label)
        detail_column.addWidget(self.details, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(detail_pane)
        self.splitter.setStretchFactor(0, 4)
        self.splitter.setStretchFactor(1, 5)

        self.empty_label = plain_label(EMPTY_TEXT, self, wrap=True)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Forget the steps listed for this connection")

        bottom = QHBoxLayout()
        bottom.setContentsMargins(4, 0, 4, 2)
        bottom.addWidget(self.empty_label, 1)
        bottom.addWidget(self.wire_button)
        bottom.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(bottom)

        self.table.clicked.connect(self.on_table_clicked)
        self.table.activated.connect(self.on_table_clicked)
        self.table.selectionModel().currentRowChanged.connect(self.on_table_current_changed)
        self.wire_button.clicked.connect(self.on_wire_button_clicked)
        self.clear_button.clicked.connect(self.viewmodel.clear)
        self.model.modelReset.connect(self.update_state)
        self.model.rowsInserted.connect(self.on_model_rows_inserted)
        self.update_state()

    def current_row(self) -> int:
        """The row of the step whose details are shown (-1: none)."""
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def choose(self, row: int) -> None:
        """Make step ``row`` the current one (selected and detailed)."""
        index = self.model.index(row, Column.STAGE)
        if index.isValid():
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.table.selectionModel().setCurrentIndex(index, flags)
            self.table.scrollTo(index)

    def on_table_clicked(self, index: QModelIndex) -> None:
        """Ask for the clicked (or activated) step's wire records."""
        if index.isValid():
            self.viewmodel.request_wire_records(index.row())

    def on_wire_button_clicked(self) -> None:
        """Ask for the current step's wire records."""
        self.viewmodel.request_wire_records(self.current_row())

    def on_table_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        """Show the step that became current."""
        self.show_step(current.row() if current.isValid() else -1)

    def on_model_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        """Follow the newest step, unless the user is reading an older one; a failed step is always shown."""
        current = self.current_row()
        row = self.model.row(last)
        if row is not None and (row.step.status == "failed" or current < 0 or current >= first - 1):
            self.choose(last)
        self.update_state()

    def show_step(self, number: int) -> None:
        """Fill the detail pane with step ``number`` of the model (-1: none)."""
        row = self.model.row(number)
        if row is None:
            self.failure_label.setVisible(False)
            self.details.setPlainText("")
            self.wire_button.setEnabled(False)
            return
        failure = failure_text(number + 1, row.step)
        self.failure_label.setText(failure)
        self.failure_label.setVisible(bool(failure))
        self.details.setPlainText(shown(step_text(number + 1, row.step)))
        self.wire_button.setEnabled(bool(row.step.wire_seqs) or row.step.record_seq is not None)

    def update_state(self) -> None:
        """Say what the view is for when there is nothing to list; keep the details in step with the table."""
        rows = self.model.rowCount()
        # With nothing listed, the explanation takes the details pane (there is no step to choose); the line
        # under the table then says how to reach a step's records.
        self.details.setPlaceholderText(EMPTY_TEXT if rows == 0 else CHOOSE_TEXT)
        self.empty_label.setText("" if rows == 0 else "Enter or a click on a step shows it in the wire log.")
        self.empty_label.setVisible(rows > 0)
        self.clear_button.setEnabled(rows > 0)
        if rows == 0:
            self.show_step(-1)
