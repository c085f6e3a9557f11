"""The OAuth section's rows for the grants without a browser: the workload JWT, the enterprise IdP, the key's source.

``GrantFields`` holds the widgets; ``OAuthSection`` puts them in its form, shows those of the chosen
grant, and reads back profile fields and the values the credential store must keep. A token comes from
a file the profile names (read at each login) or from the system keyring (typed here); a client key
file's path is kept, or the key is imported into the keyring when the profile is saved. ``check`` reads
the files named, on save only (``ConnectionDialog.accept``).
"""

from __future__ import annotations

from pydantic import SecretStr
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLineEdit, QPushButton, QWidget

from workbench.core.errors import ConfigError
from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile
from workbench.core.profiles.credential_keys import (
    oauth_assertion_key,
    oauth_client_key_key,
    oauth_id_token_key,
    oauth_idp_client_secret_key,
)
from workbench.core.profiles.oauth_files import check_client_key_file, check_token_file
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.credential_fields import InputError
from workbench.ui.dialogs.secret_fields import SecretField

KEY_SOURCES: list[tuple[str, str]] = [
    ("file", "Read from the file at each login"),
    ("keyring", "Import into the system keyring on save"),
]
"""The client key's sources: value and label."""
NO_KEYRING_KEY_SOURCE = "Not offered: this system has no secure keyring to keep the key in."
"""The tooltip of the keyring import while no secure keyring was found (the key file stays the key's source)."""

TOKEN_FILE_FILTERS = ["Tokens (*.jwt *.token *.txt)", "All files (*)"]
"""The token file chooser's name filters."""


class FileRow(QWidget):
    """A path typed or chosen with a non-blocking file chooser."""

    def __init__(self, what: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what
        self.edit = QLineEdit()
        self.edit.setAccessibleName(what)
        self.edit.setPlaceholderText(placeholder)
        self.browse = QPushButton("Browse…")
        self.browse.setAccessibleName(f"choose the {what}")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.browse)
        self.browse.clicked.connect(self.on_browse_clicked)

    def path(self) -> str | None:
        """The path typed, or ``None``."""
        return self.edit.text().strip() or None

    def on_browse_clicked(self) -> None:
        """Open the file chooser; the path chosen fills the entry."""
        chooser = QFileDialog(self, self.what[:1].upper() + self.what[1:], self.edit.text())
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
        chooser.setNameFilters(TOKEN_FILE_FILTERS)
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.fileSelected.connect(self.edit.setText)
        present(chooser)


