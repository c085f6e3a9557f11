"""A tool's annotations ("read-only", "idempotent") are flat tags, not things that look like buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from tests.support.mcp_inspector import inspector


def close(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


@pytest.mark.asyncio
async def test_annotation_tags_are_flat_tinted_and_lower_than_the_button_beside_them(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        assert it.widget.tools.select_tool("add")
        QApplication.sendPostedEvents()  # the tags' queued show (a widget added to a shown layout)
        detail = it.widget.tools.detail
        badges: list[QLabel] = detail.badges
        assert [b.text() for b in badges] == ["read-only", "idempotent", "closed world"]
        window = detail.palette().color(QPalette.ColorRole.Window)
        button = detail.schemas_button
        for badge in badges:
            assert badge.isVisible() and badge.height() < button.height()  # not a button's height
            image = badge.grab().toImage()
            w, h = image.width(), image.height()
            fill = image.pixelColor(3, h // 2)  # left of the text, inside the tag
            assert not close(fill, window, 4)  # a tint: the tag has a body ...
            assert close(image.pixelColor(w // 2, 0), fill)  # ... and no outline around it
            assert close(image.pixelColor(w // 2, h - 1), fill)


@pytest.mark.asyncio
async def test_a_tool_with_an_app_and_one_kept_for_apps_say_so_in_their_tags(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        tools = it.widget.tools
        assert tools.select_tool("weather_app")
        assert tools.detail.badges[-1].text() == "MCP App"
        assert tools.select_tool("weather_forecast")  # _meta.ui.visibility ["app"]: the weather app's own
        assert [b.text() for b in tools.detail.badges][-1] == "app only"
        assert tools.select_tool("add")
        assert not {"MCP App", "app only"} & {b.text() for b in tools.detail.badges}
