"""A look people trust: icons from the bundled icon font in the palette's colours (light and dark), state
marks that differ in shape, WCAG AA contrast, a status-bar toggle that looks like a button, sidebar
actions that never hide behind "»", and an empty sidebar that says what to do."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import QApplication, QToolBar, QToolButton, QWidget

from tests.support.colours import contrast, dark_palette, palette_of
from tests.support.panel_context import make_context
from tests.support.windows import plain_window
from workbench.core.events import ConnectionState
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPSSEProfile, MCPStdioProfile
from workbench.ui import theme
from workbench.ui.actions import ACTIONS
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.icons import KIND_GLYPHS, STATE_GLYPHS, icon_theme
from workbench.ui.panels.sidebar.widget import ACTION_IDS, SidebarWidget

ROOT = Path(__file__).resolve().parents[2]
S = ConnectionState


def ink(image: QImage, area: QRect, ground: QColor) -> tuple[set[tuple[int, int]], QColor]:
    """The pixels of ``area`` that differ from ``ground`` (a shape) and the one that stands out most."""
    shape: set[tuple[int, int]] = set()
    strongest, best = ground, 1.0
    for x in range(area.left(), area.right() + 1):
        for y in range(area.top(), area.bottom() + 1):
            colour = image.pixelColor(x, y)
            if abs(colour.lightness() - ground.lightness()) + abs(colour.hue() - ground.hue()) > 24:
                shape.add((x - area.left(), y - area.top()))
            if (ratio := contrast(colour, ground)) > best:
                strongest, best = colour, ratio
    return shape, strongest


def test_every_glyph_the_window_names_is_in_the_bundled_icon_font(qapp: QApplication) -> None:
    icon_theme().load()
    names = {spec.icon for spec in ACTIONS} | set(KIND_GLYPHS.values()) | set(STATE_GLYPHS.values())
    assert "" not in names  # every action of the registry has an icon
    for name in names:
        pixmap = icon_theme().icon(name).pixmap(QSize(24, 24))
        image = pixmap.toImage()
        assert any(image.pixelColor(x, y).alpha() > 0 for x in range(24) for y in range(24)), name


def test_the_window_is_built_without_the_icon_font_and_loads_it_after_its_first_paint(tmp_path: Path) -> None:
    probe = textwrap.dedent(
        """
        import asyncio, json, sys
        from PySide6.QtCore import QSize
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        app.setQuitOnLastWindowClosed(False)
        from workbench.ui.asyncutil import AppEventLoop, wait_signal

        async def main():
            from workbench.app import build_workbench
            from workbench.core.credentials import MemoryCredentialStore
            from workbench.ui.icons import icon_theme
            window = build_workbench(sys.argv[1], credentials=MemoryCredentialStore()).window
            built_without = "qtawesome" not in sys.modules
            window.show()
            if not icon_theme().loaded:
                await wait_signal(icon_theme().changed, 20)
            button = window.sidebar.connection_toolbar.widgetForAction(window.sidebar.actions_by_id["connect"])
            image = button.icon().pixmap(QSize(16, 16)).toImage()
            inked = sum(image.pixelColor(x, y).alpha() > 0 for x in range(16) for y in range(16))
            done = asyncio.ensure_future(wait_signal(window.shutdown_finished, 10))
            window.close()
            await done
            print(json.dumps({"built_without": built_without, "inked": inked}))

        asyncio.run(main(), loop_factory=lambda: AppEventLoop(app))
        """
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-c", probe, str(tmp_path / "config")]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["built_without"]  # ~170 ms of imports and font reading are not on the way to the window
    assert report["inked"] > 10  # then the Connect button has its glyph


@pytest.mark.parametrize("name", ["light", "dark"])
def test_toolbar_icons_are_drawn_in_the_palettes_text_colour(
    qtbot: Any, qapp: QApplication, tmp_path: Path, name: str
) -> None:
    icon_theme().load()
    with palette_of(name, qapp) as palette:
        sidebar = SidebarWidget(make_context(tmp_path))
        qtbot.addWidget(sidebar)
        sidebar.resize(250, 300)
        sidebar.show()
        qtbot.waitExposed(sidebar)
        sidebar.actions_by_id["add"].setEnabled(True)
        button = sidebar.toolbar.widgetForAction(sidebar.actions_by_id["add"])
        image = button.icon().pixmap(button.iconSize()).toImage()
        pixels = [image.pixelColor(p) for p in _points(QRect(QPoint(0, 0), button.iconSize()))]
        solid = max(pixels, key=QColor.alpha)
        assert solid.alpha() > 200 and solid.rgb() == palette.color(QPalette.ColorRole.ButtonText).rgb()
        sidebar.actions_by_id["add"].setEnabled(False)
        dimmed = button.icon().pixmap(button.iconSize(), QIcon.Mode.Disabled).toImage()
        faint = max((dimmed.pixelColor(p) for p in _points(QRect(QPoint(0, 0), button.iconSize()))), key=QColor.alpha)
        disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
        assert faint.rgb() == disabled.rgb()
        ground = palette.color(QPalette.ColorRole.Window)
        assert contrast(palette.color(QPalette.ColorRole.ButtonText), ground) >= 4.5


def _points(area: QRect) -> Iterator[QPoint]:
    for x in range(area.left(), area.right() + 1):
        for y in range(area.top(), area.bottom() + 1):
            yield QPoint(x, y)


def _sidebar_with_states(qtbot: Any, tmp_path: Path, states: list[ConnectionState]) -> SidebarWidget:
    """A sidebar listing one profile per state (the rows as the view model would give them)."""
    ctx = make_context(tmp_path)
    kinds = [
        MCPStdioProfile(id="p0", name="stdio", command="python", args=["-m", "x"]),
        MCPHTTPProfile(id="p1", name="http", url="http://127.0.0.1:47801/mcp"),
        MCPSSEProfile(id="p2", name="sse", url="http://127.0.0.1:47802/sse"),
        A2AProfile(id="p3", name="agent", url="http://127.0.0.1:47803"),
        A2AProfile(id="p4", name="agent 2", url="http://127.0.0.1:47804"),
    ]
    for profile in kinds[: len(states)]:
        ctx.services.profiles.upsert(profile)
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    model = sidebar.model
    model.beginResetModel()
    model._rows = [dataclasses.replace(row, state=state) for row, state in zip(model._rows, states, strict=True)]
    model.endResetModel()
    sidebar.resize(250, 400)
    sidebar.show()
    qtbot.waitExposed(sidebar)
    return sidebar


def _mark_area(sidebar: SidebarWidget, row: int) -> QRect:
    rect = sidebar.view.visualRect(sidebar.model.index(row))
    line = sidebar.view.fontMetrics().height()
    return QRect(rect.left() + 2, rect.top() + 1, 22, line + 4)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_each_connection_state_has_its_own_mark_not_only_its_own_colour(
    qtbot: Any, qapp: QApplication, tmp_path: Path, name: str
) -> None:
    icon_theme().load()
    states = [S.CONNECTED, S.CONNECTING, S.FAILED, S.DISCONNECTED, S.CLOSED]
    with palette_of(name, qapp) as palette:
        sidebar = _sidebar_with_states(qtbot, tmp_path, states)
        image = sidebar.view.viewport().grab().toImage()
        ground = palette.color(QPalette.ColorRole.Base)
        shapes = []
        for row in range(len(states)):
            shape, strongest = ink(image, _mark_area(sidebar, row), ground)
            assert shape, states[row]
            # a mark is a graphic that carries meaning: >= 3:1 against the row (WCAG 1.4.11, AA)
            assert contrast(strongest, ground) >= 3.0, (states[row], strongest.name())
            shapes.append(frozenset(shape))
        assert len(set(shapes)) == len(states)  # a tick, a clock, a warning, a circle, a minus: not five dots


@pytest.mark.parametrize("name", ["light", "dark"])
def test_state_colours_and_muted_sidebar_text_meet_wcag_aa_on_both_palettes(qapp: QApplication, name: str) -> None:
    from workbench.ui.icons import state_colour
    from workbench.ui.panels.sidebar.delegate import BADGE_ALPHA, STATE_TEXT_ALPHA

    palette = dark_palette() if name == "dark" else qapp.style().standardPalette()
    assert theme.theme_for(Qt.ColorScheme.Unknown, palette) == name
    for ground_role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):  # the sidebar; the status bar
        ground = palette.color(ground_role)
        for state in S:
            # the same colours are the state's words where the stylesheet colours them (connectionState)
            assert contrast(state_colour(state.value, palette), ground) >= 4.5, (name, state, ground.name())
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    for alpha in (BADGE_ALPHA, STATE_TEXT_ALPHA):
        blended = QColor(
            *(
                round(getattr(text, c)() * alpha / 255 + getattr(base, c)() * (255 - alpha) / 255)
                for c in ("red", "green", "blue")
            )
        )
        assert contrast(blended, base) >= 4.5, (name, alpha, blended.name())
    # on the selected row a mark takes the row's highlighted text colour: a graphic, >= 3:1 (the words
    # there are the palette's own pair: Fusion's light one is 3.7:1)
    selected = state_colour("failed", palette, selected=True)
    assert contrast(selected, palette.color(QPalette.ColorRole.Highlight)) >= 3.0


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["light", "dark"])
async def test_the_wire_log_toggle_looks_like_a_button_whether_on_or_off(
    qtbot: Any, qapp: QApplication, tmp_path: Path, name: str
) -> None:
    icon_theme().load()
    with palette_of(name, qapp) as palette:
        async with plain_window(tmp_path / "config", qtbot) as window:
            window.setStyleSheet(theme.load_stylesheet(name))  # what apply_theme gives the whole app
            window.resize(1366, 740)
            window.show()
            toggle = window.wire_toggle
            assert toggle.isCheckable()
            ground = palette.color(QPalette.ColorRole.Window)
            looks: dict[bool, QImage] = {}
            for on in (False, True):
                if window.wire_dock.isVisible() != on:
                    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)  # the user clicks it
                await asyncio.sleep(0.05)
                assert window.wire_dock.isVisible() is on and toggle.isChecked() is on
                QApplication.processEvents()
                image = toggle.grab().toImage()
                looks[on] = image
                middle = image.height() // 2
                edge = max((image.pixelColor(x, middle) for x in range(3)), key=lambda c: contrast(c, ground))
                # a frame that stands out from the bar in both states (WCAG 1.4.11: >= 3:1), not flat text
                assert contrast(edge, ground) >= 3.0, (name, on, edge.name())
                fill = image.pixelColor(3, 3)
                words, _ = max(
                    ((c, contrast(c, fill)) for c in (image.pixelColor(x, middle) for x in range(image.width()))),
                    key=lambda pair: pair[1],
                )
                assert contrast(words, fill) >= 4.5, (name, on)
            assert looks[True].pixelColor(3, 3) != looks[False].pixelColor(3, 3)  # on is filled, off is not


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [QSize(1366, 740), QSize(1920, 1040)])
async def test_every_sidebar_action_is_on_screen_at_a_laptops_and_a_big_screens_width(
    qtbot: Any, tmp_path: Path, size: QSize
) -> None:
    async with plain_window(tmp_path / "config", qtbot) as window:
        window.resize(size)
        window.show()
        qtbot.waitExposed(window)
        icon_theme().load()
        await asyncio.sleep(0.05)
        sidebar = window.sidebar
        for bar in sidebar.findChildren(QToolBar):
            more = bar.findChild(QToolButton, "qt_toolbar_ext_button")
            assert more is None or not more.isVisible(), bar.objectName()  # no "»"
        for action_id in ACTION_IDS:
            action = sidebar.actions_by_id[action_id]
            buttons = [b for b in sidebar.findChildren(QToolButton) if b.defaultAction() is action and b.isVisible()]
            assert buttons, action_id  # every action on the toolbar itself, none behind "»"
            button = buttons[0]
            assert button.visibleRegion().boundingRect() == button.rect(), action_id
            assert button.mapTo(sidebar, QPoint(button.width(), 0)).x() <= sidebar.width()


@pytest.mark.asyncio
async def test_an_empty_sidebar_says_how_to_add_a_connection_and_its_button_opens_the_dialog(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path)
    sidebar = SidebarWidget(ctx)
    qtbot.addWidget(sidebar)
    sidebar.resize(250, 400)
    sidebar.show()
    qtbot.waitExposed(sidebar)
    assert sidebar.empty_state.isVisible() and not sidebar.view.isVisible()
    shown = [label.text() for label in sidebar.empty_state.findChildren(QWidget) if hasattr(label, "text")]
    assert any("workbench demo" in text for text in shown)  # the other way in: the bundled demo agents
    opened = asyncio.ensure_future(wait_signal(sidebar.dialog_opened, 10))
    sidebar.empty_add_button.setFocus()
    qtbot.keyClick(sidebar.empty_add_button, Qt.Key.Key_Space)  # the button, from the keyboard
    (dialog,) = await opened
    assert isinstance(dialog, ConnectionDialog)
    dialog.reject()
    await asyncio.sleep(0)
    sidebar.viewmodel.add(MCPHTTPProfile(id="one", name="one", url="http://127.0.0.1:47801/mcp"))
    assert sidebar.view.isVisible() and not sidebar.empty_state.isVisible()
    removing = sidebar.viewmodel.remove("one")
    if removing is not None:
        await asyncio.wait_for(removing, 10)
    assert sidebar.empty_state.isVisible() and not sidebar.view.isVisible()
