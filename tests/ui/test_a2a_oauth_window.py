"""An A2A profile's OAuth client in the connection dialog, and its login from the sidebar shown in the Login view.

The logins run against real loopback agents: the client-credentials agent behind the authorization
server of ``tests/servers/oauth_machine.py`` (``tests/support/a2a_machine_agent.py``) and the OpenID
Connect agent of ``tests/support/a2a_security_agents.py`` (the "browser" is ``follow_redirects_opener``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET, new_key_pem
from tests.support.a2a_machine_agent import serve_machine_agent
from tests.support.a2a_security_agents import CLIENT_ID as OIDC_CLIENT_ID
from tests.support.a2a_security_agents import OAuthServer, oauth_agent
from tests.support.connection_dialogs import new_connection_dialog
from tests.support.login_view import log_in_from_the_sidebar, login_panels, step_titles
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import A2AProfile
from workbench.core.profiles.credential_keys import oauth_client_key_key, oauth_client_secret_key
from workbench.demo.a2a_agents import serve_agent
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.errors import ErrorView
from workbench.ui.panels.authsteps.widget import AuthStepsWidget


def test_the_oauth_section_of_an_a2a_profile_offers_its_clients_and_dpop_but_no_mcp_grant(qtbot) -> None:
    dialog = new_connection_dialog(qtbot, "a2a", "agent", "https://agent.example")
    oauth = dialog.oauth
    assert oauth.auth_combo.isHidden() and not oauth._details.isHidden()
    choices = [oauth.client_combo.itemData(i) for i in range(oauth.client_combo.count())]
    assert choices == ["per-scheme", "pre-registered", "private-key-jwt"]
    assert dialog.is_valid(), dialog.field_errors()
    assert dialog.profile().oauth_client == "per-scheme"  # type: ignore[union-attr]

    oauth.client_combo.setCurrentIndex(oauth.client_combo.findData("pre-registered"))
    for hidden in (oauth.grant_combo, oauth.scopes_edit, oauth.redirect_port_edit, oauth.metadata_url_edit):
        assert hidden.isHidden()
    assert not oauth.client_id_edit.isHidden() and not oauth.client_secret.isHidden()
    oauth.client_id_edit.setText(CLIENT_ID)
    assert not dialog.is_valid()  # a secret method needs the secret
    oauth.client_secret.edit.setText(CLIENT_SECRET)
    oauth.token_auth_combo.setCurrentIndex(oauth.token_auth_combo.findData("client_secret_post"))
    oauth.dpop_check.setChecked(True)
    assert dialog.is_valid(), dialog.field_errors()
    profile = dialog.profile()
    assert isinstance(profile, A2AProfile)
    assert (profile.oauth_client, profile.oauth_client_id, profile.oauth_token_auth, profile.oauth_dpop) == (
        "pre-registered",
        CLIENT_ID,
        "client_secret_post",
        True,
    )
    stored = dialog.secret_changes().store[oauth_client_secret_key(profile.id)]
    assert stored.get_secret_value() == CLIENT_SECRET and CLIENT_SECRET not in profile.model_dump_json()

    dialog.set_kind("mcp-http")  # back to MCP: its client choices and its authentication selector
    assert not oauth.auth_combo.isHidden()
    assert oauth.client_combo.findData("dynamic") >= 0 and oauth.client_combo.findData("per-scheme") < 0


def test_an_a2a_private_key_client_imports_its_key_into_the_keyring_on_save_and_refuses_a_missing_file(
    qtbot, tmp_path: Path
) -> None:
    saved = A2AProfile(id="a", name="a", url="https://agent.example")
    dialog = ConnectionDialog(saved)
    qtbot.addWidget(dialog)
    oauth = dialog.oauth
    assert oauth.client() == "per-scheme" and oauth.auth_combo.isHidden()
    oauth.client_combo.setCurrentIndex(oauth.client_combo.findData("private-key-jwt"))
    oauth.client_id_edit.setText(CLIENT_ID)
    oauth.key_file_edit.setText(str(tmp_path / "missing.pem"))
    oauth.key_algorithm_combo.setCurrentText("ES256")
    assert dialog.is_valid(), dialog.field_errors()
    dialog.accept()  # the file is read on save: missing, so the dialog stays open with the error
    assert dialog.result() == 0 and "missing.pem" in dialog.field_errors()["auth"]

    pem = new_key_pem()[0]
    key_file = tmp_path / "client.pem"
    key_file.write_text(pem)
    oauth.key_file_edit.setText(str(key_file))
    source = oauth.grant_fields.key_source_combo
    source.setCurrentIndex(source.findData("keyring"))
    dialog.accept()
    profile = dialog.profile()
    assert isinstance(profile, A2AProfile) and dialog.result() == 1
    assert (profile.oauth_client, profile.oauth_client_key_file) == ("private-key-jwt", None)
    assert dialog.secret_changes().store[oauth_client_key_key("a")].get_secret_value() == pem
    assert pem.splitlines()[1] not in profile.model_dump_json()


def _pre_registered(profile_id: str, name: str, url: str, client_id: str) -> A2AProfile:
    """An A2A profile whose OAuth client is pre-registered as ``client_id``."""
    return A2AProfile(id=profile_id, name=name, url=url, oauth_client="pre-registered", oauth_client_id=client_id)


@contextlib.asynccontextmanager
async def _logged_in_from_the_sidebar(
    qtbot, tmp_path: Path, profile: A2AProfile, store: MemoryCredentialStore
) -> AsyncIterator[tuple[AuthStepsWidget, list[ErrorView]]]:
    """Log ``profile`` in with the sidebar's action; the Login view and the reported errors, until the
    connections are closed on leaving."""
    panels = login_panels(qtbot, tmp_path, store)
    await log_in_from_the_sidebar(panels.sidebar, profile)
    try:
        yield panels.view, panels.errors
    finally:
        await panels.ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_an_a2a_client_credentials_login_from_the_sidebar_lists_its_token_step_in_the_login_view(
    qtbot, tmp_path: Path
) -> None:
    store = MemoryCredentialStore({oauth_client_secret_key("m"): CLIENT_SECRET})
    async with serve_machine_agent() as servers:
        profile = _pre_registered("m", "machine", servers.url, CLIENT_ID)
        async with _logged_in_from_the_sidebar(qtbot, tmp_path, profile, store) as (view, errors):
            assert errors == [] and step_titles(view) == ["Token"]
            assert CLIENT_SECRET not in view.details.toPlainText()
    assert servers.authorization_server.seen.grants[0] == "client_credentials"


@pytest.mark.asyncio
async def test_an_a2a_openid_connect_login_lists_discovery_authorization_callback_and_token(
    qtbot, tmp_path: Path
) -> None:
    server = OAuthServer()
    store = MemoryCredentialStore()
    async with serve_agent(oauth_agent("oidc", server)) as url:
        profile = _pre_registered("o", "oidc", url, OIDC_CLIENT_ID).with_changes(oauth_token_auth="none")
        async with _logged_in_from_the_sidebar(qtbot, tmp_path, profile, store) as (view, errors):
            assert errors == []
            assert step_titles(view) == ["Authorization-server metadata", "Authorization request", "Callback", "Token"]
    assert server.grants[0] == "authorization_code"


@pytest.mark.asyncio
async def test_a_refused_a2a_client_shows_the_failed_token_step_and_stores_no_token(qtbot, tmp_path: Path) -> None:
    wrong = "not-the-secret-4410"
    store = MemoryCredentialStore({oauth_client_secret_key("w"): wrong})
    async with serve_machine_agent() as servers:
        profile = _pre_registered("w", "wrong", servers.url, CLIENT_ID)
        async with _logged_in_from_the_sidebar(qtbot, tmp_path, profile, store) as (view, errors):
            assert [e.code for e in errors] == ["auth-required"]
            assert step_titles(view)[-1] == "Token" and not view.failure_label.isHidden()
            assert view.failure_label.text().startswith("✗ Step 1, Token, failed [http-error]: ")
            assert wrong not in view.details.toPlainText() + view.failure_label.text()
            assert await store.get("w/a2a:oauth:token") is None
