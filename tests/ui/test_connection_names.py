"""A connection is shown by its name everywhere a user reads it, never by its 32-hex profile id."""

from __future__ import annotations

import asyncio
import re
import sys

import pytest

from workbench.app import build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import MCPStdioProfile, new_profile_id
from workbench.ui.asyncutil import wait_signal
from workbench.ui.names import UNKNOWN, connection_name

HEX_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.asyncio
async def test_a_saved_connection_not_yet_connected_is_named_in_chat_stderr_and_inspector(qtbot, tmp_path):
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window = bench.window
    qtbot.addWidget(window)
    profile = MCPStdioProfile(id=new_profile_id(), name="Weather tools", command=sys.executable, args=["-V"])
    assert HEX_ID.fullmatch(profile.id)
    bench.ctx.services.profiles.upsert(profile)
    window.sidebar.viewmodel.reload()
    window.show()
    try:
        bench.ctx.selection.select(profile.id)
        shown = {
            "chat header": window.chat.title.text(),
            "chat conversation": window.chat.viewmodel.conversation().title,
            "stderr tab": window.stderr.title.text(),
            "inspector": window.inspector.placeholder.title_label.text(),
        }
        assert shown == {
            "chat header": "Weather tools",
            "chat conversation": "Weather tools",
            "stderr tab": "stderr of Weather tools",
            "inspector": "Weather tools: not connected",
        }
        assert not any(HEX_ID.search(text) for text in shown.values())
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, 30))
        window.close()
        await done


@pytest.mark.asyncio
async def test_an_id_nothing_names_is_never_shown_raw(qtbot, tmp_path):
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    qtbot.addWidget(bench.window)
    services = bench.ctx.services
    assert connection_name(services, new_profile_id()) == UNKNOWN
    assert connection_name(services, "demo-travel") == "demo-travel"  # readable ids stay as they are
    done = asyncio.ensure_future(wait_signal(bench.window.shutdown_finished, 30))
    bench.window.close()
    await done
