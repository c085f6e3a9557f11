"""What a fifth walk through the window found: roots added to a connection whose profile is not saved (the demo's)
show in the Roots tab, a catalog filter shows no clear button once another connection's empty filter is
restored, and a PDF pages with Page Down / Page Up and Ctrl+Home / Ctrl+End."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolButton

from tests.support.mcp_inspector import activate, inspector
from workbench.core.agent_factory import AgentHandlers
from workbench.core.errors import NotFoundError
from workbench.demo.mcp_server.documents import make_pdf
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget
from workbench.ui.panels.inspector.mcp.itemmodel import ListRow
from workbench.ui.panels.inspector.mcp.roots_vm import UNSAVED
from workbench.ui.panels.inspector.results.pdf_view import PDFView

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


def _clear_button(catalog: CatalogListWidget) -> QToolButton:
    (button,) = catalog.filter_edit.findChildren(QToolButton)
    return button


def test_a_filter_restored_empty_for_another_connection_shows_no_clear_button(qtbot: Any) -> None:
    catalog = CatalogListWidget("Filter tools")
    qtbot.addWidget(catalog)
    catalog.show()
    rows = [ListRow("echo", "echo", "Return the text"), ListRow("add", "add", "Add two numbers")]
    catalog.restore(rows, "", None)
    qtbot.keyClicks(catalog.filter_edit, "ech")
    qtbot.waitUntil(_clear_button(catalog).isVisible, timeout=FADE_MS)
    # the inspector shows another connection: its own (empty) filter comes back
    catalog.restore(rows, "", None)
    assert catalog.filter_edit.text() == ""
    qtbot.waitUntil(lambda: not _clear_button(catalog).isVisible(), timeout=FADE_MS)
    qtbot.keyClicks(catalog.filter_edit, "a")  # and typing again brings it back
    qtbot.waitUntil(_clear_button(catalog).isVisible, timeout=FADE_MS)
    assert catalog.model.visible_keys() == ["add"]


def test_page_down_at_a_pages_end_and_ctrl_end_turn_the_pdfs_pages(qtbot: Any) -> None:
    pdf = PDFView(make_pdf([["one"], ["two"], ["three"]]))
    qtbot.addWidget(pdf)
    pdf.resize(700, 600)
    pdf.show()
    qtbot.waitExposed(pdf)
    view = pdf.view
    view.setFocus()
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0  # an A5 page fitted to the width is taller than the view: Page Down scrolls first
    for _ in range(bar.maximum() // max(bar.pageStep(), 1) + 2):
        if pdf.current_page:
            break
        QTest.keyClick(view, Qt.Key.Key_PageDown)
    assert pdf.current_page == 1 and bar.value() == 0  # the next page, from its top
    QTest.keyClick(view, Qt.Key.Key_PageUp)
    assert pdf.current_page == 0 and bar.value() == bar.maximum()  # back to the previous page's end
    QTest.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert pdf.current_page == 2 and pdf.page_box.value() == 3 and bar.value() == bar.maximum()
    QTest.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert pdf.current_page == 0 and bar.value() == 0
    assert "Page Down" in view.toolTip()
