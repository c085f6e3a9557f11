"""ConnectionDialog: add or edit a connection profile, validated by the core's pydantic profile classes.

Secrets are typed into masked fields of the dialog's "Credentials" section. The dialog never touches
the credential store: ``profile()`` holds only ``SecretRef``s, and ``secret_changes()`` says which values
the caller must store (and which references it must forget) before it saves the profile. MCP HTTP/SSE
profiles choose their "Authentication" (``oauth_section.OAuthSection``): fixed credentials only, or an
OAuth 2.1 login with its client and grant; the login itself happens later (the sidebar's "Log in").
HTTP profiles also have their response "Size limits" (``size_limits.SizeLimitsEditor``).

Which fields each kind shows, and how a profile goes into the fields and back out as the data its
class validates, is ``connection_fields`` (a field the dialog has no editor for is kept as it was); the
dialog lays the fields out, validates as the user types and shows each problem under its field. The
fields scroll, with OK and Cancel below them, only when the screen is shorter than they are (``form_area``).
"""

from __future__ import annotations

from pydantic import SecretStr, ValidationError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.credentials import BackendInfo
from workbench.core.errors import SecureStorageUnavailableError, WorkbenchError
from workbench.core.profiles import ConnectionProfile, names_oauth_client, new_profile_id
from workbench.core.profiles.service import SecretChanges
from workbench.core.tool_approval import DEFAULT_POLICY
from workbench.ui.dialog_rules import present, refit
from workbench.ui.dialogs.client_capabilities import ClientCapabilitiesWidget
from workbench.ui.dialogs.connection_fields import (
    A2A_BINDINGS,
    COMMON_FIELDS,
    FIELDS_BY_KIND,
    KINDS,
    MCP_MODES,
    OAUTH_KINDS,
    PROFILE_CLASSES,
    TOOL_APPROVAL_CHOICES,
    URL_PLACEHOLDERS,
    fill_fields,
    problem_message,
    read_fields,
)
from workbench.ui.dialogs.credential_fields import CredentialsSection, FieldRow, InputError, credential_family
from workbench.ui.dialogs.form_area import FormArea
from workbench.ui.dialogs.oauth_section import OAuthSection
from workbench.ui.dialogs.secret_fields import NO_KEYRING_NOTICE
from workbench.ui.dialogs.size_limits import SizeLimitsEditor
from workbench.ui.errors import full_stop
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label


def _sentence(hint: str | None) -> str:
    """`` Hint.`` as a sentence of its own (a hint may start in lower case), or ``""``."""
    hint = full_stop((hint or "").strip())
    return f" {hint[:1].upper()}{hint[1:]}" if hint else ""


ADVERTISES_TIP = (
    "The client capabilities the workbench declares to the server when it connects "
    "(what the server may ask of it: roots, sampling, elicitation …)"
)


