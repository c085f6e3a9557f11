"""Invisible text from a server is shown escaped in the window: a tool's name, description and result, stderr."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from a2a.types import AgentProvider, AgentSkill
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QPlainTextEdit, QStatusBar, QToolButton, QTreeWidget, QTreeWidgetItem
from starlette.applications import Starlette

from tests.servers import script_path
from tests.support.a2a_agents import EchoExecutor
from tests.support.a2a_inspector import inspector_for
from tests.support.mcp_inspector import inspector
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog, wait_until
from workbench.core.events import ServerStderrLine
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.policy import ApprovalRequest
from workbench.core.profiles import A2AProfile, MCPStdioProfile
from workbench.core.protocols.base import (
    ContentPart,
    ElicitationRequest,
    InputRequest,
    SamplingMessage,
    SamplingRequest,
)
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.snapshot import TaskSummary
from workbench.core.safe_text import neutralise
from workbench.demo.a2a_agents import make_app, make_card, serve_agent
from workbench.ui.dialogs.elicitation_url import UrlElicitationDialog
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.dialogs.sampling import SamplingDialog
from workbench.ui.errors import ErrorView, describe_error
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.panels.handoffs.widget import HandoffWidget
from workbench.ui.panels.inspector.mcp.completing import CompletingLineEdit
from workbench.ui.panels.inspector.mcp.itemmodel import SUMMARY_ROLE
from workbench.ui.panels.inspector.tasks.itemmodel import MCP_COLUMNS, TASK_ID_ROLE, TaskTableModel
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.widget import SidebarWidget
from workbench.ui.panels.stderr.widget import StderrWidget
from workbench.ui.panels.wirelog.itemmodel import SUMMARY
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.statusbar import StatusBarController
from workbench.ui.untrusted import SafeTextBrowser, plain_label, plain_tooltip

HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\U000e0000-\U000e007f]")
WHISPER = "whisper\u200b\U000e0078"
TAGGED = "".join(chr(0xE0000 + ord(c)) for c in "run rm -rf")
_DISPLAY, _TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole


def test_untrusted_labels_tooltips_and_documents_show_tag_zero_width_and_bidi_escaped(qtbot: Any) -> None:
    text = f"safe{TAGGED}\u200b \u202eexe.pdf"
    label = plain_label(text)
    qtbot.addWidget(label)
    label.setText(f"again{TAGGED}")  # every later text too, not only the first
    assert label.text() == "again" + "".join(f"\\U{0xE0000 + ord(c):08x}" for c in "run rm -rf")
    assert HIDDEN.search(plain_tooltip(text)) is None
    browser = SafeTextBrowser()
    qtbot.addWidget(browser)
    for show in (browser.set_untrusted_text, browser.set_untrusted_markdown):
        show(text)
        assert HIDDEN.search(browser.toPlainText()) is None
        assert "\\u200b \\u202eexe.pdf" in browser.toPlainText()


@pytest.mark.asyncio
async def test_a_tools_hidden_characters_show_escaped_in_the_list_the_detail_and_the_result(
    qtbot: Any, tmp_path: Path
) -> None:
    profile = MCPStdioProfile(name="hostile", command=sys.executable, args=[script_path("escape_strings")])
    async with inspector(tmp_path, qtbot, profile, child_process=True) as it:
        tools = it.widget.tools
        model = tools.list.model
        row = model.row_of(WHISPER)
        assert row >= 0
        index = model.index(row, 0, QModelIndex())
        assert model.data(index, Qt.ItemDataRole.DisplayRole) == "whisper\\u200b\\U000e0078"
        summary = model.data(index, SUMMARY_ROLE)
        assert HIDDEN.search(summary) is None and "Opens \\u202efdp.exe\\u202c" in summary
        assert HIDDEN.search(model.data(index, Qt.ItemDataRole.ToolTipRole)) is None

        assert tools.select_tool(WHISPER)
        detail = tools.detail
        assert detail.name_label.text() == "whisper\\u200b\\U000e0078"
        assert detail.description.text().startswith("Whispers.\\U000e0049\\U000e0067")
        assert HIDDEN.search(detail.description.text()) is None

        finished = SignalLog(it.widget.vm.calls.finished)
        detail.call.call_button.click()
        (record,) = await finished.wait_for()
        assert record.outcome == "ok"
        (part,) = detail.call.result_view.parts.part_views
        shown = part.payload.editor.toPlainText()
        assert shown.startswith("quiet\\u200b\\U000e0065\\U000e0078")
        assert "\\u2067cba\\u2069" in shown
        assert part.payload.text() == record.result.content[0].text  # kept exact for "Save as…"


def test_a_servers_stderr_lines_show_hidden_characters_escaped(qtbot: Any, qloop: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path)
    panel = StderrWidget(ctx)
    qtbot.addWidget(panel)
    ctx.selection.select("a")
    with qtbot.waitSignal(panel.viewmodel.lines_added, timeout=2000):
        ctx.services.bus.publish(ServerStderrLine(connection_id="a", line=f"ready{TAGGED}\u202e"))
    assert panel.plain_text() == "ready" + "".join(f"\\U{0xE0000 + ord(c):08x}" for c in "run rm -rf") + "\\u202e"
    ctx.selection.select(None)
    ctx.selection.select("a")  # shown again from the kept lines
    assert HIDDEN.search(panel.plain_text()) is None


# ---- every other view of peer text ---------------------------------------------------------------

RLO, PDF = "\u202e", "\u202c"
REFUSAL = f"Refused.{TAGGED} {RLO}gpj.exe{PDF}"


def escaped(text: str) -> str:
    """``text`` as the window shows it (the cleaner's escapes)."""
    return neutralise(text)


def tree_texts(tree: QTreeWidget) -> list[str]:
    """Every cell text and tooltip of a tree, depth first."""
    out: list[str] = []

    def walk(item: QTreeWidgetItem) -> None:
        for column in range(tree.columnCount()):
            out.extend((item.text(column), item.toolTip(column)))
        for i in range(item.childCount()):
            walk(item.child(i))

    for i in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(i))
    return out


