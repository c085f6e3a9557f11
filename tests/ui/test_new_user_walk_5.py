"""What a fifth walk through the window found: roots added to a connection whose profile is not saved (the demo's)
show in the Roots tab."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.mcp_inspector import activate, inspector
from workbench.core.agent_factory import AgentHandlers
from workbench.core.errors import NotFoundError
from workbench.ui.panels.inspector.mcp.roots_vm import UNSAVED

WAIT = 30.0
FADE_MS = 2000
"""Milliseconds a line edit's clear button may take to fade out (Qt animates it)."""


def _names(roots: Any) -> list[str]:
    return [roots.list.topLevelItem(i).text(0) for i in range(roots.list.topLevelItemCount())]


@pytest.mark.asyncio
async def test_roots_typed_for_a_connection_whose_profile_is_not_saved_show_in_the_roots_tab(
    qtbot: Any, tmp_path: Path
) -> None:
    # the demo's connections have no saved profile: the roots reach the server, and the tab must show them
    async with inspector(tmp_path, qtbot, handlers=AgentHandlers(edits_roots=True)) as it:
        with pytest.raises(NotFoundError):
            it.ctx.services.profiles.get(it.connection_id)
        await activate(it)
        roots = it.widget.roots
        it.widget.tabs.setCurrentWidget(roots)
        for folder in ("project-a", "project-b"):
            (tmp_path / folder).mkdir()
            qtbot.mouseClick(roots.uri_edit, Qt.MouseButton.LeftButton)
            qtbot.keyClicks(roots.uri_edit, str(tmp_path / folder))
            QTest.keyClick(roots.uri_edit, Qt.Key.Key_Return)
            assert roots.vm.pending is not None
            await asyncio.wait_for(roots.vm.pending, WAIT)
        assert _names(roots) == ["project-a", "project-b"]
        assert UNSAVED in roots.note.text()  # says they last only while the window is open
        conn = it.ctx.services.connections.get(it.connection_id)
        assert conn is not None and conn.agent is not None
        result = await conn.agent.call_tool("show_roots", {})
        assert [uri.rsplit("/", 1)[-1] for uri in result.structured_content["result"]] == ["project-a", "project-b"]
        roots.list.setCurrentItem(roots.list.topLevelItem(0))
        qtbot.mouseClick(roots.remove_button, Qt.MouseButton.LeftButton)
        await asyncio.wait_for(roots.vm.pending, WAIT)
        assert _names(roots) == ["project-b"]
