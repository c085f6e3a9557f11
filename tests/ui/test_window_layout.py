"""The window on a laptop: fits the screen on first launch, a small minimum, nothing cut at 1366×768,
crushed dock sizes not restored, a workspace per protocol, and a Help menu that helps."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize, Qt, QUrl
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTableWidget, QWidget

from tests.support.signals import wait_until
from tests.support.tool_calls import call_anyway
from tests.support.windows import demo_window, plain_window
from workbench.app import build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.ui.asyncutil import wait_signal
from workbench.ui.mainwindow import MainWindow
from workbench.ui.window_layout import SIDEBAR, first_geometry, onto_screen, opens_maximised

LAPTOP = QSize(1366, 740)
"""A 1366×768 screen less the window's title bar."""


def _fully_visible(widget: QWidget) -> bool:
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


def test_first_launch_fits_the_screen_it_opens_on():
    laptop = first_geometry(QRect(0, 0, 1366, 768))
    assert QRect(0, 0, 1366, 768).contains(laptop) and laptop.height() <= 768 - 48
    assert first_geometry(QRect(0, 0, 1920, 1080)).size() == QSize(1728, 1000)
    assert first_geometry(QRect(0, 0, 2560, 1440)).size() == QSize(2304, 1296)
    # a remembered frame from a bigger screen is pulled back onto this one
    assert onto_screen(QRect(300, 200, 1400, 900), QRect(0, 0, 1366, 768)) == QRect(0, 0, 1366, 768)


@pytest.mark.asyncio
async def test_a_first_launch_on_a_small_screen_opens_maximised_so_the_space_budget_gets_all_of_it(qtbot, tmp_path):
    assert opens_maximised(QRect(0, 0, 1280, 720)) and opens_maximised(QRect(0, 0, 1366, 768))
    assert not opens_maximised(QRect(0, 0, 1920, 1080))  # room for the preferred size and a margin round it
    window = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore()).window
    qtbot.addWidget(window)
    window.show()
    await asyncio.sleep(0.05)
    available = window.screen().availableGeometry()  # the offscreen screen, 800×800: a small one
    assert window.isMaximized()
    assert window.frameGeometry().width() >= available.width() - 8, (window.frameGeometry(), available)
    assert window.frameGeometry().height() >= available.height() - 8, (window.frameGeometry(), available)
    done = asyncio.ensure_future(wait_signal(window.shutdown_finished, 10))
    window.close()
    await done


@pytest.mark.asyncio
async def test_a_new_window_fits_the_available_screen_geometry(qtbot, tmp_path):
    async with plain_window(tmp_path / "config", qtbot) as window:
        available = window.screen().availableGeometry()
        assert window.width() <= available.width() and window.height() <= available.height()
        assert window.minimumSize().width() <= 1024 and window.minimumSize().height() <= 640


@pytest.mark.asyncio
async def test_crushed_dock_sizes_are_not_restored(qtbot, tmp_path):
    config = tmp_path / "config"
    async with plain_window(config, qtbot) as first:
        first.resize(1300, 720)
        first.show()
        first.resizeDocks([first.sidebar_dock], [10], Qt.Orientation.Horizontal)  # the user drags it shut
        await asyncio.sleep(0.05)
        assert first.sidebar_dock.width() < SIDEBAR.minimum
    async with plain_window(config, qtbot) as second:
        second.resize(1300, 720)
        second.show()
        await asyncio.sleep(0.05)
        assert second.sidebar_dock.width() >= SIDEBAR.minimum  # the default, not the crushed size