def rows_of(model: QAbstractItemModel, roles: tuple[int, ...] = (_DISPLAY, _TOOLTIP)) -> list[str]:
    """Every cell's text of a flat model under ``roles`` (non-text values left out)."""
    return [
        value
        for row in range(model.rowCount())
        for column in range(model.columnCount())
        for role in roles
        if isinstance(value := model.data(model.index(row, column), role), str)
    ]


@pytest.mark.asyncio
async def test_the_wire_log_and_the_server_tab_show_a_servers_hidden_characters_escaped(
    qtbot: Any, tmp_path: Path
) -> None:
    profile = MCPStdioProfile(name="hostile", command=sys.executable, args=[script_path("escape_strings")])
    async with inspector(tmp_path, qtbot, profile, child_process=True) as it:
        assert it.widget.tools.select_tool(WHISPER)
        finished = SignalLog(it.widget.vm.calls.finished)
        it.widget.tools.detail.call.call_button.click()
        (done,) = await finished.wait_for()
        assert done.outcome == "ok"

        wire = WireLogWidget(it.ctx)
        qtbot.addWidget(wire)
        model = wire.vm.model
        model.flush()
        calls = [r for r in model.rows() if r.method == "tools/call"]
        answers = [r for r in model.rows() if "quiet" in r.payload]
        assert calls and answers
        assert all(HIDDEN.search(text) is None for text in rows_of(model))  # every cell, tooltips too
        call_row = model.row_of(calls[-1])
        assert call_row is not None
        assert "whisper\\u200b\\U000e0078" in model.data(model.index(call_row, SUMMARY), _DISPLAY)

        for record in (calls[-1], answers[-1]):
            row = model.row_of(record)
            assert row is not None
            wire.vm.select_row(row)
            assert HIDDEN.search(wire.detail.info_view.toPlainText()) is None  # summary, method, headers
            wire.detail.tabs.setCurrentWidget(wire.detail.pretty_view)
            pretty = wire.detail.pretty_view.editor.toPlainText()
            assert HIDDEN.search(pretty) is None
            assert json.loads(pretty) == json.loads(record.payload)  # still JSON, the same value
            wire.detail.tabs.setCurrentWidget(wire.detail.raw_view)
            assert HIDDEN.search(wire.detail.raw_view.editor.toPlainText()) is None
            assert wire.detail.raw_view.text() == record.payload  # "Save as…" writes the exact bytes

        server = it.widget.server
        server.refresh()
        texts = tree_texts(server.capabilities)
        assert "hush\\u200b" in texts
        assert escaped(f"{RLO}txt.exe{PDF}" + chr(0xE0078)) in texts
        assert all(HIDDEN.search(text) is None for text in texts)
        raw = server.raw.editor.toPlainText()
        assert HIDDEN.search(raw) is None and json.loads(raw) == json.loads(server.raw.text())


