"""The connection dialog's OAuth client: dynamic, pre-registered (id, secret for the keyring) or CIMD."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.credential_keys import oauth_client_secret_key
from workbench.ui.dialogs.connection import ConnectionDialog

SECRET = "dialog-client-secret-41"


def _oauth_dialog(qtbot, profile=None) -> ConnectionDialog:
    dialog = ConnectionDialog(profile)
    qtbot.addWidget(dialog)
    if profile is None:
        dialog.set_kind("mcp-http")
        dialog.name_edit.setText("protected")
        dialog.url_edit.setText("https://mcp.example/mcp")
        dialog.oauth.set_auth("oauth")
    return dialog


def _accept(qtbot, dialog: ConnectionDialog) -> None:
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.mouseClick(dialog.ok_button(), Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted


def _choose(combo, value: str) -> None:
    combo.setCurrentIndex(combo.findData(value))


def test_a_pre_registered_client_keeps_its_id_and_method_in_the_profile_and_its_secret_for_the_keyring(qtbot):
    dialog = _oauth_dialog(qtbot)
    _choose(dialog.oauth.client_combo, "pre-registered")
    dialog.oauth.client_id_edit.setText("my-client")
    _choose(dialog.oauth.token_auth_combo, "client_secret_post")
    dialog.oauth.client_secret.edit.setText(SECRET)
    dialog.oauth.redirect_port_edit.setText("53682")
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, MCPHTTPProfile)
    assert (profile.oauth_client, profile.oauth_client_id, profile.oauth_token_auth) == (
        "pre-registered",
        "my-client",
        "client_secret_post",
    )
    assert profile.oauth_redirect_port == 53682
    changes = dialog.secret_changes()
    assert changes.store[oauth_client_secret_key(profile.id)].get_secret_value() == SECRET
    assert SECRET not in profile.model_dump_json()


def test_a_pre_registered_client_with_a_secret_method_and_no_secret_cannot_be_saved(qtbot):
    dialog = _oauth_dialog(qtbot)
    _choose(dialog.oauth.client_combo, "pre-registered")
    dialog.oauth.client_id_edit.setText("my-client")
    assert not dialog.ok_button().isEnabled()
    _choose(dialog.oauth.token_auth_combo, "none")  # a public client needs none
    assert dialog.ok_button().isEnabled(), dialog.field_errors()


def test_switching_a_pre_registered_client_to_a_metadata_document_forgets_its_stored_secret(qtbot):
    saved = MCPHTTPProfile(
        name="p", url="https://mcp.example/mcp", auth="oauth", oauth_client="pre-registered", oauth_client_id="id"
    )
    dialog = _oauth_dialog(qtbot, saved)
    assert dialog.oauth.client() == "pre-registered" and dialog.oauth.client_secret.is_stored()
    _choose(dialog.oauth.client_combo, "metadata-document")
    dialog.oauth.metadata_url_edit.setText("http://app.example/client.json")  # plain http off loopback
    assert not dialog.ok_button().isEnabled()
    dialog.oauth.metadata_url_edit.setText("https://app.example/client.json")
    _accept(qtbot, dialog)
    assert dialog.profile().oauth_client_metadata_url == "https://app.example/client.json"  # type: ignore[union-attr]
    assert dialog.secret_changes().forget == (oauth_client_secret_key(saved.id),)
