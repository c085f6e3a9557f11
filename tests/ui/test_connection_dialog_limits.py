"""The connection dialog's "Size limits" row: what the CLI's --max-message-bytes / --max-stream-bytes take, saved."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.panel_context import make_context
from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPSSEProfile
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0
MIB = 1024 * 1024


def _dialog(qtbot, profile=None) -> ConnectionDialog:
    dialog = ConnectionDialog(profile)
    qtbot.addWidget(dialog)
    return dialog


def _fill_http(dialog: ConnectionDialog, kind: str = "mcp-http") -> None:
    dialog.set_kind(kind)
    dialog.name_edit.setText("remote")
    dialog.url_edit.setText("http://127.0.0.1:8000/mcp")


def test_a_new_http_profile_shows_the_default_limits_and_keeps_them(qtbot):
    dialog = _dialog(qtbot)
    _fill_http(dialog)
    assert (dialog.size_limits.message_edit.text(), dialog.size_limits.stream_edit.text()) == ("64MiB", "128MiB")
    assert dialog.is_valid()
    profile = dialog.profile()
    assert (profile.max_message_bytes, profile.max_stream_bytes) == (
        DEFAULT_MAX_MESSAGE_BYTES,
        DEFAULT_MAX_STREAM_BYTES,
    )
    dialog.size_limits.message_edit.setText("")  # empty: the default
    assert dialog.profile().max_message_bytes == DEFAULT_MAX_MESSAGE_BYTES


@pytest.mark.parametrize("kind", ["mcp-http", "mcp-sse", "a2a"])
def test_limits_typed_as_sizes_become_the_profiles_bytes_and_none_turns_one_off(qtbot, kind):
    dialog = _dialog(qtbot)
    _fill_http(dialog, kind)
    dialog.size_limits.message_edit.setText("1.5M")
    dialog.size_limits.stream_edit.setText("none")
    assert dialog.is_valid(), dialog.field_errors()
    profile = dialog.profile()
    assert isinstance(profile, MCPHTTPProfile | MCPSSEProfile | A2AProfile)
    assert (profile.max_message_bytes, profile.max_stream_bytes) == (3 * MIB // 2, None)


def test_a_limit_that_is_not_a_size_is_shown_at_its_row_and_ok_is_disabled(qtbot):
    dialog = _dialog(qtbot)
    _fill_http(dialog)
    dialog.size_limits.stream_edit.setText("banana")
    assert "limits" in dialog.field_errors() and "per stream" in dialog.field_errors()["limits"]
    assert not dialog.ok_button().isEnabled()
    dialog.size_limits.stream_edit.setText("0")
    assert "limits" in dialog.field_errors()
    dialog.size_limits.stream_edit.setText("500KB")
    assert dialog.is_valid() and dialog.profile().max_stream_bytes == 500_000


def test_a_stdio_profile_has_no_size_limits_row(qtbot):
    dialog = _dialog(qtbot)
    dialog.show()
    dialog.set_kind("mcp-stdio")
    assert dialog.size_limits.isHidden() or not dialog.size_limits.isVisibleTo(dialog)
    _fill_http(dialog)
    assert dialog.size_limits.isVisibleTo(dialog)


@pytest.mark.asyncio
async def test_limits_edited_in_the_dialog_are_saved_and_shown_again_on_edit(qtbot, tmp_path: Path):
    ctx = make_context(tmp_path / "config")
    ctx.services.profiles.upsert(
        A2AProfile(id="p", name="agent", url="http://127.0.0.1:1/", max_message_bytes=2 * MIB, max_stream_bytes=None)
    )
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.select("p")
    task = sidebar.edit_selected()
    assert task is not None
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert (dialog.size_limits.message_edit.text(), dialog.size_limits.stream_edit.text()) == ("2MiB", "none")
    dialog.size_limits.message_edit.setText("10 MB")
    dialog.size_limits.stream_edit.setText("256M")
    dialog.ok_button().click()
    edited = await asyncio.wait_for(task, BOUND)
    assert edited is not None
    [saved] = ctx.services.profiles.load()
    assert isinstance(saved, A2AProfile)
    assert (saved.max_message_bytes, saved.max_stream_bytes) == (10_000_000, 256 * MIB)
    assert saved.http_limits().max_stream_bytes == 256 * MIB  # what the agent gets

    sidebar.select("p")
    again = sidebar.edit_selected()
    assert again is not None
    (dialog,) = await wait_signal(sidebar.dialog_opened, BOUND)
    assert (dialog.size_limits.message_edit.text(), dialog.size_limits.stream_edit.text()) == ("10000000", "256MiB")
    dialog.reject()
    assert await asyncio.wait_for(again, BOUND) is None
    assert ctx.services.profiles.load() == [saved]  # cancelled: nothing saved