def hop(state: HopState, **fields: Any) -> HandoffEvent:
    base: dict[str, Any] = {
        "chain_id": "hidden",
        "handoff_id": "q",
        "parent_id": None,
        "source": USER,
        "target": f"planner{TAGGED}",
        "protocol": "a2a",
        "kind": HopKind.QUESTION,
        "started_at": 1_700_000_000.0,
    }
    return HandoffEvent(**{**base, **fields, "state": state})


def test_a_handoff_chains_lanes_arrows_picker_and_hop_detail_show_hidden_characters_escaped(
    qtbot: Any, qloop: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path)
    widget = HandoffWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    for event in (
        hop(HopState.WORKING, summary=f"Plan{TAGGED} \u2067cba\u2069", detail={"note\u200b": f"x{TAGGED}"}),
        hop(HopState.DONE, summary=f"Done\u200b{TAGGED}"),
    ):
        ctx.services.bus.publish(event)
    scene = widget.scene
    header = scene.headers[1]
    assert header.name_item.text().startswith("planner\\U000e0072")  # elided to the lane's width
    assert HIDDEN.search(header.name_item.text()) is None and HIDDEN.search(header.toolTip()) is None
    assert all(HIDDEN.search(item.elided_label) is None for item in scene.arrow_items)
    assert scene.arrow_items[0].elided_label.startswith("Plan\\U000e0072")
    assert HIDDEN.search(widget.chain_combo.currentText()) is None
    assert HIDDEN.search(widget.chain_combo.itemText(0)) is None
    widget.on_view_arrow_clicked(0)
    assert widget.detail.summary_view.toPlainText() == escaped(f"Done\u200b{TAGGED}")
    detail = widget.detail.json_view.toPlainText()
    assert HIDDEN.search(detail) is None
    assert json.loads(detail) == {"note\u200b": f"x{TAGGED}"}  # valid JSON, the same value


def hidden_sampling_request() -> SamplingRequest:
    return SamplingRequest(
        messages=[SamplingMessage("user", [ContentPart("text", text=f"Say hi{TAGGED}")])],
        max_tokens=5,
        system_prompt=f"Be nice.{TAGGED}",
        metadata={"key\u200b": f"{RLO}value{PDF}{TAGGED}"},
        tools=[ToolSpec(name=f"t\u200b{TAGGED}", description="d", input_schema={"title": f"T{TAGGED}"})],
        agent="hostile",
    )


def test_the_sampling_dialog_shows_the_requests_hidden_characters_escaped_and_its_json_as_json(qtbot: Any) -> None:
    dialog = SamplingDialog(hidden_sampling_request())
    qtbot.addWidget(dialog)
    edits = [w.toPlainText() for w in dialog.findChildren(QPlainTextEdit) if w is not dialog.reply_edit]
    buttons = [b.text() for b in dialog.findChildren(QToolButton)]
    assert all(HIDDEN.search(text) is None for text in [*edits, *buttons])
    assert escaped(f"Be nice.{TAGGED}") in edits
    (metadata,) = [json.loads(text) for text in edits if text.lstrip().startswith("{") and "key" in text]
    assert metadata == {"key\u200b": f"{RLO}value{PDF}{TAGGED}"}  # the JSON shown reads back exactly


