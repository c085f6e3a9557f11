"""The whole window on the bundled demo agents: connect, call a tool through its form, answer an
elicitation and an A2A input-required form, see the streamed reply and the matching wire records."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.chat_drawing import drawn_text
from tests.support.signals import SignalLog
from tests.support.windows import WAIT, demo_window
from workbench.app import Workbench
from workbench.core.events import ConnectionState
from workbench.core.wire.records import Direction, WireKind
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.elicitation_form import ElicitationFormDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog

DEMO_IDS = ("demo-mcp", "demo-mcp-sse", "demo-mcp-stdio", "demo-travel", "demo-mcp-proxy")


def _connected(bench: Workbench) -> dict[str, ConnectionState]:
    return {c.id: c.state for c in bench.ctx.services.connections.connections()}


async def _call_tool(bench: Workbench, tool: str, arguments: dict[str, Any] | None = None) -> Any:
    inspector = bench.window.inspector.inspector("mcp")
    assert inspector is not None
    assert inspector.tools.select_tool(tool)
    call = inspector.tools.detail.call
    if arguments is not None:
        call.form.set_value(arguments)
    finished = SignalLog(inspector.vm.calls.finished)
    call.call_button.click()
    return call, finished


@pytest.mark.asyncio
async def test_demo_window_connects_every_agent_and_calls_a_tool_through_its_form(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot, child_process=True) as bench:  # a real stdio child, as users get it
        assert _connected(bench) == dict.fromkeys(DEMO_IDS, ConnectionState.CONNECTED)
        for cid in ("demo-mcp-stdio", "demo-mcp"):  # stdio and Streamable HTTP
            bench.ctx.selection.select(cid)
            call, finished = await _call_tool(bench, "add", {"a": 2, "b": 3})
            (record,) = await finished.wait_for(timeout=WAIT)
            assert record.outcome == "ok"
            assert '"result": 5' in call.result_view.structured.text()
            wire = [r for r in bench.ctx.services.wire.records() if r.connection_id == cid]
            request = next(r for r in wire if r.method == "tools/call" and r.direction is Direction.OUT)
            response = bench.ctx.services.wire.find_response(request)
            assert response is not None and '"result"' in response.payload
            assert bench.window.status.connection_label.text().startswith(("Demo MCP (stdio)", "Demo MCP (HTTP)"))
        assert bench.window.banner.current is None  # nothing failed


@pytest.mark.asyncio
async def test_demo_window_answers_an_elicitation_with_its_form_dialog(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-mcp-stdio")
        shown = asyncio.ensure_future(wait_signal(bench.window.prompts.prompt_shown, WAIT))
        call, finished = await _call_tool(bench, "book_table", {})
        (dialog,) = await shown
        assert isinstance(dialog, ElicitationFormDialog)
        assert bench.window.status.prompts_label.text() == "1 waiting for you"
        dialog.form.set_value({"name": "Ada", "email": "ada@example.com", "party_size": 2})
        dialog.accept_button.click()
        (record,) = await finished.wait_for(timeout=WAIT)
        assert record.outcome == "ok"
        texts = [p.payload.text() for p in call.result_view.parts.part_views]
        assert any(t.startswith("Booked a table for 2") for t in texts)
        # 2026-07-28 era: the call answers "input_required" and is re-sent with the user's answer
        wire = [r for r in bench.ctx.services.wire.records() if r.connection_id == "demo-mcp-stdio"]
        calls = [r for r in wire if r.method == "tools/call" and r.direction is Direction.OUT]
        assert len(calls) == 2
        assert '"input_required"' in bench.ctx.services.wire.find_response(calls[0]).payload
        assert "ada@example.com" in calls[1].payload


@pytest.mark.asyncio
async def test_demo_window_streams_an_a2a_reply_and_answers_input_required_with_a_form(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-travel")
        chat = bench.window.chat
        shown = asyncio.ensure_future(wait_signal(bench.window.prompts.prompt_shown, WAIT))
        finished = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
        chat.input.setPlainText("Plan a trip to Lisbon")
        chat.send_button.click()
        (dialog,) = await shown
        assert isinstance(dialog, InputRequiredDialog)
        dialog.form.set_value(
            {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
        )
        dialog.send_button.click()
        _, state = await finished
        assert state == "completed"
        text = drawn_text(chat)
        assert "Lisbon" in text
        travel = [r for r in bench.ctx.services.wire.records() if r.connection_id == "demo-travel"]
        assert any(r.kind is WireKind.SSE_EVENT for r in travel)  # the reply was streamed
        assert any(r.kind is WireKind.JSONRPC and r.method == "SendStreamingMessage" for r in travel)


@pytest.mark.asyncio
@pytest.mark.expected_error_logs  # the demo A2A agent logs the task listing the window abandons when it closes
async def test_closing_the_window_closes_every_connection_and_remembers_the_selection(qtbot, tmp_path):
    async with demo_window(tmp_path, qtbot) as bench:
        bench.ctx.selection.select("demo-travel")
        manager = bench.ctx.services.connections
    assert all(c.state is ConnectionState.CLOSED for c in manager.connections())
    settings = (tmp_path / "config" / "window.ini").read_text()
    assert "selection=demo-travel" in settings
