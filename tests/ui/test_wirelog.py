"""Wire log pane: a live MCP connection's traffic in the table, filters, jumps, pause, exports, drops."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QStatusBar, QTableView

from tests.support.panel_context import make_context
from workbench.core.connection import Connection
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.timefmt import duration_text
from workbench.core.wire.curl import REDACTED_NOTE
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.demo.mcp_server import serve_http
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.panels.wirelog.itemmodel import (
    CONNECTION,
    DIRECTION,
    ID,
    KIND,
    LATENCY,
    METHOD,
    SIZE,
    SORT_ROLE,
    SUMMARY,
    TIME,
    WireLogModel,
)
from workbench.ui.panels.wirelog.record_filter import WireFilter
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.panels.wirelog.widget import STATUS_MS, WireLogWidget
from workbench.ui.statusbar import StatusBarController

BOUND = 30.0
SECRET = "sk-live-4f9a8b7c6d5e"
OUT, IN = Direction.OUT, Direction.IN


async def settled(model: WireLogModel) -> None:
    """Wait (bounded) until the model's 50 ms flush has taken in everything recorded so far."""
    while model.flush_scheduled:
        await wait_signal(model.flushed, 5)


def cell(model: WireLogModel, row: int, column: int, role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole) -> Any:
    return model.data(model.index(row, column), role)


def rpc(rid: int, method: str = "tools/call", **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def result(rid: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "ok"}]}}


@pytest.fixture
def ctx(tmp_path: Path) -> PanelContext:
    return make_context(tmp_path)


@contextlib.asynccontextmanager
async def live_demo(ctx: PanelContext) -> AsyncIterator[Connection]:
    """A real demo MCP server over Streamable HTTP, connected through the context's manager."""
    async with serve_http(transport="streamable-http") as url:
        conn = await asyncio.wait_for(
            ctx.services.connections.connect(MCPHTTPProfile(id="demo", name="Demo server", url=url)), BOUND
        )
        try:
            yield conn
        finally:
            await asyncio.wait_for(ctx.services.connections.aclose(), BOUND)


async def call_add(conn: Connection) -> None:
    agent: Any = conn.agent
    await asyncio.wait_for(agent.call_tool("add", {"a": 2, "b": 3}), BOUND)


def find_row(model: WireLogModel, pred: Any) -> int:
    rows = [i for i in range(model.rowCount()) if pred(model.record(i))]
    assert rows, "no matching row"
    return rows[-1]


def is_call(r: WireRecord | None) -> bool:
    return r is not None and r.kind is WireKind.JSONRPC and r.method == "tools/call"


# ---- live connection -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_real_tool_call_appears_as_rows_with_the_right_columns(ctx: PanelContext, qtbot: Any) -> None:
    async with live_demo(ctx) as live:
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        model = widget.vm.model
        await settled(model)
        before = model.rowCount()
        await call_add(live)
        await wait_signal(model.flushed, 5)  # the call's records arrive in a coalesced flush
        await settled(model)
        assert model.rowCount() > before
        assert [r.seq for r in model.rows()] == [r.seq for r in ctx.services.wire.records()]
        call = find_row(model, is_call)
        assert re.fullmatch(r"\d\d:\d\d:\d\d\.\d{3}", cell(model, call, TIME))
        assert cell(model, call, CONNECTION) == "Demo server"
        assert cell(model, call, DIRECTION) == "→"
        assert cell(model, call, KIND) == "jsonrpc"
        assert cell(model, call, METHOD) == "tools/call"
        rid = cell(model, call, ID)
        assert rid
        assert cell(model, call, LATENCY) == ""
        assert re.fullmatch(r"\d+ B", cell(model, call, SIZE))
        assert "add" in cell(model, call, SUMMARY)
        answer = find_row(model, lambda r: r.kind is WireKind.JSONRPC and r.rpc_id == rid and r.direction is IN)
        assert answer > call
        assert cell(model, answer, DIRECTION) == "←"
        latency = model.record(answer).latency_ms
        assert cell(model, answer, LATENCY) == duration_text(latency / 1000)
        assert cell(model, answer, LATENCY, SORT_ROLE) == latency  # sorts by number, reads as text
        assert model.data(model.index(answer, SUMMARY), Qt.ItemDataRole.ToolTipRole)
        assert cell(model, call, SIZE, Qt.ItemDataRole.ForegroundRole) is None  # not an error row
        assert model.headerData(ID, Qt.Orientation.Horizontal) == "ID"
        widget.vm.close()


