"""The MCP inspector's Resources and Prompts tabs against the real demo server."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.support.mcp_inspector import inspector, stdio_profile
from tests.support.signals import SignalLog
from workbench.core.profiles import MCPHTTPProfile
from workbench.demo.mcp_server import serve_http


def _text(parts_view) -> str:
    return "".join(v.payload.text() for v in parts_view.part_views if getattr(v, "payload", None) is not None)


@pytest.mark.asyncio
async def test_reading_a_resource_shows_text_and_blob_contents(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        assert set(resources.resource_list.model.visible_keys()) == {
            "demo://readme",
            "demo://logo.png",
            "demo://counter",
            "ui://workbench-demo/weather.html",
        }
        reads = SignalLog(it.widget.vm.resource_read)
        assert resources.select_resource("demo://readme")
        page = resources.resource_page
        assert resources.pages.currentWidget() is page
        assert "text/markdown" in page.about.text()
        # selecting it read it: no click on Read
        await reads.wait_for(lambda purpose, uri, c: uri == "demo://readme")
        (readme,) = page.contents.part_views
        assert readme.markdown is not None and readme.markdown.text.startswith("# Agent Workbench demo server")
        assert readme.markdown.browser.toPlainText().startswith("Agent Workbench demo server")  # rendered

        assert resources.select_resource("demo://logo.png")
        await reads.wait_for(lambda purpose, uri, c: uri == "demo://logo.png")
        (blob,) = page.contents.part_views
        assert blob.data.startswith(b"\x89PNG")
        assert "image/png" in blob.header.text()
        assert blob.image is not None and blob.image.image_size.width() == 32
        assert blob.save_button.isVisibleTo(blob)


@pytest.mark.asyncio
async def test_selecting_a_resource_reads_it_and_list_tooltips_name_it_in_full(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        reads = SignalLog(it.widget.vm.resource_read)
        assert resources.select_resource("demo://counter")
        (purpose, uri, _contents) = await reads.wait_for()
        assert (purpose, uri) == ("resources", "demo://counter")
        assert _text(resources.resource_page.contents) == "counter = 0"
        # a catalog list elides long names: the tooltip has the whole name, then the description
        tools = it.widget.tools.list.model
        row = tools.visible_keys().index("slow_count")
        tip = tools.data(tools.index(row), Qt.ItemDataRole.ToolTipRole)
        assert "slow_count" in tip and "Count" in tip


async def _subscribe_and_watch_updates(it) -> None:
    vm = it.widget.vm
    resources = it.widget.resources
    page = resources.resource_page
    reads = SignalLog(vm.resource_read)
    subscriptions = SignalLog(vm.subscription_changed)
    updates = SignalLog(vm.resource_updated)
    calls = SignalLog(vm.calls.finished)
    assert resources.select_resource("demo://counter")
    assert page.subscribe_box.isEnabled()
    await reads.wait_for(lambda purpose, uri, c: uri == "demo://counter")  # selecting it read it
    assert _text(page.contents) == "counter = 0"

    page.subscribe_box.click()
    await subscriptions.wait_for(lambda uri, on: uri == "demo://counter" and on)
    assert page.subscribe_box.isChecked()
    assert vm.is_subscribed("demo://counter")

    # An update marks the resource; the user re-reads with a click.
    assert vm.calls.call("bump_counter", {})
    await updates.wait_for(lambda uri: uri == "demo://counter")
    assert page.updated_label.isVisibleTo(page)
    seen = len(reads.events)
    page.read_button.click()
    await reads.wait_for(lambda purpose, uri, c: uri == "demo://counter" and len(reads.events) > seen)
    assert _text(page.contents) == "counter = 1"
    assert not page.updated_label.isVisibleTo(page)

    # With automatic re-read on, the next update is read without a click.
    page.auto_box.setChecked(True)
    await calls.wait_for()  # the first bump_counter call
    assert vm.calls.call("bump_counter", {})
    await reads.wait_for(lambda purpose, uri, c: c.parts[0].text == "counter = 2")
    assert _text(page.contents) == "counter = 2"

    page.subscribe_box.click()
    await subscriptions.wait_for(lambda uri, on: uri == "demo://counter" and not on)
    assert not vm.is_subscribed("demo://counter")


@pytest.mark.asyncio
async def test_subscribing_to_a_resource_shows_updates_on_a_2026_era_connection(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        await _subscribe_and_watch_updates(it)


@pytest.mark.asyncio
async def test_subscribing_to_a_resource_shows_updates_on_a_handshake_era_connection(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot, stdio_profile(mode="legacy")) as it:  # in process
        await _subscribe_and_watch_updates(it)


@pytest.mark.asyncio
async def test_subscribing_to_a_resource_shows_updates_over_streamable_http(qtbot, tmp_path):
    async with (
        serve_http(transport="streamable-http") as url,
        inspector(tmp_path, qtbot, MCPHTTPProfile(name="demo-http", url=url)) as it,
    ):
        await _subscribe_and_watch_updates(it)


@pytest.mark.asyncio
async def test_a_template_is_filled_with_server_completions_and_read(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        assert resources.select_template("demo://items/{item_id}")
        page = resources.template_page
        assert list(page.fields) == ["item_id"]
        field = page.fields["item_id"]
        assert not page.read_button.isEnabled()
        completions = SignalLog(it.widget.vm.completions_ready)
        field.setFocus()
        qtbot.keyClicks(field, "1")
        (key, _values) = await completions.wait_for(lambda key, values: field.text() == "1" and values != [])
        assert key == ("resource", "demo://items/{item_id}", "item_id")
        await completions.wait_for(lambda key, values: values == ["1", "12", "100"])
        assert field.values() == ["1", "12", "100"]
        field.setText("42")
        assert page.uri_label.text() == "demo://items/42"
        reads = SignalLog(it.widget.vm.resource_read)
        page.read_button.click()
        await reads.wait_for(lambda purpose, uri, c: purpose == "template")
        assert _text(page.contents) == "Item 42: Towel"


@pytest.mark.asyncio
async def test_reading_a_missing_template_item_reports_the_error_inline_and_to_the_presenter(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        resources = it.widget.resources
        assert resources.select_template("demo://items/{item_id}")
        page = resources.template_page
        page.fields["item_id"].setText("999")
        reported = SignalLog(it.ctx.errors.error_reported)
        page.read_button.click()
        (view,) = await reported.wait_for()
        assert view.code == "remote"
        assert page.banner.isVisibleTo(page)
        assert page.banner.error == view
        assert page.contents.part_views == []


@pytest.mark.asyncio
async def test_a_prompt_is_filled_with_a_completion_and_its_messages_shown(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        prompts = it.widget.prompts
        assert prompts.list.model.visible_keys() == ["greet", "summarize"]
        assert prompts.select_prompt("greet")
        detail = prompts.detail
        assert list(detail.fields) == ["name", "style"]
        assert not detail.get_button.isEnabled()  # name is required
        detail.fields["name"].setText("Ada")
        assert detail.get_button.isEnabled()
        style = detail.fields["style"]
        completions = SignalLog(it.widget.vm.completions_ready)
        style.setFocus()
        qtbot.keyClicks(style, "p")
        await completions.wait_for(lambda key, values: key == ("prompt", "greet", "style") and values == ["pirate"])
        assert style.values() == ["pirate"]
        popup = style.completer().popup()
        assert popup.model().data(popup.model().index(0, 0), Qt.ItemDataRole.DisplayRole) == "pirate"
        style.setText(style.values()[0])
        received = SignalLog(it.widget.vm.prompt_received)
        detail.get_button.click()
        await received.wait_for()
        assert [m.role_label.text() for m in detail.messages] == ["user", "assistant"]
        assert _text(detail.messages[0].parts) == "Please greet Ada in a pirate style."
        assert _text(detail.messages[1].parts).startswith("Ahoy, Ada!")
