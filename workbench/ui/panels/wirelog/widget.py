"""WireLogWidget: filter bar, toolbar, the wire table and the detail pane; it lays out and forwards."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QFontDatabase, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStyle,
    QTableView,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.models import Direction, WireKind, WireRecord
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.panels.wirelog.format import DIRECTION_LABELS, info_text, pretty_payload
from workbench.ui.panels.wirelog.itemmodel import COLUMNS, SUMMARY
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.payload import PayloadView
from workbench.ui.untrusted import PlainLabel, plain_label, set_plain_tooltip, shown

TEXT_DEBOUNCE_MS = 150
STATUS_MS = 8000
"""A toolbar note (a failed jump, an export) goes away after this long or when another row is chosen."""
_COLUMN_WIDTHS = (96, 110, 34, 96, 150, 60, 90, 70)
_BOTTOM_SLACK = 2  # pixels: "at the bottom" tolerates a partly shown last row
DETAIL_MIN_LINES = 8
"""Lines of the selected record's payload the window keeps in view whenever it sizes the wire log.

``height_for_lines`` turns lines into the pane's height; the window's space budget
(``workbench.ui.window_layout``) gives the dock that much at every screen size it can.
"""
FILTER_MIN_WIDTH = 200
"""The text filter's width at least; the toolbar and the filters share one row when both fit beside it."""


class _TitleLabel(PlainLabel):
    """The record's title beside the detail's tabs: one line cut with "…" when it is narrow (whole in its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` (plain, ``shown``), with all of it in the tooltip."""
        super().setText(text)
        set_plain_tooltip(self, text)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A few characters wide: the title takes what the tabs and buttons leave."""
        return QSize(self.fontMetrics().averageCharWidth() * 6, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """See ``sizeHint``."""
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        """Draw the text on one line, cut with "…" to the label's width."""
        painter = QPainter(self)
        area = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)


