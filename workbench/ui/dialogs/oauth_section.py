"""The connection dialog's Authentication section: none, or an OAuth 2.1 login with its client, grant and DPoP.

For an A2A profile (``set_kind("a2a")``) it is the OAuth client for the agent card's OAuth schemes: each
scheme's own, a pre-registered one or a private key JWT one (its key's source), and DPoP; the card names the
flows, so the MCP login's choices (scopes, grant, CIMD, dynamic registration, redirect port) are hidden.

What the section reads back is profile data (``OAuthSection.FIELDS``) and the client secret or key the
credential store must keep or forget; the dialog's caller does the storing (``profile_service``).
"""

from __future__ import annotations

from pydantic import SecretStr
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.oauth_names import SIGNING_ALGORITHMS
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile
from workbench.core.profiles.credential_keys import oauth_client_key_key, oauth_client_secret_key
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.a2a_oauth import A2A_CLIENT_CHOICES, A2A_LOGIN
from workbench.ui.dialogs.credential_fields import InputError
from workbench.ui.dialogs.oauth_grant_fields import GrantFields
from workbench.ui.dialogs.secret_fields import SecretField
from workbench.ui.untrusted import plain_label

AUTH_CHOICES: list[tuple[str, str]] = [
    ("none", "None (fixed credentials below, if any)"),
    ("oauth", "OAuth 2.1 login"),
]
"""The authentication selector's entries: the profile's ``auth`` value and label."""
OAUTH_CLIENT_CHOICES: list[tuple[str, str]] = [
    ("dynamic", "Registered by the workbench (dynamic registration)"),
    ("pre-registered", "Pre-registered client (id and secret)"),
    ("metadata-document", "Client ID Metadata Document (URL)"),
    ("private-key-jwt", "Private key JWT (client id and key)"),
]
"""The OAuth client selector's entries: the profile's ``oauth_client`` value and label."""
GRANT_CHOICES: list[tuple[str, str]] = [
    ("authorization_code", "Browser sign-in (authorization code)"),
    ("client_credentials", "Client credentials (no browser, no person)"),
    ("jwt_bearer", "Workload identity (the workload's JWT)"),
    ("enterprise_managed", "Enterprise-managed (ID token exchanged at the IdP)"),
]
"""The grant selector's entries: the profile's ``oauth_grant`` value and label."""
KEY_FILE_FILTERS = ["PEM private keys (*.pem *.key)", "All files (*)"]
"""The key file chooser's name filters."""
TOKEN_AUTH_CHOICES: list[tuple[str, str]] = [
    ("client_secret_basic", "client_secret_basic (HTTP Basic)"),
    ("client_secret_post", "client_secret_post (in the form)"),
    ("none", "none (public client, no secret)"),
]
"""The pre-registered client's token endpoint auth methods: value and label."""


NO_KEYRING_TOKENS = (
    "this system has no secure keyring to keep the tokens in, so a login cannot be kept until one is set up "
    "(see Credentials)."
)
"""How the note ends when no secure keyring was found (the Credentials section's notice says why and what to do)."""


NO_KEYRING_CLIENT_SECRET = (
    "this system has no secure keyring to keep a client secret in: choose the token auth method none, "
    "or a private key JWT client with its key file"
)
"""Why a pre-registered client with a secret cannot be saved while no secure keyring was found."""


def login_note(start: str, *, keyring: bool) -> str:
    """The OAuth note: how to log in (``start``, a clause), then where the tokens go, or that nothing keeps them."""
    return f"{start}; the tokens go to the system keyring." if keyring else f"{start}, but {NO_KEYRING_TOKENS}"