class GrantFields:
    """The widgets of the JWT bearer and enterprise-managed grants, and of the client key's source.

    Args:
        oauth: The profile being edited, if it logs in with OAuth (its settings are shown).
    """

    def __init__(self, oauth: MCPHTTPProfile | MCPSSEProfile | None) -> None:
        grant = oauth.oauth_grant if oauth is not None else ""
        self.key_source_combo = QComboBox()
        for value, label in KEY_SOURCES:
            self.key_source_combo.addItem(label, value)
        self.key_source_combo.setAccessibleName("client key source")
        key_stored = oauth is not None and oauth.oauth_client == "private-key-jwt" and not oauth.oauth_client_key_file
        self.key_source_combo.setCurrentIndex(1 if key_stored else 0)
        self._key_stored = key_stored
        self.assertion_file = FileRow("workload JWT file", "e.g. /var/run/secrets/tokens/mcp — empty: the keyring")
        self.assertion_file.edit.setText(oauth.oauth_assertion_file or "" if oauth is not None else "")
        self.assertion_secret = SecretField(
            stored=grant == "jwt_bearer" and not (oauth and oauth.oauth_assertion_file), what="workload JWT"
        )
        self.idp_endpoint_edit = QLineEdit(oauth.oauth_idp_token_endpoint or "" if oauth is not None else "")
        self.idp_endpoint_edit.setAccessibleName("IdP token endpoint")
        self.idp_endpoint_edit.setPlaceholderText("https://idp.example/oauth2/token")
        self.idp_client_id_edit = QLineEdit(oauth.oauth_idp_client_id or "" if oauth is not None else "")
        self.idp_client_id_edit.setAccessibleName("IdP client id")
        self.idp_secret = SecretField(stored=grant == "enterprise_managed", what="IdP client secret")
        self.id_token_file = FileRow("ID token file", "empty: the ID token in the keyring")
        self.id_token_file.edit.setText(oauth.oauth_id_token_file or "" if oauth is not None else "")
        self.id_token_secret = SecretField(
            stored=grant == "enterprise_managed" and not (oauth and oauth.oauth_id_token_file), what="ID token"
        )

    def secret_fields(self) -> tuple[SecretField, ...]:
        """The grants' secrets typed here (each goes to the keyring)."""
        return (self.assertion_secret, self.idp_secret, self.id_token_secret)

    def set_keyring_available(self, available: bool) -> None:
        """Offer the keyring (pasted tokens, the key's import) only while a secure keyring can keep what goes there.

        Without one the secret fields are off (their tooltip says why) and the key is read from its file;
        a key already kept in the keyring stays chosen (the profile still refers to it).
        """
        for field in self.secret_fields():
            field.set_entry_enabled(available)
        model = self.key_source_combo.model()
        assert isinstance(model, QStandardItemModel)
        item = model.item(self.key_source_combo.findData("keyring"))
        item.setEnabled(available)
        item.setToolTip("" if available else NO_KEYRING_KEY_SOURCE)
        self.key_source_combo.setToolTip("" if available else NO_KEYRING_KEY_SOURCE)
        if not available and self.key_in_keyring() and not self._key_stored:
            self.key_source_combo.setCurrentIndex(self.key_source_combo.findData("file"))

    def signals(self) -> list[object]:
        """The signals that mean the input changed."""
        return [
            self.key_source_combo.currentIndexChanged,
            self.assertion_file.edit.textChanged,
            self.assertion_secret.changed,
            self.idp_endpoint_edit.textChanged,
            self.idp_client_id_edit.textChanged,
            self.idp_secret.changed,
            self.id_token_file.edit.textChanged,
            self.id_token_secret.changed,
        ]

    def add_grant_rows(self, form: QFormLayout) -> None:
        """Add the grants' rows (after the grant selector)."""
        for label, widget in (
            ("Workload JWT file", self.assertion_file),
            ("Workload JWT", self.assertion_secret),
            ("IdP token endpoint", self.idp_endpoint_edit),
            ("IdP client id", self.idp_client_id_edit),
            ("IdP client secret", self.idp_secret),
            ("ID token file", self.id_token_file),
            ("ID token", self.id_token_secret),
        ):
            form.addRow(label, widget)

    def shown(self, client: str, grant: str) -> dict[QWidget, bool]:
        """Which of the rows show for ``client`` and ``grant``."""
        jwt_bearer, enterprise = grant == "jwt_bearer", grant == "enterprise_managed"
        return {
            self.key_source_combo: client == "private-key-jwt",
            self.assertion_file: jwt_bearer,
            self.assertion_secret: jwt_bearer and self.assertion_file.path() is None,
            self.idp_endpoint_edit: enterprise,
            self.idp_client_id_edit: enterprise,
            self.idp_secret: enterprise,
            self.id_token_file: enterprise,
            self.id_token_secret: enterprise and self.id_token_file.path() is None,
        }

    def key_in_keyring(self) -> bool:
        """Whether the client key is (to be) kept in the keyring rather than read from its file."""
        return str(self.key_source_combo.currentData()) == "keyring"

    def fields(self, grant: str) -> dict[str, object]:
        """The profile fields of the grant's settings."""
        enterprise = grant == "enterprise_managed"
        return {
            "oauth_assertion_file": self.assertion_file.path() if grant == "jwt_bearer" else None,
            "oauth_idp_token_endpoint": self.idp_endpoint_edit.text().strip() or None if enterprise else None,
            "oauth_idp_client_id": self.idp_client_id_edit.text().strip() or None if enterprise else None,
            "oauth_id_token_file": self.id_token_file.path() if enterprise else None,
        }

    def store(self, profile_id: str, grant: str) -> dict[str, SecretStr]:
        """The tokens and IdP secret typed, by credential-store key.

        Raises:
            InputError: A token the profile takes from the keyring, neither typed nor kept (field ``auth``).
        """
        out: dict[str, SecretStr] = {}
        wanted: list[tuple[SecretField, str, bool]] = []
        if grant == "jwt_bearer" and self.assertion_file.path() is None:
            wanted.append((self.assertion_secret, oauth_assertion_key(profile_id), True))
        if grant == "enterprise_managed":
            wanted.append((self.idp_secret, oauth_idp_client_secret_key(profile_id), False))
            if self.id_token_file.path() is None:
                wanted.append((self.id_token_secret, oauth_id_token_key(profile_id), True))
        for field, key, required in wanted:
            value = field.value()
            if value is not None:
                out[key] = value
            elif required and not field.keeps_stored():
                what = "the workload JWT" if field is self.assertion_secret else "the ID token"
                if not field.is_entry_enabled():
                    raise InputError("auth", f"choose the file of {what}: no secure keyring can keep a pasted one")
                raise InputError("auth", f"choose the file of {what}, or paste it to keep it in the keyring")
        return out

    def forget(self, profile_id: str, grant: str) -> tuple[str, ...]:
        """The keys of stored grant secrets the profile no longer uses, or whose Forget was pressed."""
        used = set(self.store_keys(profile_id, grant))
        keys = (
            (self.assertion_secret, oauth_assertion_key(profile_id)),
            (self.idp_secret, oauth_idp_client_secret_key(profile_id)),
            (self.id_token_secret, oauth_id_token_key(profile_id)),
        )
        return tuple(
            key
            for field, key in keys
            if field.is_stored() and (key not in used or not (field.value() or field.keeps_stored()))
        )

    def store_keys(self, profile_id: str, grant: str) -> list[str]:
        """The keys of the grant secrets the profile uses."""
        keys = []
        if grant == "jwt_bearer" and self.assertion_file.path() is None:
            keys.append(oauth_assertion_key(profile_id))
        if grant == "enterprise_managed":
            keys.append(oauth_idp_client_secret_key(profile_id))
            if self.id_token_file.path() is None:
                keys.append(oauth_id_token_key(profile_id))
        return keys

    def check(self, profile_id: str, grant: str, key_path: str | None, algorithm: str | None) -> dict[str, SecretStr]:
        """Read the files named now (on save): the client key parses and signs ``algorithm``, the tokens are JWTs.

        Returns:
            The client key to store, when it is imported into the keyring.

        Raises:
            InputError: A file that cannot be read or does not hold what it must (field ``auth``; the
                message names the file, never its content).
        """
        try:
            store: dict[str, SecretStr] = {}
            if key_path is not None:
                checked = check_client_key_file(key_path, algorithm)
                if self.key_in_keyring():
                    store[oauth_client_key_key(profile_id)] = SecretStr(checked.pem)
            if grant == "jwt_bearer" and (path := self.assertion_file.path()) is not None:
                check_token_file(path, "oauth_assertion_file")
            if grant == "enterprise_managed" and (path := self.id_token_file.path()) is not None:
                check_token_file(path, "oauth_id_token_file")
        except ConfigError as exc:
            raise InputError("auth", exc.message) from None
        return store
