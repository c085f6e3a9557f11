"""Credentials in the window: masked fields in the profile dialog, secrets stored before the profile is saved.

Real servers only: a bearer-protected demo MCP server, a real keyring (``keyring.backends.fail``, as on a
headless box with no Secret Service) or the in-memory credential store.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDialog, QLineEdit

from tests.support.panel_context import make_context, reported_errors
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import BackendInfo, KeyringCredentialStore, MemoryCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPStdioProfile, SecretKind, SecretRef
from workbench.core.profiles.credential_keys import secret_key
from workbench.demo.mcp_server import serve_http
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.dialogs.secret_fields import STORED_PLACEHOLDER
from workbench.ui.errors import hint_sentence
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.widget import SidebarWidget

S = ConnectionState
BOUND = 30.0
TOKEN = "tok-7f3a9c-very-secret"
API_KEY = "key-51b2e0-also-secret"
HEADER_VALUE = "hdr-0c9d11-secret-too"


# --------------------------------------------------------------------------- helpers


def _context(tmp_path: Path, store) -> PanelContext:
    """A real context whose agent factory resolves secrets from ``store`` (as ``build_workbench`` does)."""
    ctx = make_context(tmp_path / "config", factory=DefaultAgentFactory(resolve_secret=store.resolve))
    ctx.services.credentials = store
    return ctx


def _sidebar(qtbot, ctx: PanelContext) -> SidebarWidget:
    widget = SidebarWidget(ctx)
    qtbot.addWidget(widget)
    return widget


def _files_text(root: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def _dialog(qtbot, profile=None) -> ConnectionDialog:
    dialog = ConnectionDialog(profile)
    qtbot.addWidget(dialog)
    return dialog


def _fill_http(dialog: ConnectionDialog, url: str = "http://127.0.0.1:1/mcp", name: str = "remote") -> None:
    dialog.set_kind("mcp-http")
    dialog.name_edit.setText(name)
    dialog.url_edit.setText(url)


# --------------------------------------------------------------------------- the dialog alone


def test_typed_secrets_become_references_in_the_profile_and_values_in_secret_changes(qtbot):
    dialog = _dialog(qtbot)
    _fill_http(dialog)
    creds = dialog.credentials
    assert creds.isVisibleTo(dialog) and creds.http_part.isVisibleTo(dialog)
    assert not creds.stdio_part.isVisibleTo(dialog)
    creds.bearer.edit.setText(TOKEN)
    creds.api_key.edit.setText(API_KEY)
    creds.api_key_header.setText("X-Service-Key")
    row = creds.headers.add_row()
    row.name_edit.setText("X-Tenant")
    row.secret.edit.setText(HEADER_VALUE)
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.mouseClick(dialog.ok_button(), Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted

    profile = dialog.profile()
    pid = profile.id
    assert {(r.kind, r.target, r.key) for r in profile.secrets} == {
        (SecretKind.BEARER, "Authorization", secret_key(pid, SecretKind.BEARER)),
        (SecretKind.API_KEY, "X-Service-Key", secret_key(pid, SecretKind.API_KEY, "X-Service-Key")),
        (SecretKind.HEADER, "X-Tenant", secret_key(pid, SecretKind.HEADER, "X-Tenant")),
    }
    changes = dialog.secret_changes()
    assert {k: v.get_secret_value() for k, v in changes.store.items()} == {
        secret_key(pid, SecretKind.BEARER): TOKEN,
        secret_key(pid, SecretKind.API_KEY, "X-Service-Key"): API_KEY,
        secret_key(pid, SecretKind.HEADER, "X-Tenant"): HEADER_VALUE,
    }
    assert all(isinstance(v, SecretStr) for v in changes.store.values())
    assert changes.forget == ()
    shown = [profile.model_dump_json(), repr(profile), repr(changes), str(changes)]
    shown += [w.toolTip() for w in dialog.findChildren(QLineEdit)] + [dialog.toolTip()]
    for secret in (TOKEN, API_KEY, HEADER_VALUE):
        assert not any(secret in text for text in shown)


def test_secret_fields_are_masked_until_show_is_pressed(qtbot):
    dialog = _dialog(qtbot)
    field = dialog.credentials.bearer
    assert field.edit.echoMode() == QLineEdit.EchoMode.Password
    field.show_button.click()
    assert field.edit.echoMode() == QLineEdit.EchoMode.Normal
    field.show_button.click()
    assert field.edit.echoMode() == QLineEdit.EchoMode.Password
    assert field.forget_button.isHidden()  # nothing stored yet: nothing to forget


def test_a_stdio_profile_takes_secret_environment_variables_and_refuses_a_nameless_or_empty_one(qtbot):
    dialog = _dialog(qtbot)
    dialog.name_edit.setText("local")
    dialog.command_edit.setText(sys.executable)
    creds = dialog.credentials
    assert creds.stdio_part.isVisibleTo(dialog) and not creds.http_part.isVisibleTo(dialog)
    row = creds.env.add_row()
    row.name_edit.setText("GITHUB_TOKEN")
    assert not dialog.ok_button().isEnabled()  # a name without a value
    assert "secrets" in dialog.field_errors()
    row.secret.edit.setText(TOKEN)
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    dialog.accept()
    profile = dialog.profile()
    assert isinstance(profile, MCPStdioProfile)
    assert profile.env == {}
    assert [(r.kind, r.name) for r in profile.secrets] == [(SecretKind.ENV, "GITHUB_TOKEN")]
    assert dialog.secret_changes().store[profile.secrets[0].key].get_secret_value() == TOKEN

    row.name_edit.setText("")
    assert not dialog.ok_button().isEnabled()  # a value without a name
    row.remove_button.click()
    assert dialog.ok_button().isEnabled()
    assert dialog.profile().secrets == []


def test_stored_secrets_show_as_stored_and_can_be_kept_replaced_or_forgotten(qtbot):
    original = MCPHTTPProfile(
        id="p1",
        name="remote",
        url="http://127.0.0.1:1/mcp",
        secrets=[
            SecretRef(kind="bearer", key="p1/bearer"),
            SecretRef(kind="header", name="X-Tenant", key="shared-key"),
        ],
    )
    dialog = _dialog(qtbot, original)
    creds = dialog.credentials
    (row,) = creds.headers.rows
    assert creds.bearer.edit.placeholderText() == STORED_PLACEHOLDER
    assert row.secret.edit.placeholderText() == STORED_PLACEHOLDER
    assert row.name_edit.text() == "X-Tenant"
    assert creds.bearer.edit.text() == "" and not creds.bearer.forget_button.isHidden()

    # Left empty: kept as they are, nothing for the store to do.
    assert dialog.validate()
    assert dialog.profile().secrets == original.secrets
    assert not dialog.secret_changes()

    # Forget the bearer token, replace the header's value (a key of this profile's own replaces the old one).
    creds.bearer.forget_button.click()
    row.secret.edit.setText(HEADER_VALUE)
    dialog.accept()
    profile = dialog.profile()
    new_key = secret_key("p1", SecretKind.HEADER, "X-Tenant")
    assert profile.secrets == [SecretRef(kind="header", name="X-Tenant", key=new_key)]
    changes = dialog.secret_changes()
    assert set(changes.forget) == {"p1/bearer", "shared-key"}
    assert {k: v.get_secret_value() for k, v in changes.store.items()} == {new_key: HEADER_VALUE}

    # Pressing Forget again keeps the token after all.
    creds.bearer.forget_button.click()
    assert dialog.validate()
    assert "p1/bearer" in {r.key for r in dialog.profile().secrets}


def test_stored_query_and_cookie_secrets_show_their_names_and_are_kept_as_they_are(qtbot):
    original = A2AProfile(
        id="p2",
        name="agent",
        url="http://127.0.0.1:1",
        secrets=[
            SecretRef(kind="query", name="access", key="p2/query:access"),
            SecretRef(kind="cookie", name="wb_session", key="p2/cookie:wb_session"),
        ],
    )
    dialog = _dialog(qtbot, original)
    rows = dialog.credentials.headers.rows
    assert [(r.kind, r.name_edit.text()) for r in rows] == [
        (SecretKind.QUERY, "access"),
        (SecretKind.COOKIE, "wb_session"),
    ]
    assert dialog.validate()
    assert dialog.profile().secrets == original.secrets
    assert not dialog.secret_changes()


def test_secrets_that_do_not_fit_a_new_kind_are_forgotten_with_a_note(qtbot):
    original = MCPHTTPProfile(
        id="p2", name="remote", url="http://127.0.0.1:1/mcp", secrets=[SecretRef(kind="bearer", key="p2/bearer")]
    )
    dialog = _dialog(qtbot, original)
    dialog.set_kind("mcp-sse")  # another HTTP kind: the bearer token carries over
    assert dialog.validate() and [r.key for r in dialog.profile().secrets] == ["p2/bearer"]
    assert dialog.note.isHidden()
    dialog.set_kind("mcp-stdio")
    dialog.command_edit.setText("python")
    assert dialog.validate()
    assert dialog.profile().secrets == []
    assert dialog.secret_changes().forget == ("p2/bearer",)
    assert not dialog.note.isHidden()


# --------------------------------------------------------------------------- through the sidebar


@pytest.mark.asyncio
async def test_a_bearer_token_typed_in_the_dialog_is_stored_not_saved_and_connects_with_a_redacted_wire_log(
    qtbot, tmp_path
):
    store = MemoryCredentialStore()
    ctx = _context(tmp_path, store)
    sidebar = _sidebar(qtbot, ctx)
    try:
        async with serve_http(transport="streamable-http", require_bearer=TOKEN) as url:
            task = sidebar.add_profile()
            (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
            _fill_http(dialog, url, name="protected")
            dialog.credentials.bearer.edit.setText(TOKEN)
            dialog.ok_button().click()
            profile = await asyncio.wait_for(task, BOUND)
            assert profile is not None

            (ref,) = profile.secrets
            assert ref.kind is SecretKind.BEARER
            assert await store.resolve(ref) == TOKEN
            saved = ctx.services.profiles.load()
            assert [p.secrets for p in saved] == [[ref]]
            assert TOKEN not in _files_text(tmp_path)

            index = sidebar.model.index(sidebar.model.row_of(profile.id))
            assert index.data(SidebarRole.HAS_SECRETS) is True
            assert "Authorization" in index.data(SidebarRole.TOOLTIP)
            assert TOKEN not in index.data(SidebarRole.TOOLTIP)

            assert sidebar.selected_id() == profile.id
            await asyncio.wait_for(sidebar.connect_selected(), BOUND)
            item = sidebar.viewmodel.item(profile.id)
            assert item.state is S.CONNECTED, item.state_text

            records = ctx.services.wire.records(profile.id)
            requests = [r for r in records if r.kind.value == "http-request"]
            assert requests
            for record in requests:
                headers = {k.lower(): v for k, v in record.http["headers"].items()}
                assert headers["authorization"] in ("***", "Bearer ***")
            assert not any(TOKEN in json.dumps(r.to_dict()) for r in records)
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_the_row_of_a_profile_with_secrets_draws_a_key(qtbot, tmp_path):
    ctx = _context(tmp_path, MemoryCredentialStore())
    same = {"name": "same", "url": "http://127.0.0.1:1/mcp"}
    ctx.services.profiles.upsert(MCPHTTPProfile(id="plain", **same))
    ctx.services.profiles.upsert(
        MCPHTTPProfile(id="keyed", **same, secrets=[SecretRef(kind="bearer", key="keyed/bearer")])
    )
    sidebar = _sidebar(qtbot, ctx)
    sidebar.resize(320, 200)
    sidebar.show()

    def row_image(profile_id: str) -> QImage:
        rect = sidebar.view.visualRect(sidebar.model.index(sidebar.model.row_of(profile_id)))
        return sidebar.view.viewport().grab(rect).toImage()

    def key_pixels(image: QImage) -> int:
        count = 0
        for y in range(image.height()):
            for x in range(image.width()):
                c = image.pixelColor(x, y)
                count += c.red() > 140 and 90 < c.green() < 170 and c.blue() < 80
        return count

    assert sidebar.model.index(sidebar.model.row_of("plain")).data(SidebarRole.HAS_SECRETS) is False
    plain, keyed = row_image("plain"), row_image("keyed")
    assert plain.size() == keyed.size()
    assert key_pixels(plain) == 0
    assert key_pixels(keyed) > 5


@pytest.mark.asyncio
async def test_without_a_secure_keyring_saving_is_refused_nothing_is_saved_and_the_input_is_kept(
    qtbot, tmp_path, fail_keyring
):
    ctx = _context(tmp_path, KeyringCredentialStore(allow_insecure=False))
    errors = reported_errors(ctx)
    sidebar = _sidebar(qtbot, ctx)
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    _fill_http(dialog, name="needs a keyring")
    dialog.credentials.bearer.edit.setText(TOKEN)
    dialog.ok_button().click()

    (again,) = await wait_signal(sidebar.dialog_opened, BOUND)  # reopened: the save was refused
    assert again is dialog and dialog.isVisible()
    assert [e.code for e in errors] == ["no-secure-storage"]
    assert errors[0].hint  # says how to get a keyring
    assert ctx.services.profiles.load() == []
    assert sidebar.viewmodel.items() == []
    assert dialog.credentials.bearer.edit.text() == TOKEN  # nothing typed is lost
    assert dialog.name_edit.text() == "needs a keyring"
    assert not dialog.general_error.isHidden()
    assert not dialog.credentials.status.isHidden()  # the section says up front that secrets cannot be saved
    assert TOKEN not in dialog.general_error.text() + dialog.credentials.status.text()

    dialog.reject()
    assert await asyncio.wait_for(task, BOUND) is None
    assert ctx.services.profiles.load() == []
    assert TOKEN not in _files_text(tmp_path)


@pytest.mark.asyncio
async def test_editing_without_touching_secrets_needs_no_keyring(qtbot, tmp_path, fail_keyring):
    ctx = _context(tmp_path, KeyringCredentialStore(allow_insecure=False))
    errors = reported_errors(ctx)
    ctx.services.profiles.upsert(
        MCPHTTPProfile(
            id="p", name="old", url="http://127.0.0.1:1/mcp", secrets=[SecretRef(kind="bearer", key="p/bearer")]
        )
    )
    sidebar = _sidebar(qtbot, ctx)
    sidebar.select("p")
    task = sidebar.edit_selected()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    dialog.name_edit.setText("new")
    dialog.ok_button().click()
    edited = await asyncio.wait_for(task, BOUND)
    assert edited is not None and edited.name == "new"
    assert [(p.name, p.secrets) for p in ctx.services.profiles.load()] == [("new", edited.secrets)]
    assert [r.key for r in edited.secrets] == ["p/bearer"]
    assert errors == []


@pytest.mark.asyncio
async def test_a_secret_that_cannot_be_resolved_fails_the_connection_with_no_secure_storage(
    qtbot, tmp_path, fail_keyring
):
    from workbench.app import build_workbench

    workbench = build_workbench(tmp_path / "config", credentials=KeyringCredentialStore(allow_insecure=False))
    ctx, window = workbench.ctx, workbench.window
    errors = reported_errors(ctx)
    sidebar = window.sidebar
    try:
        async with serve_http(transport="streamable-http", require_bearer=TOKEN) as url:
            profile = MCPHTTPProfile(
                id="locked", name="locked", url=url, secrets=[SecretRef(kind="bearer", key="locked/bearer")]
            )
            task = sidebar.add_transient(profile)
            assert task is not None
            await asyncio.wait_for(task, BOUND)
        item = sidebar.viewmodel.item("locked")
        assert item.state is S.FAILED
        conn_error = ctx.services.connections.get("locked").error
        assert conn_error is not None and conn_error.code == "no-secure-storage"
        assert item.state_text == "failed"
        tooltip = sidebar.model.index(sidebar.model.row_of("locked")).data(SidebarRole.TOOLTIP)
        assert conn_error.message in tooltip and hint_sentence(conn_error.hint) in tooltip
        assert [(e.code, e.details.startswith("Traceback")) for e in errors] == [("no-secure-storage", False)]
    finally:
        window.close()
        await wait_signal(window.shutdown_finished, BOUND)


@pytest.mark.asyncio
async def test_removing_a_profile_forgets_its_secrets_but_not_those_a_duplicate_still_uses(qtbot, tmp_path):
    store = MemoryCredentialStore()
    ctx = _context(tmp_path, store)
    sidebar = _sidebar(qtbot, ctx)
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    _fill_http(dialog)
    dialog.credentials.bearer.edit.setText(TOKEN)
    dialog.ok_button().click()
    profile = await asyncio.wait_for(task, BOUND)
    (ref,) = profile.secrets
    assert await store.resolve(ref) == TOKEN

    sidebar.select(profile.id)
    copy = sidebar.duplicate_selected()
    assert copy is not None and copy.secrets == [ref]
    await asyncio.wait_for(sidebar.remove_selected(confirm=False), BOUND)  # the copy is selected
    assert await store.resolve(ref) == TOKEN  # the original still refers to it

    sidebar.select(profile.id)
    await asyncio.wait_for(sidebar.remove_selected(confirm=False), BOUND)
    assert ctx.services.profiles.load() == []
    assert await store.resolve(ref) is None


class _OptedInInsecureStore(MemoryCredentialStore):
    """An in-memory store that reports what an opted-in plaintext keyring would (``BackendInfo.warning``)."""

    WARNING = "Secrets are stored by keyrings.alt.file.PlaintextKeyring, which keeps them readable on disk."

    def backend(self) -> BackendInfo:
        return BackendInfo(name="keyrings.alt.file.PlaintextKeyring", secure=False, warning=self.WARNING)


@pytest.mark.asyncio
async def test_an_insecure_backend_the_user_opted_in_to_is_named_in_the_dialog_and_the_status_bar(qtbot, tmp_path):
    store = _OptedInInsecureStore()
    ctx = _context(tmp_path, store)
    sidebar = _sidebar(qtbot, ctx)
    messages: list[str] = []
    sidebar.status_message.connect(messages.append)
    task = sidebar.add_profile()
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    if not messages:  # the backend is checked off the event loop
        await wait_signal(sidebar.status_message, BOUND)
    assert store.WARNING in dialog.credentials.status.text()
    assert not dialog.credentials.status.isHidden()
    _fill_http(dialog)
    dialog.credentials.api_key.edit.setText(API_KEY)
    dialog.ok_button().click()
    profile = await asyncio.wait_for(task, BOUND)
    assert profile is not None and await store.resolve(profile.secrets[0]) == API_KEY
    assert profile.secrets[0].target == "X-API-Key"  # the default header name
    assert len(messages) == 2 and all(store.WARNING in m for m in messages)
