"""Tool calls that ask first in the window (the tool form's Call, a model chatting through an MCP server's tools):
the approval dialog names the tool, its hints and arguments; a refusal is an error of its own; a model picked
in the chat of a server without an entry point calls its tools, each shown with its result, its HTTP in the
wire log (redacted)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from tests.servers.model_api import serve_model_api
from tests.support.chat_drawing import draw_all
from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.mcp_inspector import inspector
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog
from workbench.core.conversation import ToolCall
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.protocols.base import SamplingRequest, SamplingResponse
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
from workbench.core.sampling.service import SamplingService
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.tool_approval import ToolApprovalDialog
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.prompts import UserPrompts

KEY = "sk-window-chat-0123456789-SECRET"


def answer_with(prompts: UserPrompts, seen: list[dict[str, Any]], act: Callable[[ToolApprovalDialog], None]) -> None:
    """Answer each approval dialog with ``act``, keeping what it showed (it is deleted once answered)."""

    def on_shown(dialog: Any) -> None:
        assert isinstance(dialog, ToolApprovalDialog)
        seen.append(
            {
                "request": dialog.request,
                "hints": {label: w.text() for label, w in dialog.hint_labels.items()},  # type: ignore[attr-defined]
                "arguments": dialog.arguments_view.toPlainText(),
                "title": dialog.tool_label.text(),
            }
        )
        act(dialog)

    prompts.prompt_shown.connect(on_shown)


@pytest.mark.asyncio
async def test_the_tool_forms_call_of_a_destructive_tool_asks_first_and_a_refusal_sends_nothing(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        prompts = UserPrompts(it.ctx, lambda: None)
        it.ctx.services.tool_calls.approver = prompts.approve_tool_call
        seen: list[dict[str, Any]] = []
        answers = iter([ToolApprovalDialog.refuse, ToolApprovalDialog.call])
        answer_with(prompts, seen, lambda d: next(answers)(d))
        calls = SignalLog(it.widget.vm.calls.finished)
        before = len(it.ctx.services.wire.records())
        assert it.widget.vm.calls.call("reset_counter", {})
        (refused,) = await calls.wait_for()
        assert refused.error is not None and refused.error.code == "tool-call-denied" and refused.result is None
        assert not any(r.method == "tools/call" for r in it.ctx.services.wire.records()[before:])
        shown = seen[0]
        assert shown["request"].tool.name == "reset_counter" and shown["request"].caller == "you"
        assert "reset_counter" in shown["title"] and shown["arguments"] == "{}"
        hints = {"Destructive": "yes", "Idempotent": "yes", "Open world": "no", "Read-only": "not said"}
        assert shown["hints"] == hints
        assert it.widget.vm.calls.call("reset_counter", {})
        (record,) = await calls.wait_for(lambda r: r is not refused)
        assert len(seen) == 2
        assert record.result is not None and record.result.text == "counter = 0"
        # a tool without the destructive hint goes out without asking under the default policy
        assert it.widget.vm.calls.call("bump_counter", {})
        await calls.wait_for(lambda r: r.tool == "bump_counter")
        assert len(seen) == 2


@pytest.mark.asyncio
async def test_a_model_picked_in_the_chat_calls_the_servers_tools_through_the_approval_path(qtbot, tmp_path: Path):
    config = tmp_path / "config"
    ctx = make_context(config, factory=InProcessDemoFactory())
    store = ModelEndpointStore(config, MemoryCredentialStore())

    async def person(request: SamplingRequest) -> SamplingResponse:
        raise AssertionError("not asked")

    ctx.services.sampling = SamplingService(person, store, config_dir=config)
    prompts = UserPrompts(ctx, lambda: None)
    ctx.services.tool_calls.approver = prompts.approve_tool_call
    seen: list[dict[str, Any]] = []
    answer_with(prompts, seen, ToolApprovalDialog.call)
    try:
        async with serve_model_api() as api:
            # the demo server with its entry point named away: a server a person cannot chat with
            conn = await ctx.services.connections.connect(demo_stdio_profile(agent_tool="no_such_entry"))
            widget = ChatWidget(ctx)
            qtbot.addWidget(widget)
            widget.resize(900, 700)
            widget.show()
            ctx.selection.select(conn.id)
            assert not widget.input.isEnabled() and not widget.model_row.isVisible()  # no model saved yet
            endpoint = ModelEndpoint(name="loop", api="anthropic", base_url=api.url, model="call:reset_counter")
            store.put(endpoint)
            await store.set_key("loop", SecretStr(KEY))
            widget.hide()
            widget.show()  # coming into view, the pane offers the model saved meanwhile
            assert not widget.input.isEnabled() and widget.model_row.isVisible()
            assert widget.choose_model("loop") and widget.input.isEnabled() and not widget.banner.isVisible()
            widget.input.setPlainText("please reset the counter")
            assert widget.send()
            _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=20)
            assert state == "completed"
            draw_all(widget)
            conversation = widget.viewmodel.conversation()
            assert conversation is not None
            (call,) = [item for item in conversation.items if isinstance(item, ToolCall)]
            assert (call.name, call.result, call.is_error) == ("reset_counter", "counter = 0", False)
            text = widget.transcript.toPlainText()
            assert "tool call  reset_counter({})" in text and "result  counter = 0" in text
            assert "Result: counter = 0" in text
            assert [d["request"].caller for d in seen] == ["model:loop"]
            records = ctx.services.wire.records()
            model_records = [r for r in records if r.protocol == "model"]
            assert model_records and all(r.connection_id == conn.id for r in model_records)
            assert any(r.method == "tools/call" and r.connection_id == conn.id for r in records)
            assert all(KEY not in r.payload and KEY not in str(r.http or {}) for r in records)
            assert api.seen[0].key == KEY  # the key went to the endpoint, and nowhere in the log
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()


def test_the_connection_dialog_edits_an_mcp_profiles_tool_call_policy(qtbot) -> None:
    from PySide6.QtWidgets import QDialog

    from workbench.core.profiles import MCPStdioProfile
    from workbench.ui.dialogs.connection import ConnectionDialog

    dialog = ConnectionDialog(MCPStdioProfile(name="s", command="python", tool_approval="always"))
    qtbot.addWidget(dialog)
    combo = dialog.tool_approval_combo
    assert combo.currentData() == "always" and combo.isVisibleTo(dialog)
    combo.setCurrentIndex(combo.findData("never"))
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    dialog.ok_button().click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.profile().tool_approval == "never"  # type: ignore[union-attr]
    fresh = ConnectionDialog()
    qtbot.addWidget(fresh)
    assert fresh.tool_approval_combo.currentData() == "destructive"
