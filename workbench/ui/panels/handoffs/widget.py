"""HandoffWidget: the chain picker, the swimlane diagram, replay controls and the hop detail pane."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QLabel,
    QMenu,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import WorkbenchError
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.names import connection_name
from workbench.ui.panels.handoffs.diagram import DiagramChange, Hop
from workbench.ui.panels.handoffs.eliding_combo import ElidingComboBox
from workbench.ui.panels.handoffs.empty_state import HandoffEmptyWidget
from workbench.ui.panels.handoffs.hop_detail import HopDetailWidget
from workbench.ui.panels.handoffs.items import FIRST_ROW, ROW_HEIGHT
from workbench.ui.panels.handoffs.scene import HandoffScene
from workbench.ui.panels.handoffs.view import ZOOM_STEP, HandoffGraphicsView
from workbench.ui.panels.handoffs.viewmodel import HandoffViewModel
from workbench.ui.untrusted import plain_label, plain_tooltip, shown

FIT_MIN = 0.7
"""Fit never zooms out below this: lane names and hop labels stay readable (the rest scrolls)."""
FIT_MAX = 1.0
"""Fit never enlarges a small chain beyond actual size."""
CHAIN_COMBO_CHARS = 32
"""The chain picker's width at least (in characters); it takes the toolbar's spare width too, and elides."""
DIAGRAM_MIN_ROWS = 4
"""The diagram's budget: the lanes' heads and this many hops stay in view when the window sizes the wire log.

