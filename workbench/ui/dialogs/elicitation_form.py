"""The dialog answering an MCP form elicitation: who asks, their message, a form; accept, decline or cancel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse
from workbench.ui.dialog_rules import first_input
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.untrusted import plain_label, plain_tooltip, shown

DECLINED = 2
"""Result code of a declined elicitation (accept is ``QDialog.Accepted``, cancel ``QDialog.Rejected``)."""

EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
LONG_MESSAGE = 600
"""Messages longer than this (characters) are shown in a scrolling area."""


def message_view(text: str, *, max_lines: int = 8) -> tuple[QWidget, QLabel]:
    """A plain-text label for a peer's message; long messages scroll instead of growing the dialog.

    Returns ``(widget to add, the label)``.
    """
    label = plain_label(text, wrap=True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    if len(text) <= LONG_MESSAGE and text.count("\n") < max_lines:
        return label, label
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(label)
    area.setFixedHeight(label.fontMetrics().lineSpacing() * max_lines)
    return area, label


class ElicitationFormDialog(QDialog):
    """Asks the user to fill in the form a server requested (MCP ``elicitation/create``, form mode).

    Accept (also Ctrl+Enter) is enabled only while the form is valid (beside it, while it is not, which
    fields still need a value or a fix, by their labels) and validates again before answering; Decline
    answers "no"; Cancel, Esc or closing the window answer "cancel". Open with ``open()`` and await
    ``asyncutil.open_dialog``; then read ``response()``.

    Signals:
        shown: The dialog became visible.
    """

    shown = Signal()

    def __init__(self, request: ElicitationRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self._response = ElicitationResponse("cancel")
        who = request.agent or "The server"
        self.setWindowTitle(shown(f"{who} asks for input"))
        self.setModal(True)

        self.who_label = plain_label(f"{who} asks:", selectable=True)
        bold = QFont(self.who_label.font())
        bold.setBold(True)
        self.who_label.setFont(bold)
        message_area, self.message_label = message_view(request.message)

        schema = request.requested_schema if isinstance(request.requested_schema, dict) else EMPTY_SCHEMA
        self.form = SchemaForm(schema, show_json=True, lists_fields_to_fix=False)
        self.form.set_json_visible(False)
        self.form.changed.connect(self._update_buttons)
        self.json_toggle = QCheckBox("Show JSON")
        self.json_toggle.toggled.connect(self.form.set_json_visible)

        self.buttons = QDialogButtonBox()
        self.accept_button = QPushButton("Accept")
        self.decline_button = QPushButton("Decline")
        self.cancel_button = QPushButton("Cancel")
        self.buttons.addButton(self.accept_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.decline_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.decline_button, self.cancel_button):
            button.setAutoDefault(False)
        self.accept_button.setDefault(True)
        self.accept_button.clicked.connect(self.on_accept_clicked)
        self.decline_button.clicked.connect(self.on_decline_clicked)
        self.cancel_button.clicked.connect(self.reject)

        self.accept_hint = plain_label("", wrap=True)
        self.accept_hint.setObjectName("acceptHint")
        bottom = QHBoxLayout()
        bottom.addWidget(self.json_toggle)
        bottom.addWidget(self.accept_hint, 1)
        bottom.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.who_label)
        layout.addWidget(message_area)
        layout.addWidget(self.form, 1)
        layout.addLayout(bottom)
        self.resize(640, 520)
        self._update_buttons()

    def response(self) -> ElicitationResponse:
        """The answer: accept (with the form's content), decline, or cancel (also before it finishes)."""
        return self._response

    def first_focus(self) -> QWidget | None:
        """The form's first field (dialog_rules, rule 2); Accept when the form has none."""
        return first_input(self.form) or self.accept_button

    def accept_action(self) -> QPushButton:
        """Accept: what Ctrl+Enter presses, while the form is valid (dialog_rules, rule 4)."""
        return self.accept_button

    # ---------------------------------------------------------------- slots

    def _update_buttons(self) -> None:
        hint = self.form.fix_hint()
        self.accept_button.setEnabled(not hint)
        self.accept_hint.setText(hint)
        self.accept_hint.setVisible(bool(hint))
        self.accept_button.setToolTip(plain_tooltip(hint) if hint else "Send the form's answers (Ctrl+Enter)")

    def on_accept_clicked(self) -> None:
        """Answer "accept" with the form's value, if it is valid (otherwise show what is wrong)."""
        if not self.form.is_valid():
            self.form.reveal_errors()
            return
        self._response = ElicitationResponse("accept", self.form.value())
        self.accept()

    def on_decline_clicked(self) -> None:
        """Answer "decline"."""
        self._response = ElicitationResponse("decline")
        self.done(DECLINED)

    def reject(self) -> None:
        """Cancel, Esc and closing the window answer "cancel"."""
        self._response = ElicitationResponse("cancel")
        super().reject()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        """Announce visibility (tests and callers wait for it)."""
        super().showEvent(event)
        self.shown.emit()
