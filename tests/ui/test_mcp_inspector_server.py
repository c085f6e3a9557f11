"""The MCP inspector's Server tab, connection following and list changes: the demo server in process, over a
stdio child (the tab names its transport) and over Streamable HTTP."""

from __future__ import annotations

import json
import sys

import pytest

from tests.servers import script_path
from tests.support.demo_mcp import InProcessDemoFactory
from tests.support.mcp_inspector import inspector, stdio_profile
from tests.support.panel_context import make_context
from tests.support.signals import SignalLog
from workbench.core.profiles import MCPHTTPProfile, MCPStdioProfile
from workbench.demo.mcp_server import serve_http
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget


@pytest.mark.asyncio
async def test_server_tab_shows_identity_protocol_instructions_capabilities_and_raw_json(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot, child_process=True) as it:  # a real child: the tab names its transport
        server = it.widget.server
        assert it.widget.pages.currentWidget() is it.widget.tabs
        assert server.fields["name"].text() == "workbench-demo"
        assert server.fields["title"].text() == "Agent Workbench demo"
        assert server.fields["version"].text() == "1.0.0"
        assert server.fields["protocol_version"].text() == "2026-07-28"
        assert server.fields["era"].text().startswith("2026-07-28")
        assert server.fields["transport"].text() == "stdio"
        assert server.fields["entry_point"].text() == "ask"
        assert "Deterministic demo server" in server.instructions.toPlainText()
        server.markdown.setChecked(False)
        assert "`ask`" in server.instructions.toPlainText()
        sent = server.capabilities.topLevelItem(0)
        assert {sent.child(i).text(0) for i in range(sent.childCount())} >= {"tools", "resources", "prompts"}
        raw = json.loads(server.raw.text())
        assert raw["server_info"]["name"] == "workbench-demo"
        assert {t["name"] for t in raw["tools"]} >= {"add", "slow_count"}
        assert not server.ping_button.isEnabled()  # 2026-07-28 has no ping
        assert server.log_level.isEnabled()
        levels = SignalLog(it.widget.vm.log_level_set)
        server.log_level.setCurrentIndex(0)
        server.log_level.activated.emit(0)
        await levels.wait_for()
        assert server.log_status.text() == "set to debug"


@pytest.mark.asyncio
async def test_ping_reports_latency_and_a_log_level_is_set_with_logging_set_level(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot, stdio_profile(mode="legacy")) as it:  # in process, handshake era
        server = it.widget.server
        assert server.fields["era"].text().startswith("handshake era")
        assert server.ping_button.isEnabled()
        pings = SignalLog(it.widget.vm.ping_finished)
        server.ping_button.click()
        (ms,) = await pings.wait_for()
        assert ms > 0
        assert server.ping_result.text().endswith(" ms")
        assert server.log_level.isEnabled()  # the demo server offers logging in the handshake era
        levels = SignalLog(it.widget.vm.log_level_set)
        server.log_level.setCurrentIndex(3)
        server.log_level.activated.emit(3)
        await levels.wait_for()
        assert server.log_status.text() == "set to warning"


@pytest.mark.asyncio
async def test_a_refused_log_level_shows_inline_and_in_the_presenter(qtbot, tmp_path):
    # A handshake-era server without logging/setLevel (-32601): the refusal is shown, not raised.
    profile = MCPStdioProfile(name="plain", command=sys.executable, args=[script_path("many_tools"), "1"])
    async with inspector(tmp_path, qtbot, profile) as it:
        server = it.widget.server
        reported = SignalLog(it.ctx.errors.error_reported)
        server.log_level.setCurrentIndex(3)
        server.log_level.activated.emit(3)
        (view,) = await reported.wait_for()
        assert view.code == "unsupported"
        assert server.banner.isVisibleTo(server)
        assert server.banner.error == view
        assert server.log_status.text() == ""


@pytest.mark.asyncio
async def test_streamable_http_server_is_inspected_and_its_tools_called(qtbot, tmp_path):
    async with (
        serve_http(transport="streamable-http") as url,
        inspector(tmp_path, qtbot, MCPHTTPProfile(name="demo-http", url=url)) as it,
    ):
        assert it.widget.server.fields["transport"].text() == "streamable-http"
        assert it.widget.server.fields["target"].text() == url
        assert it.widget.tools.select_tool("add")
        call = it.widget.tools.detail.call
        call.form.set_value({"a": 40, "b": 2})
        finished = SignalLog(it.widget.vm.calls.finished)
        call.call_button.click()
        (record,) = await finished.wait_for()
        assert record.result.structured_content == {"result": 42.0}
        assert call.result_view.schema_label.text() == "✓ matches schema"


@pytest.mark.asyncio
async def test_a_tools_list_change_on_the_server_refreshes_the_tool_list(qtbot, tmp_path):
    async with inspector(tmp_path, qtbot) as it:
        changed = SignalLog(it.widget.vm.catalog_changed)
        assert it.widget.tools.select_tool("add_tool")
        it.widget.tools.detail.call.call_button.click()
        await changed.wait_for(lambda what: what == "tools")
        assert "dynamic_tool_1" in it.widget.tools.list.model.visible_keys()
        assert it.widget.tools.list.current_key == "add_tool"
        assert "dynamic_tool_1" in it.widget.server.raw.text()


@pytest.mark.asyncio
async def test_the_inspector_says_why_there_is_nothing_to_show_and_follows_the_connection(qtbot, tmp_path):
    ctx = make_context(tmp_path, factory=InProcessDemoFactory())
    widget = MCPInspectorWidget(ctx)
    qtbot.addWidget(widget)
    assert widget.pages.currentWidget() is widget.status
    widget.show_connection("nope")
    assert "not open" in widget.status.text()
    try:
        shown = SignalLog(widget.vm.shown)
        connection = await ctx.services.connections.connect(stdio_profile())
        widget.show_connection(connection.id)
        assert widget.pages.currentWidget() is widget.tabs
        await ctx.services.connections.disconnect(connection.id)
        await shown.wait_for(lambda cid: widget.vm.agent is None)
        assert widget.pages.currentWidget() is widget.status
        assert "closed" in widget.status.text()
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()


@pytest.mark.asyncio
async def test_a_server_that_lists_no_tools_says_so_and_its_missing_capabilities_say_why(qtbot, tmp_path):
    profile = MCPStdioProfile(name="empty", command=sys.executable, args=[script_path("many_tools"), "0"])
    async with inspector(tmp_path, qtbot, profile) as it:
        tools = it.widget.tools
        assert tools.list.model.visible_keys() == []
        assert tools.detail.name_label.text() == "No tools"
        assert "lists no tools" in tools.detail.description.text()
        tabs = it.widget.tabs
        for tab, what in ((it.widget.resources, "resources"), (it.widget.prompts, "prompts")):
            index = tabs.indexOf(tab)
            assert not tabs.isTabEnabled(index)
            assert f"no '{what}' capability" in tabs.tabToolTip(index)
