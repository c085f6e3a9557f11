"""The connection dialog's compact group of check boxes: which client capabilities an MCP connection advertises."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGridLayout, QWidget

from workbench.core.profiles.client_capabilities import ClientCapabilitySwitches

_BOXES: tuple[tuple[str, str, str, int, int], ...] = (
    ("sampling", "Sampling", "The server may ask for an LLM completion (sampling/createMessage).", 0, 0),
    ("sampling_tools", "with tools", "Sampling requests may carry tools for the answer to call.", 0, 1),
    ("elicitation_form", "Forms", "The server may ask you to fill in a form (form elicitation).", 0, 2),
    ("elicitation_url", "URLs", "The server may send you to a URL (URL elicitation).", 0, 3),
    ("roots", "Roots", "The server may ask which folders it may use (roots/list).", 1, 0),
    ("tasks", "Tasks", "Calls may become tasks (the 2026 Tasks extension, 2025-11-25 tasks).", 1, 1),
    ("apps", "Apps", "MCP Apps: tools may show an interactive app (only where the window can show apps).", 1, 2),
)
"""Field of ``ClientCapabilitySwitches``, label, tooltip, row, column."""


class ClientCapabilitiesWidget(QWidget):
    """One check box per client capability switch; a capability unchecked is not advertised on connect.

    Signals:
        changed: A box was toggled by the user or by ``set_switches``.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boxes: dict[str, QCheckBox] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        for field, label, tip, row, column in _BOXES:
            box = QCheckBox(label)
            box.setObjectName(f"capability_{field}")
            box.setToolTip(tip)
            box.setChecked(True)
            box.toggled.connect(self.on_box_toggled)
            grid.addWidget(box, row, column)
            self.boxes[field] = box
        grid.setColumnStretch(4, 1)
        self.setToolTip("What this client tells the server it supports; uncheck one to see how the server copes.")

    def set_switches(self, switches: ClientCapabilitySwitches) -> None:
        """Check the boxes of the capabilities ``switches`` turns on."""
        for field, box in self.boxes.items():
            box.setChecked(bool(getattr(switches, field)))
        self._follow_sampling()

    def switches(self) -> dict[str, bool]:
        """The switches as checked, by field (the profile's ``client_capabilities``)."""
        return {field: box.isChecked() for field, box in self.boxes.items()}

    def on_box_toggled(self, _checked: bool) -> None:
        """A box changed: tools in sampling follow sampling; say so."""
        self._follow_sampling()
        self.changed.emit()

    def _follow_sampling(self) -> None:
        # Tools in sampling requests mean nothing without sampling.
        self.boxes["sampling_tools"].setEnabled(self.boxes["sampling"].isChecked())
