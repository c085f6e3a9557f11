"""Add or edit one model endpoint: its fields checked by ``ModelEndpoint``'s rules, its API key typed masked.

The key never comes back into the dialog: a stored key is said to be stored ("leave empty to keep"), and
whatever is typed goes to the keyring alone (``ModelEndpointStore.save``). Without a secure keyring the key
field is off and the dialog says why; a keyless endpoint (a local server) can still be saved.
"""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr, ValidationError
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import SecureStorageUnavailableError, WorkbenchError
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.ui.dialogs.connection_fields import problem_message
from workbench.ui.dialogs.credential_fields import FieldRow
from workbench.ui.dialogs.secret_fields import SecretField
from workbench.ui.errors import sentence
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label

APIS = {
    "openai": "OpenAI-compatible (chat completions: OpenAI, Ollama, vLLM, …)",
    "anthropic": "Anthropic (messages)",
}
URL_EXAMPLES = {
    "openai": "https://api.openai.com/v1 or http://127.0.0.1:11434/v1",
    "anthropic": "https://api.anthropic.com",
}
NO_KEYRING = "No secure keyring is available, so an API key cannot be stored (it is never kept in a file)."
_NUMBERS = {"timeout": float, "max_tokens": int, "input_price": float, "output_price": float}
_PROBLEMS = {
    "string_pattern_mismatch": "use letters, digits, '.', '_' and '-', starting with a letter or a digit",
    "string_too_short": "required",
    "missing": "required",
}
"""Pydantic problems said in the dialog's words (the others keep pydantic's)."""
_NUMBER_WORDS = {"timeout": "a number of seconds", "max_tokens": "a whole number", "input_price": "a number"}


