"""The connection dialog's credential widgets: the Credentials section, and a field row with its error.

What the dialog's caller must store or forget is the core's ``SecretChanges`` (``profile_service``).
The Authentication section (OAuth) is ``oauth_section``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import SecretStr
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from workbench.core.profiles import (
    DEFAULT_API_KEY_HEADER,
    ConnectionProfile,
    MCPStdioProfile,
    SecretKind,
    SecretRef,
)
from workbench.core.profiles.credential_keys import secret_key
from workbench.ui.dialogs.secret_fields import SecretField, SecretRows, row_noun
from workbench.ui.errors import sentence
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label

StatusTone = Literal["notice", "warning"]
OAUTH_BEARER_PLACEHOLDER = "set by the OAuth login"
OAUTH_BEARER_FORGOTTEN = "set by the OAuth login — the stored token is forgotten when you save"


class InputError(ValueError):
    """A field's text could not be turned into a value (before pydantic sees it)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class FieldRow(QWidget):
    """A form field with its error line under it."""

    def __init__(self, editor: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.error = plain_label("", self, wrap=True)
        self.error.setObjectName("fieldError")
        set_tone(self.error, "error")
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(editor)
        layout.addWidget(self.error)
        # not Maximum: that caps the row at its size hint, which ignores how tall wrapped text is at the
        # row's width (a note as long as the keyring's would be cut mid-sentence)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def set_error(self, message: str) -> None:
        """Show ``message`` under the field as a sentence (hidden when empty): the checks write lower-case fragments."""
        message = sentence(message)
        self.error.setText(message)
        if self.error.isVisibleTo(self) != bool(message):
            self.error.setVisible(bool(message))
            self.updateGeometry()  # the form's row takes the message's height (see forms.field_base.Field.show_errors)


def credential_family(kind: str) -> str:
    """``stdio`` (secrets are environment variables) or ``http`` (secrets are headers)."""
    return "stdio" if kind == "mcp-stdio" else "http"


class CredentialsSection(QWidget):
    """The dialog's Credentials: bearer token, API key and secret headers (HTTP), or secret variables (stdio).

    Args:
        original: The profile being edited (its references are shown as stored), or ``None``.
        parent: Qt parent.
    """

    changed = Signal()

    def __init__(self, original: ConnectionProfile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        refs = list(original.secrets) if original is not None else []
        self.bearer_ref = next((r for r in refs if r.kind is SecretKind.BEARER), None)
        self.api_key_ref = next((r for r in refs if r.kind is SecretKind.API_KEY), None)
        header_refs = [
            r for r in refs if r.kind is not SecretKind.ENV and r is not self.bearer_ref and r is not self.api_key_ref
        ]
        env_refs = [r for r in refs if r.kind is SecretKind.ENV]

        self.status = plain_label("", wrap=True)
        self.status.setObjectName("credentialsStatus")
        self.status.hide()

        self.bearer = SecretField(stored=self.bearer_ref is not None, what="bearer token")
        self._oauth = False
        self.api_key = SecretField(stored=self.api_key_ref is not None, what="API key")
        self.api_key_header = QLineEdit(self.api_key_ref.name if self.api_key_ref is not None else "")
        self.api_key_header.setPlaceholderText(DEFAULT_API_KEY_HEADER)
        self.api_key_header.setAccessibleName("API key header name")
        self.api_key_header.setMaximumWidth(160)
        api_row = QWidget()
        api_layout = QHBoxLayout(api_row)
        api_layout.setContentsMargins(0, 0, 0, 0)
        api_layout.addWidget(self.api_key, 3)
        api_layout.addWidget(plain_label("in header", selectable=False))
        api_layout.addWidget(self.api_key_header, 1)
        self.headers = SecretRows(SecretKind.HEADER, "Add secret header", header_refs)
        self.http_part = QWidget()
        http_form = QFormLayout(self.http_part)
        http_form.setContentsMargins(0, 0, 0, 0)
        http_form.addRow("Bearer token", self.bearer)
        http_form.addRow("API key", api_row)
        http_form.addRow("Secret headers", self.headers)

        self.env = SecretRows(SecretKind.ENV, "Add secret variable", env_refs)
        self.stdio_part = QWidget()
        stdio_form = QFormLayout(self.stdio_part)
        stdio_form.setContentsMargins(0, 0, 0, 0)
        stdio_form.addRow("Secret environment", self.env)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.http_part)
        layout.addWidget(self.stdio_part)
        self._family = "http"
        self.set_kind("mcp-stdio" if isinstance(original, MCPStdioProfile) else "mcp-http")
        self.set_oauth(getattr(original, "auth", "none") == "oauth")

        for signal in (
            self.bearer.changed,
            self.api_key.changed,
            self.api_key_header.textChanged,
            self.headers.changed,
            self.env.changed,
        ):
            signal.connect(self.changed)

    def set_kind(self, kind: str) -> None:
        """Show the secrets that fit ``kind`` (headers for HTTP kinds, environment variables for stdio)."""
        self._family = credential_family(kind)
        self.http_part.setVisible(self._family == "http")
        self.stdio_part.setVisible(self._family == "stdio")

    def set_oauth(self, oauth: bool) -> None:
        """An OAuth login sets the Authorization header: the bearer token field is off (a stored one is dropped)."""
        self._oauth = oauth
        self.bearer.setEnabled(not oauth)
        if oauth:
            self.bearer.edit.clear()
            self.bearer.edit.setPlaceholderText(
                OAUTH_BEARER_FORGOTTEN if self.bearer.is_stored() else OAUTH_BEARER_PLACEHOLDER
            )
            self.bearer.edit.setToolTip(self.bearer.edit.placeholderText())
        else:
            self.bearer.update_placeholder()
        self.changed.emit()

    def is_oauth(self) -> bool:
        """Whether the profile logs in with OAuth (the bearer token is then not used)."""
        return self._oauth

    def set_status(self, text: str, *, tone: StatusTone = "notice") -> None:
        """Show a note about where secrets go: a ``notice`` (no keyring: plain text) or a ``warning`` (amber).

        Never red: nothing failed yet when this note is shown (a refused save is the dialog's own error).
        """
        self.status.setText(text)
        set_tone(self.status, "warning" if tone == "warning" else None)
        self.status.setVisible(bool(text))

    def set_secrets_enabled(self, enabled: bool) -> None:
        """Let the user type secrets, or not when no secure keyring could keep them (the notice says why)."""
        for field in (self.bearer, self.api_key):
            field.set_entry_enabled(enabled)
        self.api_key_header.setEnabled(enabled or bool(self.api_key.edit.text()))
        self.headers.set_entry_enabled(enabled)
        self.env.set_entry_enabled(enabled)

    def refs(self, profile_id: str) -> tuple[list[SecretRef], dict[str, SecretStr]]:
        """The references the profile keeps or gets, and the values to store for the new ones.

        Raises:
            InputError: A named secret without a value, or a value without a name (field ``secrets``).
        """
        entries: list[tuple[SecretKind, str, SecretField, SecretRef | None]] = []
        if self._family == "http":
            if not self._oauth:
                bearer_name = self.bearer_ref.name if self.bearer_ref is not None else ""
                entries.append((SecretKind.BEARER, bearer_name, self.bearer, self.bearer_ref))
            header = self.api_key_header.text().strip()
            entries.append((SecretKind.API_KEY, header, self.api_key, self.api_key_ref))
            rows = self.headers.rows
        else:
            rows = self.env.rows
        for row in rows:
            if row.is_blank():
                continue
            noun = row_noun(row.kind)
            if not row.name():
                raise InputError("secrets", f"a secret {noun} needs a name")
            if row.original is None and row.secret.value() is None:
                raise InputError("secrets", f"enter the value of the secret {noun} {row.name()!r}, or remove it")
            entries.append((row.kind, row.name(), row.secret, row.original))

        kept: list[SecretRef] = []
        fresh: list[tuple[SecretKind, str, SecretStr]] = []
        for kind, name, secret, original in entries:
            value = secret.value()
            if value is not None:
                fresh.append((kind, name, value))
            elif original is not None and secret.keeps_stored():
                kept.append(SecretRef.model_construct(kind=kind, name=name, key=original.key))
        used = {ref.key for ref in kept}
        store: dict[str, SecretStr] = {}
        for kind, name, value in fresh:
            key = base = secret_key(profile_id, kind, name)
            n = 2
            while key in used:  # a kept reference (renamed) already uses this key
                key = f"{base}#{n}"
                n += 1
            used.add(key)
            kept.append(SecretRef.model_construct(kind=kind, name=name, key=key))
            store[key] = value
        return kept, store