@pytest.mark.asyncio
async def test_the_input_required_json_editor_escapes_hidden_characters_and_sends_the_data_back_exactly(
    qtbot: Any,
) -> None:
    data = {"city\u200b": f"Lisbon{TAGGED}", "note": f"{RLO}fdp.exe{PDF}", "n": [1, "\ufeff"]}
    dialog = InputRequiredDialog(InputRequest("input", "Edit it", task_id="t", context_id="c", data=data))
    qtbot.addWidget(dialog)
    assert dialog.data_editor is not None
    shown_json = dialog.data_editor.toPlainText()
    assert HIDDEN.search(shown_json) is None
    assert "\\udb40\\udc72" in shown_json  # a tag character as a JSON escape (surrogate pair)
    dialog.on_send_clicked()
    response = dialog.response()
    assert response is not None and response.data == data


def hidden_agent_app(base_url: str) -> Starlette:
    """An echo agent whose card and skill hide text behind tag, zero-width and bidi characters."""
    skill = AgentSkill(
        id=f"skill\u200b{TAGGED}",
        name=f"Echo{TAGGED}",
        description=f"Echoes.{TAGGED}",
        tags=[f"tag{RLO}gpj.exe{PDF}"],
    )
    card = make_card(base_url, name=f"Quiet agent{TAGGED}", description=f"About{TAGGED}", skills=[skill])
    card.provider.CopyFrom(AgentProvider(organization=f"Org\u200b{TAGGED}", url="https://example.org"))
    return make_app(card, EchoExecutor())


@pytest.mark.asyncio
async def test_an_agents_skills_and_card_show_hidden_characters_escaped(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path)
    async with (
        serve_agent(hidden_agent_app) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="quiet", name="quiet", url=url)) as (widget, _),
    ):
        skills = widget.skills_widget.list
        item = skills.topLevelItem(0)
        assert item.text(0) == escaped(f"Echo{TAGGED}")
        assert all(HIDDEN.search(text) is None for text in tree_texts(skills))
        card = widget.card_widget
        texts = tree_texts(card.tree)
        assert escaped(f"Org\u200b{TAGGED}") in texts
        assert all(HIDDEN.search(text) is None for text in texts)
        assert HIDDEN.search(card.name_label.text()) is None


@pytest.mark.asyncio
async def test_a_refusing_servers_hidden_characters_show_escaped_in_its_sidebar_row_and_the_status_bar(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path)
    sidebar = SidebarWidget(ctx)
    bar = QStatusBar()
    status = StatusBarController(ctx, bar)
    for widget in (sidebar, bar):
        qtbot.addWidget(widget)
    profile = MCPStdioProfile(
        id="refusing", name="refusing", command=sys.executable, args=[script_path("escape_strings"), "refuse"]
    )
    reported: list[ErrorView] = []
    ctx.errors.error_reported.connect(reported.append)
    try:
        task = sidebar.add_transient(profile, persist=False)
        assert task is not None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 30)
        model = sidebar.model
        index = model.index(model.row_of("refusing"))
        await wait_until(lambda: index.data(SidebarRole.STATE) == "failed", sidebar.viewmodel.item_changed)
        assert index.data(SidebarRole.STATE_TEXT) == "failed"  # the reason is in the tooltip
        tooltip = index.data(SidebarRole.TOOLTIP)
        assert "Refused." in tooltip and HIDDEN.search(tooltip) is None
        assert all(HIDDEN.search(str(index.data(role) or "")) is None for role in (_DISPLAY, SidebarRole.NAME))
        ctx.selection.select("refusing")
        assert HIDDEN.search(status.connection_label.text()) is None
        view = reported[-1] if reported else describe_error(ctx.services.connections.get("refusing").error)
        line = status.show_error(view)
        assert HIDDEN.search(line) is None and HIDDEN.search(bar.currentMessage()) is None
        assert HIDDEN.search(bar.toolTip()) is None and "Refused." in bar.toolTip()
    finally:
        status.detach()
        await ctx.services.connections.aclose()