class ModelEndpointDialog(QDialog):
    """The fields of one model endpoint and its API key.

    Args:
        original: The endpoint being edited (its name cannot change: connections choose it by name), or
            ``None`` to add one.
        has_key: Whether a key is stored for ``original``.
        parent: The endpoints dialog.
    """

    def __init__(self, original: ModelEndpoint | None, *, has_key: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self._original = original
        self._endpoint: ModelEndpoint | None = None
        self._errors: dict[str, str] = {}
        self._touched: set[str] = set()
        self._show_all = False
        self.setWindowTitle("Edit model endpoint" if original is not None else "Add model endpoint")
        start = original or ModelEndpoint(name="x", api="openai", base_url="http://127.0.0.1", model="x")
        self.name_edit = QLineEdit(original.name if original is not None else "")
        self.name_edit.setPlaceholderText("local, openai, claude …")
        self.name_edit.setReadOnly(original is not None)
        if original is not None:
            self.name_edit.setToolTip("Connections choose the endpoint by its name; add a new one to rename it")
        self.api_combo = QComboBox()
        for api, label in APIS.items():
            self.api_combo.addItem(label, api)
        self.api_combo.setCurrentIndex(self.api_combo.findData(start.api))
        self.url_edit = QLineEdit(original.base_url if original is not None else "")
        self.model_edit = QLineEdit(original.model if original is not None else "")
        self.model_edit.setPlaceholderText("gpt-4o-mini, llama3.2, claude-sonnet-4-5 …")
        self.timeout_edit = QLineEdit(f"{start.timeout:g}")
        self.max_tokens_edit = QLineEdit(_text(original.max_tokens if original is not None else None))
        self.max_tokens_edit.setPlaceholderText("(optional) the request's own maximum")
        self.input_price_edit = QLineEdit(_text(original.input_price if original is not None else None))
        self.output_price_edit = QLineEdit(_text(original.output_price if original is not None else None))
        for edit in (self.input_price_edit, self.output_price_edit):
            edit.setPlaceholderText("(optional) per million tokens, for the cost counter")
        self.stream_check = QCheckBox("Stream the answer (it reaches the log as it arrives)")
        self.stream_check.setChecked(start.stream)
        self.key_field = SecretField(stored=has_key, what="API key")
        self.keyring_note = plain_label("", wrap=True)
        set_tone(self.keyring_note, "error")
        self.keyring_note.hide()
        self.general_error = plain_label("", wrap=True)
        set_tone(self.general_error, "error")
        self.general_error.hide()
        editors: dict[str, QWidget] = {
            "name": self.name_edit,
            "api": self.api_combo,
            "base_url": self.url_edit,
            "model": self.model_edit,
            "timeout": self.timeout_edit,
            "max_tokens": self.max_tokens_edit,
            "input_price": self.input_price_edit,
            "output_price": self.output_price_edit,
            "stream": self.stream_check,
            "key": self.key_field,
        }
        self.fields = {key: FieldRow(editor) for key, editor in editors.items()}
        labels = {
            "name": "Name",
            "api": "API",
            "base_url": "Base URL",
            "model": "Model",
            "timeout": "Timeout (s)",
            "max_tokens": "Max tokens",
            "input_price": "Input price",
            "output_price": "Output price",
            "stream": "",
            "key": "API key",
        }
        form = QFormLayout()
        for key, row in self.fields.items():
            form.addRow(labels[key], row)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.general_error)
        layout.addWidget(self.buttons)
        for key, edit in (
            ("name", self.name_edit),
            ("base_url", self.url_edit),
            ("model", self.model_edit),
            ("timeout", self.timeout_edit),
            ("max_tokens", self.max_tokens_edit),
            ("input_price", self.input_price_edit),
            ("output_price", self.output_price_edit),
        ):
            edit.textEdited.connect(lambda _text, key=key: self._on_edited(key))
        self.api_combo.currentIndexChanged.connect(self.on_api_combo_changed)
        self.on_api_combo_changed()
        self.resize(520, self.sizeHint().height())

    # ------------------------------------------------------------------ public

    def first_focus(self) -> QWidget:
        """The name field when adding, the base URL when editing (dialog_rules, rule 2)."""
        return self.name_edit if self._original is None else self.url_edit

    def accept_action(self) -> QPushButton:
        """Save: what Ctrl+Enter presses (dialog_rules, rule 4)."""
        button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        assert button is not None
        return button

    def endpoint(self) -> ModelEndpoint:
        """The validated endpoint (after the dialog was accepted).

        Raises:
            ValueError: The input is not a valid endpoint.
        """
        if self._endpoint is None:
            raise ValueError("the model endpoint dialog holds no valid endpoint")
        return self._endpoint

    def key(self) -> SecretStr | None:
        """The API key typed (``None``: nothing typed, a stored key is kept unless forgotten)."""
        return self.key_field.value()

    def forgets_key(self) -> bool:
        """Whether the stored key is to be removed from the keyring (Forget pressed, nothing typed)."""
        return self.key_field.is_stored() and self.key_field.forget_button.isChecked() and self.key() is None

    def field_errors(self) -> dict[str, str]:
        """The current problems by field (``""``: the endpoint as a whole), shown or not."""
        return dict(self._errors)

    def set_keyring(self, error: WorkbenchError | None) -> None:
        """Say that no secure keyring can keep a key (``error``), and turn the key field off; or turn it on."""
        hint = f" {error.hint}" if error is not None and error.hint else ""
        self.keyring_note.setText(sentence(f"{NO_KEYRING}{hint}") if error is not None else "")
        self.keyring_note.setVisible(error is not None)
        self.key_field.set_entry_enabled(error is None)

    def show_save_error(self, error: WorkbenchError) -> None:
        """Show why the last save failed, on its field when it names one (the input is kept to retry)."""
        if isinstance(error, SecureStorageUnavailableError):
            self.set_keyring(error)
        field = str(error.details.get("field", ""))
        if field in self.fields:
            self._errors[field] = error.message
            self.fields[field].set_error(error.message)
            return
        hint = f" ({error.hint})" if error.hint and not isinstance(error, SecureStorageUnavailableError) else ""
        self.general_error.setText(f"Not saved: {error.message}{hint}")
        self.general_error.show()

    def accept(self) -> None:
        """Close with the endpoint, only when it is valid (otherwise show every problem)."""
        self._show_all = True
        if self.validate():
            super().accept()

    def validate(self) -> bool:
        """Build the endpoint from the fields; show each problem under its field."""
        errors: dict[str, str] = {}
        data: dict[str, Any] = {
            "name": self.name_edit.text().strip(),
            "api": self.api_combo.currentData(),
            "base_url": self.url_edit.text().strip(),
            "model": self.model_edit.text().strip(),
            "stream": self.stream_check.isChecked(),
        }
        for key, kind in _NUMBERS.items():
            text = self._number_edit(key).text().strip()
            if not text:
                if key == "timeout":
                    errors[key] = "give a number of seconds"
                continue
            try:
                data[key] = kind(text)
            except ValueError:
                errors[key] = f"{text!r} is not {_NUMBER_WORDS.get(key, 'a number')}"
        endpoint: ModelEndpoint | None = None
        try:
            endpoint = ModelEndpoint.model_validate(data)
        except ValidationError as exc:
            for problem in exc.errors():
                loc = problem["loc"]
                where = str(loc[0]) if loc and str(loc[0]) in self.fields else ""
                errors.setdefault(where, _PROBLEMS.get(problem["type"], "") or problem_message(problem))
        self._errors = errors
        self._endpoint = endpoint if not errors else None
        for key, row in self.fields.items():
            row.set_error(errors.get(key, "") if self._show_all or key in self._touched else "")
        general = errors.get("", "")
        self.general_error.setText(general)
        self.general_error.setVisible(bool(general))
        return self._endpoint is not None

    def on_api_combo_changed(self, _index: int = 0) -> None:
        """Show the chosen API's URL examples in the empty base URL field."""
        self.url_edit.setPlaceholderText(URL_EXAMPLES[str(self.api_combo.currentData())])

    # ------------------------------------------------------------------ internals

    def _number_edit(self, key: str) -> QLineEdit:
        edits = {
            "timeout": self.timeout_edit,
            "max_tokens": self.max_tokens_edit,
            "input_price": self.input_price_edit,
            "output_price": self.output_price_edit,
        }
        return edits[key]

    def _on_edited(self, key: str) -> None:
        self._touched.add(key)
        self.general_error.hide()
        self.validate()


def _text(value: float | None) -> str:
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else f"{value:g}"
