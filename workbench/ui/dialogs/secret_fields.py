"""Masked secret entries: one value (``SecretField``), a named one (``SecretRow``), a list of those (``SecretRows``)."""

from __future__ import annotations

from pydantic import SecretStr
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from workbench.core.profiles import SecretKind, SecretRef

STORED_PLACEHOLDER = "stored in keyring — leave empty to keep, or type to replace"
FORGOTTEN_PLACEHOLDER = "forgotten when you save — type a value to replace it instead"
NO_KEYRING_NOTICE = "Secret fields are off: this system has no secure keyring to keep them in."
"""Why a secret field takes no typing (the connection dialog's Credentials notice starts with it too)."""
_ROW_NOUNS = {SecretKind.ENV: "variable", SecretKind.QUERY: "query parameter", SecretKind.COOKIE: "cookie"}
"""What a row names, by kind (a header otherwise)."""


def row_noun(kind: SecretKind) -> str:
    """What a row of secrets of ``kind`` names: ``variable``, ``query parameter``, ``cookie`` or ``header``."""
    return _ROW_NOUNS.get(kind, "header")


class SecretField(QWidget):
    """A masked secret entry with a Show toggle and, for a secret already stored, a Forget button.

    The typed value is never put in a tooltip, label or log; ``value()`` hands it out as ``SecretStr``.

    Args:
        stored: Whether the profile already refers to a stored value (the field then starts empty and
            says so; leaving it empty keeps the stored value).
        what: What the value is ("bearer token"), for the placeholder and accessible name.
        parent: Qt parent.
    """

    changed = Signal()

    def __init__(
        self, *, stored: bool = False, what: str = "secret", optional: bool = True, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._stored = stored
        self._what = what
        self._optional = optional
        self._off = False
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setAccessibleName(what)
        self.show_button = QToolButton()
        self.show_button.setText("Show")
        self.show_button.setCheckable(True)
        self.show_button.setToolTip(f"Show or hide the {what} as you type it")
        self.forget_button = QToolButton()
        self.forget_button.setText("Forget")
        self.forget_button.setCheckable(True)
        self.forget_button.setToolTip(f"Remove the stored {what} from the keyring when you save")
        self.forget_button.setVisible(stored)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.show_button)
        layout.addWidget(self.forget_button)
        self.edit.textChanged.connect(self.changed)
        self.show_button.toggled.connect(self.on_show_button_toggled)
        self.forget_button.toggled.connect(self.on_forget_button_toggled)
        self.update_placeholder()

    def set_entry_enabled(self, enabled: bool) -> None:
        """Let the user type a value, or not (no keyring to keep it); a value already typed stays editable.

        A field that is off says why in its tooltip (``NO_KEYRING_NOTICE``).
        """
        on = enabled or bool(self.edit.text())
        self.edit.setEnabled(on)
        self.show_button.setEnabled(on)
        self._off = not on
        self.update_placeholder()

    def is_entry_enabled(self) -> bool:
        """Whether a value can be typed (a field is off while no secure keyring could keep it)."""
        return not self._off

    def value(self) -> SecretStr | None:
        """The typed value, or ``None`` when the field is empty."""
        text = self.edit.text()
        return SecretStr(text) if text else None

    def is_stored(self) -> bool:
        """Whether a value was already stored when the dialog opened."""
        return self._stored

    def keeps_stored(self) -> bool:
        """Whether the stored value stays as it is (nothing typed, not forgotten)."""
        return self._stored and not self.forget_button.isChecked() and not self.edit.text()

    def on_show_button_toggled(self, shown: bool) -> None:
        """Unmask or mask the typed value."""
        self.edit.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.show_button.setText("Hide" if shown else "Show")

    def on_forget_button_toggled(self, forget: bool) -> None:
        """Mark the stored value to be forgotten (or kept again)."""
        self.forget_button.setText("Keep" if forget else "Forget")
        self.update_placeholder()
        self.changed.emit()

    def update_placeholder(self) -> None:
        """Say in the empty field what it holds: optional, stored (kept unless replaced), or to be forgotten."""
        if not self._stored:
            text = f"(optional) {self._what}" if self._optional else self._what
        elif self.forget_button.isChecked():
            text = FORGOTTEN_PLACEHOLDER
        else:
            text = STORED_PLACEHOLDER
        self.edit.setPlaceholderText(text)
        # the placeholder may be cut off (never the value); a field that is off says why instead
        self.edit.setToolTip(NO_KEYRING_NOTICE if self._off else text)


