"""A new user's walk through the window: forms that keep still, labels as people read them, a handoff
pane that fits, dialogs that say why, and a readable overflow button in the dark."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction, QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QToolBar, QToolButton

from tests.support.colours import contrast
from tests.support.handoff_chains import Chain, publish
from tests.support.mcp_inspector import inspector
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog
from workbench.core.field_labels import humanise
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.protocols.base import InputRequest
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui import theme
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.panels.handoffs.widget import HandoffWidget
from workbench.ui.untrusted import plain_tooltip

ADD_SCHEMA: dict[str, Any] = {  # as FastMCP declares the demo's add(a, b): generated titles "A", "B"
    "type": "object",
    "properties": {
        "a": {"type": "number", "title": "A", "description": "First addend"},
        "b": {"type": "number", "title": "B", "description": "Second addend"},
    },
    "required": ["a", "b"],
}


def _form(qtbot: Any, schema: dict[str, Any]) -> SchemaForm:
    form = SchemaForm(schema)
    qtbot.addWidget(form)
    form.resize(800, 500)
    form.show()
    qtbot.waitExposed(form)
    return form


@pytest.fixture(scope="module")
def plan_trip_schema() -> dict[str, Any]:
    """The demo server's plan_trip schema, as FastMCP makes it ($defs with class titles, generated titles)."""

    async def schemas() -> dict[str, Any]:
        async with MCPAgent.in_process(build_server()) as agent:
            return {t.name: t.input_schema for t in await agent.server_features.list_tools()}

    return asyncio.run(schemas())["plan_trip"]


# ---- 1. validation that keeps still --------------------------------------------------------------


def test_typing_into_one_field_never_marks_another_untouched_one_nor_moves_it(qtbot: Any) -> None:
    form = _form(qtbot, ADD_SCHEMA)
    a, b = form.field("a"), form.field("b")
    b_top = b.mapTo(form, b.rect().topLeft()).y()
    a.spin.lineEdit().setText("2")  # as if typed
    a.spin.interpretText()
    qtbot.wait(0)  # let the layout settle
    assert form.value() == {"a": 2}
    assert b.error_label.isHidden()  # typing in A says nothing about B, which nobody has touched yet
    assert form.errors_label.isHidden()
    assert b.mapTo(form, b.rect().topLeft()).y() == b_top  # B stays where the user is about to click
    assert form.errors() == ["b: required"]  # still known, just not shouted
    form.reveal_errors()  # a submit attempt shows it
    assert not b.error_label.isHidden() and b.error_label.text() == "Required"


def test_a_field_shows_its_own_problem_once_the_user_has_edited_it(qtbot: Any) -> None:
    schema = {"type": "object", "properties": {"code": {"type": "string", "minLength": 3}, "other": {"type": "string"}}}
    form = _form(qtbot, schema)
    form.field("code").set_text("x")
    assert form.field("code").error_label.text() == "Needs at least 3 characters"
    assert not form.field("code").error_label.isHidden()
    assert form.errors_label.text() == "1 field to fix (marked above): Code"


def test_the_problem_list_names_fields_as_their_labels_do(qtbot: Any, plan_trip_schema: dict[str, Any]) -> None:
    form = _form(qtbot, plan_trip_schema)
    form.reveal_errors()
    summary = form.errors_label.text()
    assert summary.startswith("5 fields to fix (marked above): Destination, Dates, Travellers › #1 › Name, ")
    assert "travellers/0" not in summary  # the summary names fields by their labels, never by keys or paths
    assert form.errors()[0] == "destination: required"  # the programmatic list keeps the keys