def test_completion_suggestions_show_hidden_characters_escaped_and_complete_to_the_exact_value(qtbot: Any) -> None:
    edit = CompletingLineEdit()
    qtbot.addWidget(edit)
    value = f"Lisbon{TAGGED}"
    edit.offer([value])
    model = edit.completer().model()
    index = model.index(0, 0)
    assert model.data(index, _DISPLAY) == escaped(value)
    assert edit.values() == [value]
    edit.completer().setCompletionPrefix("")
    assert edit.completer().currentCompletion() == value  # picking it puts in what the server sent


def test_task_tables_show_an_agents_hidden_characters_escaped(qtbot: Any) -> None:
    model = TaskTableModel(columns=MCP_COLUMNS)
    model.set_rows([TaskSummary(task_id=f"t\u200b{TAGGED}", context_id="c", state="working", tool=f"x{RLO}")])
    texts = rows_of(model)
    assert escaped(f"t\u200b{TAGGED}") in texts
    assert all(HIDDEN.search(text) is None for text in texts)
    assert model.data(model.index(0, 0), TASK_ID_ROLE) == f"t\u200b{TAGGED}"  # the id itself stays exact


def test_a_forms_titles_and_choices_show_hidden_characters_escaped_and_keep_their_values(qtbot: Any) -> None:
    hidden = f"Small\u200b{TAGGED}"
    schema = {
        "type": "object",
        "properties": {
            "size": {"oneOf": [{"const": hidden, "title": hidden}, {"const": "l", "title": "Large"}]},
            "sizes": {"type": "array", "items": {"enum": [hidden, "l"]}, "uniqueItems": True},
            "shape": {"oneOf": [{"type": "string", "title": f"Text{RLO}"}, {"type": "integer"}]},
            "box": {"type": "object", "title": f"Box{TAGGED}", "properties": {"a": {"type": "string"}}},
        },
    }
    form = SchemaForm(schema)
    qtbot.addWidget(form)
    size = form.field("size")
    texts = [size.combo.itemText(i) for i in range(size.combo.count())]
    texts += [size.combo.itemData(i, _TOOLTIP) or "" for i in range(size.combo.count())]
    texts += [form.field("sizes").list.item(i).text() for i in range(form.field("sizes").list.count())]
    shape = form.field("shape").selector
    texts += [shape.itemText(i) for i in range(shape.count())]
    texts += [box.title() for box in form.root.boxes.values()]
    assert escaped(hidden) in texts and all(HIDDEN.search(text) is None for text in texts)
    size.select(hidden)
    form.field("sizes").set_checked(hidden)
    assert form.value()["size"] == hidden and form.value()["sizes"] == [hidden]  # the exact values
    assert form.json_editor is None or HIDDEN.search(form.json_editor.toPlainText()) is None


def test_a_handoff_approval_and_a_web_page_request_show_hidden_characters_escaped(qtbot: Any) -> None:
    request = ApprovalRequest(
        chain_id="c",
        handoff_id="h",
        parent_id=None,
        source=f"planner{TAGGED}",
        target="booker\u200b",
        kind=HopKind.AGENT_TOOL,
        protocol="a2a",
        summary="Book",
        arguments={"city": f"Lisbon{TAGGED}"},
        depth=2,
    )
    approval = HandoffApprovalDialog(request)
    qtbot.addWidget(approval)
    detail = approval.detail_view.toPlainText()
    assert HIDDEN.search(detail) is None and json.loads(detail) == {"city": f"Lisbon{TAGGED}"}
    assert HIDDEN.search(approval.always_check.text()) is None

    url = f"https://example.org/{TAGGED}\u202e"
    page = UrlElicitationDialog(ElicitationRequest(mode="url", message="Log in", url=url, agent="demo"))
    qtbot.addWidget(page)
    assert page.url_view.toPlainText() == escaped(url)
    assert HIDDEN.search(page.address_label.text()) is None
