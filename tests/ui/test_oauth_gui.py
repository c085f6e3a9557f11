"""OAuth 2.1 in the window: the profile dialog's Authentication, and Log in / Log out from the sidebar.

Against real servers (``tests/servers/oauth_as.py``): an authorization server that approves at once and
the demo MCP server behind it. The "browser" is the core's ``follow_redirects_opener``. The connection's
own agent factory gets no opener, so a login can only come from the sidebar's action.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from tests.servers.oauth_as import EXTRA_SCOPE, SCOPE, OAuthServers, serve_oauth_protected_mcp
from tests.support.connection_dialogs import new_connection_dialog
from tests.support.panel_context import make_context, reported_errors
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.auth_steps import AuthStage
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError
from workbench.core.events import ConnectionState
from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile, SecretKind, SecretRef
from workbench.core.protocols.mcp.oauth import follow_redirects_opener
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage, client_key, tokens_key
from workbench.core.wire.records import WireKind
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.dialogs.credential_fields import OAUTH_BEARER_FORGOTTEN
from workbench.ui.panels.authsteps.events import SessionAuthStep
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.viewmodel import OAuthStatus
from workbench.ui.panels.sidebar.widget import SidebarWidget

S = ConnectionState
BOUND = 30.0


# --------------------------------------------------------------------------- helpers


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp() as running:
        yield running


def _context(tmp_path: Path, store: MemoryCredentialStore) -> PanelContext:
    """As ``build_workbench`` builds it, but the connections themselves may not open a browser."""
    factory = DefaultAgentFactory(resolve_secret=store.resolve, credentials=store)
    ctx = make_context(tmp_path / "config", factory=factory)
    ctx.services.credentials = store
    return ctx


def _sidebar(qtbot, ctx: PanelContext) -> SidebarWidget:
    widget = SidebarWidget(ctx, oauth_opener=follow_redirects_opener)
    qtbot.addWidget(widget)
    return widget


def _messages(sidebar: SidebarWidget) -> list[str]:
    seen: list[str] = []
    sidebar.status_message.connect(seen.append)
    return seen


async def _add_oauth_profile(sidebar: SidebarWidget, servers: OAuthServers) -> MCPHTTPProfile:
    profile = MCPHTTPProfile(id="prot", name="protected", url=servers.url, auth="oauth", oauth_scopes=[EXTRA_SCOPE])
    assert sidebar.viewmodel.add(profile)
    sidebar.select(profile.id)
    read = sidebar.viewmodel.oauth_commands.read_status(profile.id)
    assert read is not None
    await asyncio.wait_for(read, BOUND)
    return profile


def _state_text(sidebar: SidebarWidget, profile_id: str) -> str:
    return str(sidebar.model.index(sidebar.model.row_of(profile_id)).data(SidebarRole.STATE_TEXT))


# --------------------------------------------------------------------------- the profile dialog


def test_choosing_oauth_builds_an_oauth_profile_with_scopes_and_client_name(qtbot):
    dialog = new_connection_dialog(qtbot, "mcp-http", "remote", "http://127.0.0.1:8000/mcp")
    assert dialog.oauth.isVisibleTo(dialog) and not dialog.oauth.scopes_edit.isVisibleTo(dialog)
    assert dialog.credentials.bearer.isEnabled()
    dialog.oauth.set_auth("oauth")
    assert dialog.oauth.scopes_edit.isVisibleTo(dialog)
    assert not dialog.credentials.bearer.isEnabled()
    dialog.oauth.scopes_edit.setText("files:read, files:write files:read")
    dialog.oauth.client_name_edit.setText("My bench")
    qtbot.mouseClick(dialog.ok_button(), Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted
    profile = dialog.profile()
    assert isinstance(profile, MCPHTTPProfile)
    assert (profile.auth, profile.oauth_scopes, profile.oauth_client_name) == (
        "oauth",
        ["files:read", "files:write"],
        "My bench",
    )


def test_editing_an_oauth_profile_shows_its_settings_and_none_turns_oauth_off(qtbot):
    original = MCPSSEProfile(
        name="old", url="http://127.0.0.1:1/sse", auth="oauth", oauth_scopes=["a", "b"], oauth_client_name="X"
    )
    dialog = ConnectionDialog(original)
    qtbot.addWidget(dialog)
    assert dialog.oauth.auth() == "oauth"
    assert (dialog.oauth.scopes_edit.text(), dialog.oauth.client_name_edit.text()) == ("a b", "X")
    assert not dialog.credentials.bearer.isEnabled()
    assert dialog.validate() and dialog.profile() == original  # unchanged when untouched
    dialog.oauth.set_auth("none")
    assert dialog.credentials.bearer.isEnabled()
    dialog.accept()
    edited = dialog.profile()
    assert isinstance(edited, MCPSSEProfile)
    assert (edited.auth, edited.oauth_scopes, edited.oauth_client_name) == ("none", [], None)


def test_switching_a_profile_with_a_stored_bearer_token_to_oauth_forgets_the_token(qtbot):
    original = MCPHTTPProfile(
        id="p1", name="remote", url="http://127.0.0.1:1/mcp", secrets=[SecretRef(kind=SecretKind.BEARER, key="p1/b")]
    )
    dialog = ConnectionDialog(original)
    qtbot.addWidget(dialog)
    dialog.oauth.set_auth("oauth")
    bearer = dialog.credentials.bearer
    assert not bearer.isEnabled() and bearer.edit.placeholderText() == OAUTH_BEARER_FORGOTTEN
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    dialog.accept()
    profile = dialog.profile()
    assert profile.secrets == [] and profile.auth == "oauth"  # type: ignore[union-attr]
    assert dialog.secret_changes().forget == ("p1/b",)


def test_the_authentication_section_is_offered_for_mcp_over_http_and_a2a_with_the_choice_of_login_for_mcp(qtbot):
    dialog = ConnectionDialog()
    qtbot.addWidget(dialog)
    for kind, offered in (("mcp-stdio", False), ("mcp-http", True), ("mcp-sse", True), ("a2a", True)):
        dialog.set_kind(kind)
        assert dialog.oauth.isVisibleTo(dialog) is offered, kind
        assert dialog.oauth.auth_combo.isVisibleTo(dialog) is (offered and kind != "a2a"), kind


# --------------------------------------------------------------------------- the sidebar


def test_the_row_says_until_when_a_login_is_valid_and_never_shows_a_secret():
    from workbench.ui.panels.sidebar.viewmodel import SidebarItem

    profile = MCPHTTPProfile(name="p", url="http://127.0.0.1:1/mcp", auth="oauth")
    assert SidebarItem(profile).state_text == "disconnected"  # not read yet
    assert SidebarItem(profile, oauth=OAuthStatus(known=True)).state_text == "disconnected · not logged in"
    status = OAuthStatus(known=True, logged_in=True, expires_at=4102444800.0)  # 2100-01-01
    assert SidebarItem(profile, oauth=status).auth_text.startswith("logged in until ")
    expired = OAuthStatus(known=True, logged_in=True, expires_at=1.0, refreshable=True)
    assert SidebarItem(profile, oauth=expired).auth_text.endswith(", refreshed on use")
    assert SidebarItem(profile, oauth=OAuthStatus(busy="logging in…")).state_text == "disconnected · logging in…"


@pytest.mark.asyncio
async def test_log_in_from_the_sidebar_stores_tokens_connects_lists_the_steps_and_keeps_tokens_out_of_the_wire_log(
    qtbot, tmp_path, servers
):
    store = MemoryCredentialStore()
    ctx = _context(tmp_path, store)
    errors = reported_errors(ctx)
    sidebar = _sidebar(qtbot, ctx)
    messages = _messages(sidebar)
    steps_view = AuthStepsWidget(ctx)
    qtbot.addWidget(steps_view)
    try:
        profile = await _add_oauth_profile(sidebar, servers)
        assert _state_text(sidebar, profile.id) == "disconnected · not logged in"
        login, logout = sidebar.actions_by_id["login"], sidebar.actions_by_id["logout"]
        assert login.isEnabled() and not logout.isEnabled()  # nothing stored to log out of

        login.trigger()
        task = sidebar.viewmodel.task(profile.id)
        assert task is not None and not login.isEnabled()  # one command at a time
        await asyncio.wait_for(task, BOUND)
        assert errors == []

        state = await CredentialTokenStorage(store, profile.id).load()
        assert state.tokens is not None and state.client is not None
        assert set((state.tokens.scope or "").split()) == {SCOPE, EXTRA_SCOPE}
        conn = ctx.services.connections.get(profile.id)
        assert conn is not None and conn.state is S.CONNECTED
        result = await conn.connected_agent().call_tool("add", {"a": 2, "b": 3})  # type: ignore[attr-defined]
        assert result.structured_content == {"result": 5}
        assert "logged in until" in _state_text(sidebar, profile.id)
        assert login.isEnabled() and logout.isEnabled()
        assert any(m.startswith("Logged in to protected") for m in messages)

        # The auth steps view lists the login's steps for the selected profile, in order, with wire seqs.
        listed = steps_view.viewmodel.steps()
        assert [(s.stage, s.status) for s in listed] == [
            (AuthStage.DISCOVERY, "ok"),
            (AuthStage.DISCOVERY, "ok"),
            (AuthStage.REGISTRATION, "ok"),
            (AuthStage.AUTHORIZE, "ok"),
            (AuthStage.CALLBACK, "ok"),
            (AuthStage.TOKEN, "ok"),
        ]
        assert all(isinstance(s, SessionAuthStep) and s.profile_id == profile.id for s in listed)
        assert steps_view.model.rowCount() == 6
        wire = ctx.services.wire
        for step in listed:
            for seq in step.wire_seqs:
                record = wire.get(seq)
                assert record is not None and record.connection_id == step.connection_id
        token_step = listed[-1]
        token_urls = [
            wire.get(seq).http["url"]  # type: ignore[union-attr,index]
            for seq in token_step.wire_seqs
            if wire.get(seq).kind is WireKind.HTTP_REQUEST  # type: ignore[union-attr]
        ]
        assert [url.rsplit("/", 1)[-1] for url in token_urls] == ["token"]

        # Clicking a step asks the window to show its wire records.
        index = steps_view.model.index(5, 0)
        requested: list[tuple[str, int, int]] = []
        steps_view.wire_records_requested.connect(lambda *args: requested.append(args))
        steps_view.table.clicked.emit(index)
        assert requested == [(token_step.connection_id, min(token_step.wire_seqs), max(token_step.wire_seqs))]

        # No token, code or client secret anywhere in the wire log.
        secrets = [*servers.provider.issued, *servers.provider.issued_codes]
        secrets += [c.client_secret for c in servers.provider.clients.values() if c.client_secret]
        assert len(secrets) >= 3
        for record in wire.records():
            text = record.payload + repr(record.http) + record.summary
            assert not any(secret in text for secret in secrets), record.seq
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_log_out_from_the_sidebar_disconnects_revokes_and_empties_the_store(qtbot, tmp_path, servers):
    store = MemoryCredentialStore()
    ctx = _context(tmp_path, store)
    errors = reported_errors(ctx)
    sidebar = _sidebar(qtbot, ctx)
    steps_view = AuthStepsWidget(ctx)
    qtbot.addWidget(steps_view)
    try:
        profile = await _add_oauth_profile(sidebar, servers)
        login_task = sidebar.login_selected()
        assert login_task is not None
        await asyncio.wait_for(login_task, BOUND)
        assert ctx.services.connections.get(profile.id).state is S.CONNECTED  # type: ignore[union-attr]
        assert servers.provider.live_tokens()

        sidebar.actions_by_id["logout"].trigger()
        task = sidebar.viewmodel.task(profile.id)
        assert task is not None
        await asyncio.wait_for(task, BOUND)
        assert errors == []
        assert ctx.services.connections.get(profile.id).state is S.CLOSED  # type: ignore[union-attr]
        assert await store.get(tokens_key(profile.id)) is None
        assert await store.get(client_key(profile.id)) is None
        assert servers.provider.live_tokens() == []  # revoked at the authorization server
        assert servers.provider.counters.revocations >= 1
        assert _state_text(sidebar, profile.id) == "closed · not logged in"
        assert not sidebar.actions_by_id["logout"].isEnabled()
        assert sidebar.actions_by_id["login"].isEnabled()
        assert [(s.stage, s.status) for s in steps_view.viewmodel.steps()][-1] == (AuthStage.REVOKE, "ok")
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_a_declined_login_is_reported_with_its_hint_and_nothing_is_stored_or_connected(qtbot, tmp_path, servers):
    store = MemoryCredentialStore()
    ctx = _context(tmp_path, store)
    errors = reported_errors(ctx)
    sidebar = _sidebar(qtbot, ctx)
    try:
        profile = await _add_oauth_profile(sidebar, servers)
        servers.provider.deny = True
        task = sidebar.login_selected()
        assert task is not None
        await asyncio.wait_for(task, BOUND)
        assert [e.code for e in errors] == [AuthRequiredError.code]
        assert errors[0].hint
        assert await store.get(tokens_key(profile.id)) is None
        conn = ctx.services.connections.get(profile.id)
        assert conn is None or conn.state is not S.CONNECTED
        assert _state_text(sidebar, profile.id).endswith("not logged in")
        assert sidebar.actions_by_id["login"].isEnabled()
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_log_in_and_log_out_apply_only_to_oauth_profiles(qtbot, tmp_path):
    ctx = _context(tmp_path, MemoryCredentialStore())
    sidebar = _sidebar(qtbot, ctx)
    plain = MCPHTTPProfile(id="plain", name="plain", url="http://127.0.0.1:1/mcp")
    assert sidebar.viewmodel.add(plain)
    sidebar.select(plain.id)
    assert not sidebar.actions_by_id["login"].isEnabled()
    assert not sidebar.actions_by_id["logout"].isEnabled()
    assert sidebar.login_selected() is None and sidebar.logout_selected() is None
    assert sidebar.viewmodel.oauth_commands.read_status(plain.id) is None
    assert _state_text(sidebar, plain.id) == "disconnected"
