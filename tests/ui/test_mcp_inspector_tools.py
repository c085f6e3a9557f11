"""The MCP inspector's Tools tab against the real demo server: list, form, call, progress, cancel, results."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from workbench.core.wire.records import Direction


def call_row_text(call) -> str:
    """The words on the Call button's row as a person reads them: its visible labels, left to right."""
    row = call.call_button.geometry().center().y()
    labels = [
        label
        for label in call.call_button.parentWidget().findChildren(QLabel)
        if label.isVisible() and label.text() and abs(label.geometry().center().y() - row) < label.height()
    ]
    return " ".join(label.text() for label in sorted(labels, key=lambda label: label.x()))


def _call(widget, tool: str, arguments: dict | None = None):
    tools = widget.tools
    assert tools.select_tool(tool)
    call = tools.detail.call
    assert call.form is not None
    if arguments is not None:
        call.form.set_value(arguments)
    finished = SignalLog(widget.vm.calls.finished)
    call.call_button.click()
    return call, finished


@pytest.mark.asyncio
async def test_tool_list_shows_every_demo_tool_and_the_filter_narrows_it(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        model = it.widget.tools.list.model
        assert {"add", "slow_count", "tiny_image", "broken_output", "html_description"} <= set(model.visible_keys())
        it.widget.tools.list.filter_edit.setText("AUDIO")
        assert model.visible_keys() == ["audio_clip"]
        it.widget.tools.list.filter_edit.setText("")
        assert it.widget.tools.select_tool("add")
        detail = it.widget.tools.detail
        assert detail.name_label.text() == "add"
        assert detail.description.text() == "Add two numbers."
        assert [b.text() for b in detail.badges] == ["read-only", "idempotent", "closed world"]
        assert '"a"' in detail.input_schema.toPlainText()
        assert '"result"' in detail.output_schema.toPlainText()


@pytest.mark.asyncio
async def test_calling_add_through_the_form_shows_the_structured_result_matching_its_schema(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        call, finished = _call(it.widget, "add", {"a": 2, "b": 3.5})
        (record,) = await finished.wait_for()
        assert record.outcome == "ok"
        assert record.arguments == {"a": 2, "b": 3.5}
        view = call.result_view
        assert '"result": 5.5' in view.structured.text()
        assert view.schema_label.text() == "✓ matches schema"
        assert not view.error_banner.isVisibleTo(view)
        assert view.parts.part_views[0].payload.text() == "5.5"
        assert call.history.count() == 1
        assert call.call_button.isEnabled()


@pytest.mark.asyncio
async def test_ctrl_enter_calls_and_invalid_arguments_are_refused_with_the_form_errors(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        call, finished = _call(it.widget, "add", {"a": "x"})
        assert call.refused and not call.form.errors_label.isHidden()
        assert not it.widget.vm.calls.running
        call.form.set_value({"a": 1, "b": 1})
        qtbot.keyClick(call.call_button, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        (record,) = await finished.wait_for()
        assert record.result.structured_content == {"result": 2.0}


@pytest.mark.asyncio
async def test_slow_count_shows_progress_and_cancel_reaches_the_server(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        progress = SignalLog(it.widget.vm.calls.progressed)
        call, finished = _call(it.widget, "slow_count", {"n": 200, "delay": 0.05})
        assert call.cancel_button.isEnabled()
        assert not call.call_button.isEnabled()
        await progress.wait_for(lambda p, total, message: p >= 2)
        assert call.progress.maximum() == 1000
        assert 0 < call.progress.value() < 1000
        assert call.progress_message.text().startswith("step ")
        assert call.elapsed.text().endswith((" ms", " s"))  # timefmt.duration_text
        assert re.fullmatch(r"step \d+/\d+ · [\d.]+ m?s", call_row_text(call)), call_row_text(call)  # message · clock
        call.cancel_button.click()
        (record,) = await finished.wait_for()
        assert record.outcome == "cancelled"
        assert call.status.text().startswith("Cancelled")
        assert not call.progress.isVisibleTo(call)
        cancels = [
            r
            for r in it.ctx.services.wire.records(it.connection_id)
            if r.direction is Direction.OUT and r.method == "notifications/cancelled"
        ]
        assert cancels, "cancelling must send notifications/cancelled"


@pytest.mark.asyncio
async def test_media_tools_render_an_image_audio_a_resource_link_and_an_embedded_resource(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        call, finished = _call(it.widget, "tiny_image")
        await finished.wait_for()
        (image,) = call.result_view.parts.part_views
        assert image.image_size.width() == 16
        assert not image.shown_pixmap.isNull()
        assert image.data.startswith(b"\x89PNG")
        image.save_to(tmp_path / "x.png")
        assert (tmp_path / "x.png").read_bytes() == image.data

        call, finished = _call(it.widget, "audio_clip")
        await finished.wait_for()
        (audio,) = call.result_view.parts.part_views
        assert audio.duration_s == pytest.approx(0.25, abs=0.01)
        assert audio.data.startswith(b"RIFF")
        assert "audio/wav" in audio.header.text()

        call, finished = _call(it.widget, "resource_link_tool")
        await finished.wait_for()
        _text, link, embedded = call.result_view.parts.part_views
        assert link.uri_label.text() == "demo://readme"
        assert link.description_label.text() == "What this demo server offers"
        assert embedded.uri_label.text() == "demo://items/42"
        assert embedded.payload.text() == "Item 42: Towel"
        reads = SignalLog(it.widget.vm.resource_read)
        link.read_button.click()
        await reads.wait_for(lambda purpose, uri, contents: purpose == "link")
        (readme,) = link.contents.part_views
        assert readme.markdown is not None and readme.payload is None  # text/markdown is rendered
        assert readme.markdown.text.startswith("# Agent Workbench demo server")
        rendered = readme.markdown.browser.toPlainText()
        assert rendered.startswith("Agent Workbench demo server") and "#" not in rendered.splitlines()[0]


@pytest.mark.asyncio
async def test_a_broken_output_schema_and_a_tool_error_are_shown_not_raised(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        call, finished = _call(it.widget, "broken_output")
        (record,) = await finished.wait_for()
        assert record.result.schema_errors
        label = call.result_view.schema_label.text()
        assert label.startswith("Problems:")  # the list; the banner above says what is wrong
        assert all(e in label for e in record.result.schema_errors)

        call, finished = _call(it.widget, "fail", {"message": "<b>boom</b>"})
        (record,) = await finished.wait_for()
        assert record.outcome == "tool error"
        assert call.result_view.error_banner.isVisibleTo(call.result_view)
        assert call.result_view.parts.part_views[0].payload.text().endswith(": <b>boom</b>")


@pytest.mark.asyncio
async def test_a_big_result_is_cut_with_show_all(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        call, finished = _call(it.widget, "big_result", {"megabytes": 1.5})
        await finished.wait_for(timeout=30)
        (part,) = call.result_view.parts.part_views
        assert len(part.payload.text()) == int(1.5 * 1024 * 1024)
        assert part.payload.truncated
        assert part.payload.show_all_button.isVisibleTo(part.payload)
        part.payload.show_all_button.click()
        assert not part.payload.truncated


@pytest.mark.asyncio
async def test_an_html_laden_description_renders_literally(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        assert it.widget.tools.select_tool("html_description")
        label = it.widget.tools.detail.description
        assert label.textFormat().name == "PlainText"
        assert '<img src="file:///etc/passwd">' in label.text()


@pytest.mark.asyncio
async def test_history_keeps_each_tools_results_and_reuses_arguments(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        for a in (1, 2):
            call, finished = _call(it.widget, "add", {"a": a, "b": 10})
            await finished.wait_for()
        call, finished = _call(it.widget, "echo", {"text": "hi"})
        await finished.wait_for()
        it.widget.tools.select_tool("add")
        call = it.widget.tools.detail.call
        assert call.history.count() == 2
        assert call.result_view.result.structured_content == {"result": 12.0}
        call.history.setCurrentIndex(1)
        call.history.activated.emit(1)
        assert call.result_view.result.structured_content == {"result": 11.0}
        call.reuse_button.click()
        assert call.form.value() == {"a": 1, "b": 10}


@pytest.mark.asyncio
async def test_progress_stays_with_the_running_tool_when_the_user_looks_at_another(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        progress = SignalLog(it.widget.vm.calls.progressed)
        call, finished = _call(it.widget, "slow_count", {"n": 200, "delay": 0.05})
        await progress.wait_for()
        assert it.widget.tools.select_tool("add")
        assert not call.progress.isVisibleTo(call)
        assert not call.call_button.isEnabled()  # one call at a time
        assert not it.widget.vm.calls.call("add", {"a": 1, "b": 2})
        assert it.widget.tools.select_tool("slow_count")
        assert call.progress.isVisibleTo(call)
        call.cancel_button.click()
        (record,) = await finished.wait_for()
        assert record.outcome == "cancelled"
        assert call.call_button.isEnabled()


@pytest.mark.asyncio
async def test_log_messages_sent_during_a_call_are_shown_beside_its_result(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        logged = SignalLog(it.widget.vm.calls.logged)
        call, finished = _call(it.widget, "slow_count", {"n": 3, "delay": 0.01})
        await logged.wait_for()  # shown while the call runs, not only at the end
        assert call.call_log.isVisibleTo(call)
        (record,) = await finished.wait_for()
        assert record.outcome == "ok"
        assert record.logs == [f"info · demo: slow_count: {i}" for i in (1, 2, 3)]
        assert call.call_log.text.toPlainText().splitlines() == record.logs
        assert call.call_log.title.text() == "Server log during this call (3 messages)"
        # another tool's call without logs hides the pane; coming back shows the earlier call's log again
        call, finished = _call(it.widget, "add", {"a": 1, "b": 2})
        await finished.wait_for()
        assert not call.call_log.isVisibleTo(call)
        assert it.widget.tools.select_tool("slow_count")
        assert call.call_log.text.toPlainText().splitlines() == record.logs