@pytest.mark.asyncio
async def test_a_refused_call_says_so_in_one_message_that_names_the_fields_by_their_labels(
    qtbot: Any, tmp_path: Path
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        tools = it.widget.tools
        assert tools.select_tool("add")
        call = tools.detail.call
        qtbot.waitUntil(lambda: call.form.isVisibleTo(call), timeout=2000)  # a new form is shown queued
        call.call_button.click()  # both fields empty
        assert not it.widget.vm.calls.running
        messages = [
            label.text()
            for label in call.findChildren(QLabel)
            if label.isVisibleTo(call) and ("fix" in label.text().lower() or "not sent" in label.text().lower())
        ]
        assert len(messages) == 1, messages  # one message says what to fix and that nothing was sent
        (message,) = messages
        assert "A, B" in message and "Not sent" in message
        assert call.refused
        assert call.form.field("a").error_label.text() == "Required"  # each problem also under its field, once
        finished = SignalLog(it.widget.vm.calls.finished)
        call.form.set_value({"a": 1, "b": 2})
        assert not call.refused and call.form.errors_label.isHidden()
        call.call_button.click()
        (record,) = await finished.wait_for()
        assert record.outcome == "ok"


# ---- 2. labels ------------------------------------------------------------------------------------


def test_a_property_from_a_ref_is_labelled_by_its_own_name_and_units_read_sensibly(
    qtbot: Any, plan_trip_schema: dict[str, Any]
) -> None:
    form = _form(qtbot, plan_trip_schema)
    root = form.root
    assert root.boxes["dates"].title() == "Dates *"  # the property's name, not its definition's ("TripDates")
    assert root.row_labels["budget_eur"].text() == "Budget (EUR)"  # a unit or currency last, in brackets
    assert root.row_labels["destination"].text() == "Destination *"
    assert humanise("user_id") == "User ID" and humanise("timeoutMs") == "Timeout (ms)"
    assert humanise("name") == "Name" and humanise("a") == "A"
    own = {"type": "object", "properties": {"x": {"$ref": "#/$defs/X", "title": "Where to"}}, "$defs": {"X": {}}}
    titled = _form(qtbot, own)
    assert titled.root.row_labels["x"].text() == "Where to"  # a title the author wrote is kept


@pytest.mark.asyncio
async def test_prompt_arguments_are_labelled_like_tool_fields(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        prompts = it.widget.prompts
        assert prompts.select_prompt("greet")
        detail = prompts.detail
        labels = [detail._form.labelForField(field).text() for field in detail.fields.values()]
        assert labels == ["Name *", "Style"]  # capitalised as the tool forms' labels ("Destination *")


# ---- 3. the handoff view --------------------------------------------------------------------------


@pytest.fixture
def ctx(tmp_path: Path) -> PanelContext:
    return make_context(tmp_path)


@pytest.fixture
def handoffs(ctx: PanelContext, qtbot: Any) -> Iterator[HandoffWidget]:
    w = HandoffWidget(ctx)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def test_the_hop_facts_keep_their_height_when_the_pane_is_short(
    ctx: PanelContext, handoffs: HandoffWidget, qtbot: Any
) -> None:
    c = Chain("c1")
    long_id = "hop-" + "0123456789abcdef" * 3
    publish(ctx, [c.hop("q", HopState.WORKING, USER, "planner", "a2a", HopKind.QUESTION, "Plan a weekend")])
    publish(ctx, [c.hop(long_id, HopState.WORKING, "planner", "weather", "mcp", summary="weather", parent="q")])
    handoffs.resize(1000, 230)  # the window at 1366x768 with the wire log docked under the view
    handoffs.on_view_arrow_clicked(1)
    assert handoffs.detail.fact_labels["Hop"].text().startswith(long_id)

    def whole(label: QLabel) -> bool:
        need = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
        return label.height() >= need

    facts = handoffs.detail.fact_labels
    qtbot.waitUntil(lambda: all(whole(label) for label in facts.values()), timeout=2000)
    assert facts["Hop"].height() > facts["Kind"].height()  # wrapped, not cut


def test_the_chain_picker_has_room_for_a_replay_title_and_elides_with_a_tooltip(
    ctx: PanelContext, handoffs: HandoffWidget, qtbot: Any
) -> None:
    c = Chain("c1")
    title = "Plan a weekend in Lisbon for two"
    publish(ctx, [c.hop("q", HopState.WORKING, USER, "planner", "a2a", HopKind.QUESTION, title)])
    publish(ctx, [c.hop("q", HopState.DONE, summary="done")])
    handoffs.resize(1060, 500)  # the central area of a 1366x768 window beside the sidebar
    handoffs.vm.set_play_interval(1)
    with qtbot.waitSignal(handoffs.vm.playing_changed, timeout=5000, check_params_cb=lambda on: not on):
        handoffs.replay_current_action.trigger()
    combo = handoffs.chain_combo
    assert combo.currentText() == f"Replay: {title}"
    qtbot.waitUntil(lambda: combo.width() > combo.fontMetrics().horizontalAdvance(combo.currentText()), timeout=2000)
    qtbot.waitUntil(lambda: combo.displayed_text() == combo.currentText(), timeout=2000)  # the whole title shows
    assert combo.toolTip() == plain_tooltip(f"Replay: {title}")
    longer = "Plan a fortnight along the Portuguese coast for a family of five, by train only"
    publish(ctx, [Chain("c2").hop("q", HopState.WORKING, USER, "planner", "a2a", HopKind.QUESTION, longer)])
    combo.setCurrentIndex(combo.findText(longer))  # as the user picks it
    handoffs.resize(500, 500)  # no room: it ends with "…", the tooltip has it whole
    assert combo.currentText() == longer
    qtbot.waitUntil(lambda: combo.displayed_text().endswith("…"), timeout=2000)
    assert combo.toolTip() == plain_tooltip(longer)


def test_fit_shows_the_first_hop(ctx: PanelContext, handoffs: HandoffWidget) -> None:
    c = Chain("long")
    events = [c.hop("q", HopState.WORKING, USER, "agent-0", "a2a", HopKind.QUESTION, "start")]
    for i in range(40):
        hid = f"h{i}"
        events.append(
            c.hop(hid, HopState.WORKING, f"agent-{i % 3}", f"agent-{(i + 1) % 3}", "a2a", HopKind.AGENT_TOOL, "go")
        )
        events.append(c.hop(hid, HopState.DONE, summary=f"done {i}"))
    publish(ctx, events)
    handoffs.resize(1000, 400)
    handoffs.zoom_fit_action.trigger()
    view = handoffs.view
    assert view.verticalScrollBar().maximum() > 0  # taller than the view even fitted
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    first = handoffs.scene.arrow_items[0]
    assert shown.contains(QPointF(min(first.x1, first.x2) + 1, first.line_y))  # the first arrow shows, not the newest
    assert view.arrow_at(view.mapFromScene(QPointF((first.x1 + first.x2) / 2, first.line_y))) is first


# ---- 4. the approval dialog's title ---------------------------------------------------------------


class _Request:
    """A hop with a short route and no arguments: the narrowest the dialog gets."""

    source, target, protocol, kind, summary = "a", "b", "mcp", "tool-call", "x"
    arguments = None


def test_the_approval_dialog_is_wide_enough_for_its_title(qtbot: Any) -> None:
    dialog = HandoffApprovalDialog(_Request())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    bold = QFont(dialog.font())
    bold.setBold(True)
    title = f"{dialog.windowTitle()} — Agent Workbench"  # what the window manager writes in the frame
    assert dialog.width() >= QFontMetrics(bold).horizontalAdvance(title) + 120  # the frame's title fits, with room


# ---- 5. why Send is greyed ------------------------------------------------------------------------


def test_a_greyed_send_says_which_fields_are_still_missing(qtbot: Any) -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Lead traveller", "minLength": 1},
            "email": {"type": "string", "format": "email"},
            "guests": {"type": "integer", "minimum": 1, "default": 2},
        },
        "required": ["name", "email", "guests"],
    }
    request = InputRequest("input", "Who is travelling?", task_id="t", context_id="c", agent="booking", schema=schema)
    dialog = InputRequiredDialog(request)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert not dialog.send_button.isEnabled()
    assert dialog.send_hint.isVisibleTo(dialog)  # a disabled Send says what it waits for
    assert dialog.send_hint.text() == "Fill in: Lead traveller, Email"
    assert dialog.send_button.toolTip() == plain_tooltip(dialog.send_hint.text())
    assert dialog.form is not None
    dialog.form.field("name").set_text("Ada")
    assert dialog.send_hint.text() == "Fill in: Email"
    dialog.form.field("email").set_text("ada")
    assert dialog.send_hint.text() == "Fix: Email"
    dialog.form.field("email").set_text("ada@example.com")
    assert dialog.send_button.isEnabled() and not dialog.send_hint.isVisibleTo(dialog)


