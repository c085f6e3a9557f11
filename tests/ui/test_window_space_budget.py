"""The window's space budget at 1280×720, 1366×768 and 1920×1080 (window_layout's docstring): the wire
record's detail, a tool's form and result, the chat's history and message box, a resource's contents and
the handoff diagram each keep their lines with the wire log open."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtGui import QFontDatabase, QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QVBoxLayout, QWidget

from tests.support.handoff_chains import publish, trip_chain
from tests.support.signals import wait_until
from tests.support.tool_calls import call_anyway
from tests.support.windows import demo_window, plain_window
from workbench.core.handoff.mermaid import StepStyle
from workbench.ui.banner import TEXT_LINES, ErrorBanner
from workbench.ui.errors import ErrorView
from workbench.ui.mainwindow import MainWindow
from workbench.ui.panels.chat.widget import INPUT_LINES, INPUT_MAX_SHARE
from workbench.ui.panels.handoffs.items import FIRST_ROW, ROW_HEIGHT
from workbench.ui.panels.handoffs.widget import DIAGRAM_MIN_ROWS
from workbench.ui.panels.inspector.mcp.call_layout import (
    FORM_MIN_LINES,
    JSON_MIN_WIDTH,
    RESULT_MIN_LINES,
    RESULT_WAITING_LINES,
)
from workbench.ui.panels.wirelog.detail import TITLE_MIN_CHARS
from workbench.ui.panels.wirelog.widget import DETAIL_MIN_LINES
from workbench.ui.window_layout import BOTTOM_SHARE, CENTRE_MIN, bottom_height

SMALL, LAPTOP, WIDE = QSize(1280, 692), QSize(1366, 740), QSize(1920, 1052)
"""1280×720, 1366×768 and 1920×1080 screens less a window's title bar (28 px; Openbox's is 19): the
client area of a maximised window, as a first launch on the two smaller screens opens."""


async def settle() -> None:
    """Let the layouts run (a resize, a dock shown, a tool picked) before anything is measured."""
    for _ in range(4):
        await asyncio.sleep(0.02)
        QApplication.processEvents()


def lines(editor: QPlainTextEdit) -> float:
    """How many lines of text an editor's viewport shows."""
    margin = editor.document().documentMargin()
    return (editor.viewport().height() - 2 * margin) / editor.fontMetrics().lineSpacing()


def fixed_lines(pixels: int) -> float:
    """``pixels`` in lines of the results' fixed-width font."""
    return pixels / QFontMetrics(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)).lineSpacing()


async def open_wire_log(window: MainWindow, size: QSize) -> None:
    window.resize(size)
    if not window.wire_dock.isVisible():
        window.wire_dock.toggleViewAction().trigger()  # the status bar's "Wire log" button
    await settle()


async def click_a_record(window: MainWindow, qtbot: Any) -> None:
    table = window.wire_log.table
    index = table.model().index(table.model().rowCount() - 1, 0)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
    await settle()
    assert window.wire_log.vm.current is not None


def test_the_wire_log_gets_its_lines_first_and_a_share_of_a_tall_window():
    need = 265
    assert bottom_height(689, need) == need  # 1366×768: the lines, the workspace the rest
    assert bottom_height(1001, need) == int(1001 * BOTTOM_SHARE)  # 1920×1080: a share, more lines
    assert bottom_height(600, need) == 600 - CENTRE_MIN  # a short window: the workspace keeps its budget
    assert bottom_height(689, need, centre=500) == 689 - 500  # the handoff diagram's budget is bigger