class SecretRow(QWidget):
    """One named secret (a header or an environment variable): name, masked value, Remove.

    Args:
        kind: The secret kind for a new row (an existing reference keeps its own kind).
        original: The reference this row shows, or ``None`` for a new row.
        parent: Qt parent.
    """

    changed = Signal()
    remove_requested = Signal(object)  # this row

    def __init__(self, kind: SecretKind, original: SecretRef | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.original = original
        self.kind = original.kind if original is not None else kind
        noun = row_noun(self.kind)
        self.name_edit = QLineEdit(original.name if original is not None else "")  # a query's or cookie's own name
        self.name_edit.setPlaceholderText("VARIABLE_NAME" if self.kind is SecretKind.ENV else "Header-Name")
        self.name_edit.setAccessibleName(f"secret {noun} name")
        self.secret = SecretField(stored=original is not None, what="value", optional=False)
        self.remove_button = QToolButton()
        self.remove_button.setText("Remove")
        self.remove_button.setToolTip(f"Remove this secret {noun} (a stored value is forgotten when you save)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name_edit, 2)
        layout.addWidget(self.secret, 3)
        layout.addWidget(self.remove_button)
        self.name_edit.textChanged.connect(self.changed)
        self.secret.changed.connect(self.changed)
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))

    def name(self) -> str:
        """The header or variable name as typed (stripped)."""
        return self.name_edit.text().strip()

    def is_blank(self) -> bool:
        """A new row with nothing typed in it (ignored)."""
        return self.original is None and not self.name() and self.secret.value() is None


class SecretRows(QWidget):
    """A list of ``SecretRow``s with an Add button."""

    changed = Signal()

    def __init__(self, kind: SecretKind, add_text: str, refs: list[SecretRef], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kind = kind
        self._entry_enabled = True
        self.rows: list[SecretRow] = []
        self._rows_layout = QVBoxLayout()
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.setSpacing(2)
        self.add_button = QPushButton(add_text)
        self.add_button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._rows_layout)
        layout.addWidget(self.add_button)
        for ref in refs:
            self._append(SecretRow(kind, ref))
        self.add_button.clicked.connect(self.add_row)

    def add_row(self) -> SecretRow:
        """Add an empty row and focus its name."""
        row = self._append(SecretRow(self._kind))
        row.name_edit.setFocus()
        self.changed.emit()
        return row

    def set_entry_enabled(self, enabled: bool) -> None:
        """Allow new secrets (Add, values) or not; names, Remove and Forget stay usable."""
        self._entry_enabled = enabled
        self.add_button.setEnabled(enabled)
        for row in self.rows:
            row.secret.set_entry_enabled(enabled)

    def remove_row(self, row: SecretRow) -> None:
        """Remove ``row`` (its stored value, if any, is forgotten when the profile is saved)."""
        if row in self.rows:
            self.rows.remove(row)
            self._rows_layout.removeWidget(row)
            row.hide()
            row.deleteLater()
            self.changed.emit()

    def _append(self, row: SecretRow) -> SecretRow:
        row.secret.set_entry_enabled(self._entry_enabled)
        self.rows.append(row)
        self._rows_layout.addWidget(row)
        row.changed.connect(self.changed)
        row.remove_requested.connect(self.remove_row)
        return row