class _DetailCorner(QWidget):
    """The detail's tab bar corner (title, Jump, Save as…): as wide as the tabs leave, so the title gets the room."""

    def __init__(self, tabs: QTabWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tabs = tabs

    def sizeHint(self) -> QSize:  # noqa: N802
        """Everything the tab bar does not need (``QTabWidget`` gives a corner widget its size hint)."""
        own = super().sizeHint()
        spare = self._tabs.width() - self._tabs.tabBar().sizeHint().width() - 2
        return QSize(max(spare, own.width()), own.height())


class WireLogWidget(QWidget):
    """The wire log pane: every recorded message, filterable, with a detail view of the selected one.

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
        self._stale_tabs: set[int] = set()
        self._build_toolbar()
        self._build_filter_bar()
        self._build_table()
        self._build_detail()
        # side by side: the log is a wide, short dock, so the table keeps its height
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("wireLogSplitter")
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.splitter = splitter
        filters = QWidget(self)
        filters.setLayout(self.filter_bar)
        # one row (toolbar | filters) when the pane is wide enough, else two: see _arrange_bars
        self.bars = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.bars.setContentsMargins(0, 0, 0, 0)
        self.bars.setSpacing(2)
        self.bars.addWidget(self.toolbar, 0)
        self.bars.addWidget(filters, 1)
        self.toolbar.installEventFilter(self)
        self._filters = filters
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self.bars)
        layout.addWidget(splitter, 1)
        self._connect()
        self.on_vm_connections_changed()
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

    def _build_filter_bar(self) -> None:
        self.text_filter = QLineEdit(self)
        self.text_filter.setMinimumWidth(FILTER_MIN_WIDTH)
        self.text_filter.setPlaceholderText("Filter: method, summary or payload text")
        self.text_filter.setClearButtonEnabled(True)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(TEXT_DEBOUNCE_MS)
        self.connection_combo = QComboBox(self)
        self.connection_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.only_selected = QCheckBox("Selected connection only", self)
        self.direction_button, self.direction_actions = self._check_menu(
            "Direction", [(d, DIRECTION_LABELS[d]) for d in Direction]
        )
        self.kind_button, self.kind_actions = self._check_menu("Kind", [(k, k.value) for k in WireKind])
        kind_menu = self.kind_button.menu()
        kind_menu.addSeparator()
        self.keepalive_action = kind_menu.addAction("SSE keep-alives")
        self.keepalive_action.setCheckable(True)
        self.keepalive_action.setChecked(False)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(self.text_filter, 1)
        bar.addWidget(self.connection_combo)
        bar.addWidget(self.only_selected)
        bar.addWidget(self.direction_button)
        bar.addWidget(self.kind_button)
        self.filter_bar = bar

    def _check_menu[T](self, title: str, items: list[tuple[T, str]]) -> tuple[QToolButton, dict[T, QAction]]:
        button = QToolButton(self)
        button.setText(title)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        actions: dict[T, QAction] = {}
        for value, label in items:
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(True)
            actions[value] = action
        button.setMenu(menu)
        return button, actions

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

    def _build_detail(self) -> None:
        detail = QWidget(self)
        # the record's title, "Jump to …" and one "Save as…" (for the payload tab on show) sit in the
        # tab bar's row: the payload keeps the rows a title line and each tab's own button took
        self.tabs = QTabWidget(detail)
        corner = _DetailCorner(self.tabs, detail)
        self.detail_title = _TitleLabel(corner)
        self.jump_button = QPushButton("Jump to response", corner)
        self.save_button = QPushButton("Save as…", corner)
        self.save_button.setToolTip("Save the whole payload of the tab on show to a file")
        head = QHBoxLayout(corner)
        head.setContentsMargins(8, 0, 0, 0)
        head.setSpacing(4)
        head.addWidget(self.detail_title, 1)
        head.addWidget(self.jump_button)
        head.addWidget(self.save_button)
        self.info_view = QPlainTextEdit(detail)
        self.info_view.setReadOnly(True)
        self.info_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.info_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.pretty_view = PayloadView(detail)
        self.raw_view = PayloadView(detail)
        self.tabs.addTab(self.pretty_view, "Payload")
        self.tabs.addTab(self.raw_view, "Raw")
        self.tabs.addTab(self.info_view, "Headers && timing")
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        layout = self._detail_layout = QVBoxLayout(detail)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.tabs, 1)
        self.detail = detail

    def _connect(self) -> None:
        vm, model = self.vm, self.vm.model
        self.pause_action.toggled.connect(vm.set_paused)
        self.follow_action.toggled.connect(self.on_follow_toggled)
        self.curl_action.triggered.connect(vm.copy_curl)
        self.clear_action.triggered.connect(vm.clear_view)
        self.jump_button.clicked.connect(vm.jump_to_partner)
        self.save_button.clicked.connect(self.on_save_button_clicked)
        self.text_filter.textChanged.connect(self._debounce.start)
        self._debounce.timeout.connect(self.on_debounce_timeout)
        self.connection_combo.currentIndexChanged.connect(self.on_connection_combo_changed)
        self.only_selected.toggled.connect(vm.set_only_selected)
        for action in self.direction_actions.values():
            action.toggled.connect(self.on_direction_toggled)
        for action in self.kind_actions.values():
            action.toggled.connect(self.on_kind_toggled)
        self.keepalive_action.toggled.connect(self.on_keepalive_toggled)
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
        vm.only_selected_changed.connect(self.on_vm_only_selected_changed)
        vm.connections_changed.connect(self.on_vm_connections_changed)
        vm.status.connect(self.on_vm_status)
        self.tabs.currentChanged.connect(self.on_tabs_current_changed)

    # ---- space ------------------------------------------------------------------------------

    def height_for_lines(self, lines: int = DETAIL_MIN_LINES, width: int | None = None) -> int:
        """The pane's height that shows ``lines`` lines of the payload when it is ``width`` wide (default: as now).

        Counted from the parts' size hints, so it holds before the pane was ever shown: the bars
        (one row or two, as ``width`` decides), the tab bar (the record's title and buttons beside
        the tabs) and frame, the editor's frame and margins, and a horizontal scroll bar (a payload
        is not wrapped: a megabyte on one line would take minutes to lay out).
        """
        one_row = self._one_row(self.width() if width is None else width)
        toolbar, filters = self.toolbar.sizeHint().height(), self._filters.sizeHint().height()
        bars = max(toolbar, filters) if one_row else toolbar + self.bars.spacing() + filters
        margins = self._detail_layout.contentsMargins()
        pages = max(page.sizeHint().height() for page in (self.pretty_view, self.raw_view, self.info_view))
        tabs_frame = self.tabs.sizeHint().height() - pages
        editor = self.pretty_view.editor
        text = lines * editor.fontMetrics().lineSpacing() + 2 * editor.frameWidth()
        text += 2 * round(editor.document().documentMargin())
        text += editor.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)  # long lines scroll sideways
        own = self._column
        return (
            bars
            + own.spacing()
            + margins.top()
            + tabs_frame
            + text
            + margins.bottom()
            + own.contentsMargins().top()
            + own.contentsMargins().bottom()
        )

    def _one_row_width(self) -> int:
        """The narrowest pane that takes the toolbar (with its notes) and the filters in one row."""
        filters = self._filters.sizeHint().width()  # the text filter at FILTER_MIN_WIDTH at least
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
        self.text_filter.setFocus()
        self.text_filter.selectAll()

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

    def on_debounce_timeout(self) -> None:
        """Apply the typed filter text (150 ms after the last keystroke)."""
        self.vm.set_text_filter(self.text_filter.text())

    def on_connection_combo_changed(self, index: int) -> None:
        """Filter by the chosen connection."""
        if index >= 0:
            self.vm.set_connection_filter(self.connection_combo.itemData(index))

    def on_direction_toggled(self, _checked: bool) -> None:
        """Filter by the checked directions."""
        self.vm.set_directions(d for d, a in self.direction_actions.items() if a.isChecked())

    def on_kind_toggled(self, _checked: bool) -> None:
        """Filter by the checked kinds."""
        self.vm.set_kinds(k for k, a in self.kind_actions.items() if a.isChecked())

    def on_keepalive_toggled(self, shown: bool) -> None:
        """Show or fold away SSE keep-alive comments."""
        self.vm.set_keepalives_shown(shown)
        self.on_model_keepalives_changed()

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

    def on_vm_only_selected_changed(self, on: bool) -> None:
        """Mirror the toggle; the combo is unused while it is on."""
        self.only_selected.setChecked(on)
        self.connection_combo.setEnabled(not on)

    def on_vm_connections_changed(self) -> None:
        """Refill the connection combo, keeping the current choice."""
        combo = self.connection_combo
        chosen = combo.currentData()
        combo.blockSignals(True)
        try:
            combo.clear()
            combo.addItem("All connections", None)
            for cid, name in self.vm.connection_choices():
                combo.addItem(shown(name), cid)  # item views and combos show text literally
            found = combo.findData(chosen) if chosen is not None else 0
            combo.setCurrentIndex(max(found, 0))
        finally:
            combo.blockSignals(False)
        if chosen is not None and combo.currentData() is None:
            self.vm.set_connection_filter(None)

    def on_vm_current_changed(self, record: WireRecord | None) -> None:
        """Show the record in the detail pane (all text literal)."""
        vm = self.vm
        self.curl_action.setEnabled(vm.can_copy_curl())
        jump = vm.jump_text()
        self.jump_button.setText(jump or "Jump to response")
        self.jump_button.setEnabled(bool(jump))
        if record is None:
            self.detail_title.setText("Select a record to see it here.")
            self.info_view.setPlainText("")
            self._fill(self.pretty_view, "")
            self._fill(self.raw_view, "")
            self._stale_tabs.clear()
            self._sync_save_button()
            return
        self.detail_title.setText(record.summary[:500])
        self.info_view.setPlainText(info_text(record, vm.connection_name(record.connection_id), vm.partner()))
        self._stale_tabs = {self.tabs.indexOf(self.pretty_view), self.tabs.indexOf(self.raw_view)}
        self.on_tabs_current_changed(self.tabs.currentIndex())

    def on_tabs_current_changed(self, index: int) -> None:
        """Fill a payload tab only when it is shown (a megabyte payload costs one tab, not two)."""
        record = self.vm.current
        if record is not None and index in self._stale_tabs:
            self._stale_tabs.discard(index)
            payload = record.payload.lstrip()[:1] in ("{", "[")
            name = f"wire-{record.seq}.json" if payload else f"wire-{record.seq}.txt"
            if self.tabs.widget(index) is self.pretty_view:
                self._fill(self.pretty_view, pretty_payload(record), name)
            elif self.tabs.widget(index) is self.raw_view:
                self._fill(self.raw_view, record.payload, name)
        self._sync_save_button()

    @staticmethod
    def _fill(view: PayloadView, text: str, name: str = "payload.txt") -> None:
        """Show ``text`` in a payload tab; its own "Save as…" stays hidden (the detail's row has one)."""
        view.set_text(text, suggested_name=name)
        view.save_button.hide()

    def _sync_save_button(self) -> None:
        page = self.tabs.currentWidget()
        self.save_button.setEnabled(isinstance(page, PayloadView) and bool(page.text()))

    def on_save_button_clicked(self) -> None:
        """Ask where to save the whole payload of the tab on show."""
        page = self.tabs.currentWidget()
        if isinstance(page, PayloadView) and page.text():
            page.on_save_clicked()

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