@pytest.mark.asyncio
async def test_request_and_response_rows_jump_to_each_other_and_the_view_selects_them(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with live_demo(ctx) as live:
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        vm, model, table = widget.vm, widget.vm.model, widget.table
        await call_add(live)
        await settled(model)
        call = find_row(model, is_call)
        table.selectRow(call)
        assert vm.current is model.record(call)
        assert widget.detail.jump_button.text() == "Jump to response" and widget.detail.jump_button.isEnabled()
        widget.detail.jump_button.click()
        response = model.record(table.currentIndex().row())
        assert response is not None and response is vm.current
        assert (response.rpc_id, response.direction) == (model.record(call).rpc_id, IN)  # type: ignore[union-attr]
        assert widget.detail.jump_button.text() == "Jump to request"
        assert "Paired request" in widget.detail.info_view.toPlainText()
        assert vm.jump_to_partner()
        assert table.currentIndex().row() == call
        # HTTP pairing too: an http-request row jumps to its http-response.
        post = find_row(model, lambda r: r is not None and r.kind is WireKind.HTTP_REQUEST)
        table.selectRow(post)
        assert vm.jump_to_partner()
        assert vm.current is not None and vm.current.kind is WireKind.HTTP_RESPONSE
        # A partner that is filtered out is not selected; the user gets a note instead.
        table.selectRow(find_row(model, is_call))
        vm.set_directions([OUT])
        notes: list[str] = []
        vm.status.connect(notes.append)
        assert not vm.jump_to_partner()
        assert notes
        vm.close()


@pytest.mark.asyncio
async def test_a_method_filter_keeps_the_progress_notifications_and_response_of_a_real_call(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with live_demo(ctx) as live:
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        vm, model = widget.vm, widget.vm.model
        await settled(model)
        vm.set_text_filter("slow_count")  # set before the call: the rows arrive live
        agent: Any = live.agent
        await asyncio.wait_for(agent.call_tool("slow_count", {"n": 3, "delay": 0}), BOUND)
        await asyncio.wait_for(agent.call_tool("slow_count", {"n": 2, "delay": 0}), BOUND)
        await settled(model)

        def shown() -> list[tuple[str, str]]:
            rows = [r for r in model.rows() if r.kind is WireKind.JSONRPC]
            return [(r.method or "response", r.direction.value) for r in rows]

        calls = [r for r in model.rows() if is_call(r)]
        progress = [r for r in model.rows() if r.method == "notifications/progress"]
        ids = {r.rpc_id for r in calls}
        responses = [r for r in model.rows() if not r.method and r.direction is IN and r.rpc_id in ids]
        assert len(calls) == 2 and len(progress) == 5 and len(responses) == 2
        assert all('"slow_count"' not in r.payload for r in progress + responses)  # kept for their request
        live_rows = shown()
        vm.set_text_filter("")
        vm.set_text_filter("slow_count")  # the same rows when the filter is applied to what is recorded
        assert shown() == live_rows
        widget.table.selectRow(model.row_of(calls[0]))  # type: ignore[arg-type]
        widget.detail.jump_button.click()
        assert vm.current is not None and vm.current.rpc_id == calls[0].rpc_id and vm.current.direction is IN
        vm.close()


@pytest.mark.asyncio
async def test_text_connection_direction_and_kind_filters_narrow_the_live_rows(ctx: PanelContext, qtbot: Any) -> None:
    async with live_demo(ctx) as live:
        vm = WireLogViewModel(ctx)
        model = vm.model
        wire = ctx.services.wire
        await call_add(live)
        wire.stderr_line("other", "Tools/Call mentioned on stderr")
        await settled(model)
        everything = model.rowCount()
        assert {"demo", "other"} <= {cid for cid, _ in vm.connection_choices()}
        assert ("demo", "Demo server") in vm.connection_choices()

        vm.set_text_filter("TOOLS/CALL")  # case-insensitive, payload and (for stderr) summary
        shown = model.rows()

        def matches(r: WireRecord) -> bool:
            return "tools/call" in (r.payload + r.summary).lower()

        answers = [r for r in shown if not matches(r)]  # a request's response comes along with it
        assert shown and answers and all(matches(wire.find_response(r)) for r in answers)  # type: ignore[arg-type]
        assert any(r.kind is WireKind.STDERR for r in shown)
        assert any(r.kind is WireKind.HTTP_REQUEST for r in shown)  # its body carries the call
        vm.set_text_filter('tools/call"')  # narrower: refined from the rows shown
        assert all('tools/call"' in (r.payload + (wire.find_response(r) or r).payload).lower() for r in model.rows())
        vm.set_text_filter("")
        assert model.rowCount() == everything

        vm.set_connection_filter("other")
        assert [r.connection_id for r in model.rows()] == ["other"]
        vm.set_connection_filter(None)
        vm.set_directions([IN])
        assert model.rows() and all(r.direction is IN for r in model.rows())
        vm.set_directions(Direction)
        vm.set_kinds([WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE])
        kinds = {r.kind for r in model.rows()}
        assert kinds == {WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE}
        # Live appends respect the filter in force.
        await call_add(live)
        await settled(model)
        assert {r.kind for r in model.rows()} == kinds
        vm.set_kinds(WireKind)
        assert model.rowCount() == len(wire.records())
        vm.close()


@pytest.mark.asyncio
async def test_only_the_selected_connection_follows_the_window_selection(ctx: PanelContext, qtbot: Any) -> None:
    async with live_demo(ctx):
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        vm, model = widget.vm, widget.vm.model
        ctx.services.wire.stderr_line("other", "hello")
        await settled(model)
        widget.filters.only_selected.setChecked(True)
        assert not widget.filters.connection_combo.isEnabled()
        assert model.rowCount() == len(ctx.services.wire.records())  # nothing selected yet: everything
        ctx.selection.select("other")
        assert {r.connection_id for r in model.rows()} == {"other"}
        ctx.selection.select("demo")
        assert {r.connection_id for r in model.rows()} == {"demo"}
        widget.filters.only_selected.setChecked(False)
        assert widget.filters.connection_combo.isEnabled()
        combo = widget.filters.connection_combo
        assert combo.itemText(0) == "All connections"
        combo.setCurrentIndex(combo.findData("other"))
        assert {r.connection_id for r in model.rows()} == {"other"}
        vm.close()


@pytest.mark.asyncio
async def test_pause_keeps_recording_counts_new_records_and_resume_shows_them(ctx: PanelContext, qtbot: Any) -> None:
    async with live_demo(ctx) as live:
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        vm, model, wire = widget.vm, widget.vm.model, ctx.services.wire
        await settled(model)
        widget.pause_action.trigger()
        assert vm.paused
        shown = model.rowCount()
        recorded = len(wire.records())
        await call_add(live)
        await settled(model)
        assert model.rowCount() == shown  # nothing appended to the view
        assert len(wire.records()) > recorded  # but recorded
        assert model.new_count == len(wire.records()) - recorded
        assert widget.new_label.text() == f"{model.new_count:,} new"
        widget.pause_action.trigger()
        assert not vm.paused
        assert model.rowCount() == len(wire.records())
        assert [r.seq for r in model.rows()] == [r.seq for r in wire.records()]
        assert widget.new_label.text() == ""
        vm.close()


# ---- redaction, exports, curl --------------------------------------------------------------------


def record_authorized_exchange(wire: WireRecorder) -> tuple[WireRecord, WireRecord]:
    body = json.dumps(rpc(1, name="add", arguments={"a": 2, "b": 3}))
    req = wire.http_request(
        "api",
        "POST",
        "http://127.0.0.1:9/mcp",
        {"Authorization": f"Bearer {SECRET}", "Content-Type": "application/json"},
        body,
        protocol="mcp",
    )
    resp = wire.http_response("api", req, 200, {"Content-Type": "application/json"}, json.dumps(result(1)))
    return req, resp


@pytest.mark.asyncio
async def test_redacted_header_stays_masked_in_detail_curl_jsonl_and_har(
    ctx: PanelContext, qtbot: Any, tmp_path: Path
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    vm, model = widget.vm, widget.vm.model
    req, _resp = record_authorized_exchange(ctx.services.wire)
    await settled(model)
    widget.table.selectRow(model.row_of(req))  # type: ignore[arg-type]
    info = widget.detail.info_view.toPlainText()
    assert "Authorization: Bearer ***" in info
    assert "POST http://127.0.0.1:9/mcp" in info
    assert '"name": "add"' in widget.detail.pretty_view.text()  # pretty-printed JSON
    assert widget.detail.raw_view.text() == ""  # filled when its tab is shown
    widget.detail.tabs.setCurrentWidget(widget.detail.raw_view)
    assert widget.detail.raw_view.text() == req.payload
    assert widget.curl_action.isEnabled()
    widget.curl_action.trigger()
    curl = QGuiApplication.clipboard().text()
    assert curl == vm.curl_text()
    assert curl.splitlines()[0] == REDACTED_NOTE
    assert shlex.quote("Authorization: Bearer ***") in curl
    assert shlex.quote(req.payload) in curl

    jsonl, har = tmp_path / "wire.jsonl", tmp_path / "wire.har"
    assert await vm.export_jsonl(jsonl) == 2
    assert await vm.export_har(har) == 1
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["http-request", "http-response"]
    entry = json.loads(har.read_text())["log"]["entries"][0]
    assert {"name": "Authorization", "value": "Bearer ***"} in entry["request"]["headers"]
    assert entry["response"]["status"] == 200
    for path in (jsonl, har):
        assert SECRET not in path.read_text()
    # A non-HTTP row cannot be copied as curl.
    ctx.services.wire.stderr_line("api", "x")
    await settled(model)
    widget.table.selectRow(model.rowCount() - 1)
    assert not widget.curl_action.isEnabled()
    assert vm.copy_curl() is None
    vm.close()


@pytest.mark.asyncio
async def test_exports_of_the_filtered_rows_or_of_everything(ctx: PanelContext, qtbot: Any, tmp_path: Path) -> None:
    vm = WireLogViewModel(ctx)
    wire = ctx.services.wire
    record_authorized_exchange(wire)
    for i in range(5):
        wire.jsonrpc("c1", OUT, rpc(i))
    await settled(vm.model)
    vm.set_kinds([WireKind.JSONRPC])
    out = tmp_path / "filtered.jsonl"
    task = vm.start_export("jsonl", str(out), filtered=True)
    assert await asyncio.wait_for(task, BOUND) == 5
    assert {json.loads(line)["kind"] for line in out.read_text().splitlines()} == {"jsonrpc"}
    assert await vm.export_jsonl(tmp_path / "all.jsonl", filtered=False) == 7
    assert await vm.export_har(tmp_path / "filtered.har") == 0  # no HTTP among the shown rows
    assert await vm.export_har(tmp_path / "all.har", filtered=False) == 1
    # A failing export is reported (ErrorPresenter), not raised into the void.
    reported: list[Any] = []
    ctx.errors.error_reported.connect(reported.append)
    task = vm.start_export("har", str(tmp_path / "missing-dir" / "x.har"), filtered=False)
    assert await asyncio.wait_for(task, BOUND) is None
    assert reported and reported[0].code == "error"
    vm.close()


@pytest.mark.asyncio
async def test_remote_html_is_shown_literally_in_cells_and_detail(ctx: PanelContext, qtbot: Any) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    probe = "<b style=color:red>URGENT</b><img src=file:///etc/passwd>"
    ctx.services.wire.jsonrpc("c1", IN, {"jsonrpc": "2.0", "method": probe, "params": {"x": probe}})
    await settled(widget.vm.model)
    widget.detail.tabs.setCurrentWidget(widget.detail.raw_view)
    widget.detail.tabs.setCurrentWidget(widget.detail.raw_view)
    widget.table.selectRow(0)
    assert cell(widget.vm.model, 0, METHOD) == probe
    assert probe in widget.detail.raw_view.text()
    assert widget.detail.title.textFormat() == Qt.TextFormat.PlainText
    tip = widget.vm.model.data(widget.vm.model.index(0, SUMMARY), Qt.ItemDataRole.ToolTipRole)
    assert "<img" not in tip
    widget.vm.close()


@pytest.mark.asyncio
async def test_error_answers_are_coloured_and_ordinary_rows_are_not(ctx: PanelContext, qtbot: Any) -> None:
    model = WireLogModel(ctx.services.wire)
    wire = ctx.services.wire
    wire.jsonrpc("c1", OUT, rpc(1))
    wire.jsonrpc("c1", IN, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}})
    req = wire.http_request("c1", "POST", "http://127.0.0.1/mcp", {}, "{}")
    wire.http_response("c1", req, 500, {}, "oops")
    await settled(model)
    colours = [cell(model, row, SUMMARY, Qt.ItemDataRole.ForegroundRole) for row in range(4)]
    assert [c is not None for c in colours] == [False, True, False, True]
    model.close()


@pytest.mark.asyncio
async def test_a_payload_over_a_megabyte_is_cut_in_the_detail_and_not_reindented(ctx: PanelContext, qtbot: Any) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    big = {"jsonrpc": "2.0", "id": 9, "result": {"text": "x" * 1_500_000}}
    rec = ctx.services.wire.jsonrpc("c1", IN, big)
    await settled(widget.vm.model)
    widget.table.selectRow(widget.vm.model.row_of(rec))  # type: ignore[arg-type]
    assert widget.detail.pretty_view.text() == rec.payload  # as sent: too big to re-indent
    assert widget.detail.pretty_view.truncated
    assert len(widget.detail.pretty_view.editor.toPlainText()) < len(rec.payload)
    assert widget.detail.pretty_view.show_all_button.isVisibleTo(widget)
    widget.vm.close()


# ---- ring buffer, follow, clear ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_ring_buffer_drops_remove_rows_from_the_top_and_the_model_stays_consistent(
    ctx: PanelContext, qtbot: Any, qtmodeltester: Any
) -> None:
    wire = WireRecorder(capacity=100)
    model = WireLogModel(wire)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    qtmodeltester.check(model)  # Qt's QAbstractItemModelTester now watches every change
    removed: list[tuple[int, int]] = []
    model.rowsRemoved.connect(lambda _p, first, last: removed.append((first, last)))
    pushed = 0
    for burst in (60, 70, 120):  # the last burst alone overflows the buffer before any flush
        for _ in range(burst):
            pushed += 1
            wire.jsonrpc("c1", OUT if pushed % 2 else IN, rpc(pushed))
        await wait_signal(model.flushed, 5)
        assert [r.seq for r in model.rows()] == [r.seq for r in wire.records()]
        assert all(wire.get(r.seq) is r for r in model.rows())
    assert pushed == 250 and wire.dropped == 150
    assert model.rowCount() == 100
    assert removed and all(first == 0 for first, _ in removed)
    # With a filter active and while paused the rows still only refer to held records.
    model.set_filter(WireFilter(directions=frozenset({OUT})))
    model.set_paused(True)
    for _ in range(80):
        pushed += 1
        wire.jsonrpc("c1", OUT if pushed % 2 else IN, rpc(pushed))
    await wait_signal(model.flushed, 5)
    assert all(wire.get(r.seq) is r for r in model.rows())
    assert model.new_count == 80
    model.set_paused(False)
    assert [r.seq for r in model.rows()] == [r.seq for r in wire.records() if r.direction is OUT]
    model.close()


