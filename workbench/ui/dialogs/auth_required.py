"""A2A auth-required: ask for the credentials the agent needs; typed secrets are never shown again or logged.

When ``request.data`` carries ``credential_needs`` (or one ``need``), the ``CredentialNeed.to_dict()``s of
the agent card's security schemes, the dialog shows each need's fields (HTTP Basic: user name and
password; OAuth client credentials: client id and secret; an API key: one field named after its header,
query parameter or cookie), secret ones masked, and answers ``InputResponse(data={"<scheme>": {field:
value}})``: ``A2AAgent`` stores the values in the credential store and sends them as the card says.
Otherwise it asks for one bearer token: ``A2AAgent`` treats the answer's ``text`` as a bearer token
(``Authorization`` header from then on, never a message body). ``InputResponse(cancel=True)`` cancels
the waiting task; ``None`` (dialog dismissed) lets the caller defer, so the task stays waiting.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.ui.dialog_rules import mark_destructive
from workbench.ui.untrusted import plain_label

_DETAILS_LIMIT = 2000


_NEEDS_KEYS = ("credential_needs", "need")

_LOCATION_WORDS = {"header": "header", "query": "query parameter", "cookie": "cookie"}

_SENSITIVE_HINTS = (
    Qt.InputMethodHint.ImhHiddenText
    | Qt.InputMethodHint.ImhSensitiveData
    | Qt.InputMethodHint.ImhNoPredictiveText
    | Qt.InputMethodHint.ImhNoAutoUppercase
)


@dataclass(frozen=True, slots=True)
class NeedField:
    """One value a credential need asks for, as read from ``CredentialNeed.to_dict()``.

    Attributes:
        scheme: The security scheme's name in the card (the answer's top-level key).
        name: The field's key (``username``, ``password``, ``client_id``, ``api_key`` ...).
        label: What the user reads next to the field.
        secret: Masked, and wiped once sent.
        optional: The scheme works without it.
    """

    scheme: str
    name: str
    label: str
    secret: bool = True
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Need:
    """A security scheme to fill in: its title, description and fields."""

    scheme: str
    title: str
    description: str
    fields: tuple[NeedField, ...]


def _need_title(need: dict[str, Any]) -> str:
    scheme = str(need.get("scheme") or "")
    kind = str(need.get("type") or "")
    words = {
        "api-key": "API key",
        "http-bearer": "Bearer token",
        "http-basic": "HTTP Basic",
        "oauth2-client-credentials": "OAuth 2.0 client credentials",
        "oauth2-authorization-code": "OAuth 2.0 sign-in (browser)",
        "openid-connect": "OpenID Connect sign-in (browser)",
    }.get(kind, kind)
    extra = ""
    if need.get("scopes"):
        extra = " — scopes " + " ".join(str(s) for s in need["scopes"])
    return f"{scheme}: {words}{extra}" if scheme else words + extra


def credential_needs(request: InputRequest) -> list[Need]:
    """The needs (with at least one field) that ``request.data`` names, in order; ``[]`` when it names none.

    Reads ``credential_needs`` (a list) or else ``need`` (one), as ``A2AAgent`` attaches them;
    malformed entries are skipped. Unsupported needs (no fields) are left out.
    """
    data = request.data
    if not isinstance(data, dict):
        return []
    raw = data.get("credential_needs")
    if not isinstance(raw, list):
        raw = [data["need"]] if isinstance(data.get("need"), dict) else []
    out: list[Need] = []
    seen: set[str] = set()
    for need in raw:
        if not isinstance(need, dict) or not isinstance(need.get("scheme"), str) or need["scheme"] in seen:
            continue
        scheme = need["scheme"]
        fields: list[NeedField] = []
        for spec in need.get("fields") or []:
            if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"]:
                continue
            label = str(spec.get("label") or spec["name"])
            if need.get("type") == "api-key" and need.get("param_name"):
                where = _LOCATION_WORDS.get(str(need.get("location")), str(need.get("location") or ""))
                label = f"{need['param_name']} ({where})" if where else str(need["param_name"])
            fields.append(
                NeedField(scheme, spec["name"], label, bool(spec.get("secret", True)), bool(spec.get("optional")))
            )
        if fields:
            seen.add(scheme)
            out.append(Need(scheme, _need_title(need), str(need.get("description") or ""), tuple(fields)))
    return out


def _details(request: InputRequest) -> str:
    """A plain one-paragraph summary of what the agent attached to its request (never HTML)."""
    data = request.data
    if isinstance(data, dict) and any(key in data for key in _NEEDS_KEYS):
        data = {k: v for k, v in data.items() if k not in _NEEDS_KEYS}  # shown as fields instead
        if data.get("reason") in ("auth-required", None) and set(data) <= {"reason"}:
            return ""
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
    """Asks for the credentials an A2A agent needs to continue: the card's fields, or one bearer token.

    Attributes:
        token_edit: The bearer token field (hidden when the request names credential needs).
        field_edits: The need fields by ``(scheme, field name)`` (empty without needs).

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
        self.needs = credential_needs(request)
        self.field_edits: dict[tuple[str, str], QLineEdit] = {}
        self._fields: dict[tuple[str, str], NeedField] = {}
        self.token_edit = QLineEdit(self)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText("bearer token")
        self.token_edit.setInputMethodHints(_SENSITIVE_HINTS)
        self.token_edit.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.show_check = QCheckBox("Show", self)
        self.note_label = plain_label(
            "The token is sent in the Authorization header of this connection only; it is not saved."
            if not self.needs
            else "The values are kept in the system keyring for this connection and sent as the agent's card "
            "says (never in a message).",
            wrap=True,
        )

        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.send_button.setEnabled(False)
        self.cancel_button = QPushButton("Cancel task" if request.task_id else "Cancel", self)
        self.cancel_button.setAutoDefault(False)
        if request.task_id:
            mark_destructive(self.cancel_button)
        self.token_edit.textChanged.connect(self.on_token_edit_text_changed)
        self.show_check.toggled.connect(self.on_show_check_toggled)
        self.send_button.clicked.connect(self.on_send_clicked)
        self.cancel_button.clicked.connect(self.on_cancel_clicked)

        layout = QVBoxLayout(self)
        for widget in (self.intro_label, self.message_label, self.details_label):
            layout.addWidget(widget)
        if self.needs:
            self.token_edit.hide()
            for need in self.needs:
                layout.addWidget(self._need_box(need))
            show_row = QHBoxLayout()
            show_row.addStretch(1)
            show_row.addWidget(self.show_check)
            layout.addLayout(show_row)
        else:
            field_row = QHBoxLayout()
            field_row.addWidget(self.token_edit, 1)
            field_row.addWidget(self.show_check)
            form = QFormLayout()
            form.addRow("Token:", field_row)
            layout.addLayout(form)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.cancel_button)
        layout.addWidget(self.note_label)
        layout.addLayout(buttons)
        self.resize(480, self.sizeHint().height())

    def first_focus(self) -> QWidget:
        """The first credential field (dialog_rules, rule 2)."""
        return next(iter(self.field_edits.values()), self.token_edit)

    def accept_action(self) -> QPushButton:
        """Send: what Ctrl+Enter presses, once the credentials are typed (dialog_rules, rule 4)."""
        return self.send_button

    def _need_box(self, need: Need) -> QGroupBox:
        box = QGroupBox(self)
        box.setFlat(True)
        form = QFormLayout(box)
        form.addRow(plain_label(need.title, box, wrap=True))  # the scheme name comes from the card: plain text
        if need.description:
            form.addRow(plain_label(need.description, box, wrap=True))
        for spec in need.fields:
            edit = QLineEdit(box)
            edit.setAccessibleName(f"{need.scheme} {spec.name}")
            edit.setPlaceholderText("(optional)" if spec.optional else "")
            if spec.secret:
                edit.setEchoMode(QLineEdit.EchoMode.Password)
                edit.setInputMethodHints(_SENSITIVE_HINTS)
                edit.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
            edit.textChanged.connect(self._update_send)
            key = (spec.scheme, spec.name)
            self.field_edits[key] = edit
            self._fields[key] = spec
            form.addRow(plain_label(f"{spec.label}:", box), edit)
        return box

    def _update_send(self) -> None:
        if self.needs:
            ready = all(edit.text().strip() or self._fields[key].optional for key, edit in self.field_edits.items())
        else:
            ready = bool(_clean_token(self.token_edit.text()))
        self.send_button.setEnabled(ready)

    @property
    def request(self) -> InputRequest:
        """The request shown."""
        return self._request

    def response(self) -> InputResponse | None:
        """The answer after Send, ``InputResponse(cancel=True)`` after Cancel, else ``None``.

        Send answers ``InputResponse(data={scheme: {field: value}})`` when the request names credential
        needs, else ``InputResponse(text=token)``.
        """
        return self._response

    def on_token_edit_text_changed(self, text: str) -> None:
        """Send is possible once something other than whitespace was typed."""
        self._update_send()

    def on_show_check_toggled(self, shown: bool) -> None:
        """Reveal or mask the secret values while they are typed."""
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.token_edit.setEchoMode(mode)
        for key, edit in self.field_edits.items():
            if self._fields[key].secret:
                edit.setEchoMode(mode)

    def on_send_clicked(self) -> None:
        """Answer with the values (by scheme) or the token."""
        if self.needs:
            if not self.send_button.isEnabled():
                return
            data: dict[str, dict[str, str]] = {}
            for (scheme, name), edit in self.field_edits.items():
                value = edit.text().strip()
                if value:
                    data.setdefault(scheme, {})[name] = value
            self._response = InputResponse(data=data)
            self.accept()
            return
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
        """Close and wipe the fields: typed secrets are never visible again after entry."""
        self.show_check.setChecked(False)
        for edit in (self.token_edit, *self.field_edits.values()):
            edit.clear()
            edit.setEnabled(False)
        super().done(code)
