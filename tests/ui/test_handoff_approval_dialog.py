"""The handoff approval dialog shows the arguments a person must judge readably."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from workbench.core.handoff.events import HopKind
from workbench.core.handoff.policy import ApprovalDecision, ApprovalRequest
from workbench.demo.scenarios.handoff import PROXY, build_router, run_scenario, serve_handoff_agents
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog, readable_arguments

HTML = '<b style="color:red">URGENT</b> <img src="file:///etc/passwd">'


@pytest.mark.asyncio
async def test_the_proxy_handoffs_json_message_is_shown_decoded_and_indented_not_as_escaped_text(qtbot: Any) -> None:
    asked: list[ApprovalRequest] = []

    async def approve(request: ApprovalRequest) -> ApprovalDecision:
        asked.append(request)
        return ApprovalDecision(True)

    async with serve_handoff_agents() as scenario:  # the real chain: the orchestrator asks the MCP proxy
        router = build_router(scenario, approval=approve)
        try:
            await run_scenario(router)
        finally:
            await router.aclose()
    [proxy_request] = [r for r in asked if r.target == PROXY]
    assert isinstance(proxy_request.arguments["message"], str)  # what the agent sent: JSON inside a string
    dialog = HandoffApprovalDialog(proxy_request)
    qtbot.addWidget(dialog)
    shown = dialog.detail_view.toPlainText()
    assert '\\"' not in shown  # no escaped quotes left for a person to read through
    assert json.loads(shown)["message"]["target_mcp_server_id"] == "demo"
    assert '    "tool_name": "plan_trip",' in shown.splitlines()  # one key per line, indented under message
    assert not dialog.decoded_note.isHidden()
    assert dialog.message_label.text() == "A JSON request: see the arguments below."  # not the JSON cut to a line
    for request in asked:  # the others carried no JSON text: shown as they came, no note
        if request is proxy_request:
            continue
        other = HandoffApprovalDialog(request)
        qtbot.addWidget(other)
        assert json.loads(other.detail_view.toPlainText()) == request.arguments
        assert other.decoded_note.isHidden()


def test_decoding_leaves_plain_text_broken_json_and_peer_markup_as_they_are(qtbot: Any) -> None:
    arguments = {
        "note": "{not json}",
        "html": HTML,
        "nested": '{"inner": "[1, 2]", "markup": "' + HTML.replace('"', '\\"') + '"}',
        "number": 3,
    }
    text, decoded = readable_arguments(arguments)
    value = json.loads(text)
    assert decoded and value["nested"] == {"inner": [1, 2], "markup": HTML}
    assert value["note"] == "{not json}" and value["html"] == HTML and value["number"] == 3
    request = ApprovalRequest("c", "h", None, HTML, "booker", HopKind.AGENT_TOOL, "a2a", HTML, arguments)
    dialog = HandoffApprovalDialog(request)
    qtbot.addWidget(dialog)
    assert dialog.detail_view.toPlainText() == text  # a plain-text editor: markup stays characters
    labels = [label for label in dialog.findChildren(QLabel) if label.text()]
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
