"""The connection dialog keeps what it shows no editor for: Edit, a new name, Save, and every other field survives."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.servers.oauth_machine import new_key_pem
from tests.support.panel_context import make_context
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0

MACHINE = MCPHTTPProfile(
    id="machine",
    name="machine",
    url="http://127.0.0.1:1/mcp",
    auth="oauth",
    oauth_scopes=["mcp:tools"],
    oauth_client="private-key-jwt",
    oauth_client_id="machine-client",
    oauth_grant="client_credentials",
    oauth_client_key_file="/etc/workbench/machine-key.pem",
    oauth_client_key_algorithm="ES256",
    oauth_dpop=True,
)


async def _rename_with_keys(qtbot, tmp_path: Path, profile: ConnectionProfile) -> ConnectionProfile:
    """Open Edit on ``profile`` from the sidebar, type a new name, press Enter; the profile saved."""
    ctx = make_context(tmp_path / "config")
    ctx.services.profiles.upsert(profile)
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.select(profile.id)
    task = sidebar.edit_selected()
    assert task is not None
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert isinstance(dialog, ConnectionDialog)
    dialog.name_edit.setFocus()
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(dialog.name_edit, "renamed")
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)
    assert await asyncio.wait_for(task, BOUND) is not None
    [saved] = ctx.services.profiles.load()
    return saved


@pytest.mark.asyncio
async def test_saving_a_private_key_jwt_client_credentials_dpop_profile_from_the_window_keeps_every_oauth_field(
    qtbot, tmp_path: Path
):
    key_file = tmp_path / "machine-key.pem"
    key_file.write_text(new_key_pem()[0])  # the key file is read when the profile is saved
    machine = MACHINE.with_changes(oauth_client_key_file=str(key_file))
    saved = await _rename_with_keys(qtbot, tmp_path, machine)
    assert saved.name == "renamed"
    assert saved.model_dump(exclude={"name"}) == machine.model_dump(exclude={"name"})


@pytest.mark.asyncio
async def test_saving_an_a2a_profile_from_the_window_keeps_its_protocol_version_and_idle_timeout(qtbot, tmp_path: Path):
    agent = A2AProfile(id="a", name="agent", url="http://127.0.0.1:1/", protocol_version="0.3", stream_idle_timeout=9)
    saved = await _rename_with_keys(qtbot, tmp_path, agent)
    assert saved.model_dump(exclude={"name"}) == agent.model_dump(exclude={"name"})
