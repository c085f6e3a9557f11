"""WireLogWidget: filter bar, toolbar, the wire table and the detail pane; it lays out and forwards."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QFileDialog,
    QHeaderView,
    QMenu,
    QSplitter,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.wire.records import WireRecord
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.panels.wirelog.detail import WireDetailWidget
from workbench.ui.panels.wirelog.filter_bar import WireFilterWidget
from workbench.ui.panels.wirelog.itemmodel import COLUMNS, SUMMARY
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.untrusted import plain_label

STATUS_MS = 8000
"""A toolbar note (a failed jump, an export) goes away after this long or when another row is chosen."""
_COLUMN_WIDTHS = (96, 110, 34, 96, 150, 60, 90, 70)
_BOTTOM_SLACK = 2  # pixels: "at the bottom" tolerates a partly shown last row
DETAIL_MIN_LINES = 8
"""Lines of the selected record's payload the window keeps in view whenever it sizes the wire log.

``height_for_lines`` turns lines into the pane's height; the window's space budget
(``workbench.ui.window_layout``) gives the dock that much at every screen size it can.
"""
DETAIL_SHARE = 0.45
"""The detail's share of the pane's width (the table's is the rest), until the user drags the splitter."""


class WireLogWidget(QWidget):
    """The wire log pane: toolbar, filters (``WireFilterWidget``), the table, and the selected record's detail.

    Its height goes to the detail (the table shows the newest rows in whatever is left beside it):
    the toolbar and the filters share one row when the pane is wide enough for both, the record's
    title, "Jump to …" and "Save as…" sit beside the payload's tabs, so a short dock still shows
    ``DETAIL_MIN_LINES`` lines of the payload.

    Args:
        ctx: The panel context.
        parent: Qt parent.
    """

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = WireLogViewModel(ctx, self)
        self._build_toolbar()
        self.filters = WireFilterWidget(self.vm, self)
        self._build_table()
        self.detail = WireDetailWidget(self.vm, self)
        # side by side: the log is a wide, short dock, so the table keeps its height
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("wireLogSplitter")
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, round(100 * (1 - DETAIL_SHARE)))
        splitter.setStretchFactor(1, round(100 * DETAIL_SHARE))
        self.splitter = splitter
        # one row (toolbar | filters) when the pane is wide enough, else two: see _arrange_bars
        self.bars = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.bars.setContentsMargins(0, 0, 0, 0)
        self.bars.setSpacing(2)
        self.bars.addWidget(self.toolbar, 0)
        self.bars.addWidget(self.filters, 1)
        self.toolbar.installEventFilter(self)
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self.bars)
        layout.addWidget(splitter, 1)
        self._connect()
        self.on_vm_current_changed(None)

    # ---- construction ------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        bar = QToolBar("Wire log", self)
        self.pause_action = QAction("Pause", self, checkable=True)
        self.pause_action.setToolTip("Stop adding new records to the view (they are still recorded)")
        self.follow_action = QAction("Follow", self, checkable=True, checked=True)
        self.follow_action.setToolTip(
            "Keep the newest record in view (scrolling up stops following; scrolling to the bottom resumes)"
        )
        self.new_label = plain_label("", self, selectable=False)
        self.keepalive_label = plain_label("", self, selectable=False)
        self.keepalive_label.setToolTip("SSE keep-alive comments are folded away; show them from the Kind menu")
        self.export_jsonl_button = self._export_button("Export JSONL…", "jsonl")
        self.export_har_button = self._export_button("Export HAR…", "har")
        self.curl_action = QAction("Copy as curl", self)
        self.curl_action.setToolTip("Copy the selected HTTP request as a curl command (secrets stay ***)")
        self.clear_action = QAction("Clear", self)
        self.clear_action.setToolTip("Empty the view (the recording is kept)")
        bar.addAction(self.pause_action)
        bar.addWidget(self.new_label)
        bar.addAction(self.follow_action)
        bar.addWidget(self.keepalive_label)
        bar.addSeparator()
        bar.addWidget(self.export_jsonl_button)
        bar.addWidget(self.export_har_button)
        bar.addAction(self.curl_action)
        bar.addSeparator()
        bar.addAction(self.clear_action)
        self.status_label = plain_label("", self, selectable=False)
        bar.addWidget(self.status_label)
        self._status_timer = QTimer(self)
        self._status_timer.setSingleShot(True)
        self._status_timer.setInterval(STATUS_MS)
        self._status_timer.timeout.connect(self.status_label.clear)
        self.toolbar = bar

    def _export_button(self, text: str, fmt: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip("Export the rows shown (the menu also offers every recorded record)")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(button)
        menu.addAction("Rows shown…", lambda: self.ask_export(fmt, filtered=True))
        menu.addAction("All recorded…", lambda: self.ask_export(fmt, filtered=False))
        button.setMenu(menu)
        button.clicked.connect(lambda: self.ask_export(fmt, filtered=True))
        return button

    def _build_table(self) -> None:
        table = QTableView(self)
        table.setModel(self.vm.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setWordWrap(False)
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        vertical = table.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # never ResizeToContents (qt-async §5.1)
        vertical.setDefaultSectionSize(table.fontMetrics().height() + 4)
        vertical.setVisible(False)
        horizontal = table.horizontalHeader()
        horizontal.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        horizontal.setStretchLastSection(True)
        for column, width in enumerate(_COLUMN_WIDTHS):
            table.setColumnWidth(column, width)
        assert len(_COLUMN_WIDTHS) == SUMMARY == len(COLUMNS) - 1
        self.table = table

    def _connect(self) -> None:
        vm, model = self.vm, self.vm.model
        self.pause_action.toggled.connect(vm.set_paused)
        self.follow_action.toggled.connect(self.on_follow_toggled)
        self.curl_action.triggered.connect(vm.copy_curl)
        self.clear_action.triggered.connect(vm.clear_view)
        self.filters.keepalive_action.toggled.connect(self.on_model_keepalives_changed)
        self.table.selectionModel().currentRowChanged.connect(self.on_table_current_row_changed)
        bar = self.table.verticalScrollBar()
        bar.actionTriggered.connect(self.on_scrollbar_action_triggered)
        bar.rangeChanged.connect(self.on_scrollbar_range_changed)
        model.rowsInserted.connect(self.on_model_rows_inserted)
        model.keepalives_changed.connect(self.on_model_keepalives_changed)
        model.new_count_changed.connect(self.on_model_new_count_changed)
        model.modelReset.connect(self.on_model_reset)
        vm.current_changed.connect(self.on_vm_current_changed)
        vm.row_requested.connect(self.on_vm_row_requested)
        vm.paused_changed.connect(self.pause_action.setChecked)
        vm.follow_changed.connect(self.follow_action.setChecked)
        vm.status.connect(self.on_vm_status)

    # ---- space ------------------------------------------------------------------------------

    def height_for_lines(self, lines: int = DETAIL_MIN_LINES, width: int | None = None) -> int:
        """The pane's height that shows ``lines`` lines of the payload when it is ``width`` wide (default: as now).

        Counted from the parts' size hints, so it holds before the pane was ever shown: the bars
        (one row or two, as ``width`` decides) and the detail pane (``WireDetailWidget.height_for_lines``)
        at its share of ``width`` (the splitter's, else its stretch factors').
        """
        width = self.width() if width is None else width
        one_row = self._one_row(width)
        toolbar, filters = self.toolbar.sizeHint().height(), self.filters.sizeHint().height()
        bars = max(toolbar, filters) if one_row else toolbar + self.bars.spacing() + filters
        own = self._column
        margins = own.contentsMargins()
        detail = self.detail.height_for_lines(lines, width=round(width * self._detail_share()))
        return bars + own.spacing() + detail + margins.top() + margins.bottom()

    def _detail_share(self) -> float:
        """The detail's share of the pane's width: as the splitter has it once shown, else by its stretch factors."""
        sizes = self.splitter.sizes()
        if self.splitter.isVisible() and sum(sizes) > 0:
            return sizes[1] / (sum(sizes) + self.splitter.handleWidth())
        return DETAIL_SHARE

    def _one_row_width(self) -> int:
        """The narrowest pane that takes the toolbar (with its notes) and the filters in one row."""
        filters = self.filters.sizeHint().width()  # the text filter at FILTER_MIN_WIDTH at least
        return self.toolbar.sizeHint().width() + self.bars.spacing() + filters

    def _one_row(self, width: int) -> bool:
        return width >= self._one_row_width()

    def _arrange_bars(self, width: int) -> None:
        """Toolbar and filters side by side when ``width`` takes both, else the filters under the toolbar."""
        direction = QBoxLayout.Direction.LeftToRight if self._one_row(width) else QBoxLayout.Direction.TopToBottom
        if self.bars.direction() != direction:
            self.bars.setDirection(direction)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Put the toolbar and the filters in one row when they fit."""
        self._arrange_bars(event.size().width())
        super().resizeEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """A toolbar note came or went (a long one would hide behind "»"): one row or two again."""
        if watched is self.toolbar and event.type() == QEvent.Type.LayoutRequest:
            self._arrange_bars(self.width())
        return False

    # ---- forwarding --------------------------------------------------------------------------

    # ---- commands the window binds to shortcuts

    def focus_filter(self) -> None:
        """Put the keyboard focus in the text filter (select its text)."""
        self.filters.focus_filter()

    def toggle_pause(self) -> None:
        """Pause or resume adding records to the view (recording goes on)."""
        self.pause_action.toggle()

    def export_jsonl(self) -> None:
        """Ask where to save the shown records as JSONL."""
        self.ask_export("jsonl", filtered=True)

    def export_har(self) -> None:
        """Ask where to save the shown HTTP exchanges as HAR."""
        self.ask_export("har", filtered=True)

    def select_seqs(self, connection_id: str | None, first: int, last: int) -> bool:
        """Select and reveal the first shown record of a seq range (e.g. a handoff hop's records)."""
        return self.vm.select_seqs(connection_id, first, last)

    def on_model_keepalives_changed(self, *_args: object) -> None:
        """Say how many keep-alives are folded away."""
        self.keepalive_label.setText(self.vm.keepalive_note())

    def on_follow_toggled(self, on: bool) -> None:
        """Turn following on or off; turning it on jumps to the newest row."""
        self.vm.set_follow(on)
        if on:
            self.table.scrollToBottom()

    def on_scrollbar_action_triggered(self, _action: int) -> None:
        """The user moved the scroll bar (wheel, drag, keys, clicks): follow only when that lands at the bottom."""
        bar = self.table.verticalScrollBar()
        self.vm.on_user_scrolled(bar.sliderPosition() >= bar.maximum() - _BOTTOM_SLACK)

    def on_scrollbar_range_changed(self, _low: int, high: int) -> None:
        """While following, stay pinned to the bottom whatever grew: rows, a refilter, a shown or resized dock."""
        if self.vm.follow:
            self.table.verticalScrollBar().setValue(high)

    def on_vm_status(self, text: str) -> None:
        """Show a short note in the toolbar for a while."""
        self.status_label.setText(text)
        self._status_timer.start()

    def showEvent(self, event: object) -> None:  # noqa: N802
        """A dock shown for the first time (or again) opens on the newest rows when following."""
        super().showEvent(event)  # type: ignore[arg-type]
        if self.vm.follow:
            self.table.scrollToBottom()

    def on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """Show the detail of the new current row (a note about the previous one goes)."""
        if self.vm.select_row(current.row() if current.isValid() else None) is not None:
            self._status_timer.stop()
            self.status_label.clear()

    def on_model_rows_inserted(self, *_args: object) -> None:
        """Follow the tail."""
        if self.vm.follow:
            self.table.scrollToBottom()

    def on_model_reset(self) -> None:
        """After a refilter or a clear: the shown record stays selected; the newest rows stay in view (following).

        The view-model asks for the row first (it was connected before the view); the view and its
        selection model then reset themselves and unselect it, so the row is selected again here, last.
        """
        current = self.vm.current
        row = self.vm.model.row_of(current) if current is not None else None
        if row is not None:
            self.on_vm_row_requested(row)
        elif self.vm.follow:
            self.table.scrollToBottom()

    def on_model_new_count_changed(self, count: int) -> None:
        """Show how many records wait while paused."""
        self.new_label.setText(f"{count:,} new" if count else "")

    def on_vm_row_requested(self, row: int) -> None:
        """Select and reveal the requested row."""
        index = self.vm.model.index(row, 0)
        selection = self.table.selectionModel()
        selection.setCurrentIndex(index, selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows)
        if self.vm.follow:  # a refilter re-selected the record; the tail stays in view
            self.table.scrollToBottom()
        else:
            self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def on_vm_current_changed(self, record: WireRecord | None) -> None:
        """Show the record in the detail pane; "Copy as curl" only for an HTTP request."""
        self.curl_action.setEnabled(self.vm.can_copy_curl())
        self.detail.show_record(record)

    # ---- exports -----------------------------------------------------------------------------

    def ask_export(self, fmt: str, *, filtered: bool) -> None:
        """Ask for a file (non-modal ``open()``), then export in the background."""
        suffix = "jsonl" if fmt == "jsonl" else "har"
        dialog = QFileDialog(self, f"Export wire log as {suffix.upper()}", f"wire-log.{suffix}")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters([f"{suffix.upper()} files (*.{suffix})", "All files (*)"])
        dialog.fileSelected.connect(lambda path: self.start_export(fmt, path, filtered=filtered))
        present(dialog)

    def start_export(self, fmt: str, path: str, *, filtered: bool) -> None:
        """Export to ``path`` in the background (failures go to the error presenter)."""
        self.vm.start_export(fmt, path, filtered=filtered)

    def closeEvent(self, event: object) -> None:  # noqa: N802
        """Stop following the recorder."""
        self.vm.close()
        super().closeEvent(event)  # type: ignore[arg-type]
