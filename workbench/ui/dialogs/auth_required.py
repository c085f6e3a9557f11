"""A2A auth-required: ask for a bearer token in a masked field; the token is never shown again or logged.

``A2AAgent`` treats the answer's ``text`` as a bearer token for an ``auth-required`` pause (and for an
HTTP 401/403 on connect): it goes into the ``Authorization`` header from then on, never into a message
body. ``InputResponse(cancel=True)`` cancels the waiting task; ``None`` (dialog dismissed) lets the
caller defer, so the task stays waiting.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.ui.untrusted import plain_label

_DETAILS_LIMIT = 2000


def _details(request: InputRequest) -> str:
    """A plain one-paragraph summary of what the agent attached to its request (never HTML)."""
    data = request.data
    if isinstance(data, dict) and data.get("reason") == "http":
        status = data.get("http_status")
        url = data.get("url")
        parts = [f"HTTP {status}" if status else "The HTTP request was refused"]
        if url:
            parts.append(f"from {url}")
        return " ".join(parts) + "."
    if data is None:
        return ""
    text = json.dumps(data, ensure_ascii=False, default=str)
    return text if len(text) <= _DETAILS_LIMIT else text[:_DETAILS_LIMIT] + "…"


def _clean_token(value: str) -> str:
    """Trim pasted whitespace and a leading ``Bearer `` (the agent adds the scheme itself)."""
    token = value.strip()
    if token[:7].lower() == "bearer ":
        token = token[7:].strip()
    return token


class AuthRequiredDialog(QDialog):
    """Asks for a credential (bearer token) an A2A agent needs to continue.

    Args:
        request: The agent's request (``kind == "auth"``).
        parent: Parent widget (the main window).
    """

    def __init__(self, request: InputRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._request = request
        self._response: InputResponse | None = None
        self.setWindowTitle("Credentials required")

        who = request.agent or "The agent"
        self.intro_label = plain_label(f"{who} needs credentials to continue.", wrap=True)
        self.message_label = plain_label(request.text, wrap=True)
        self.message_label.setVisible(bool(request.text))
        self.details_label = plain_label(_details(request), wrap=True)
        self.details_label.setVisible(bool(self.details_label.text()))
        self.token_edit = QLineEdit(self)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText("bearer token")
        self.token_edit.setInputMethodHints(
            Qt.InputMethodHint.ImhHiddenText
            | Qt.InputMethodHint.ImhSensitiveData
            | Qt.InputMethodHint.ImhNoPredictiveText
            | Qt.InputMethodHint.ImhNoAutoUppercase
        )
        self.token_edit.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.show_check = QCheckBox("Show", self)
        self.note_label = plain_label(
            "The token is sent in the Authorization header of this connection only; it is not saved.", wrap=True
        )

        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.send_button.setEnabled(False)
        self.cancel_button = QPushButton("Cancel task" if request.task_id else "Cancel", self)
        self.cancel_button.setAutoDefault(False)
        self.token_edit.textChanged.connect(self.on_token_edit_text_changed)
        self.show_check.toggled.connect(self.on_show_check_toggled)
        self.send_button.clicked.connect(self.on_send_clicked)
        self.cancel_button.clicked.connect(self.on_cancel_clicked)

        field_row = QHBoxLayout()
        field_row.addWidget(self.token_edit, 1)
        field_row.addWidget(self.show_check)
        form = QFormLayout()
        form.addRow("Token:", field_row)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        for widget in (self.intro_label, self.message_label, self.details_label):
            layout.addWidget(widget)
        layout.addLayout(form)
        layout.addWidget(self.note_label)
        layout.addLayout(buttons)
        self.resize(480, self.sizeHint().height())
        self.token_edit.setFocus()

    @property
    def request(self) -> InputRequest:
        """The request shown."""
        return self._request

    def response(self) -> InputResponse | None:
        """``InputResponse(text=token)`` after Send, ``InputResponse(cancel=True)`` after Cancel, else None."""
        return self._response

    def on_token_edit_text_changed(self, text: str) -> None:
        """Send is possible once something other than whitespace was typed."""
        self.send_button.setEnabled(bool(_clean_token(text)))

    def on_show_check_toggled(self, shown: bool) -> None:
        """Reveal or mask the token while it is typed."""
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.token_edit.setEchoMode(mode)

    def on_send_clicked(self) -> None:
        """Answer with the token."""
        token = _clean_token(self.token_edit.text())
        if not token:
            return
        self._response = InputResponse(text=token)
        self.accept()

    def on_cancel_clicked(self) -> None:
        """Cancel the waiting task."""
        self._response = InputResponse(cancel=True)
        self.reject()

    def done(self, code: int) -> None:
        """Close and wipe the field: the token is never visible again after entry."""
        self.show_check.setChecked(False)
        self.token_edit.clear()
        self.token_edit.setEnabled(False)
        super().done(code)