class ConnectionDialog(QDialog):
    """Add a new profile (``profile=None``) or edit one; OK stays disabled while the input is invalid.

    Open it with ``open()`` and ``await asyncutil.open_dialog(dialog)``; after it was accepted,
    ``profile()`` returns the validated profile and ``secret_changes()`` what the credential store must
    do first (the dialog itself never touches it). Editing keeps the profile's id and roots; secret
    references stay while the kind takes the same secrets (headers for HTTP kinds, variables for stdio).

    Args:
        profile: The profile to edit, or ``None`` for a new one.
        parent: Qt parent.
    """

    BACKEND_WAIT = 1.0
    """Seconds the opener waits for the keyring check (``set_credentials_backend``) before showing the dialog.

    The dialog then opens with its note in place instead of growing right after it is shown (dialog_rules,
    rule 1); a slower check still fills the note in later.
    """

    def __init__(self, profile: ConnectionProfile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._original = profile
        self._profile_id = profile.id if profile is not None else new_profile_id()
        self._profile: ConnectionProfile | None = None
        self._changes = SecretChanges()
        self._errors: dict[str, str] = {}
        self._loading = True
        self._last_kind: str = "mcp-stdio"
        self._touched: set[str] = set()
        self._show_all = profile is not None  # an existing profile shows its problems at once
        self._fitting = False
        self.setWindowTitle("Edit connection" if profile is not None else "Add connection")
        self.setMinimumWidth(520)

        self.name_edit = QLineEdit()
        self.kind_combo = QComboBox()
        for kind, label in KINDS:
            self.kind_combo.addItem(label, kind)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText("python, npx, /path/to/server …")
        self.args_edit = QPlainTextEdit()
        self.args_edit.setPlaceholderText("one argument per line, or one line split like a shell: -m my_server --stdio")
        self.args_edit.setFixedHeight(64)
        self.env_edit = QPlainTextEdit()
        self.env_edit.setPlaceholderText("KEY=VALUE, one per line (no secrets)")
        self.env_edit.setFixedHeight(64)
        self.cwd_edit = QLineEdit()
        self.cwd_edit.setPlaceholderText("(the workbench's working directory)")
        self.cwd_browse = QPushButton("Browse…")
        cwd_row = QWidget()
        cwd_layout = QHBoxLayout(cwd_row)
        cwd_layout.setContentsMargins(0, 0, 0, 0)
        cwd_layout.addWidget(self.cwd_edit)
        cwd_layout.addWidget(self.cwd_browse)
        self.url_edit = QLineEdit()
        self.card_url_edit = QLineEdit()
        self.card_url_edit.setPlaceholderText("(optional; default: <url>/.well-known/agent-card.json)")
        self.mode_combo = QComboBox()
        self.mode_combo.addItems(MCP_MODES)
        self.agent_tool_edit = QLineEdit()
        self.agent_tool_edit.setPlaceholderText("(optional) tool to use as the chat entry point")
        self.client_capabilities = ClientCapabilitiesWidget()  # what the client advertises (core.profiles)
        self.tool_approval_combo = QComboBox()  # when a tool call asks first (core.tool_approval)
        for value, label in TOOL_APPROVAL_CHOICES:
            self.tool_approval_combo.addItem(label, value)
        self.tool_approval_combo.setCurrentIndex(self.tool_approval_combo.findData(DEFAULT_POLICY))
        self.binding_combo = QComboBox()
        self.binding_combo.addItems(A2A_BINDINGS)
        self.streaming_check = QCheckBox("Use streaming when the agent supports it")
        self.streaming_check.setChecked(True)
        self.headers_edit = QPlainTextEdit()
        self.headers_edit.setPlaceholderText("Name: value, one per line (no secrets)")
        self.headers_edit.setFixedHeight(64)
        self.allowed_origins_edit = QPlainTextEdit()
        self.allowed_origins_edit.setPlaceholderText(
            "Other origins that may receive this profile's credentials, one per line (https://host:port)"
        )
        self.allowed_origins_edit.setFixedHeight(48)
        self.insecure_check = QCheckBox("Also send credentials over plain http to other computers")
        self.size_limits = SizeLimitsEditor()
        self.connect_timeout_spin = QDoubleSpinBox()
        self.connect_timeout_spin.setRange(0.0, 3600.0)
        self.connect_timeout_spin.setDecimals(1)
        self.connect_timeout_spin.setSuffix(" s")
        self.request_timeout_spin = QDoubleSpinBox()
        self.request_timeout_spin.setRange(0.0, 86400.0)
        self.request_timeout_spin.setDecimals(1)
        self.request_timeout_spin.setSuffix(" s")
        self.request_timeout_spin.setSpecialValueText("no limit")
        self.credentials = CredentialsSection(profile)
        self.oauth = OAuthSection(profile)

        editors: dict[str, tuple[str, QWidget]] = {
            "name": ("Name", self.name_edit),
            "kind": ("Kind", self.kind_combo),
            "command": ("Command", self.command_edit),
            "args": ("Arguments", self.args_edit),
            "env": ("Environment", self.env_edit),
            "cwd": ("Working directory", cwd_row),
            "url": ("URL", self.url_edit),
            "card_url": ("Agent card URL", self.card_url_edit),
            "binding": ("Binding", self.binding_combo),
            "streaming": ("Streaming", self.streaming_check),
            "mode": ("MCP mode", self.mode_combo),
            "agent_tool": ("Agent tool", self.agent_tool_edit),
            "client_capabilities": ("Advertises", self.client_capabilities),
            "tool_approval": ("Tool calls", self.tool_approval_combo),
            "headers": ("Headers", self.headers_edit),
            "allowed_origins": ("Allowed origins", self.allowed_origins_edit),
            "insecure": ("Plain http", self.insecure_check),
            "auth": ("Authentication", self.oauth),
            "limits": ("Size limits", self.size_limits),
            "connect_timeout": ("Connect timeout", self.connect_timeout_spin),
            "request_timeout": ("Request timeout", self.request_timeout_spin),
            "secrets": ("Credentials", self.credentials),
        }
        self._fields: dict[str, FieldRow] = {}
        self._form = QFormLayout()
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for key, (label, editor) in editors.items():
            field = FieldRow(editor)
            self._fields[key] = field
            self._form.addRow(label, field)
        advertises = self._form.labelForField(self._fields["client_capabilities"])
        if advertises is not None:  # the row's one-word label, said in full
            advertises.setToolTip(ADVERTISES_TIP)

        self.general_error = plain_label("", wrap=True)
        self.general_error.setObjectName("generalError")
        set_tone(self.general_error, "error")
        self.general_error.hide()
        self.note = plain_label("", wrap=True)
        self.note.hide()

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        fields = QWidget()
        fields_layout = QVBoxLayout(fields)
        fields_layout.setContentsMargins(0, 0, 0, 0)
        fields_layout.addLayout(self._form)
        fields_layout.addWidget(self.note)
        fields_layout.addWidget(self.general_error)
        fields_layout.addStretch(1)
        self.fields_area = FormArea(fields)
        self.fields_area.content_changed.connect(lambda: refit(self))  # nested layouts are settled by then
        layout = QVBoxLayout(self)
        layout.addWidget(self.fields_area, 1)
        layout.addWidget(self.buttons)

        self._fill(profile)
        self._connect_editors()
        self._loading = False
        self.on_kind_changed()

    # ------------------------------------------------------------------ public

    def profile(self) -> ConnectionProfile:
        """The validated profile (after the dialog was accepted).

        Raises:
            ValueError: The input is not a valid profile.
        """
        if self._profile is None:
            raise ValueError("the connection dialog holds no valid profile")
        return self._profile

    def secret_changes(self) -> SecretChanges:
        """What to store in (and forget from) the credential store before saving ``profile()``.

        Raises:
            ValueError: The input is not a valid profile.
        """
        if self._profile is None:
            raise ValueError("the connection dialog holds no valid profile")
        return self._changes

    def set_credentials_backend(self, info: BackendInfo | None, error: WorkbenchError | None = None) -> None:
        """Say in the Credentials section where secrets will go: an insecure backend's warning, or that none works.

        Without a usable keyring (``error``) the secret fields are off and a calm notice says why and what
        to do: nothing was tried yet, so nothing failed (a refused save says so in red, ``show_save_error``).
        """
        if error is not None:
            self.credentials.set_status(f"{NO_KEYRING_NOTICE}{_sentence(error.hint)}", tone="notice")
        elif info is not None and info.warning:
            self.credentials.set_status(f"Warning: {info.warning}", tone="warning")
        else:
            self.credentials.set_status("")
        self.credentials.set_secrets_enabled(error is None)
        self.oauth.set_keyring_available(error is None)
        self._fit_height()

    def show_save_error(self, error: WorkbenchError) -> None:
        """Show why the last save failed (the input is kept, so the user can fix the cause and retry)."""
        keyring = isinstance(error, SecureStorageUnavailableError)
        hint = f" ({error.hint})" if error.hint and not keyring else ""  # the keyring notice holds that hint
        self.general_error.setText(f"Not saved: {error.message}{hint}")
        self.general_error.setVisible(True)
        if keyring:
            self.set_credentials_backend(None, error)
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow an open dialog to the height its wrapped notes need at its width, on its screen (``refit``).

        A note that arrives after the dialog is shown (a failed save) or another kind's fields would otherwise
        be squeezed and cut off mid-sentence.
        """
        if self._fitting:
            return
        self._fitting = True
        try:
            self.fields_area.settle()
            refit(self)
        finally:
            self._fitting = False

    def first_focus(self) -> QWidget:
        """The name field, the form's first (dialog_rules, rule 2)."""
        return self.name_edit

    def accept_action(self) -> QPushButton:
        """OK: what Ctrl+Enter presses (dialog_rules, rule 4)."""
        return self.ok_button()

    def kind(self) -> str:
        """The selected profile kind (``mcp-stdio``, ``mcp-http``, ``mcp-sse`` or ``a2a``)."""
        return str(self.kind_combo.currentData())

    def set_kind(self, kind: str) -> None:
        """Select ``kind`` in the kind selector."""
        index = self.kind_combo.findData(kind)
        if index < 0:
            raise ValueError(f"unknown profile kind {kind!r}")
        self.kind_combo.setCurrentIndex(index)

    def field_errors(self) -> dict[str, str]:
        """The current problems, by field name (``""`` for the profile as a whole)."""
        return dict(self._errors)

    def is_valid(self) -> bool:
        """Whether the input makes a valid profile."""
        return self._profile is not None

    def ok_button(self) -> QPushButton:
        """The OK button (disabled while the input is invalid)."""
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert button is not None
        return button

    def accept(self) -> None:
        """Close with the profile, but only when it is valid (otherwise show every problem)."""
        self._show_all = True
        self.validate()
        if self._profile is None:
            return
        try:  # the files the OAuth settings name are read now, on save, not at every keystroke
            key = self.oauth.check_files(self._profile.id) if self.kind() in (*OAUTH_KINDS, "a2a") else {}
        except InputError as exc:
            self._errors = {**self._errors, exc.field: exc.message}
            self._fields[exc.field].set_error(exc.message)
            return
        if key:
            store = {**self._changes.store, **key}
            self._changes = SecretChanges(store=store, forget=tuple(k for k in self._changes.forget if k not in key))
        super().accept()

    # ------------------------------------------------------------------ building

    def _fill(self, profile: ConnectionProfile | None) -> None:
        if profile is None:
            self.set_kind("mcp-stdio")
            self._set_timeouts("mcp-stdio")
            return
        self.set_kind(profile.kind)
        fill_fields(self, profile)
        self._last_kind = profile.kind

    def _set_timeouts(self, kind: str) -> None:
        cls = PROFILE_CLASSES[kind]
        self.connect_timeout_spin.setValue(float(cls.model_fields["connect_timeout"].default))
        self.request_timeout_spin.setValue(float(cls.model_fields["request_timeout"].default or 0.0))
        self._last_kind = kind

    def _connect_editors(self) -> None:
        # Each editor marks its field as touched: a new profile shows a field's problem only once
        # the user has edited it (or tried OK), rather than opening as a wall of red text.
        signals = {
            "name": self.name_edit.textChanged,
            "command": self.command_edit.textChanged,
            "args": self.args_edit.textChanged,
            "env": self.env_edit.textChanged,
            "cwd": self.cwd_edit.textChanged,
            "url": self.url_edit.textChanged,
            "card_url": self.card_url_edit.textChanged,
            "agent_tool": self.agent_tool_edit.textChanged,
            "client_capabilities": self.client_capabilities.changed,
            "headers": self.headers_edit.textChanged,
            "allowed_origins": self.allowed_origins_edit.textChanged,
            "insecure": self.insecure_check.toggled,
            "mode": self.mode_combo.currentIndexChanged,
            "tool_approval": self.tool_approval_combo.currentIndexChanged,
            "binding": self.binding_combo.currentIndexChanged,
            "streaming": self.streaming_check.toggled,
            "connect_timeout": self.connect_timeout_spin.valueChanged,
            "request_timeout": self.request_timeout_spin.valueChanged,
            "secrets": self.credentials.changed,
            "auth": self.oauth.changed,
            "limits": self.size_limits.changed,
        }
        for key, signal in signals.items():
            signal.connect(lambda *_args, key=key: self._on_edited(key))
        self.kind_combo.currentIndexChanged.connect(self.on_kind_changed)
        self.oauth.auth_combo.currentIndexChanged.connect(self._follow_oauth)
        self.cwd_browse.clicked.connect(self.on_cwd_browse_clicked)

    # ------------------------------------------------------------------ slots

    def on_kind_changed(self) -> None:
        """Show the fields of the selected kind; carry the timeouts over unless they were the old kind's defaults."""
        kind = self.kind()
        visible = FIELDS_BY_KIND[kind]
        for key, field in self._fields.items():
            if key in ("kind", *COMMON_FIELDS):
                continue
            self._form.setRowVisible(field, key in visible)
        if self._last_kind != kind:
            old = PROFILE_CLASSES[self._last_kind].model_fields
            if self.connect_timeout_spin.value() == old["connect_timeout"].default and (
                self.request_timeout_spin.value() == (old["request_timeout"].default or 0.0)
            ):
                self._set_timeouts(kind)
            self._last_kind = kind
        self.url_edit.setPlaceholderText(URL_PLACEHOLDERS.get(kind, ""))
        self.credentials.set_kind(kind)
        self.oauth.set_kind(kind)
        self._follow_oauth()
        carries = self._original is not None and credential_family(self._original.kind) == credential_family(kind)
        dropped = self._original is not None and not carries and bool(self._original.secrets)
        self.note.setText(
            "This profile's stored secrets do not fit this kind; they are forgotten when you save." if dropped else ""
        )
        self.note.setVisible(dropped)
        self.validate()
        self._fit_height()

    def _follow_oauth(self) -> None:
        """The bearer token field is off while the (shown) authentication is an OAuth login."""
        oauth = self.kind() in OAUTH_KINDS and self.oauth.auth() == "oauth"
        if oauth != self.credentials.is_oauth():
            self.credentials.set_oauth(oauth)

    def on_cwd_browse_clicked(self) -> None:
        """Pick the working directory with a non-blocking directory chooser."""
        chooser = QFileDialog(self, "Working directory", self.cwd_edit.text())
        chooser.setFileMode(QFileDialog.FileMode.Directory)
        chooser.setOption(QFileDialog.Option.ShowDirsOnly, True)
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.fileSelected.connect(self.cwd_edit.setText)
        present(chooser)

    def _on_edited(self, key: str) -> None:
        self._touched.add(key)
        self.validate()

    def validate(self) -> bool:
        """Build the profile from the fields; show each problem next to its field; enable OK when valid."""
        if self._loading:
            return False
        errors: dict[str, str] = {}
        profile: ConnectionProfile | None = None
        store: dict[str, SecretStr] = {}
        try:
            data, store = read_fields(self, self.kind(), self._profile_id, self._original)
        except InputError as exc:
            errors[exc.field] = exc.message
        else:
            cls = PROFILE_CLASSES[self.kind()]
            try:
                profile = cls.model_validate(data)  # type: ignore[assignment]
            except ValidationError as exc:
                for problem in exc.errors():
                    loc = problem["loc"]
                    where = str(loc[0]) if loc and str(loc[0]) in self._fields else ""
                    errors.setdefault(where, problem_message(problem))
        self._errors = errors
        self._profile = profile
        self._changes = SecretChanges()
        if profile is not None:
            now = {ref.key for ref in profile.secrets}
            before = [ref.key for ref in self._original.secrets] if self._original is not None else []
            forget = tuple(k for k in before if k not in now)
            forget += self.oauth.client_secret_forget(profile.id, names_oauth_client(profile))
            self._changes = SecretChanges(store=store, forget=forget)
        for key, field in self._fields.items():
            shown = self._show_all or key in self._touched
            field.set_error(errors.get(key, "") if shown else "")
        general = errors.get("", "")
        self.general_error.setText(general)
        self.general_error.setVisible(bool(general))
        self.ok_button().setEnabled(profile is not None)
        return profile is not None
