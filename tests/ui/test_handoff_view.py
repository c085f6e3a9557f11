"""The Handoff view: a chain of hops drawn live from bus events, clicks to wire records, exports, replay,
and the handoff approval prompt."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication, QDialog, QLabel

from tests.support.handoff_chains import Chain, D, W, publish, trip_chain
from tests.support.panel_context import make_context
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.handoff.mermaid import StepStyle, to_mermaid
from workbench.core.handoff.policy import ApprovalRequest as RouterApprovalRequest
from workbench.core.handoff.recording import final_line, load_jsonl, save_jsonl
from workbench.core.wire.records import WireKind
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.panels.handoffs.diagram import ChainDiagram, LaneState
from workbench.ui.panels.handoffs.items import ArrowItem, lane_centre
from workbench.ui.panels.handoffs.widget import FIT_MIN, HandoffWidget
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.prompts import UserPrompts
from workbench.ui.untrusted import plain_tooltip

HTML = '<b style="color:red">URGENT</b> <img src="file:///etc/passwd">'


EXPECTED_ARROWS = [
    (StepStyle.REQUEST, USER, "planner"),
    (StepStyle.REQUEST, "planner", "weather"),
    (StepStyle.REPLY, "weather", "planner"),
    (StepStyle.REQUEST, "weather", "writer"),
    (StepStyle.REPLY, "writer", "weather"),
    (StepStyle.ASK_USER, "planner", USER),
    (StepStyle.REPLY, USER, "planner"),
    (StepStyle.APPROVAL, "planner", "planner"),
    (StepStyle.DENIED, "booker", "planner"),
    (StepStyle.REQUEST, "planner", "flights"),
    (StepStyle.FAILED, "flights", "planner"),
    (StepStyle.REPLY, "planner", USER),
]
LANES = [USER, "planner", "weather", "writer", "booker", "flights"]


def signature(diagram: ChainDiagram) -> tuple[Any, ...]:
    """What a diagram draws, comparable across live and replayed chains."""
    return (
        [(lane.name, lane.protocol, lane.state) for lane in diagram.lanes],
        [(a.style, a.sender, a.receiver, a.label, a.hop_id) for a in diagram.arrows],
        {hid: (hop.state, hop.wire_seqs) for hid, hop in diagram.hops.items()},
    )


def arrows_of(diagram: ChainDiagram) -> list[tuple[StepStyle, str, str]]:
    names = [lane.name for lane in diagram.lanes]
    return [(a.style, names[a.sender], names[a.receiver]) for a in diagram.arrows]


@pytest.fixture
def ctx(tmp_path: Path) -> PanelContext:
    return make_context(tmp_path)


@pytest.fixture
def widget(ctx: PanelContext, qtbot: Any) -> Iterator[HandoffWidget]:
    w = HandoffWidget(ctx)
    qtbot.addWidget(w)
    w.resize(1000, 600)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


# ---- live drawing --------------------------------------------------------------------------------


def test_a_chain_published_on_the_bus_draws_its_lanes_and_arrows_in_order(
    ctx: PanelContext, widget: HandoffWidget
) -> None:
    publish(ctx, trip_chain())
    diagram = widget.vm.current
    assert diagram is not None and diagram.chain_id == "c1"
    assert [lane.name for lane in diagram.lanes] == LANES
    assert [lane.protocol for lane in diagram.lanes] == ["local", "a2a", "mcp", "a2a", "a2a", "mcp"]
    assert arrows_of(diagram) == EXPECTED_ARROWS
    scene = widget.scene
    assert [h.lane_name for h in scene.headers] == LANES
    assert [h.name_item.text() for h in scene.headers][:2] == ["User", "planner"]
    assert [h.protocol for h in scene.headers] == ["local", "a2a", "mcp", "a2a", "a2a", "mcp"]
    items = scene.arrow_items
    assert [(i.arrow.style, LANES[i.arrow.sender], LANES[i.arrow.receiver]) for i in items] == EXPECTED_ARROWS
    ys = [i.line_y for i in items]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # one row per arrow, in time order
    first = items[1]  # planner -> weather
    assert (first.x1, first.x2) == (lane_centre(1), lane_centre(2))
    assert [i.is_dashed for i in items[:3]] == [False, False, True]
    assert len(scene.lifelines) == len(LANES)
    assert all(line.line().y2() >= items[-1].line_y for line in scene.lifelines)


def test_lane_states_follow_the_chain_live(ctx: PanelContext, widget: HandoffWidget) -> None:
    events = trip_chain()

    def states() -> dict[str, LaneState]:
        header_states = {h.lane_name: h.state for h in widget.scene.headers}
        diagram = widget.vm.current
        assert diagram is not None
        assert header_states == {lane.name: lane.state for lane in diagram.lanes}  # scene mirrors the model
        return header_states

    publish(ctx, events[:2])
    assert states() == {USER: LaneState.IDLE, "planner": LaneState.WORKING, "weather": LaneState.WORKING}
    publish(ctx, events[2:3])
    assert states()["weather"] is LaneState.DONE
    publish(ctx, events[3:6])
    now = states()
    assert now["planner"] is LaneState.WAITING_FOR_USER and now[USER] is LaneState.WAITING_FOR_USER
    assert now["writer"] is LaneState.DONE
    publish(ctx, events[6:7])
    assert states()["planner"] is LaneState.WORKING and states()[USER] is LaneState.IDLE
    publish(ctx, events[7:8])
    assert states()[USER] is LaneState.WAITING_FOR_USER  # an approval waits for the user
    publish(ctx, events[8:11])
    assert states()["flights"] is LaneState.FAILED and states()["booker"] is LaneState.IDLE
    publish(ctx, events[11:])
    assert states()["planner"] is LaneState.DONE


def test_new_events_add_items_without_redrawing_the_scene(ctx: PanelContext, widget: HandoffWidget) -> None:
    events = trip_chain()
    publish(ctx, events[:3])
    header, arrow = widget.scene.headers[1], widget.scene.arrow_items[0]
    count = len(widget.scene.items())
    publish(ctx, events[3:4])  # a new lane and a new arrow
    assert widget.scene.headers[1] is header and widget.scene.arrow_items[0] is arrow
    assert header.scene() is widget.scene and arrow.scene() is widget.scene
    assert len(widget.scene.arrow_items) == 4
    assert len(widget.scene.items()) > count


def test_failed_and_denied_hops_are_marked(ctx: PanelContext, widget: HandoffWidget) -> None:
    publish(ctx, trip_chain())
    scene = widget.scene
    failed = scene.items_of_hop("f1")
    denied = scene.items_of_hop("x1")
    assert [i.marked for i in failed] == ["failed", "failed"]  # the request arrow too, once the hop failed
    assert [i.marked for i in denied] == ["denied", "denied"]
    assert failed[0].colour() == failed[1].colour() != scene.items_of_hop("t1")[0].colour()
    assert denied[0].is_marker and denied[0].hop_state is HopState.DENIED
    assert all(i.marked == "" for i in scene.items_of_hop("t1"))
    assert failed[1].elided_label.startswith("failed")


def test_the_newest_arrow_is_scrolled_into_view(ctx: PanelContext, widget: HandoffWidget) -> None:
    widget.resize(700, 300)
    chain = Chain("long")
    events = [chain.hop("q", W, USER, "planner", "a2a", HopKind.QUESTION, "go")]
    for n in range(30):
        events.append(chain.hop(f"t{n}", W, "planner", "tools", "mcp", HopKind.TOOL_CALL, f"call {n}"))
        events.append(chain.hop(f"t{n}", D, summary=f"result {n}"))
    publish(ctx, events)
    view = widget.view
    newest = widget.scene.arrow_items[-1]
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert view.verticalScrollBar().value() > 0
    assert shown.contains(QPointF(min(newest.x1, newest.x2) + 1, newest.line_y))  # its row, the user's column
    header = widget.scene.headers[1]
    assert header.y() == pytest.approx(shown.top() + 2)  # lane headers stay pinned at the top of the view
    hidden = next(i for i in widget.scene.arrow_items if shown.top() < i.line_y < header.sceneBoundingRect().bottom())
    assert view.arrow_at(view.mapFromScene(QPointF(min(hidden.x1, hidden.x2) + 30, hidden.line_y))) is None
    widget.scene.render_image()
    assert header.y() == pytest.approx(shown.top() + 2)  # an export draws headers at the top, then re-pins them


def test_clicking_an_arrow_selects_its_hop_and_asks_for_its_wire_records(
    ctx: PanelContext, widget: HandoffWidget, qtbot: Any
) -> None:
    publish(ctx, trip_chain())
    item = next(i for i in widget.scene.arrow_items if i.arrow.hop_id == "t1" and i.arrow.style is StepStyle.REPLY)
    widget.view.ensureVisible(item)
    pos = widget.view.mapFromScene(QPointF((item.x1 + item.x2) / 2, item.line_y))
    with qtbot.waitSignal(widget.wire_records_requested, timeout=2000) as blocker:
        qtbot.mouseClick(widget.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == ["wx", 3, 4]
    assert item.isSelected()
    hop = widget.vm.selected_hop
    assert hop is not None and hop.handoff_id == "t1"
    assert widget.detail.fact_labels["Kind"].text() == "tool-call"
    assert widget.detail.fact_labels["State"].text() == "done"
    assert widget.detail.fact_labels["Route"].text() == "planner → weather"
    assert widget.detail.fact_labels["Wire"].text() == "wx #3–#4"
    assert "took 250 ms" in widget.detail.fact_labels["Timing"].text()
    assert '"temp": 18' in widget.detail.json_view.toPlainText()
    assert widget.detail.wire_button.isEnabled()


def test_a_hop_without_wire_records_asks_for_nothing(ctx: PanelContext, widget: HandoffWidget) -> None:
    publish(ctx, trip_chain())
    asked: list[tuple[str, int, int]] = []
    widget.wire_records_requested.connect(lambda *args: asked.append(args))
    index = next(i.arrow.index for i in widget.scene.arrow_items if i.arrow.hop_id == "u1")
    widget.on_view_arrow_clicked(index)
    assert asked == [] and not widget.detail.wire_button.isEnabled()
    assert widget.status_label.text() == "This hop has no wire records."


def test_the_selected_hops_detail_follows_its_later_events(ctx: PanelContext, widget: HandoffWidget) -> None:
    events = trip_chain()
    publish(ctx, events[:10])
    widget.on_view_arrow_clicked(len(widget.scene.arrow_items) - 1)  # planner -> flights, working
    assert widget.detail.fact_labels["State"].text() == "working"
    publish(ctx, events[10:11])
    assert widget.detail.fact_labels["State"].text() == "failed"
    assert widget.detail.fact_labels["Wire"].text() == "fl #7–#8"


def test_the_chain_picker_lists_chains_and_switches_the_diagram(ctx: PanelContext, widget: HandoffWidget) -> None:
    publish(ctx, trip_chain("c1"))
    second = Chain("c2")
    publish(ctx, [second.hop("q", W, USER, "helper", "mcp", HopKind.QUESTION, "Another question")])
    combo = widget.chain_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["Plan my trip to Lisbon", "Another question"]
    assert widget.vm.current_key == "c2" and len(widget.scene.arrow_items) == 1  # following new chains
    combo.setCurrentIndex(0)
    assert widget.vm.current_key == "c1" and len(widget.scene.arrow_items) == len(EXPECTED_ARROWS)
    widget.follow_action.setChecked(False)
    publish(ctx, [Chain("c3").hop("q", W, USER, "helper", "mcp", HopKind.QUESTION, "Third")])
    assert widget.vm.current_key == "c1" and combo.count() == 3


# ---- zoom and exports ----------------------------------------------------------------------------


def test_zoom_buttons_and_ctrl_wheel_change_the_transform(ctx: PanelContext, widget: HandoffWidget) -> None:
    publish(ctx, trip_chain())
    view = widget.view
    assert view.zoom_level() == pytest.approx(1.0)
    widget.zoom_in_action.trigger()
    assert view.zoom_level() == pytest.approx(1.25)
    widget.zoom_out_action.trigger()
    widget.zoom_out_action.trigger()
    assert view.zoom_level() == pytest.approx(0.8)
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(
        centre,
        QPointF(view.viewport().mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.zoom_level() == pytest.approx(1.0)
    widget.zoom_fit_action.trigger()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    scene_rect = widget.scene.sceneRect()
    whole = shown.width() >= scene_rect.width() - 1 and shown.height() >= scene_rect.height() - 1
    assert whole or view.zoom_level() == pytest.approx(FIT_MIN)  # the whole chain, or as much as stays readable
    widget.resize(1600, 900)
    widget.zoom_fit_action.trigger()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.width() >= scene_rect.width() - 1 and shown.height() >= scene_rect.height() - 1
    widget.zoom_reset_action.trigger()
    assert view.zoom_level() == pytest.approx(1.0)


def test_png_export_is_an_image_of_the_whole_diagram(ctx: PanelContext, widget: HandoffWidget, tmp_path: Path) -> None:
    publish(ctx, trip_chain())
    path = tmp_path / "chain.png"
    widget.export_png(str(path))
    image = QImage(str(path))
    assert not image.isNull()
    rect = widget.scene.sceneRect()
    assert (image.width(), image.height()) == (int(rect.width()), int(rect.height()))
    assert image.width() >= len(LANES) * 200 and image.height() > len(EXPECTED_ARROWS) * 40
    assert widget.status_label.text() == f"Saved the diagram to {path}."
    assert widget.scene.export_png(tmp_path / "big.png", scale=2.0).width() == 2 * image.width()


def test_svg_export_is_well_formed_and_keeps_remote_markup_as_text(
    ctx: PanelContext, widget: HandoffWidget, tmp_path: Path
) -> None:
    chain = Chain("html")
    publish(ctx, [chain.hop("q", W, USER, "pla<n>er", "a2a", HopKind.QUESTION, HTML)])
    path = tmp_path / "chain.svg"
    widget.export_svg(str(path))
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    texts = "".join("".join(el.itertext()) for el in root.iter() if el.tag.endswith("text"))
    assert "pla<n>er" in texts
    assert not [el for el in root.iter() if el.tag.endswith(("image", "a"))]


def test_an_export_to_an_unwritable_place_is_reported(ctx: PanelContext, widget: HandoffWidget, tmp_path: Path) -> None:
    publish(ctx, trip_chain())
    reported: list[Any] = []
    ctx.errors.error_reported.connect(reported.append)
    widget.export_png(str(tmp_path / "missing-dir" / "chain.png"))
    assert len(reported) == 1
    assert widget.status_label.text() == "Could not write the PNG file."


def test_copy_as_mermaid_puts_the_chains_text_on_the_clipboard(ctx: PanelContext, widget: HandoffWidget) -> None:
    events = trip_chain()
    publish(ctx, events)
    widget.copy_mermaid_action.trigger()
    text = QGuiApplication.clipboard().text()
    assert text == to_mermaid(events)
    assert "    P4--xP1: denied: denied by the user\n" in text
    assert "    P5--xP1: failed: flights server timed out\n" in text


@pytest.mark.asyncio
async def test_the_chain_saves_as_mermaid_and_as_a_recording(ctx: PanelContext, qtbot: Any, tmp_path: Path) -> None:
    widget = HandoffWidget(ctx)
    qtbot.addWidget(widget)
    events = trip_chain()
    publish(ctx, events)
    await widget.vm.save_mermaid(tmp_path / "chain.mmd")
    assert (tmp_path / "chain.mmd").read_text(encoding="utf-8") == to_mermaid(events)
    assert await widget.vm.save_chain(tmp_path / "chain.jsonl") == len(events)
    assert len((tmp_path / "chain.jsonl").read_text(encoding="utf-8").splitlines()) == len(events)
    widget.vm.close()


# ---- replay --------------------------------------------------------------------------------------


def test_replay_steps_reproduce_the_live_diagram(ctx: PanelContext, widget: HandoffWidget, tmp_path: Path) -> None:
    events = trip_chain()
    publish(ctx, events)
    live = widget.vm.current
    assert live is not None
    live_items = [(i.arrow.style, i.x1, i.x2, i.line_y, i.elided_label) for i in widget.scene.arrow_items]

    replayer = HandoffWidget(make_context(tmp_path / "other"))  # no agents, no live events
    replayer.resize(1000, 600)
    replayer.vm.load_replay(events, "trip.jsonl")
    assert replayer.replay_label.text() == " 0/12 " and replayer.step_action.isEnabled()
    assert not replayer.reset_action.isEnabled()
    for n in range(1, len(events) + 1):
        replayer.step_action.trigger()
        shown = replayer.vm.current
        assert shown is not None and len(shown.events) == n
        assert len(replayer.scene.arrow_items) == len(shown.arrows)
    assert replayer.replay_label.text() == " 12/12 " and not replayer.step_action.isEnabled()
    assert replayer.vm.step() is False
    replayed = replayer.vm.current
    assert replayed is not None and signature(replayed) == signature(live)
    assert [(i.arrow.style, i.x1, i.x2, i.line_y, i.elided_label) for i in replayer.scene.arrow_items] == live_items
    assert replayer.chain_combo.currentText() == "Replay: Plan my trip to Lisbon"
    replayer.reset_action.trigger()
    assert replayer.scene.arrow_items == [] and replayer.vm.replay is not None
    assert replayer.vm.replay.position == 0
    replayer.vm.close()


def test_play_runs_a_recorded_file_to_the_end(
    qtbot: Any, ctx: PanelContext, widget: HandoffWidget, tmp_path: Path
) -> None:
    path = tmp_path / "trip.jsonl"
    save_jsonl(path, trip_chain())
    widget.vm.load_replay(load_jsonl(path).events, path.name)
    widget.vm.set_play_interval(1)
    with qtbot.waitSignal(widget.vm.playing_changed, timeout=5000, check_params_cb=lambda on: not on):
        widget.play_action.trigger()
    assert widget.vm.replay is not None and widget.vm.replay.finished
    assert not widget.play_action.isChecked()
    diagram = widget.vm.current
    assert diagram is not None and arrows_of(diagram) == EXPECTED_ARROWS


@pytest.mark.asyncio
async def test_opening_a_bad_recording_reports_a_config_error(ctx: PanelContext, qtbot: Any, tmp_path: Path) -> None:
    widget = HandoffWidget(ctx)
    qtbot.addWidget(widget)
    path = tmp_path / "bad.jsonl"
    path.write_text("hello\n", encoding="utf-8")
    from workbench.core.errors import ConfigError

    with pytest.raises(ConfigError):
        await widget.vm.open_replay(path)
    good = tmp_path / "good.jsonl"
    save_jsonl(good, trip_chain(), final=final_line("Here is your plan", chain_id="c1"))  # the --json format
    assert await widget.vm.open_replay(good) == 12
    assert widget.vm.replay is not None and widget.vm.replay.name == "good.jsonl"
    widget.vm.close()


def test_live_events_during_a_replay_do_not_take_the_view(ctx: PanelContext, widget: HandoffWidget) -> None:
    widget.vm.load_replay(trip_chain("recorded"), "trip.jsonl")
    widget.vm.step()
    key = widget.vm.current_key
    assert key is not None and key.startswith("replay:")
    publish(ctx, trip_chain("live")[:2])
    assert widget.vm.current_key == key
    assert widget.vm.chain("live") is not None


# ---- untrusted text ------------------------------------------------------------------------------


def test_html_in_summaries_and_names_is_shown_literally(ctx: PanelContext, widget: HandoffWidget) -> None:
    chain = Chain("html")
    publish(
        ctx,
        [
            chain.hop("q", W, USER, "<i>agent</i>", "a2a", HopKind.QUESTION, HTML, detail={"note": HTML}),
            chain.hop("q", D, summary=HTML),
        ],
    )
    header = widget.scene.headers[1]
    assert header.name_item.text() == "<i>agent</i>"
    assert header.toolTip() == plain_tooltip("<i>agent</i>")
    item = widget.scene.arrow_items[0]
    assert isinstance(item, ArrowItem)
    assert item.elided_label.startswith('<b style="color:red">')
    assert item.toolTip().startswith(plain_tooltip(HTML).removesuffix("</p>")[:20])
    assert "&lt;b" in item.toolTip() and "<img" not in item.toolTip()
    widget.on_view_arrow_clicked(0)
    assert widget.detail.summary_view.toPlainText() == HTML
    assert HTML.replace('"', '\\"') in widget.detail.json_view.toPlainText()
    assert widget.detail.title.textFormat() == Qt.TextFormat.PlainText
    assert widget.detail.title.text() == "question: User → <i>agent</i>"
    assert widget.chain_combo.currentText() == " ".join(HTML.split())[:80]


# ---- the wire log's side of a click ---------------------------------------------------------------


def test_the_wire_log_selects_the_first_shown_record_of_a_seq_range(ctx: PanelContext, qtbot: Any) -> None:
    wire = ctx.services.wire
    wire.local("a", WireKind.PROCESS, "a started")  # 1
    wire.local("b", WireKind.PROCESS, "b started")  # 2
    wire.local("a", WireKind.PROCESS, "a note")  # 3
    wire.local("a", WireKind.PROCESS, "a exited")  # 4
    log = WireLogWidget(ctx)
    qtbot.addWidget(log)
    wire.local("b", WireKind.PROCESS, "b later")  # 5: not yet flushed into the table
    assert log.select_seqs("a", 2, 4)
    assert log.vm.current is not None and log.vm.current.seq == 3
    assert log.table.currentIndex().row() == 2
    assert log.select_seqs("b", 5, 5) and log.vm.current is not None and log.vm.current.seq == 5
    assert log.select_seqs(None, 4, 1) and log.vm.current.seq == 1
    assert not log.select_seqs("a", 5, 9)
    log.close()


# ---- approval prompt -----------------------------------------------------------------------------


@dataclass
class ApprovalRequest:
    source: str
    target: str
    protocol: str
    kind: HopKind
    summary: str
    detail: dict[str, Any] = field(default_factory=dict)


def book_hotel(source: str = "planner") -> ApprovalRequest:
    return ApprovalRequest(source, "booker", "a2a", HopKind.AGENT_TOOL, "Book a hotel", {"city": "Lisbon"})


@pytest.fixture
def prompts(ctx: PanelContext) -> UserPrompts:
    return UserPrompts(ctx, lambda: None)


@pytest.mark.asyncio
async def test_approving_a_handoff_answers_true(prompts: UserPrompts) -> None:
    task = asyncio.ensure_future(prompts.approve_handoff(book_hotel()))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    assert isinstance(dialog, HandoffApprovalDialog)
    assert dialog.who_label.text() == "planner wants to hand off to booker"
    assert (dialog.protocol_label.text(), dialog.kind_label.text()) == ("a2a", "agent-tool")
    assert dialog.message_label.text() == "Book a hotel"
    assert '"city": "Lisbon"' in dialog.detail_view.toPlainText()
    assert dialog.focusWidget() is dialog.deny_button  # opens on the refusal: a stray Enter denies
    dialog.approve()
    assert await asyncio.wait_for(task, 5) is True
    assert prompts.allowed_routes() == frozenset()


@pytest.mark.asyncio
async def test_denying_or_closing_the_approval_answers_false(prompts: UserPrompts) -> None:
    task = asyncio.ensure_future(prompts.approve_handoff(book_hotel()))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    dialog.always_check.setChecked(True)
    dialog.deny()
    assert await asyncio.wait_for(task, 5) is False
    assert prompts.allowed_routes() == frozenset()  # "always" counts only with Approve
    task = asyncio.ensure_future(prompts.approve_handoff(book_hotel()))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    dialog.reject()  # Esc or the window's close button
    assert await asyncio.wait_for(task, 5) is False


@pytest.mark.asyncio
async def test_always_allow_approves_the_route_from_then_on_without_asking(prompts: UserPrompts) -> None:
    allowed: list[tuple[str, str]] = []
    prompts.route_always_allowed.connect(lambda s, t: allowed.append((s, t)))
    shown: list[QDialog] = []
    prompts.prompt_shown.connect(shown.append)
    task = asyncio.ensure_future(prompts.decide_handoff(book_hotel()))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    dialog.approve(always=True)
    decision = await asyncio.wait_for(task, 5)
    assert decision.approved and decision.remember
    assert allowed == [("planner", "booker")]
    assert await asyncio.wait_for(prompts.approve_handoff(book_hotel()), 1) is True
    assert len(shown) == 1 and prompts.pending_count == 0
    other = asyncio.ensure_future(prompts.approve_handoff(book_hotel(source="writer")))  # another route asks
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    dialog.deny()
    assert await asyncio.wait_for(other, 5) is False
    prompts.forget_allowed_routes()
    again = asyncio.ensure_future(prompts.approve_handoff(book_hotel()))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    dialog.approve()
    assert await asyncio.wait_for(again, 5) is True


@pytest.mark.asyncio
async def test_approval_requests_queue_one_dialog_at_a_time(prompts: UserPrompts) -> None:
    first = asyncio.ensure_future(prompts.approve_handoff(book_hotel()))
    second = asyncio.ensure_future(prompts.approve_handoff(book_hotel(source="writer")))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    assert prompts.pending_count == 2 and dialog.request.source == "planner"
    dialog.approve()
    (dialog2,) = await wait_signal(prompts.prompt_shown, 5)
    assert dialog2.request.source == "writer"
    dialog2.deny()
    assert await asyncio.wait_for(first, 5) is True
    assert await asyncio.wait_for(second, 5) is False


@pytest.mark.asyncio
async def test_the_routers_approval_request_is_shown_with_its_arguments(prompts: UserPrompts) -> None:
    request = RouterApprovalRequest(
        chain_id="c1",
        handoff_id="x1",
        parent_id="q",
        source="planner",
        target="booker",
        kind=HopKind.AGENT_TOOL,
        protocol="a2a",
        summary="Book a hotel",
        arguments={"city": "Lisbon", "nights": 4},
    )
    task = asyncio.ensure_future(prompts.decide_handoff(request))
    (dialog,) = await wait_signal(prompts.prompt_shown, 5)
    assert '"nights": 4' in dialog.detail_view.toPlainText()
    assert dialog.kind_label.text() == "agent-tool"
    dialog.deny()
    decision = await asyncio.wait_for(task, 5)
    assert not decision.approved and not decision.remember and decision.reason


def test_the_approval_dialog_shows_remote_text_literally(qtbot: Any) -> None:
    request = ApprovalRequest(HTML, "<i>booker</i>", "a2a", HopKind.AGENT_TOOL, HTML, {"q": HTML})
    dialog = HandoffApprovalDialog(request)
    qtbot.addWidget(dialog)
    labels = dialog.findChildren(QLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels if label.text())
    assert dialog.route_label.text() == f"{HTML} → <i>booker</i>"
    assert dialog.message_label.text() == HTML
    assert dialog.always_check.text() == f"Always allow this route ({HTML} → <i>booker</i>)"


def test_replay_redraws_the_chain_just_watched_step_by_step_without_any_agent(
    qtbot: Any, ctx: PanelContext, widget: HandoffWidget
) -> None:
    assert not widget.replay_current_action.isEnabled()  # nothing watched yet
    publish(ctx, trip_chain())
    live = widget.vm.current
    assert live is not None and widget.replay_current_action.isEnabled()
    widget.vm.set_play_interval(1)
    steps: list[int] = []
    widget.vm.replay_changed.connect(lambda position, total: steps.append(position))
    with qtbot.waitSignal(widget.vm.playing_changed, timeout=5000, check_params_cb=lambda on: not on):
        widget.replay_current_action.trigger()
    assert steps == list(range(0, len(live.events) + 1))  # one event per step, from an empty diagram
    replayed = widget.vm.current
    assert replayed is not None and replayed is not live
    assert widget.chain_combo.currentText() == "Replay: Plan my trip to Lisbon"
    assert signature(replayed) == signature(live)
    assert len(widget.scene.arrow_items) == len(live.arrows)


def test_fit_keeps_labels_readable_on_a_long_wide_chain(ctx: PanelContext, widget: HandoffWidget) -> None:
    c = Chain("long")
    events = [c.hop("q", W, USER, "agent-0", "a2a", HopKind.QUESTION, "start")]
    for i in range(60):  # 60 hops over 7 lanes: far taller and wider than the view
        hid = f"h{i}"
        events.append(c.hop(hid, W, f"agent-{i % 6}", f"agent-{(i + 1) % 6}", "a2a", HopKind.AGENT_TOOL, f"step {i}"))
        events.append(c.hop(hid, D, summary=f"done {i}"))
    publish(ctx, events)
    widget.resize(1000, 500)  # about what the view gets in a 1366×768 window
    widget.zoom_fit_action.trigger()
    view = widget.view
    assert view.zoom_level() >= FIT_MIN  # never so small that labels are a few pixels high
    assert view.verticalScrollBar().maximum() > 0  # the time axis scrolls instead
    label_px = view.zoom_level() * widget.scene.arrow_items[0]._metrics.height()
    assert label_px >= 9
    # Fit starts at the chain's beginning: the first hop is in view (Follow then takes the view to new hops)
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.intersects(widget.scene.arrow_items[0].sceneBoundingRect())


def test_a_replay_is_named_in_the_chain_picker_as_soon_as_it_starts(ctx: PanelContext, widget: HandoffWidget) -> None:
    # the picker names the replay at once, not at Play's first tick
    publish(ctx, trip_chain())
    widget.vm.set_play_interval(60_000)  # no tick during the test: only what Replay itself shows
    widget.replay_current_action.trigger()
    try:
        assert widget.chain_combo.currentText() == "Replay: Plan my trip to Lisbon"
        assert widget.vm.current is not None and len(widget.vm.current.events) == 1  # the first event, at once
    finally:
        widget.vm.pause()


def test_clicking_a_hop_with_wire_records_after_one_without_clears_the_no_records_line(
    ctx: PanelContext, widget: HandoffWidget, qtbot: Any
) -> None:
    publish(ctx, trip_chain())

    def click(hop_id: str) -> None:
        item = next(i for i in widget.scene.arrow_items if i.arrow.hop_id == hop_id)
        widget.view.ensureVisible(item)
        pos = widget.view.mapFromScene(QPointF((item.x1 + item.x2) / 2, item.line_y))
        qtbot.mouseClick(widget.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
        assert widget.vm.selected_hop is not None and widget.vm.selected_hop.handoff_id == hop_id

    click("u1")
    assert widget.status_label.text() != ""  # this hop has no wire records
    click("t1")
    assert widget.detail.wire_button.isEnabled()
    assert widget.status_label.text() == ""  # the line was about the other hop