``budget_height`` turns it into the view's height; the window (``window_layout``'s space budget) never
lets the wire log, opened from an arrow or otherwise, take the handoff view below it, and the
selected arrow stays in view when the diagram gets shorter.
"""


class HandoffWidget(QWidget):
    """The Handoff view: a live swimlane sequence diagram of multi-agent chains, with replay.

    Args:
        ctx: The panel context.
        parent: Qt parent.

    While there is no chain to show, an empty state (``HandoffEmptyWidget``) takes the diagram's
    place: what a handoff is and how to start one.

    Signals:
        wire_records_requested(str, int, int): The user clicked a hop that has wire records:
            ``(connection id, first seq, last seq)``; the window selects them in the wire log.
        scenario_requested(): The user asked for the demo scenario (the empty state's button).
    """

    wire_records_requested = Signal(str, int, int)
    scenario_requested = Signal()

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self.vm = HandoffViewModel(ctx, self)
        self.scene = HandoffScene(self)
        self.view = HandoffGraphicsView(self.scene, self)
        self.view.setObjectName("handoffView")
        self._build_toolbar()
        self.detail = HopDetailWidget(self)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("handoffSplitter")
        splitter.addWidget(self.view)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        self.empty = HandoffEmptyWidget(self)
        self.empty.scenario_requested.connect(self.scenario_requested)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.empty)
        self.pages.addWidget(splitter)
        self._splitter = splitter
        self.status_label = plain_label("", self, selectable=False)
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.status_label)
        self._connect()
        self.on_vm_chains_changed()
        self.on_vm_current_chain_changed(self.vm.current_key)
        self.on_vm_replay_changed(0, 0)
        self.on_vm_hop_selected(None)

    # ---- building ----------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        bar = QToolBar(self)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.chain_combo = ElidingComboBox(bar)
        self.chain_combo.setObjectName("chainCombo")
        self.chain_combo.setMinimumContentsLength(CHAIN_COMBO_CHARS)
        self.chain_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # the spare width of the toolbar goes to the titles, so "Replay: Plan a weekend in Lisbon" shows whole
        self.chain_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        bar.addWidget(self.chain_combo)
        self.follow_action = bar.addAction("Follow")
        self.follow_action.setCheckable(True)
        self.follow_action.setChecked(True)
        self.follow_action.setToolTip("Show each new chain as it starts and scroll to its newest hop")
        bar.addSeparator()
        self.zoom_in_action = bar.addAction("Zoom in")
        self.zoom_out_action = bar.addAction("Zoom out")
        self.zoom_fit_action = bar.addAction("Fit")
        self.zoom_reset_action = bar.addAction("100%")
        bar.addSeparator()
        self.export_button = QToolButton(bar)
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        self.copy_mermaid_action = menu.addAction("Copy as Mermaid")
        self.export_mermaid_action = menu.addAction("Save as Mermaid (.mmd)…")
        self.export_png_action = menu.addAction("Save as PNG…")
        self.export_svg_action = menu.addAction("Save as SVG…")
        menu.addSeparator()
        self.save_chain_action = menu.addAction("Save chain for replay (.jsonl)…")
        self.export_button.setMenu(menu)
        bar.addWidget(self.export_button)
        bar.addSeparator()
        self.replay_current_action = bar.addAction("Replay")
        self.replay_current_action.setToolTip(
            "Draw the chain shown again, step by step, from what was recorded (no agent is called)"
        )
        self.open_replay_action = bar.addAction("Replay file…")
        self.open_replay_action.setToolTip("Load a recorded chain (JSON Lines) and step through it")
        self.step_action = bar.addAction("Step ▶")
        self.play_action = bar.addAction("Play")
        self.play_action.setCheckable(True)
        self.reset_action = bar.addAction("Reset")
        self.replay_label = QLabel(bar)
        self.replay_label.setTextFormat(Qt.TextFormat.PlainText)
        bar.addWidget(self.replay_label)
        self.toolbar = bar

    def _connect(self) -> None:
        vm = self.vm
        self.chain_combo.currentIndexChanged.connect(self.on_chain_combo_changed)
        self.follow_action.toggled.connect(vm.set_follow)
        self.zoom_in_action.triggered.connect(self.zoom_in)
        self.zoom_out_action.triggered.connect(self.zoom_out)
        self.zoom_fit_action.triggered.connect(self.zoom_fit)
        self.zoom_reset_action.triggered.connect(self.zoom_reset)
        self.copy_mermaid_action.triggered.connect(vm.copy_mermaid)
        self.export_mermaid_action.triggered.connect(lambda: self.ask_save("mmd"))
        self.export_png_action.triggered.connect(lambda: self.ask_save("png"))
        self.export_svg_action.triggered.connect(lambda: self.ask_save("svg"))
        self.save_chain_action.triggered.connect(lambda: self.ask_save("jsonl"))
        self.replay_current_action.triggered.connect(self.on_replay_current_action_triggered)
        self.open_replay_action.triggered.connect(self.ask_open_replay)
        self.step_action.triggered.connect(vm.step)
        self.play_action.triggered.connect(self.on_play_action_triggered)
        self.reset_action.triggered.connect(vm.reset)
        self.detail.wire_button.clicked.connect(self.on_wire_button_clicked)
        self.view.arrow_clicked.connect(self.on_view_arrow_clicked)
        self.view.scrolled.connect(self.on_view_scrolled)
        self.view.resized.connect(self.on_view_resized)
        vm.chains_changed.connect(self.on_vm_chains_changed)
        vm.current_chain_changed.connect(self.on_vm_current_chain_changed)
        vm.diagram_changed.connect(self.on_vm_diagram_changed)
        vm.hop_selected.connect(self.on_vm_hop_selected)
        vm.wire_records_requested.connect(self.wire_records_requested)
        vm.follow_changed.connect(self.follow_action.setChecked)
        vm.replay_changed.connect(self.on_vm_replay_changed)
        vm.playing_changed.connect(self.play_action.setChecked)
        vm.status.connect(self.status_label.setText)

    # ---- space ------------------------------------------------------------------------------

    def budget_height(self, rows: int = DIAGRAM_MIN_ROWS) -> int:
        """The view's height that shows the lanes' heads and ``rows`` hops at the current zoom (at most actual size).

        Counted from the parts' size hints (toolbar, status line, the view's frame and a horizontal
        scroll bar), so the window can keep it before it shrinks the view.
        """
        level = min(self.view.zoom_level(), FIT_MAX)
        diagram = round((FIRST_ROW + rows * ROW_HEIGHT) * level)
        frame = 2 * self.view.frameWidth() + self.view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        own = self._column
        margins = own.contentsMargins()
        return (
            margins.top()
            + self.toolbar.sizeHint().height()
            + own.spacing()
            + diagram
            + frame
            + own.spacing()
            + self.status_label.sizeHint().height()
            + margins.bottom()
        )

    def on_view_resized(self) -> None:
        """The diagram got shorter or taller: the selected arrow stays in view."""
        selected = [item for item in self.scene.arrow_items if item.isSelected()]
        if selected:
            shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
            row = selected[0].sceneBoundingRect()
            self.view.ensureVisible(QRectF(shown.left() + 1, row.top(), 1, row.height()), 0, 20)

    # ---- commands the window may bind --------------------------------------------------------

    def set_scenario_offered(self, offered: bool, *, enabled: bool = True) -> None:
        """Offer the demo scenario in the empty state (a button, enabled unless it runs already)."""
        self.empty.set_offered(offered, enabled=enabled)

    def zoom_in(self) -> None:
        """Zoom in one step."""
        self.view.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        """Zoom out one step."""
        self.view.zoom_by(1 / ZOOM_STEP)

    def fit_level(self) -> float:
        """The scale Fit chooses, kept within ``FIT_MIN``…``FIT_MAX`` so labels stay readable.

        The whole chain when it fits at a readable scale; else every lane across (the time axis
        scrolls); else ``FIT_MIN`` (both scroll).
        """
        rect = self.scene.sceneRect()
        viewport = self.view.viewport().rect()
        if rect.isEmpty() or viewport.isEmpty():
            return 1.0
        across = (viewport.width() - 2) / rect.width()
        down = (viewport.height() - 2) / rect.height()
        whole = min(across, down)
        level = whole if whole >= FIT_MIN else across
        return max(FIT_MIN, min(FIT_MAX, level))

    def zoom_fit(self) -> None:
        """Fit the chain into the view as far as its labels stay readable (see ``fit_level``).

        The view then starts at the chain's beginning: the lanes' heads and the first hop (a chain
        taller than the view scrolls down from there; Follow takes it to each new hop).
        """
        level = self.fit_level()
        self.view.setTransform(QTransform.fromScale(level, level))
        self.view.horizontalScrollBar().setValue(self.view.horizontalScrollBar().minimum())
        self.view.verticalScrollBar().setValue(self.view.verticalScrollBar().minimum())
        self.on_view_scrolled()

    def zoom_reset(self) -> None:
        """Back to actual size."""
        self.view.resetTransform()
        self.on_view_scrolled()

    def export_png(self, path: str, *, scale: float = 1.0) -> None:
        """Save the chain shown as PNG (a failure is reported and shown in the status line)."""
        self._guarded(lambda: self.scene.export_png(path, scale=scale), f"Saved the diagram to {path}.", "PNG")

    def export_svg(self, path: str) -> None:
        """Save the chain shown as SVG (a failure is reported and shown in the status line)."""
        self._guarded(lambda: self.scene.export_svg(path), f"Saved the diagram to {path}.", "SVG")

    def _guarded(self, action: Callable[[], object], done: str, what: str) -> None:
        try:
            action()
        except WorkbenchError as err:
            self.status_label.setText(err.message)
            self._ctx.errors.report(err, f"exporting the handoff diagram as {what}")
            return
        self.status_label.setText(done)

    def ask_save(self, fmt: str) -> None:
        """Ask where to save (non-modal ``open()``): ``png``, ``svg``, ``mmd`` or ``jsonl``."""
        titles = {"png": "PNG image", "svg": "SVG image", "mmd": "Mermaid", "jsonl": "Recorded chain"}
        dialog = QFileDialog(self, f"Save the chain as {titles[fmt]}", f"handoff-chain.{fmt}")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters([f"{titles[fmt]} (*.{fmt})", "All files (*)"])
        dialog.fileSelected.connect(lambda path: self.save_as(fmt, path))
        present(dialog)

    def save_as(self, fmt: str, path: str) -> None:
        """Save the chain shown in ``fmt`` to ``path`` (files are written in the background)."""
        if fmt == "png":
            self.export_png(path)
        elif fmt == "svg":
            self.export_svg(path)
        elif fmt == "mmd":
            spawn(self.vm.save_mermaid(path), doing="saving the handoff chain as Mermaid")
        elif fmt == "jsonl":
            spawn(self.vm.save_chain(path), doing="saving the handoff chain for replay")

    def ask_open_replay(self) -> None:
        """Ask for a recorded chain and load it for replay."""
        dialog = QFileDialog(self, "Replay a recorded chain")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(["Recorded chains (*.jsonl *.json)", "All files (*)"])
        dialog.fileSelected.connect(self.open_replay)
        present(dialog)

    def open_replay(self, path: str) -> None:
        """Load ``path`` for replay in the background (a bad file is reported)."""
        spawn(self.vm.open_replay(path), doing="loading a recorded handoff chain")

    # ---- forwarding --------------------------------------------------------------------------

    def on_chain_combo_changed(self, index: int) -> None:
        """Show the chosen chain."""
        if index >= 0:
            self.vm.set_current(self.chain_combo.itemData(index))

    def on_replay_current_action_triggered(self) -> None:
        """Replay the chain shown."""
        self.vm.replay_current()

    def on_play_action_triggered(self, checked: bool) -> None:
        """Play or pause the replay."""
        if checked:
            self.vm.play()
        else:
            self.vm.pause()
        self.play_action.setChecked(self.vm.playing)

    def on_wire_button_clicked(self) -> None:
        """Ask again for the selected hop's wire records."""
        self.vm.request_wire_records()

    def on_view_arrow_clicked(self, index: int) -> None:
        """Select the clicked arrow's hop."""
        self.scene.select_arrow(index)
        self.vm.select_arrow(index)

    def on_vm_chains_changed(self) -> None:
        """Refill the chain picker, keeping the chain shown selected."""
        combo = self.chain_combo
        combo.blockSignals(True)
        try:
            combo.clear()
            for key, title in self.vm.chain_choices():
                combo.addItem(shown(title), key)  # combos show text literally
                combo.setItemData(combo.count() - 1, plain_tooltip(title), Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(combo.findData(self.vm.current_key) if self.vm.current_key is not None else -1)
        finally:
            combo.blockSignals(False)
        combo.sync_tooltip()
        self.pages.setCurrentWidget(self._splitter if combo.count() else self.empty)

    def on_vm_current_chain_changed(self, key: str | None) -> None:
        """Draw the chain now shown (the one full build; later events only add items)."""
        self.replay_current_action.setEnabled(self.vm.can_replay_current())
        self.scene.show_diagram(self.vm.chain(key))
        index = self.chain_combo.findData(key) if key is not None else -1
        if index != self.chain_combo.currentIndex():
            self.chain_combo.blockSignals(True)
            self.chain_combo.setCurrentIndex(index)
            self.chain_combo.blockSignals(False)
            self.chain_combo.sync_tooltip()
        self._scroll_to_newest()

    def on_vm_diagram_changed(self, key: str, change: DiagramChange) -> None:
        """Add what an event drew to the scene when its chain is shown."""
        if key != self.vm.current_key:
            return
        self.replay_current_action.setEnabled(True)  # the chain shown has events now
        added = self.scene.apply(change)
        if added and (self.vm.follow or self.vm.replay is not None):
            self._scroll_to_newest()

    def _scroll_to_newest(self) -> None:
        """Scroll down to the newest arrow (vertically only: the user's horizontal place stays)."""
        if not self.scene.arrow_items:
            return
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        row = self.scene.arrow_items[-1].sceneBoundingRect()
        self.view.ensureVisible(QRectF(shown.left() + 1, row.top(), 1, row.height()), 0, 40)

    def on_view_scrolled(self) -> None:
        """Keep the lane headers at the top of the view while the arrows scroll."""
        self.scene.pin_headers(self.view.mapToScene(QPoint(0, 0)).y())

    def on_vm_hop_selected(self, hop: Hop | None) -> None:
        """Show the hop's facts (every text plain); no hop: no arrow highlighted."""
        if hop is None:
            self.scene.select_arrow(None)
        self.detail.show_hop(hop, lambda cid: connection_name(self._ctx.services, cid))

    def on_vm_replay_changed(self, position: int, total: int) -> None:
        """Enable the replay controls while a replay is loaded; show where it is."""
        loaded = self.vm.replay is not None
        self.step_action.setEnabled(loaded and position < total)
        self.play_action.setEnabled(loaded)
        self.reset_action.setEnabled(loaded and position > 0)
        self.replay_label.setText(f" {position}/{total} " if loaded else "")

    def closeEvent(self, event: object) -> None:  # noqa: N802
        """Stop listening to the bus."""
        self.vm.close()
        super().closeEvent(event)  # type: ignore[arg-type]
