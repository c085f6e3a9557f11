"""The connection dialog's private key JWT client, grant chooser and DPoP checkbox, typed with the keyboard.

The last test logs the saved profile in from the sidebar against the loopback authorization server for
logins without a browser (``tests/servers/oauth_machine.py``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QWidget

from tests.servers.oauth_machine import CLIENT_ID, new_key_pem, serve_machine_oauth
from tests.support.connection_dialogs import new_connection_dialog
from tests.support.panel_context import make_context, reported_errors
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.profiles import MCPHTTPProfile, SecretKind, SecretRef
from workbench.core.profiles.credential_keys import oauth_client_key_key, secret_key
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0


def _focused() -> QWidget | None:
    return QApplication.focusWidget()


def _tab(qtbot) -> QWidget:
    """Press Tab in the focused widget; the widget focused then."""
    focused = _focused()
    assert focused is not None
    qtbot.keyClick(focused, Qt.Key.Key_Tab)
    after = _focused()
    assert after is not None
    return after


def _choose_with_keys(qtbot, combo: QComboBox, value: str) -> None:
    """Move ``combo`` (focused) to ``value`` with the arrow keys."""
    assert _focused() is combo
    step = Qt.Key.Key_Down if combo.findData(value) > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentData() != value:
        before = combo.currentIndex()
        qtbot.keyClick(combo, step)
        assert combo.currentIndex() != before, f"{value!r} cannot be reached with the keys"


@pytest.mark.asyncio
async def test_a_private_key_client_credentials_dpop_profile_is_added_with_the_keyboard_in_a_sane_order(
    qtbot, tmp_path: Path
):
    ctx = make_context(tmp_path / "config")
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert isinstance(dialog, ConnectionDialog)
    oauth = dialog.oauth
    qtbot.waitUntil(lambda: _focused() is dialog.name_edit)  # first focus: the name
    qtbot.keyClicks(dialog.name_edit, "machine")
    assert _tab(qtbot) is dialog.kind_combo
    _choose_with_keys(qtbot, dialog.kind_combo, "mcp-http")
    assert _tab(qtbot) is dialog.url_edit
    qtbot.keyClicks(dialog.url_edit, "https://mcp.example/mcp")
    oauth.auth_combo.setFocus()
    _choose_with_keys(qtbot, oauth.auth_combo, "oauth")
    assert _tab(qtbot) is oauth.scopes_edit
    assert _tab(qtbot) is oauth.client_combo
    _choose_with_keys(qtbot, oauth.client_combo, "private-key-jwt")
    assert oauth.grant() == "client_credentials"  # the one grant a private key client has
    assert _tab(qtbot) is oauth.client_id_edit
    qtbot.keyClicks(oauth.client_id_edit, "machine-client")
    assert not dialog.ok_button().isEnabled()  # no key yet
    assert _tab(qtbot) is oauth.key_file_edit
    key_file = tmp_path / "machine.pem"
    key_file.write_text(new_key_pem()[0])
    qtbot.keyClicks(oauth.key_file_edit, str(key_file))
    assert _tab(qtbot) is oauth.key_browse
    assert _tab(qtbot) is oauth.key_algorithm_combo
    qtbot.keyClicks(oauth.key_algorithm_combo, "ES256")
    assert oauth.key_algorithm_combo.currentText() == "ES256"
    assert _tab(qtbot) is oauth.grant_fields.key_source_combo  # the file's path is kept (the first choice)
    assert _tab(qtbot) is oauth.grant_combo
    assert _tab(qtbot) is oauth.dpop_check  # no redirect port: no browser, no redirect
    qtbot.keyClick(oauth.dpop_check, Qt.Key.Key_Space)
    assert oauth.dpop_check.isChecked()
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.keyClick(oauth.dpop_check, Qt.Key.Key_Return)
    saved = await asyncio.wait_for(task, BOUND)
    assert isinstance(saved, MCPHTTPProfile)
    assert ctx.services.profiles.load() == [saved]
    assert (saved.auth, saved.oauth_client, saved.oauth_client_id, saved.oauth_grant) == (
        "oauth",
        "private-key-jwt",
        "machine-client",
        "client_credentials",
    )
    assert (saved.oauth_client_key_file, saved.oauth_client_key_algorithm, saved.oauth_dpop) == (
        str(key_file),
        "ES256",
        True,
    )


def test_a_pre_registered_client_chooses_its_grant_and_a_public_one_only_signs_in_in_a_browser(qtbot):
    dialog = new_connection_dialog(qtbot, "mcp-http", "p", "https://mcp.example/mcp")
    oauth = dialog.oauth
    oauth.set_auth("oauth")
    oauth.client_combo.setCurrentIndex(oauth.client_combo.findData("pre-registered"))
    oauth.client_id_edit.setText("id")
    oauth.client_secret.edit.setText("s3cret-for-the-keyring")
    oauth.grant_combo.setCurrentIndex(oauth.grant_combo.findData("client_credentials"))
    assert dialog.is_valid(), dialog.field_errors()
    assert dialog.profile().oauth_grant == "client_credentials"  # type: ignore[union-attr]
    assert oauth.redirect_port_edit.isHidden()
    oauth.token_auth_combo.setCurrentIndex(oauth.token_auth_combo.findData("none"))  # no secret: no client credentials
    assert oauth.grant() == "authorization_code" and not oauth.redirect_port_edit.isHidden()
    assert dialog.is_valid() and dialog.profile().oauth_grant == "authorization_code"  # type: ignore[union-attr]
    oauth.client_combo.setCurrentIndex(oauth.client_combo.findData("dynamic"))
    assert oauth.grant_combo.isHidden() and dialog.profile().oauth_grant == "authorization_code"  # type: ignore[union-attr]


def test_a_key_kept_in_the_keyring_stays_until_a_file_is_chosen_or_another_client(qtbot):
    saved = MCPHTTPProfile(
        id="m",
        name="m",
        url="https://mcp.example/mcp",
        auth="oauth",
        oauth_client="private-key-jwt",
        oauth_client_id="id",
        oauth_grant="client_credentials",
    )
    dialog = ConnectionDialog(saved)
    qtbot.addWidget(dialog)
    assert dialog.is_valid(), dialog.field_errors()  # no file: the key in the keyring
    assert dialog.profile() == saved and dialog.secret_changes().forget == ()
    assert dialog.oauth.grant_fields.key_in_keyring()
    dialog.oauth.key_file_edit.setText("/keys/m.pem")  # imported into the keyring on save: nothing forgotten
    assert dialog.secret_changes().forget == () and dialog.profile().oauth_client_key_file is None  # type: ignore[union-attr]
    source = dialog.oauth.grant_fields.key_source_combo
    source.setCurrentIndex(source.findData("file"))  # the path kept instead: the stored key goes
    assert dialog.secret_changes().forget == (oauth_client_key_key("m"),)
    dialog.oauth.key_file_edit.clear()
    dialog.oauth.client_combo.setCurrentIndex(dialog.oauth.client_combo.findData("dynamic"))
    assert dialog.is_valid() and dialog.secret_changes().forget == (oauth_client_key_key("m"),)


def test_the_key_file_chooser_opens_without_blocking_and_fills_the_path(qtbot, tmp_path: Path):
    key = tmp_path / "client.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")
    dialog = ConnectionDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.oauth.key_browse.click()  # returns at once: the chooser is open, not exec()'d
    chooser = dialog.oauth.findChild(QFileDialog)
    assert chooser is not None and chooser.isVisible()
    chooser.fileSelected.emit(str(key))
    assert dialog.oauth.key_file_edit.text() == str(key)
    chooser.reject()


@pytest.mark.asyncio
async def test_a_dialog_taller_than_the_screen_scrolls_its_fields_and_keeps_ok_and_cancel_on_the_screen(
    qtbot, tmp_path: Path
):
    ctx = make_context(tmp_path / "config")
    ctx.services.profiles.upsert(
        MCPHTTPProfile(
            id="m",
            name="m",
            url="https://mcp.example/mcp",
            secrets=[  # a row each: more rows than the 800 px offscreen screen holds
                SecretRef(
                    kind=SecretKind.HEADER, name=f"X-Secret-{i}", key=secret_key("m", SecretKind.HEADER, f"X-{i}")
                )
                for i in range(12)
            ],
            auth="oauth",
            oauth_client="private-key-jwt",
            oauth_client_id="id",
            oauth_grant="client_credentials",
            oauth_client_key_file="/keys/m.pem",
        )
    )
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.show()
    sidebar.select("m")
    task = sidebar.edit_selected()
    assert task is not None
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    qtbot.waitExposed(dialog)
    screen = dialog.screen().availableGeometry()
    content = dialog.fields_area.widget()
    assert content.height() > dialog.fields_area.viewport().height()  # more fields than room: they scroll
    assert screen.contains(dialog.frameGeometry()), (dialog.frameGeometry(), screen)
    ok = dialog.ok_button()
    assert dialog.rect().contains(ok.geometry().translated(ok.parentWidget().pos()))
    viewport = dialog.fields_area.viewport()

    def in_view(widget: QWidget) -> bool:
        return viewport.rect().contains(widget.mapTo(viewport, widget.rect().bottomLeft()))

    qtbot.waitUntil(lambda: _focused() is dialog.name_edit)
    last, before = dialog.credentials.headers.rows[-1], dialog.credentials.headers.rows[-2]
    assert not in_view(last.name_edit)
    before.remove_button.setFocus()  # Tab to the row below the fold scrolls it into view
    qtbot.keyClick(before.remove_button, Qt.Key.Key_Tab)
    assert _focused() is last.name_edit and in_view(last.name_edit)
    dialog.reject()
    assert await asyncio.wait_for(task, BOUND) is None


@pytest.mark.asyncio
async def test_a_machine_profile_saved_in_the_dialog_logs_in_from_the_sidebar_with_dpop_and_no_browser(
    qtbot, tmp_path: Path
):
    def no_browser(url: str) -> None:
        raise AssertionError(f"a client credentials login opened {url}")

    async with serve_machine_oauth() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
        store = MemoryCredentialStore()
        ctx = make_context(
            tmp_path / "config", factory=DefaultAgentFactory(resolve_secret=store.resolve, credentials=store)
        )
        ctx.services.credentials = store
        errors = reported_errors(ctx)
        sidebar = SidebarWidget(ctx, oauth_opener=no_browser)
        qtbot.addWidget(sidebar)
        task = sidebar.add_profile()
        (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
        dialog.name_edit.setText("machine")
        dialog.set_kind("mcp-http")
        dialog.url_edit.setText(servers.url)
        oauth = dialog.oauth
        oauth.set_auth("oauth")
        oauth.client_combo.setCurrentIndex(oauth.client_combo.findData("private-key-jwt"))
        oauth.client_id_edit.setText(CLIENT_ID)
        oauth.key_file_edit.setText(str(key_file))
        oauth.key_algorithm_combo.setCurrentText("ES256")
        oauth.dpop_check.setChecked(True)
        dialog.ok_button().click()
        profile = await asyncio.wait_for(task, BOUND)
        assert profile is not None
        sidebar.select(profile.id)
        sidebar.actions_by_id["login"].trigger()
        login = sidebar.viewmodel.task(profile.id)
        assert login is not None
        await asyncio.wait_for(login, BOUND)
        assert errors == []
        conn = ctx.services.connections.get(profile.id)
        assert conn is not None and conn.state is ConnectionState.CONNECTED
        result = await conn.connected_agent().call_tool("add", {"a": 2, "b": 3})  # type: ignore[attr-defined]
        assert result.structured_content == {"result": 5}
        await ctx.services.connections.aclose()
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    assert set(servers.resource.seen.schemes) == {"DPoP"}
