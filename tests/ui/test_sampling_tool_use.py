"""Sampling dialog: a person answers a request that offers tools with a tool call (SEP-1577)."""

from __future__ import annotations

import asyncio

import pytest

from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest, SamplingResponse
from workbench.core.protocols.catalog import ToolSpec
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.sampling import SamplingDialog
from workbench.ui.dialogs.sampling_tool_use import input_skeleton

WEATHER = ToolSpec(
    name="get_weather",
    description="Weather for a city",
    input_schema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
CLOCK = ToolSpec(name="get_time", input_schema={"type": "object"})


def _request(tools: list[ToolSpec] | None) -> SamplingRequest:
    message = SamplingMessage("user", [ContentPart("text", text="weather in Oslo?")])
    return SamplingRequest(messages=[message], max_tokens=50, tools=tools, agent="Demo")


def _dialog(qtbot, request: SamplingRequest, **kw) -> SamplingDialog:
    dialog = SamplingDialog(request, **kw)
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


def test_without_tools_there_is_no_tool_call_reply(qtbot):
    assert _dialog(qtbot, _request(None)).tool_use is None


def test_a_tool_call_reply_names_an_offered_tool_with_a_json_object_input(qtbot):
    dialog = _dialog(qtbot, _request([WEATHER, CLOCK]))
    editor = dialog.tool_use
    assert editor is not None
    assert [editor.tool_combo.itemData(i) for i in range(editor.tool_combo.count())] == ["get_weather", "get_time"]
    assert editor.input_edit.toPlainText() == '{"city": ""}'
    assert not dialog.approve_button.isEnabled()
    editor.enable_check.setChecked(True)
    editor.input_edit.setPlainText("[1, 2]")
    assert not dialog.approve_button.isEnabled() and editor.problem_label.isVisibleTo(dialog)
    editor.input_edit.setPlainText('{"city": "Oslo"}')
    assert dialog.approve_button.isEnabled()
    dialog.approve_button.click()
    response = dialog.response()
    assert response is not None and response.stop_reason == "toolUse"
    assert [p.data for p in response.tool_uses] == [
        {"id": "person_call_1", "name": "get_weather", "input": {"city": "Oslo"}}
    ]


def test_text_written_before_a_tool_call_goes_with_it(qtbot):
    dialog = _dialog(qtbot, _request([WEATHER]))
    assert dialog.tool_use is not None
    dialog.reply_edit.setPlainText("Let me look.")
    dialog.tool_use.enable_check.setChecked(True)
    dialog.approve_button.click()
    response = dialog.response()
    assert response is not None
    assert [p.type for p in response.content] == ["text", "tool_use"]


@pytest.mark.asyncio
async def test_a_drafted_tool_call_is_filled_in_for_review(qtbot):
    async def model(request: SamplingRequest) -> SamplingResponse:
        await asyncio.sleep(0)
        call = ContentPart("tool_use", data={"id": "c1", "name": "get_time", "input": {"zone": "CET"}})
        return SamplingResponse(text="", model="m", stop_reason="toolUse", content=(call,))

    dialog = _dialog(qtbot, _request([WEATHER, CLOCK]), router=model)
    dialog.route_button.click()
    await wait_signal(dialog.routed, timeout=5)
    editor = dialog.tool_use
    assert editor is not None and editor.active
    assert editor.tool_combo.currentData() == "get_time"
    assert editor.input_edit.toPlainText() == '{"zone": "CET"}'
    assert dialog.approve_button.isEnabled()


def test_the_input_skeleton_lists_required_properties_empty():
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "tags": {"type": "array"}},
        "required": ["n", "x"],
    }
    assert input_skeleton(schema) == '{"n": 0, "x": null}'
