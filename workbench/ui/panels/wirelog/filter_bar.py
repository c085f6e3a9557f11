"""The wire log's filter bar: text, connection, "selected connection only", direction and kind menus."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QMenu, QToolButton, QWidget

from workbench.core.wire.records import Direction, WireKind
from workbench.ui.panels.wirelog.format import DIRECTION_LABELS
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.untrusted import shown

TEXT_DEBOUNCE_MS = 150
FILTER_MIN_WIDTH = 200
"""The text filter's width at least; the toolbar and the filters share one row when both fit beside it."""


def _check_menu[T](parent: QWidget, title: str, items: list[tuple[T, str]]) -> tuple[QToolButton, dict[T, QAction]]:
    """A tool button whose menu has one checkable action per item, all checked."""
    button = QToolButton(parent)
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


class WireFilterWidget(QWidget):
    """The filters over the wire table, each forwarded to the view model as it changes.

    The text applies ``TEXT_DEBOUNCE_MS`` after the last keystroke; the Kind menu also folds SSE
    keep-alive comments away or shows them.

    Args:
        vm: The wire log's view model (it applies the filters and lists the connections).
        parent: Qt parent.
    """

    def __init__(self, vm: WireLogViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
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
        self.direction_button, self.direction_actions = _check_menu(
            self, "Direction", [(d, DIRECTION_LABELS[d]) for d in Direction]
        )
        self.kind_button, self.kind_actions = _check_menu(self, "Kind", [(k, k.value) for k in WireKind])
        kind_menu = self.kind_button.menu()
        kind_menu.addSeparator()
        self.keepalive_action = kind_menu.addAction("SSE keep-alives")
        self.keepalive_action.setCheckable(True)
        self.keepalive_action.setChecked(False)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(4, 0, 4, 0)
        bar.addWidget(self.text_filter, 1)
        bar.addWidget(self.connection_combo)
        bar.addWidget(self.only_selected)
        bar.addWidget(self.direction_button)
        bar.addWidget(self.kind_button)

        self.text_filter.textChanged.connect(self._debounce.start)
        self._debounce.timeout.connect(self.on_debounce_timeout)
        self.connection_combo.currentIndexChanged.connect(self.on_connection_combo_changed)
        self.only_selected.toggled.connect(vm.set_only_selected)
        for action in self.direction_actions.values():
            action.toggled.connect(self.on_direction_toggled)
        for action in self.kind_actions.values():
            action.toggled.connect(self.on_kind_toggled)
        self.keepalive_action.toggled.connect(vm.set_keepalives_shown)
        vm.only_selected_changed.connect(self.on_vm_only_selected_changed)
        vm.connections_changed.connect(self.on_vm_connections_changed)
        self.on_vm_connections_changed()

    def focus_filter(self) -> None:
        """Put the keyboard focus in the text filter (select its text)."""
        self.text_filter.setFocus()
        self.text_filter.selectAll()

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