@pytest.mark.asyncio
async def test_the_workspace_fits_the_protocol_and_nothing_is_cut_at_1366x768(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        window.resize(LAPTOP)
        window.wire_dock.hide()  # as a first launch on a 768-pixel screen leaves it
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        titles = [mcp.tabs.tabText(i) for i in range(mcp.tabs.count())]
        assert titles == ["Tools", "Resources", "Prompts", "Tasks", "Roots", "Chat", "Server"]  # chat: an entry point
        assert mcp.tabs.isTabEnabled(titles.index("Tasks"))  # the demo server offers the Tasks extension
        assert mcp.tabs.currentWidget() is mcp.tools
        assert mcp.tools.select_tool("plan_trip")
        await asyncio.sleep(0.1)
        assert window.size() == LAPTOP  # the window's minimum fits a laptop screen
        call = mcp.tools.detail.call
        # the form and the result get most of the workspace: before a call the form nearly all of it
        workspace = window.inspector.height()
        assert call.form.height() + call.result_view.height() >= 0.6 * workspace
        assert call.form.form_area.height() >= 0.6 * workspace
        await call_anyway(call, qtbot)
        assert call.result_view.height() >= 200 and call.form.form_area.height() >= 200

        window.wire_dock.show()  # with the wire log open, everything still fits
        await asyncio.sleep(0.1)
        assert window.size() == LAPTOP
        hint = window.minimumSizeHint().expandedTo(window.minimumSize())
        assert hint.width() <= 1024 and hint.height() <= 640
        for widget in (call.call_button, call.reuse_button, window.sidebar.connection_toolbar):
            assert _fully_visible(widget), widget
        for action_id in ("connect", "disconnect", "reconnect"):  # not behind the toolbar's "»"
            button = window.sidebar.connection_toolbar.widgetForAction(window.sidebar.actions_by_id[action_id])
            assert button is not None and _fully_visible(button)

        bench.ctx.selection.select("demo-travel")
        a2a = window.inspector.inspector("a2a")
        assert a2a is not None
        assert a2a.tabs.tabText(0) == "Chat" and a2a.tabs.currentWidget() is window.chat
        await asyncio.sleep(0.1)
        assert _fully_visible(window.chat.send_button)
        assert window.chat.transcript.placeholderText()  # an empty chat says what to do


@pytest.mark.asyncio
async def test_the_tool_form_and_its_result_sit_side_by_side_on_a_wide_screen(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window = bench.window
        window.resize(1920, 1040)
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None and mcp.tools.select_tool("plan_trip")
        await asyncio.sleep(0.1)
        call = mcp.tools.detail.call
        assert call.splitter.orientation() == Qt.Orientation.Horizontal
        assert call.result_view.height() >= 400 and call.form.width() >= 500


@pytest.mark.asyncio
async def test_the_view_menu_lists_the_wire_log_once_as_a_checked_toggle_that_ctrl_3_flips(qtbot, tmp_path):
    async with plain_window(tmp_path / "config", qtbot) as window:
        window.resize(1366, 740)
        window.show()
        view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
        entries = [a for a in view.actions() if a.text().replace("&", "") == "Wire log"]
        assert len(entries) == 1
        (entry,) = entries
        assert entry.isCheckable() and not entry.isIconVisibleInMenu()  # a check mark, not an icon in its place
        assert entry.shortcut().toString() == "Ctrl+3"
        window.activateWindow()
        app = QApplication.instance()
        await wait_until(window.isActiveWindow, app.focusWindowChanged, 10)
        for _ in range(2):
            was = window.wire_dock.isVisible()
            QTest.keyClick(window.windowHandle(), Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
            await asyncio.sleep(0.05)
            assert window.wire_dock.isVisible() is not was
            assert entry.isChecked() is window.wire_dock.isVisible()
            assert window.wire_toggle.isChecked() is window.wire_dock.isVisible()  # the status bar's button too


@pytest.mark.asyncio
async def test_help_has_getting_started_shortcuts_the_readme_and_the_log_folder(qtbot, tmp_path):
    opened: list[QUrl] = []
    async with plain_window(tmp_path / "config", qtbot, url_opener=opened.append) as window:
        _check_help(window, opened, tmp_path)


def _check_help(window: MainWindow, opened: list[QUrl], tmp_path: Path) -> None:
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert [a.objectName() for a in help_menu.actions() if a.objectName()] == [
        "help.getting_started",
        "help.shortcuts",
        "help.readme",
        "help.log_folder",
        "app.about",
    ]
    window.actions_registry.get("help.shortcuts").trigger()
    sheet = window.help.pages["shortcuts"]
    table = sheet.findChild(QTableWidget, "shortcutTable")
    rows = {table.item(r, 1).text(): table.item(r, 0).text() for r in range(table.rowCount())}
    assert rows["Filter wire log"] == "Ctrl+F" and rows["Keyboard shortcuts"] == "Ctrl+/"
    window.actions_registry.get("help.getting_started").trigger()
    assert "Getting started" in window.help.pages["gettingStarted"].findChild(QWidget, "helpText").toPlainText()
    window.actions_registry.get("help.readme").trigger()
    assert "Agent Workbench" in window.help.pages["readme"].findChild(QWidget, "helpText").toPlainText()
    window.actions_registry.get("help.log_folder").trigger()
    assert opened == [QUrl.fromLocalFile(str(Path(tmp_path / "config" / "logs")))]
    assert (tmp_path / "config" / "logs").is_dir()
    for page in list(window.help.pages.values()):
        page.close()
    QApplication.processEvents()


def test_the_tasks_state_column_is_whole_in_a_narrow_workspace(qtbot, tmp_path):
    from tests.support.panel_context import make_context
    from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget

    ctx = make_context(tmp_path)
    widget = A2AInspectorWidget(ctx)
    qtbot.addWidget(widget)
    table = widget.tasks_widget.table
    table.resize(640, 300)
    state = 2
    needed = table.fontMetrics().horizontalAdvance("input-required")
    assert table.columnWidth(state) > needed
    assert table.columnViewportPosition(state) + table.columnWidth(state) <= 640 - 24  # a scroll bar may sit there
    ctx.bridge.detach()