@pytest.mark.asyncio
async def test_the_wire_records_detail_shows_eight_lines_whatever_the_screen_and_beside_the_stderr_tab(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        bench.ctx.selection.select("demo-mcp-stdio")  # an MCP workspace: its pages are the tallest
        await settle()
        least_centre = window.centralWidget().minimumSizeHint().height()
        assert least_centre <= CENTRE_MIN + window.centre_tabs.tabBar().sizeHint().height()  # the Server tab scrolls
        for size, least in ((LAPTOP, DETAIL_MIN_LINES), (WIDE, DETAIL_MIN_LINES), (SMALL, DETAIL_MIN_LINES)):
            await open_wire_log(window, size)
            await click_a_record(window, qtbot)
            editor = window.wire_log.detail.pretty_view.editor
            assert lines(editor) >= least, (size, lines(editor))  # at 1366×768 too
            assert window.wire_log.detail.save_button.isEnabled()  # the payload's "Save as…" sits beside its title
        window.resize(LAPTOP)
        window.stderr_dock.toggleViewAction().trigger()  # the server's stderr shares the wire log's place
        await settle()
        window.wire_dock.raise_()
        await settle()
        assert lines(window.wire_log.detail.pretty_view.editor) >= DETAIL_MIN_LINES  # the stderr tab takes no lines


@pytest.mark.asyncio
async def test_the_empty_details_hint_and_a_records_title_can_be_read_at_1280x720(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        await open_wire_log(window, SMALL)
        detail = window.wire_log.detail
        assert detail.title.text() == ""  # no record: the payload's place says what to do, whole
        editor = detail.pretty_view.editor
        hint = editor.placeholderText()
        assert hint and editor.fontMetrics().horizontalAdvance(hint) <= editor.viewport().width()
        await click_a_record(window, qtbot)
        table = window.wire_log.table
        for _ in range(3):  # records with and without a partner ("Jump to …" shows for the first only)
            title = detail.title
            whole = title.fontMetrics().horizontalAdvance(title.text())
            least = min(whole, TITLE_MIN_CHARS * title.fontMetrics().averageCharWidth())
            assert title.isVisible() and title.width() >= least, (title.text(), title.width(), least)
            qtbot.keyClick(table, Qt.Key.Key_Up)
            await settle()


@pytest.mark.asyncio
async def test_a_tool_form_takes_its_contents_height_and_the_result_keeps_eight_lines(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        window.resize(LAPTOP)
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        await settle()
        call = mcp.tools.detail.call

        # a 2-field tool's form is as tall as its two fields (it took 55 % of the call area: ~280 px)
        assert mcp.tools.select_tool("add")
        await settle()
        assert call.splitter.orientation() == Qt.Orientation.Vertical
        content = call.form.form_area.widget().sizeHint().height() + 2 * call.form.form_area.frameWidth()
        assert call.form.height() <= content + 4
        assert call.result_view.height() >= 0.7 * call.height()  # the result gets the rest

        # with the wire log open: before a call the result has nothing to show and a tall form takes the
        # room; once a call has an outcome the result keeps its 8 lines and the form gives way first (its
        # JSON keeps ~6 lines on a laptop, a line less with a tab under the wire log)
        for size, json_least in ((LAPTOP, FORM_MIN_LINES - 1), (WIDE, FORM_MIN_LINES)):
            await open_wire_log(window, size)
            for tool in ("add", "plan_trip"):
                assert mcp.tools.select_tool(tool)
                await settle()
                json_lines = lines(call.form.json_editor)
                whole = call.form.json_editor.blockCount()
                if call.splitter.orientation() == Qt.Orientation.Vertical:  # the form whole, or all but ~2 lines
                    waiting = (
                        fixed_lines(call.result_view.height()) <= RESULT_WAITING_LINES + 2
                    )  # its scroll area's least
                    assert json_lines >= whole - 0.5 or waiting, (size, tool, json_lines)
                    assert json_lines >= min(whole, FORM_MIN_LINES + 3), (size, tool, json_lines)
                await call_anyway(call, qtbot)
                assert fixed_lines(call.result_view.height()) >= RESULT_MIN_LINES, (size, tool)
                json_lines = lines(call.form.json_editor)
                assert json_lines >= min(json_least, whole), (size, tool, json_lines)
                assert call.form.json_editor.width() >= JSON_MIN_WIDTH - 8  # never a column wrapping every value
        await open_wire_log(window, SMALL)
        assert mcp.tools.select_tool("plan_trip")
        await settle()
        assert fixed_lines(call.result_view.height()) >= RESULT_MIN_LINES - 1  # the form gave way first


@pytest.mark.asyncio
async def test_the_chat_history_is_several_times_the_message_box_which_grows_with_what_is_typed(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        await open_wire_log(window, LAPTOP)
        bench.ctx.selection.select("demo-travel")
        await settle()
        chat = window.chat
        box = chat.input
        spacing = box.fontMetrics().lineSpacing()
        low, high = INPUT_LINES
        assert low * spacing <= box.height() <= (low + 1) * spacing  # 3 lines, no more
        assert chat.transcript.height() >= 4 * box.height()  # the history several times the box

        box.setFocus()
        for line in range(5):
            qtbot.keyClicks(box, f"line {line}")
            qtbot.keyClick(box, Qt.Key.Key_Return)  # a new line; Ctrl+Enter would send
        await settle()
        assert lines(box) >= 5  # the box grew with the text: every line typed is in view
        for line in range(30):
            qtbot.keyClicks(box, f"more {line}")
            qtbot.keyClick(box, Qt.Key.Key_Return)
        await settle()
        assert box.height() <= min(high * spacing + 12, INPUT_MAX_SHARE * chat.height())  # capped, it scrolls
        assert chat.transcript.height() >= 2 * box.height()


@pytest.mark.asyncio
async def test_a_resources_contents_sit_at_the_top_of_their_pane(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        bench.ctx.selection.select("demo-mcp-stdio")
        mcp = window.inspector.inspector("mcp")
        assert mcp is not None
        mcp.tabs.setCurrentWidget(mcp.resources)
        page = mcp.resources.resource_page
        for size in (LAPTOP, WIDE):
            await open_wire_log(window, size)
            read = asyncio.ensure_future(wait_until(lambda: bool(page.contents.part_views), mcp.vm.resource_read))
            assert mcp.resources.select_resource("demo://counter")
            await read
            await settle()
            (part,) = page.contents.part_views
            assert part.height() <= part.sizeHint().height() + 2  # not stretched (its text would sit centred)
            assert part.mapTo(page, part.rect().topLeft()).y() <= page.status.geometry().bottom() + 20
            scroll = page.layout().itemAt(page.layout().count() - 1).widget()
            assert scroll.geometry().bottom() >= page.height() - 20  # the pane fills the page below the header


@pytest.mark.asyncio
async def test_opening_the_wire_log_from_a_handoff_arrow_keeps_the_diagrams_rows_in_view(qtbot, tmp_path):
    async with plain_window(tmp_path / "config", qtbot) as window:
        for size in (LAPTOP, SMALL):
            window.resize(size)
            window.show()
            await open_wire_log(window, size)
            window.resizeDocks([window.wire_dock], [380], Qt.Orientation.Vertical)  # the user dragged it tall
            await settle()
            window.wire_dock.toggleViewAction().trigger()  # and closed it
            window.show_handoffs()
            publish(window.ctx, trip_chain(f"chain-{size.width()}"))
            await settle()
            handoffs = window.handoffs
            last = [i for i in handoffs.scene.arrow_items if i.arrow.style is StepStyle.REPLY][-1]  # the answer
            handoffs.view.ensureVisible(last)
            pos = handoffs.view.mapFromScene(QPointF((last.x1 + last.x2) / 2, last.line_y))
            qtbot.mouseClick(handoffs.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
            await settle()
            assert window.wire_dock.isVisible()  # the click opened the wire log on the hop's records
            budget = (FIRST_ROW + DIAGRAM_MIN_ROWS * ROW_HEIGHT) * min(handoffs.view.zoom_level(), 1.0)
            assert handoffs.view.viewport().height() >= budget, (size, handoffs.view.viewport().height())
            shown = handoffs.view.mapToScene(handoffs.view.viewport().rect()).boundingRect()
            assert shown.contains(QPointF((last.x1 + last.x2) / 2, last.line_y))  # the clicked arrow stays in view


async def press(window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> None:
    """Press a shortcut in the active window, as the user does, and let the window lay out what followed."""
    window.activateWindow()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    await wait_until(window.isActiveWindow, app.focusWindowChanged, 10)
    QTest.keyClick(window.windowHandle(), key, modifiers)
    await settle()


async def click_connection(window: MainWindow, qtbot: Any, profile_id: str) -> None:
    view, model = window.sidebar.view, window.sidebar.model
    rect = view.visualRect(model.index(model.row_of(profile_id)))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    await settle()
    assert window.ctx.selection.current == profile_id


async def duplicate_where_nothing_can_be_saved(window: MainWindow, config: Path) -> None:
    """Connection ▸ Duplicate (Ctrl+D) when the saved connections cannot be written: a background failure."""
    (config / "profiles.json").mkdir(parents=True)  # a folder where the file goes: saving the copy fails
    await press(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)


@pytest.mark.asyncio
async def test_an_error_banner_takes_its_room_from_the_workspace_and_never_from_the_wire_log(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        window: MainWindow = bench.window
        window.resize(SMALL)
        await settle()
        await click_connection(window, qtbot, "demo-mcp-stdio")  # the workspace's tallest pages are MCP's
        if not window.wire_dock.isVisible():
            await press(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # View ▸ Wire log
        assert window.wire_dock.isVisible()
        editor = window.wire_log.detail.pretty_view.editor
        room = lines(editor)
        assert room >= DETAIL_MIN_LINES - 0.1, room

        await duplicate_where_nothing_can_be_saved(window, tmp_path / "config")  # the banner says so
        await wait_until(window.banner.isVisible, window.ctx.errors.error_reported)
        await settle()
        assert not window.banner.message.visibleRegion().isEmpty()  # its words are on show
        assert lines(editor) >= DETAIL_MIN_LINES - 0.1, lines(editor)  # the workspace gave the banner its room
        window.resize(LAPTOP)
        await settle()
        window.resize(SMALL)  # the budget applied again with the banner on show
        await settle()
        assert lines(editor) >= DETAIL_MIN_LINES - 0.1, lines(editor)

        await click_connection(window, qtbot, "demo-travel")  # another connection: no banner
        assert not window.banner.isVisible()
        assert lines(editor) >= room - 0.1, (room, lines(editor))

        window.resizeDocks([window.wire_dock], [150], Qt.Orientation.Vertical)  # squeezed, as a banner did
        await click_connection(window, qtbot, "demo-mcp-stdio")
        assert window.banner.isVisible()
        await click_connection(window, qtbot, "demo-travel")
        assert lines(editor) >= room - 0.1, (room, lines(editor))  # the banner going gives the budget back


def test_a_long_error_scrolls_inside_the_banner_which_stays_a_few_lines_high(qtbot):
    page = QWidget()
    qtbot.addWidget(page)
    banner = ErrorBanner()
    column = QVBoxLayout(page)
    column.addWidget(banner)
    column.addStretch(1)
    page.resize(700, 600)
    page.show()
    long = " ".join(f"word{n}" for n in range(400))
    banner.show_error(ErrorView(title="Saving", message=long, hint="Try again.", code="config", details=""))
    QApplication.processEvents()
    most = TEXT_LINES * banner.message.fontMetrics().lineSpacing() + 40  # the lines, margins and spacing
    assert banner.height() <= most, (banner.height(), most)  # the workspace below keeps its room
    bar = banner.text_area.verticalScrollBar()
    assert bar.maximum() > 0 and bar.isVisible()  # the rest of the words are a scroll away (and under Details…)