def _push(wire: WireRecorder, first: int, count: int) -> None:
    for i in range(first, first + count):
        wire.jsonrpc("c1", OUT, rpc(i))


def at_bottom(widget: WireLogWidget) -> bool:
    bar = widget.table.verticalScrollBar()
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def test_follow_keeps_the_newest_row_in_view_until_the_user_scrolls_up_and_resumes_at_the_bottom(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    model, bar = widget.vm.model, widget.table.verticalScrollBar()
    wire = ctx.services.wire
    for first in range(0, 600, 100):  # a long run: many flushes, each followed
        with qtbot.waitSignal(model.flushed, timeout=5000):
            _push(wire, first, 100)
        assert at_bottom(widget)
    widget.resize(900, 300)  # a smaller dock keeps the tail in view too
    qtbot.waitUntil(lambda: at_bottom(widget), timeout=5000)
    bar.triggerAction(bar.SliderAction.SliderToMinimum)  # the user scrolls up to read
    assert not widget.follow_action.isChecked() and not widget.vm.follow
    with qtbot.waitSignal(model.flushed, timeout=5000):
        _push(wire, 600, 100)
    top = bar.maximum()
    qtbot.waitUntil(lambda: bar.maximum() >= top, timeout=5000)
    assert bar.value() == 0  # not yanked down
    bar.triggerAction(bar.SliderAction.SliderToMaximum)  # back at the bottom: following again
    assert widget.follow_action.isChecked()
    with qtbot.waitSignal(model.flushed, timeout=5000):
        _push(wire, 700, 100)
    assert at_bottom(widget)
    widget.follow_action.setChecked(False)
    end = bar.value()
    with qtbot.waitSignal(model.flushed, timeout=5000):
        _push(wire, 800, 100)
    qtbot.waitUntil(lambda: bar.maximum() > end, timeout=5000)
    assert bar.value() == end  # follow off: stays where it was
    widget.follow_action.setChecked(True)
    assert at_bottom(widget)
    assert model.rowCount() == 900
    widget.vm.close()


def test_a_wire_log_opened_or_shown_late_starts_on_the_newest_rows(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    wire = ctx.services.wire
    _push(wire, 0, 300)  # recorded before the pane exists (a connection made at start-up)
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    qtbot.waitUntil(lambda: at_bottom(widget), timeout=5000)
    widget.hide()  # a collapsed dock: rows keep coming while it is hidden
    with qtbot.waitSignal(widget.vm.model.flushed, timeout=5000):
        _push(wire, 300, 300)
    widget.show()
    qtbot.waitUntil(lambda: at_bottom(widget), timeout=5000)
    assert widget.follow_action.isChecked()
    widget.vm.close()


def test_clearing_a_filter_while_following_shows_the_newest_rows_not_the_top(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    model, wire = widget.vm.model, ctx.services.wire
    for i in range(300):
        wire.jsonrpc("c1", OUT, rpc(i, "ping" if i % 3 else "tools/call"))
    with qtbot.waitSignal(model.flushed, timeout=5000):
        pass
    assert at_bottom(widget)
    widget.table.selectRow(model.rowCount() - 1)
    for text in ("ping", ""):
        with qtbot.waitSignal(model.filter_applied, timeout=5000):
            widget.filters.text_filter.setText(text)
        qtbot.waitUntil(lambda: at_bottom(widget), timeout=5000)
    assert model.rowCount() == 300
    widget.vm.close()


def test_a_method_filter_keeps_the_responses_of_the_requests_it_shows(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    vm, model, wire = widget.vm, widget.vm.model, ctx.services.wire
    for i in range(1, 7):
        wire.jsonrpc("c1", OUT, rpc(i, "tools/call" if i % 2 else "ping"))
        wire.jsonrpc("c1", IN, result(i))
    with qtbot.waitSignal(model.flushed, timeout=5000):
        wire.jsonrpc("c1", IN, result(99))  # an answer to nothing recorded
    vm.set_text_filter("tools/call")
    assert [(r.rpc_id, r.direction) for r in model.rows()] == [(str(i), d) for i in (1, 3, 5) for d in (OUT, IN)]
    with qtbot.waitSignal(model.flushed, timeout=5000):  # live appends keep the pairs too
        wire.jsonrpc("c1", OUT, rpc(7))
        wire.jsonrpc("c1", IN, result(7))
    assert [r.rpc_id for r in model.rows()][-2:] == ["7", "7"]
    vm.set_text_filter('tools/call"')  # a narrower text refines the shown rows and keeps the pairs
    assert len(model.rows()) == 8
    widget.table.selectRow(0)
    widget.detail.jump_button.click()
    assert vm.current is model.record(1)


def test_a_failed_jump_says_so_for_a_while_and_not_for_the_rest_of_the_session(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    vm, model, wire = widget.vm, widget.vm.model, ctx.services.wire
    for i in range(1, 4):
        wire.jsonrpc("c1", OUT, rpc(i))
        wire.jsonrpc("c1", IN, result(i))
    with qtbot.waitSignal(model.flushed, timeout=5000):
        pass
    vm.set_directions([OUT])  # the responses are filtered out
    widget.table.selectRow(0)
    widget.detail.jump_button.click()
    assert widget.status_label.text()  # says why
    widget.table.selectRow(1)  # choosing another row: the note about the last one goes
    assert widget.status_label.text() == ""
    widget._status_timer.setInterval(50)
    widget.detail.jump_button.click()
    assert widget.status_label.text()
    qtbot.waitUntil(lambda: widget.status_label.text() == "", timeout=2000)  # and by itself after a while
    assert widget.status_label.text() == ""
    assert STATUS_MS <= 10_000
    vm.close()


def test_sse_keepalives_are_folded_into_a_count_without_latency_and_shown_on_request(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    vm, model, wire = widget.vm, widget.vm.model, ctx.services.wire
    stream = wire.http_request("c1", "GET", "http://127.0.0.1:1/mcp", {"accept": "text/event-stream"})
    with qtbot.waitSignal(model.flushed, timeout=5000):
        for _ in range(3):
            wire.sse_event("c1", "ping", comment=True, request=stream)
        wire.sse_event("c1", json.dumps(result(1)), event="message", request=stream)
    assert [r.kind for r in model.rows()] == [WireKind.HTTP_REQUEST, WireKind.SSE_EVENT]
    assert widget.keepalive_label.text() == "3 keep-alives hidden"
    comments = [r for r in wire.records() if (r.http or {}).get("comment")]
    assert len(comments) == 3 and all(r.latency_ms is None for r in comments)  # no ever-growing "latency"
    widget.filters.keepalive_action.setChecked(True)
    assert model.rowCount() == 5 and widget.keepalive_label.text() == ""
    widget.table.selectRow(1)
    assert "keep-alive on the stream of request #" in widget.detail.info_view.toPlainText()
    widget.filters.keepalive_action.setChecked(False)
    widget.clear_action.trigger()
    assert widget.keepalive_label.text() == ""
    vm.close()


def test_the_text_field_filters_after_a_debounce_and_clear_empties_only_the_view(
    ctx: PanelContext, qtbot: Any, qloop: asyncio.AbstractEventLoop
) -> None:
    widget = WireLogWidget(ctx)
    qtbot.addWidget(widget)
    model, wire = widget.vm.model, ctx.services.wire
    for i in range(10):
        wire.jsonrpc("c1", OUT, rpc(i, "tools/call" if i % 2 else "ping"))
    with qtbot.waitSignal(model.flushed, timeout=5000):
        pass
    with qtbot.waitSignal(model.filter_applied, timeout=5000) as blocker:
        qtbot.keyClicks(widget.filters.text_filter, "PING")
    assert blocker.args == [5]  # one refilter after typing stopped, not one per key
    assert all(r.method == "ping" for r in model.rows())
    widget.filters.text_filter.clear()
    with qtbot.waitSignal(model.filter_applied, timeout=5000):
        pass
    assert model.rowCount() == 10
    widget.clear_action.trigger()
    assert model.rowCount() == 0
    assert len(wire.records()) == 10
    with qtbot.waitSignal(model.flushed, timeout=5000):
        wire.jsonrpc("c1", IN, result(1))
    assert model.rowCount() == 1
    assert widget.vm.current is None
    widget.vm.close()


def test_a_deleted_model_is_no_longer_called_by_the_recorder(qapp: QApplication, qloop: Any) -> None:
    wire = WireRecorder()
    model = WireLogModel(wire)
    model.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    wire.jsonrpc("c1", OUT, rpc(1))  # must not raise into the recorder's log (errors fail the test)
    assert len(wire) == 1


def test_a_response_row_shows_its_requests_method(qtbot: Any) -> None:
    wire = WireRecorder()
    wire.jsonrpc("c", Direction.OUT, {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {}})
    wire.jsonrpc("c", Direction.IN, {"jsonrpc": "2.0", "id": 7, "result": {}})
    wire.jsonrpc("c", Direction.IN, {"jsonrpc": "2.0", "id": 99, "result": {}})  # no request recorded
    model = WireLogModel(wire)
    method_column = 4
    assert [model.data(model.index(row, method_column)) for row in range(3)] == ["tools/call", "tools/call", ""]


@pytest.mark.asyncio
async def test_a_round_trip_reads_the_same_in_the_latency_column_the_summary_and_the_status_bar(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with live_demo(ctx) as live:
        widget = WireLogWidget(ctx)
        qtbot.addWidget(widget)
        bar = QStatusBar()
        qtbot.addWidget(bar)
        status = StatusBarController(ctx, bar)
        await settled(widget.vm.model)
        await call_add(live)
        await wait_signal(widget.vm.model.flushed, 5)  # the call's records arrive in a coalesced flush
        await settled(widget.vm.model)
        ctx.selection.select(live.id)  # the status bar reads the connection's latest round trip now
        table = widget.table
        rows = [r for r in range(table.model().rowCount()) if widget.vm.model.record(r).latency_ms is not None]
        jsonrpc = [r for r in rows if widget.vm.model.record(r).kind is WireKind.JSONRPC]
        last = jsonrpc[-1]
        shown_latency = table.model().index(last, LATENCY).data()
        assert status.latency_label.text() == f"last round trip {shown_latency}"
        table.selectRow(last)
        assert f"({shown_latency} earlier)" in widget.detail.info_view.toPlainText()  # "Paired request: #n (…)"
        assert f"Latency: {shown_latency}" in widget.detail.info_view.toPlainText()
        answers = [r for r in rows if widget.vm.model.record(r).kind in (WireKind.JSONRPC, WireKind.HTTP_RESPONSE)]
        assert len(answers) >= 2
        for row in answers:  # an answer's summary writes its time as the Latency column does
            latency = table.model().index(row, LATENCY).data()
            assert re.fullmatch(r"\d+(\.\d)? (ms|s)", latency)
            assert table.model().index(row, SUMMARY).data().endswith(f"({latency})")
        assert table.model().headerData(LATENCY, Qt.Orientation.Horizontal) == "Latency"
        widget.vm.close()
