"""The connection dialog's workload identity and enterprise grants, the key's source, and the files checked on save.

The logins run from the sidebar against the loopback authorization server for logins without a browser
(``tests/servers/oauth_machine.py``); the refusals happen when OK is pressed: the dialog stays open with
the problem under the Authentication field, and nothing is stored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET, ID_TOKEN, JWT_BEARER, TOKEN_EXCHANGE, new_key_pem
from tests.servers.oauth_machine import serve_machine_oauth as serve
from tests.support.connection_dialogs import new_connection_dialog
from tests.support.panel_context import make_context, reported_errors
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.credential_keys import oauth_client_key_key, oauth_id_token_key
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0


def no_browser(url: str) -> None:
    raise AssertionError(f"a login without a browser opened {url}")


def _dialog(qtbot, url: str = "https://mcp.example/mcp") -> ConnectionDialog:
    dialog = new_connection_dialog(qtbot, "mcp-http", "p", url)
    dialog.oauth.set_auth("oauth")
    return dialog


def _choose(combo, value: str) -> None:
    combo.setCurrentIndex(combo.findData(value))


async def _save_and_log_in(qtbot, tmp_path: Path, fill, store: MemoryCredentialStore) -> MCPHTTPProfile:
    ctx = make_context(
        tmp_path / "config", factory=DefaultAgentFactory(resolve_secret=store.resolve, credentials=store)
    )
    ctx.services.credentials = store
    errors = reported_errors(ctx)
    sidebar = SidebarWidget(ctx, oauth_opener=no_browser)
    qtbot.addWidget(sidebar)
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    fill(dialog)
    assert dialog.is_valid(), dialog.field_errors()
    dialog.ok_button().click()
    profile = await asyncio.wait_for(task, BOUND)
    assert isinstance(profile, MCPHTTPProfile)
    sidebar.select(profile.id)
    sidebar.actions_by_id["login"].trigger()
    login = sidebar.viewmodel.task(profile.id)
    assert login is not None
    await asyncio.wait_for(login, BOUND)
    assert errors == []
    conn = ctx.services.connections.get(profile.id)
    assert conn is not None and conn.state is ConnectionState.CONNECTED
    await ctx.services.connections.aclose()
    return profile


@pytest.mark.asyncio
async def test_a_workload_identity_profile_with_a_token_file_is_saved_and_logs_in_from_the_sidebar(
    qtbot, tmp_path: Path
):
    async with serve() as servers:
        token_file = tmp_path / "token"
        token_file.write_text(servers.workload_jwt())

        def fill(dialog: ConnectionDialog) -> None:
            dialog.name_edit.setText("workload")
            dialog.set_kind("mcp-http")
            dialog.url_edit.setText(servers.url)
            oauth = dialog.oauth
            oauth.set_auth("oauth")
            _choose(oauth.client_combo, "pre-registered")
            oauth.client_id_edit.setText("workload")
            _choose(oauth.token_auth_combo, "none")
            _choose(oauth.grant_combo, "jwt_bearer")
            assert oauth.redirect_port_edit.isHidden() and not oauth.grant_fields.assertion_file.isHidden()
            oauth.grant_fields.assertion_file.edit.setText(str(token_file))
            assert oauth.grant_fields.assertion_secret.isHidden()  # a file named: nothing to paste

        profile = await _save_and_log_in(qtbot, tmp_path, fill, MemoryCredentialStore())
    assert (profile.oauth_grant, profile.oauth_assertion_file) == ("jwt_bearer", str(token_file))
    assert servers.authorization_server.seen.grants == [JWT_BEARER]


@pytest.mark.asyncio
async def test_an_enterprise_profile_with_its_id_token_pasted_keeps_it_in_the_keyring_and_logs_in(
    qtbot, tmp_path: Path
):
    store = MemoryCredentialStore()
    async with serve() as servers:

        def fill(dialog: ConnectionDialog) -> None:
            dialog.name_edit.setText("enterprise")
            dialog.set_kind("mcp-http")
            dialog.url_edit.setText(servers.url)
            oauth = dialog.oauth
            oauth.set_auth("oauth")
            _choose(oauth.client_combo, "pre-registered")
            oauth.client_id_edit.setText(CLIENT_ID)
            oauth.client_secret.edit.setText(CLIENT_SECRET)
            _choose(oauth.grant_combo, "enterprise_managed")
            fields = oauth.grant_fields
            fields.idp_endpoint_edit.setText(servers.idp_token_endpoint)
            fields.idp_client_id_edit.setText("idp-client")
            assert not dialog.is_valid()  # no ID token yet: neither a file nor one pasted
            fields.id_token_secret.edit.setText(ID_TOKEN)

        profile = await _save_and_log_in(qtbot, tmp_path, fill, store)
    assert (profile.oauth_grant, profile.oauth_id_token_file) == ("enterprise_managed", None)
    assert (await store.get(oauth_id_token_key(profile.id))).get_secret_value() == ID_TOKEN  # type: ignore[union-attr]
    assert ID_TOKEN not in (tmp_path / "config" / "profiles.json").read_text()
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE, JWT_BEARER]


def test_a_public_client_is_not_offered_the_enterprise_grant_but_may_use_workload_identity(qtbot):
    dialog = _dialog(qtbot)
    oauth = dialog.oauth
    _choose(oauth.client_combo, "pre-registered")
    _choose(oauth.token_auth_combo, "none")
    model = oauth.grant_combo.model()
    enabled = {oauth.grant_combo.itemData(r): model.item(r).isEnabled() for r in range(oauth.grant_combo.count())}
    assert enabled == {
        "authorization_code": True,
        "client_credentials": False,
        "jwt_bearer": True,
        "enterprise_managed": False,
    }


@pytest.mark.parametrize("problem", ["missing", "not a key", "wrong algorithm"])
def test_ok_refuses_a_client_key_file_that_is_missing_or_does_not_parse_and_stores_nothing(
    qtbot, tmp_path: Path, problem: str
):
    key = tmp_path / "key.pem"
    if problem == "not a key":
        key.write_text("-----BEGIN PRIVATE KEY-----\nbm90LWEta2V5\n-----END PRIVATE KEY-----\n")
    elif problem == "wrong algorithm":
        key.write_text(new_key_pem()[0])  # P-256: cannot sign RS256
    dialog = _dialog(qtbot)
    oauth = dialog.oauth
    _choose(oauth.client_combo, "private-key-jwt")
    oauth.client_id_edit.setText("id")
    oauth.key_file_edit.setText(str(key))
    oauth.key_algorithm_combo.setCurrentText("RS256")
    _choose(oauth.grant_fields.key_source_combo, "keyring")
    assert dialog.is_valid(), dialog.field_errors()  # nothing read while typing
    with qtbot.assertNotEmitted(dialog.accepted):
        dialog.ok_button().click()
    assert dialog.field_errors()["auth"]
    assert "bm90LWEta2V5" not in dialog.field_errors()["auth"]
    assert dialog.secret_changes().store == {}


@pytest.mark.parametrize("content", ["", "not a jwt"])
def test_ok_refuses_an_empty_workload_jwt_file_or_one_without_a_jwt(qtbot, tmp_path: Path, content: str):
    token_file = tmp_path / "token"
    token_file.write_text(content)
    dialog = _dialog(qtbot)
    oauth = dialog.oauth
    _choose(oauth.client_combo, "pre-registered")
    oauth.client_id_edit.setText("w")
    _choose(oauth.token_auth_combo, "none")
    _choose(oauth.grant_combo, "jwt_bearer")
    oauth.grant_fields.assertion_file.edit.setText(str(token_file))
    with qtbot.assertNotEmitted(dialog.accepted):
        dialog.ok_button().click()
    assert dialog.field_errors()["auth"]


def test_a_key_imported_into_the_keyring_is_stored_on_ok_and_the_profile_keeps_no_path(qtbot, tmp_path: Path):
    pem = new_key_pem()[0]
    key = tmp_path / "key.pem"
    key.write_text(pem)
    dialog = _dialog(qtbot)
    oauth = dialog.oauth
    _choose(oauth.client_combo, "private-key-jwt")
    oauth.client_id_edit.setText("id")
    oauth.key_file_edit.setText(str(key))
    oauth.key_algorithm_combo.setCurrentText("ES256")
    _choose(oauth.grant_fields.key_source_combo, "keyring")
    with qtbot.waitSignal(dialog.accepted, timeout=int(BOUND * 1000)):
        dialog.ok_button().click()
    profile = dialog.profile()
    assert isinstance(profile, MCPHTTPProfile) and profile.oauth_client_key_file is None
    assert dialog.secret_changes().store[oauth_client_key_key(profile.id)].get_secret_value() == pem