def _narrow(combo: QComboBox) -> None:
    """Let ``combo`` be narrower than its longest entry (elided), so it never widens the dialog."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)


def parse_scopes(text: str) -> list[str]:
    """OAuth scopes from the scopes box: separated by spaces or commas, duplicates dropped, order kept."""
    words = text.replace(",", " ").split()
    return list(dict.fromkeys(words))


class OAuthSection(QWidget):
    """The dialog's Authentication for MCP over HTTP: none, or an OAuth 2.1 login and who logs in.

    The login's scopes; its client (dynamic registration, pre-registered id and secret, a Client ID
    Metadata Document, or a private key JWT client: id, PEM key file, algorithm); its grant (a browser
    sign-in, or client credentials: only the grants the client can use are offered); DPoP.

    Args:
        original: The profile being edited (its ``auth`` settings are shown), or ``None``.
        parent: Qt parent.
    """

    changed = Signal()

    FIELDS = frozenset(
        {
            "auth",
            "oauth_scopes",
            "oauth_client_name",
            "oauth_client",
            "oauth_client_id",
            "oauth_token_auth",
            "oauth_client_metadata_url",
            "oauth_redirect_port",
            "oauth_grant",
            "oauth_client_key_file",
            "oauth_client_key_algorithm",
            "oauth_dpop",
            "oauth_assertion_file",
            "oauth_idp_token_endpoint",
            "oauth_idp_client_id",
            "oauth_id_token_file",
        }
    )
    """The profile fields this section edits (an OAuth setting without an editor here carries over)."""

    def __init__(self, original: ConnectionProfile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kind: str = original.kind if original is not None else "mcp-http"
        self._keyring = True
        self.auth_combo = QComboBox()
        for value, label in AUTH_CHOICES:
            self.auth_combo.addItem(label, value)
        self.auth_combo.setAccessibleName("authentication")
        self.scopes_edit = QLineEdit()
        self.scopes_edit.setPlaceholderText("(optional) extra scopes, e.g. mcp:tools files:read")
        self.scopes_edit.setAccessibleName("OAuth scopes")
        self.scopes_edit.setToolTip("Asked for on top of the scopes the server requires; separate with spaces")
        self.client_name_edit = QLineEdit()
        self.client_name_edit.setPlaceholderText("Agent Workbench")
        self.client_name_edit.setAccessibleName("OAuth client name")
        self.client_name_edit.setToolTip("The name the authorization server shows on its consent page")
        self.note = plain_label("", wrap=True)
        self._build_client_fields(original)
        self._details = QWidget()
        form = QFormLayout(self._details)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Scopes", self.scopes_edit)
        form.addRow("Client", self.client_combo)
        form.addRow("Client name", self.client_name_edit)
        form.addRow("Client id", self.client_id_edit)
        form.addRow("Client secret", self.client_secret)
        form.addRow("Token auth", self.token_auth_combo)
        form.addRow("Private key", self.key_row)
        form.addRow("Key algorithm", self.key_algorithm_combo)
        form.addRow("Key source", self.grant_fields.key_source_combo)
        form.addRow("Metadata URL", self.metadata_url_edit)
        form.addRow("Grant", self.grant_combo)
        self.grant_fields.add_grant_rows(form)
        form.addRow("Redirect port", self.redirect_port_edit)
        form.addRow("DPoP", self.dpop_check)
        self._client_form = form
        form.addRow(self.note)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.auth_combo)
        layout.addWidget(self._details)
        if isinstance(original, MCPHTTPProfile | MCPSSEProfile):
            self.set_auth(original.auth)
            self.scopes_edit.setText(" ".join(original.oauth_scopes))
            self.client_name_edit.setText(original.oauth_client_name or "")
        self._fill_client_choices()
        self.auth_combo.setVisible(not self.is_a2a())
        self._details.setVisible(self.auth() == "oauth" or self.is_a2a())
        self._show_client_fields()
        self.auth_combo.currentIndexChanged.connect(self.on_auth_combo_changed)
        self.client_combo.currentIndexChanged.connect(self.on_client_combo_changed)
        self.token_auth_combo.currentIndexChanged.connect(self.on_client_combo_changed)
        self.grant_combo.currentIndexChanged.connect(self.on_client_combo_changed)
        self.key_browse.clicked.connect(self.on_key_browse_clicked)
        for signal in (
            self.key_file_edit.textChanged,
            self.key_algorithm_combo.currentIndexChanged,
            self.dpop_check.toggled,
            self.scopes_edit.textChanged,
            self.client_name_edit.textChanged,
            self.client_id_edit.textChanged,
            self.client_secret.changed,
            self.metadata_url_edit.textChanged,
            self.redirect_port_edit.textChanged,
            *self.grant_fields.signals(),
        ):
            signal.connect(self.changed)  # type: ignore[attr-defined]
        for row in (self.grant_fields.assertion_file, self.grant_fields.id_token_file):
            row.edit.textChanged.connect(self._show_client_fields)  # a file named: no token to type

    def _build_client_fields(self, original: ConnectionProfile | None) -> None:
        """The client identity's widgets, filled from ``original``."""
        oauth = original if isinstance(original, MCPHTTPProfile | MCPSSEProfile) else None
        client = original if isinstance(original, MCPHTTPProfile | MCPSSEProfile | A2AProfile) else None
        self.client_combo = QComboBox()
        self.client_combo.setAccessibleName("OAuth client")
        _narrow(self.client_combo)
        self.client_id_edit = QLineEdit(client.oauth_client_id or "" if client is not None else "")
        self.client_id_edit.setAccessibleName("OAuth client id")
        self.client_id_edit.setPlaceholderText("the id the authorization server issued")
        stored = client is not None and client.oauth_client == "pre-registered" and client.oauth_token_auth != "none"
        self.client_secret = SecretField(stored=stored, what="client secret")
        self.token_auth_combo = QComboBox()
        for value, label in TOKEN_AUTH_CHOICES:
            self.token_auth_combo.addItem(label, value)
        self.token_auth_combo.setAccessibleName("token endpoint auth method")
        self.metadata_url_edit = QLineEdit(oauth.oauth_client_metadata_url or "" if oauth is not None else "")
        self.metadata_url_edit.setAccessibleName("client metadata document URL")
        self.metadata_url_edit.setPlaceholderText("https://app.example/oauth/client.json")
        self.metadata_url_edit.setToolTip("Its URL is the client id; it must list the redirect URI below")
        port = oauth.oauth_redirect_port if oauth is not None else None
        self.redirect_port_edit = QLineEdit(str(port) if port else "")
        self.redirect_port_edit.setAccessibleName("OAuth redirect port")
        self.redirect_port_edit.setPlaceholderText("any free port")
        self.redirect_port_edit.setToolTip("The port of http://127.0.0.1:PORT/callback the client is registered with")
        self.grant_combo = QComboBox()
        for value, label in GRANT_CHOICES:
            self.grant_combo.addItem(label, value)
        self.grant_combo.setAccessibleName("OAuth grant")
        _narrow(self.grant_combo)
        self.grant_combo.setToolTip("How the workbench gets tokens: you sign in in a browser, or the client for itself")
        self._build_key_fields(client)
        self.grant_fields = GrantFields(oauth)
        if self._key_stored:
            self.grant_fields.key_source_combo.setCurrentIndex(1)
        self.dpop_check = QCheckBox("Bind the tokens to this profile's key")
        self.dpop_check.setAccessibleName("DPoP-bound tokens")
        if client is not None:
            self.token_auth_combo.setCurrentIndex(max(0, self.token_auth_combo.findData(client.oauth_token_auth)))
            self.dpop_check.setChecked(client.oauth_dpop)
        if oauth is not None:
            self.grant_combo.setCurrentIndex(max(0, self.grant_combo.findData(oauth.oauth_grant)))
        self._original_client = client.oauth_client if client is not None else ""

    def _fill_client_choices(self) -> None:
        """The client selector's entries for the kind (an A2A profile's or an MCP login's); a fitting choice stays."""
        current = self.client_combo.currentData() or self._original_client
        blocked = self.client_combo.blockSignals(True)  # the caller reports the change
        self.client_combo.clear()
        for value, label in A2A_CLIENT_CHOICES if self.is_a2a() else OAUTH_CLIENT_CHOICES:
            self.client_combo.addItem(label, value)
        self.client_combo.setCurrentIndex(max(0, self.client_combo.findData(current)))
        self.client_combo.blockSignals(blocked)

    def is_a2a(self) -> bool:
        """Whether the section edits an A2A profile's OAuth client."""
        return self._kind == "a2a"

    def set_kind(self, kind: str) -> None:
        """Show the settings of a profile of ``kind``: an A2A agent's OAuth client, or an MCP login."""
        if kind == self._kind:
            return
        self._kind = kind
        self._fill_client_choices()
        self.auth_combo.setVisible(not self.is_a2a())
        self._details.setVisible(self.auth() == "oauth" or self.is_a2a())
        self._show_client_fields()

    def _build_key_fields(self, oauth: MCPHTTPProfile | MCPSSEProfile | A2AProfile | None) -> None:
        """The private key JWT client's key file (a path the profile keeps) and algorithm, filled from ``oauth``."""
        self._key_stored = (
            oauth is not None and oauth.oauth_client == "private-key-jwt" and not oauth.oauth_client_key_file
        )
        self.key_file_edit = QLineEdit(oauth.oauth_client_key_file or "" if oauth is not None else "")
        self.key_file_edit.setAccessibleName("client private key file")
        self.key_file_edit.setPlaceholderText(
            "stored in keyring — leave empty to keep, or choose a PEM file" if self._key_stored else "PEM file"
        )
        self.key_file_edit.setToolTip("The profile keeps the file's path; the key is read at each login")
        self.key_browse = QPushButton("Browse…")
        self.key_browse.setAccessibleName("choose the client private key file")
        self.key_row = QWidget()
        row = QHBoxLayout(self.key_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.key_file_edit, 1)
        row.addWidget(self.key_browse)
        self.key_algorithm_combo = QComboBox()
        self.key_algorithm_combo.addItems(list(SIGNING_ALGORITHMS))
        self.key_algorithm_combo.setAccessibleName("client key signature algorithm")
        _narrow(self.key_algorithm_combo)
        self.key_algorithm_combo.setToolTip("RS256 for an RSA key, ES256 for a P-256 EC key")
        if oauth is not None:
            self.key_algorithm_combo.setCurrentText(oauth.oauth_client_key_algorithm)

    def _show_client_fields(self) -> None:
        """Show the fields of the chosen client identity only (an A2A profile: none of the MCP login's)."""
        client = self.client()
        self._follow_client(client)
        machine = self.grant() != "authorization_code"
        mcp = not self.is_a2a()
        shown = {
            self.client_name_edit: client == "dynamic",
            self.client_id_edit: client in ("pre-registered", "private-key-jwt"),
            self.token_auth_combo: client == "pre-registered",
            self.client_secret: client == "pre-registered" and self.token_auth() != "none",
            self.key_row: client == "private-key-jwt",
            self.key_algorithm_combo: client == "private-key-jwt",
            self.metadata_url_edit: client == "metadata-document",
            self.grant_combo: mcp and client in ("pre-registered", "private-key-jwt"),
            self.redirect_port_edit: mcp and not machine,
            **self.grant_fields.shown(client, self.grant() if mcp else ""),
            self.scopes_edit: mcp,
        }
        for widget, visible in shown.items():
            self._client_form.setRowVisible(widget, visible)
        if not mcp:
            start = A2A_LOGIN
        elif machine:
            start = (
                "Log in with “Log in (OAuth)” on the connection (or by connecting): the client gets its tokens "
                "itself and no browser opens"
            )
        else:
            start = "Log in with “Log in (OAuth)” on the connection (or by connecting): the browser opens"
        self.note.setText(login_note(start, keyring=self._keyring))
        self.dpop_check.setToolTip(
            "Each request then proves it holds the key; the key pair stays in the system keyring"
            if self._keyring
            else "Each request then proves it holds the key; without a secure keyring the key pair cannot be kept"
        )

    def set_keyring_available(self, available: bool) -> None:
        """Say in the note where the tokens go: the system keyring, or (none found) that nothing can keep them.

        Without a secure keyring every secret field here is off (its tooltip says why: the Credentials
        notice's words) and a client key is read from its file, not imported.
        """
        if available != self._keyring:
            self._keyring = available
            self.client_secret.set_entry_enabled(available)
            self.grant_fields.set_keyring_available(available)
            self._show_client_fields()

    def _follow_client(self, client: str) -> None:
        """Offer only the grants ``client`` can use, and choose the one it must.

        Dynamic and CIMD clients sign in in a browser; a private key JWT client gets tokens without one;
        a pre-registered client may do either (client credentials and enterprise-managed only with a secret).
        """
        confidential = client == "private-key-jwt" or (client == "pre-registered" and self.token_auth() != "none")
        allowed = {
            "authorization_code": client != "private-key-jwt" or self.is_a2a(),
            "client_credentials": confidential,
            "jwt_bearer": client in ("pre-registered", "private-key-jwt"),
            "enterprise_managed": confidential,
        }
        model = self.grant_combo.model()
        assert isinstance(model, QStandardItemModel)
        for row in range(self.grant_combo.count()):
            item = model.item(row)
            item.setEnabled(allowed[str(self.grant_combo.itemData(row))])
        if not allowed[self.grant()]:
            blocked = self.grant_combo.blockSignals(True)  # the caller reports the change
            self.grant_combo.setCurrentIndex(self.grant_combo.findData(next(g for g, ok in allowed.items() if ok)))
            self.grant_combo.blockSignals(blocked)

    def client(self) -> str:
        """``dynamic``, ``pre-registered``, ``metadata-document`` or ``private-key-jwt``."""
        return str(self.client_combo.currentData())

    def grant(self) -> str:
        """The grant (``GRANT_CHOICES``): ``authorization_code`` (a browser sign-in) or one without a browser."""
        return str(self.grant_combo.currentData())

    def on_key_browse_clicked(self) -> None:
        """Choose the private key file with a non-blocking file chooser."""
        chooser = QFileDialog(self, "Client private key", self.key_file_edit.text())
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
        chooser.setNameFilters(KEY_FILE_FILTERS)
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.fileSelected.connect(self.key_file_edit.setText)
        present(chooser)

    def token_auth(self) -> str:
        """The pre-registered client's token endpoint auth method."""
        return str(self.token_auth_combo.currentData())

    def client_fields(self) -> dict[str, object]:
        """The profile fields of the client identity (validated with the profile).

        Raises:
            InputError: The redirect port is not a number, or a private key JWT client has no key
                (field ``auth``).
        """
        port_text = self.redirect_port_edit.text().strip()
        if port_text and not port_text.isdigit():
            raise InputError("auth", "the redirect port is a number from 1 to 65535")
        client = self.client()
        key_path = self.key_file_edit.text().strip() or None if client == "private-key-jwt" else None
        if client == "private-key-jwt" and key_path is None and not self._key_stored:
            raise InputError("auth", "choose the client's private key file (PEM)")
        key_file = None if self.grant_fields.key_in_keyring() else key_path
        if self.is_a2a():
            return {
                "oauth_client": client,
                "oauth_client_id": self.client_id_edit.text().strip() or None if client != "per-scheme" else None,
                "oauth_token_auth": self.token_auth(),
                "oauth_client_key_file": key_file,
                "oauth_client_key_algorithm": self.key_algorithm_combo.currentText(),
                "oauth_dpop": self.dpop_check.isChecked(),
            }
        return {
            "oauth_client": client,
            "oauth_client_id": (
                self.client_id_edit.text().strip() or None if client in ("pre-registered", "private-key-jwt") else None
            ),
            "oauth_token_auth": self.token_auth(),
            "oauth_client_metadata_url": (
                self.metadata_url_edit.text().strip() or None if client == "metadata-document" else None
            ),
            "oauth_redirect_port": int(port_text) if port_text else None,
            "oauth_grant": self.grant(),
            "oauth_client_key_file": key_file,
            "oauth_client_key_algorithm": self.key_algorithm_combo.currentText(),
            "oauth_dpop": self.dpop_check.isChecked(),
            **self.grant_fields.fields(self.grant()),
        }

    def client_secret_store(self, profile_id: str, oauth: bool) -> dict[str, SecretStr]:
        """The pre-registered client's secret to store (by credential-store key), if one was typed.

        Raises:
            InputError: A pre-registered client with a secret method, no secret typed and none kept (field ``auth``).
        """
        grant = self.grant_fields.store(profile_id, self._grant()) if oauth else {}
        if not self._uses_client_secret(oauth):
            return grant
        value = self.client_secret.value()
        if value is not None:
            return {**grant, oauth_client_secret_key(profile_id): value}
        if self.client_secret.keeps_stored():
            return grant
        if not self.client_secret.is_entry_enabled():
            raise InputError("auth", NO_KEYRING_CLIENT_SECRET)
        raise InputError("auth", "enter the client secret, or choose the token auth method none")

    def client_secret_forget(self, profile_id: str, oauth: bool) -> tuple[str, ...]:
        """The keys of the stored client secret and private key that the profile no longer uses (or forgets)."""
        key_kept = oauth and self.client() == "private-key-jwt" and self.grant_fields.key_in_keyring()
        forget: tuple[str, ...] = () if key_kept or not self._key_stored else (oauth_client_key_key(profile_id),)
        forget += self.grant_fields.forget(profile_id, self._grant() if oauth else "")
        if not self.client_secret.is_stored() or (self._uses_client_secret(oauth) and self.client_secret.value()):
            return forget
        if self._uses_client_secret(oauth) and self.client_secret.keeps_stored():
            return forget
        return (oauth_client_secret_key(profile_id), *forget)

    def check_files(self, profile_id: str) -> dict[str, SecretStr]:
        """Read the files the OAuth settings name (on save): the key parses and fits, the tokens are JWTs.

        Returns:
            The client key to store when it is imported into the keyring.

        Raises:
            InputError: A file that cannot be read or does not hold what it must (field ``auth``).
        """
        if self.auth() != "oauth" and not self.is_a2a():
            return {}
        key_path = self.key_file_edit.text().strip() or None if self.client() == "private-key-jwt" else None
        algorithm = self.key_algorithm_combo.currentText()
        return self.grant_fields.check(profile_id, self._grant(), key_path, algorithm)

    def _grant(self) -> str:
        """The grant whose settings count: the one chosen for an MCP login, none for an A2A profile."""
        return "" if self.is_a2a() else self.grant()

    def _uses_client_secret(self, oauth: bool) -> bool:
        return oauth and self.client() == "pre-registered" and self.token_auth() != "none"

    def on_client_combo_changed(self) -> None:
        """Show the fields of the chosen client identity."""
        self._show_client_fields()
        self.changed.emit()

    def auth(self) -> str:
        """``none`` or ``oauth``."""
        return str(self.auth_combo.currentData())

    def set_auth(self, auth: str) -> None:
        """Select ``none`` or ``oauth``."""
        index = self.auth_combo.findData(auth)
        if index < 0:
            raise ValueError(f"unknown authentication {auth!r}")
        self.auth_combo.setCurrentIndex(index)

    def scopes(self) -> list[str]:
        """The extra scopes typed."""
        return parse_scopes(self.scopes_edit.text())

    def client_name(self) -> str | None:
        """The client name typed, or ``None`` for the default."""
        return self.client_name_edit.text().strip() or None

    def on_auth_combo_changed(self) -> None:
        """Show the OAuth settings only for an OAuth login."""
        self._details.setVisible(self.auth() == "oauth")
        self.changed.emit()
