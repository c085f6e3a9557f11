"""The tool (and prompt) list shows each entry's description under its name, as the MCP Inspector does:
one elided line in a quieter colour that stays readable in a light and a dark palette, names whole.

Against the real demo MCP server (in process), in a workspace the size a 1366×768 laptop gives it.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyleOptionViewItem

from tests.support.colours import contrast
from tests.support.mcp_inspector import inspector
from workbench.ui.panels.inspector.mcp.catalog_delegate import CatalogDelegate, secondary_colour
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget

LAPTOP_WORKSPACE = (1080, 600)
"""What the workspace gets of a 1366×768 screen (sidebar and window frame taken off)."""
DARK = {"Base": "#17181a", "Text": "#e8eaed"}
"""A dark palette's text colours (as a desktop in dark mode gives Qt)."""


def shown(listing: CatalogListWidget, key: str) -> tuple[str, str, int]:
    """What the list draws for ``key``: the name line, the description line, and the row's height."""
    view = listing.view
    index: QModelIndex = listing.model.index(listing.model.row_of(key))
    delegate = view.itemDelegateForIndex(index)
    assert isinstance(delegate, CatalogDelegate)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    name, summary = delegate.shown_lines(option, index)
    return name, summary, option.rect.height()


@pytest.mark.asyncio
async def test_each_tool_shows_its_description_under_its_whole_name(qtbot: Any, tmp_path: Any) -> None:
    async with inspector(tmp_path, qtbot) as it:
        it.widget.resize(*LAPTOP_WORKSPACE)
        listing = it.widget.tools.list
        qtbot.waitExposed(listing.view)
        line = QFontMetrics(listing.view.font()).height()
        specs = {spec.name: spec for spec in it.widget.vm.tools()}
        for name, spec in specs.items():
            text, summary, height = shown(listing, name)
            assert text.startswith(name) and "…" not in text[: len(name)]  # the tool's name is never cut
            assert height >= 2 * line  # room for the description line
            first = (spec.description or "").strip().splitlines()[0] if spec.description else ""
            if summary.endswith("…"):
                assert " ".join(first.split()).startswith(summary[:-1])  # elided to one line, from its start
            else:
                assert summary == " ".join(first.split())
        assert shown(listing, "add")[1] == "Add two numbers."
        assert shown(listing, "slow_count")[1].endswith("…")  # a long one is elided, not wrapped
        # prompts share the list: their descriptions show too
        prompts = it.widget.prompts.list
        it.widget.tabs.setCurrentWidget(it.widget.prompts)
        qtbot.waitExposed(prompts.view)
        assert shown(prompts, "greet")[1].startswith("Write a greeting")


def test_the_description_colour_is_quieter_than_the_name_yet_readable_light_and_dark() -> None:
    light = QPalette()
    light.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    light.setColor(QPalette.ColorRole.Text, QColor("#000000"))
    dark = QPalette()
    for role, colour in DARK.items():
        dark.setColor(getattr(QPalette.ColorRole, role), QColor(colour))
    for palette in (light, dark):
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        quiet = secondary_colour(text, base)
        assert 4.5 <= contrast(quiet, base) < contrast(text, base)  # WCAG AA for body text, and quieter