# ---- 6. wording -----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_read_resource_counts_its_content_items_in_words(qtbot: Any, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        reads = SignalLog(it.widget.vm.resource_read)
        assert resources.select_resource("demo://readme")
        await reads.wait_for(lambda purpose, uri, contents: uri == "demo://readme")
        assert resources.resource_page.status.text() == "1 content item."  # a count with its own plural, no "(s)"


# ---- 7. the toolbar's overflow button in the dark -------------------------------------------------


def test_the_toolbar_overflow_button_is_readable_on_a_dark_palette(qtbot: Any, qapp: QApplication) -> None:
    palette = QPalette()
    for role, colour in (("Window", "#202124"), ("Button", "#2b2d31"), ("ButtonText", "#e8eaed")):
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(colour))
    before = qapp.palette()
    qapp.setPalette(palette)  # a desktop's dark palette, as tools/screenshots.py gives the window
    try:
        window = QMainWindow()
        qtbot.addWidget(window)
        window.setStyleSheet(theme.load_stylesheet(theme.DARK))  # on this window only
        bar = QToolBar(window)
        window.addToolBar(bar)
        for name in ("Connect", "Disconnect", "Reconnect", "Add", "Edit", "Duplicate", "Remove"):
            bar.addAction(QAction(name, bar))
        window.resize(180, 120)
        window.show()
        qtbot.waitExposed(window)
        more = bar.findChild(QToolButton, "qt_toolbar_ext_button")
        assert more is not None and more.isVisible()
        image = more.grab().toImage()
        pixels = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
        chevron, ground = max(pixels, key=QColor.lightness), min(pixels, key=QColor.lightness)
        assert contrast(chevron, ground) >= 4.5  # the chevron reads on the dark toolbar
    finally:
        qapp.setPalette(before)


def test_the_forms_json_wraps_instead_of_cutting_a_long_line(qtbot: Any) -> None:
    # at 1920x1080 the JSON beside form and result is ~210 px: a line like '"email": "ada@example.com"' wraps
    form = SchemaForm({"type": "object", "properties": {"email": {"type": "string"}}})
    qtbot.addWidget(form)
    form.resize(520, 300)
    form.show()
    qtbot.waitExposed(form)
    assert form.splitter is not None and form.json_editor is not None
    form.splitter.setSizes([320, 200])
    form.set_value({"email": "ada.lovelace@analytical-engine.example.org"})
    QApplication.processEvents()
    editor = form.json_editor
    assert editor.horizontalScrollBar().maximum() == 0  # the whole value shows, wrapped
    assert "analytical-engine" in form.json_text()
