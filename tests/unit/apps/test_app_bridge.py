"""The host side of the MCP Apps bridge, Qt-free: handshake, tool input and result, calls, links, limits."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from workbench.core.apps.bridge import APP_ERROR, INVALID_PARAMS, AppBridge
from workbench.core.apps.limits import AppLimits
from workbench.core.apps.resource import AppResource
from workbench.core.errors import RequestTimeoutError
from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.protocols.content import ContentPart
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

SHOWN = ToolSpec("show", meta={"ui": {"resourceUri": "ui://d/a"}})
TOOLS = {
    "show": SHOWN,
    "lookup": ToolSpec("lookup", annotations={"readOnlyHint": True}),
    "delete": ToolSpec("delete"),
    "secret": ToolSpec("secret", meta={"ui": {"visibility": ["model"]}}),
    "slow": ToolSpec("slow", annotations={"readOnlyHint": True}),
}


class Host:
    """A host that answers from memory and keeps what the bridge told it."""

    def __init__(self, *, approve: bool = True) -> None:
        self.approve, self.asked, self.calls, self.links, self.sizes, self.notices, self.stops = (
            approve, [], [], [], [], [], []
        )  # fmt: skip
        self.release = asyncio.Event()

    def tool(self, name: str) -> ToolSpec | None:
        return TOOLS.get(name)

    async def approve_call(self, tool: ToolSpec, arguments: dict[str, Any]) -> bool:
        self.asked.append(tool.name)
        return self.approve

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        self.calls.append((name, arguments))
        if name == "slow":
            await self.release.wait()
        if name == "delete" and arguments.get("boom"):
            raise RequestTimeoutError("no answer")
        return ToolResult([ContentPart("text", text=f"{name} ok")], structured_content={"n": len(self.calls)})

    async def read_resource(self, uri: str) -> ResourceContents:
        return ResourceContents(uri, [ContentPart("resource", text="r", uri=uri, mime_type="text/plain")])

    def open_link(self, url: str) -> bool:
        self.links.append(url)
        return True

    def resize(self, width: int | None, height: int | None) -> None:
        self.sizes.append((width, height))

    def notice(self, text: str) -> None:
        self.notices.append(text)

    def stop(self, reason: str) -> None:
        self.stops.append(reason)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(limits: AppLimits | None = None, **host_kw: Any) -> tuple[AppBridge, Host, list[dict[str, Any]], WireRecorder]:
    host, sent, wire = Host(**host_kw), [], WireRecorder()
    bridge = AppBridge(
        AppResource("ui://d/a", "<p/>"),
        SHOWN,
        {"city": "Oslo"},
        host,
        lambda text: sent.append(json.loads(text)),
        wire=wire,
        connection_id="c1/app/1",
        limits=limits,
        clock=Clock(),
    )
    return bridge, host, sent, wire


def post(bridge: AppBridge, message: dict[str, Any]) -> None:
    bridge.receive(json.dumps({"jsonrpc": "2.0", **message}))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_nothing_is_sent_before_initialized_then_input_and_result_in_order_all_recorded() -> None:
    bridge, _host, sent, wire = make()
    bridge.tool_result(ToolResult([ContentPart("text", text="21°")], structured_content={"t": 21}))
    assert sent == []
    post(bridge, {"id": 1, "method": "ui/initialize", "params": {"protocolVersion": "2026-01-26"}})
    assert sent[0]["result"]["hostContext"]["toolInfo"]["tool"]["name"] == "show"
    assert sent[0]["result"]["protocolVersion"] == "2026-01-26"
    post(bridge, {"method": "ui/notifications/initialized"})
    assert [m.get("method") for m in sent[1:]] == ["ui/notifications/tool-input", "ui/notifications/tool-result"]
    assert sent[1]["params"] == {"arguments": {"city": "Oslo"}}
    assert sent[2]["params"]["structuredContent"] == {"t": 21}
    records = wire.records()
    assert [(r.direction, r.protocol) for r in records] == [
        (Direction.IN, "mcp-app"), (Direction.OUT, "mcp-app"), (Direction.IN, "mcp-app"),
        (Direction.OUT, "mcp-app"), (Direction.OUT, "mcp-app"),
    ]  # fmt: skip


@pytest.mark.asyncio
async def test_every_call_goes_through_the_hosts_approval_which_decides_by_its_policy() -> None:
    bridge, host, sent, _ = make()
    post(bridge, {"id": 1, "method": "tools/call", "params": {"name": "lookup", "arguments": {"q": 1}}})
    post(bridge, {"id": 2, "method": "tools/call", "params": {"name": "delete", "arguments": {}}})
    post(bridge, {"id": 3, "method": "tools/call", "params": {"name": "delete", "arguments": {}}})
    await settle()
    assert host.asked == ["lookup", "delete", "delete"]  # the host's gate asks the user per its policy
    assert {m["id"] for m in sent if "result" in m} == {1, 2, 3}
    assert sent[0]["result"]["content"] == [{"type": "text", "text": "lookup ok"}]


@pytest.mark.asyncio
async def test_a_tool_the_user_refused_is_refused_to_the_app_without_asking_again() -> None:
    bridge, host, sent, _ = make(approve=False)
    for rid in (1, 2, 3):
        post(bridge, {"id": rid, "method": "tools/call", "params": {"name": "delete", "arguments": {}}})
        await settle()
    assert host.asked == ["delete"] and host.calls == []
    assert [m["error"]["data"]["reason"] for m in sent] == ["denied", "denied", "denied"]


@pytest.mark.asyncio
async def test_refused_calls_are_errors_with_a_reason() -> None:
    bridge, host, sent, _ = make(approve=False)
    post(bridge, {"id": 1, "method": "tools/call", "params": {"name": "secret"}})
    post(bridge, {"id": 2, "method": "tools/call", "params": {"name": "nope"}})
    post(bridge, {"id": 3, "method": "tools/call", "params": {"name": "delete"}})
    post(bridge, {"id": 4, "method": "tools/call", "params": {"name": 7}})
    await settle()
    errors = {m["id"]: m["error"] for m in sent}
    assert errors[1]["data"]["reason"] == "not-callable-by-app"
    assert errors[2]["data"]["reason"] == "unknown-tool"
    assert errors[3]["code"] == APP_ERROR and errors[3]["data"]["reason"] == "denied"
    assert errors[4]["code"] == INVALID_PARAMS
    assert host.calls == []


@pytest.mark.asyncio
async def test_ten_thousand_tool_calls_are_rate_limited_and_told_so_and_the_app_is_stopped() -> None:
    bridge, host, sent, wire = make()
    for i in range(10_000):
        post(bridge, {"id": i, "method": "tools/call", "params": {"name": "slow", "arguments": {}}})
    host.release.set()
    await settle()
    assert len(host.calls) <= AppLimits().calls_burst
    limited = [m for m in sent if m.get("error", {}).get("data", {}).get("reason") == "rate-limited"]
    assert 0 < len(limited) <= AppLimits().replies_burst
    assert host.stops and bridge.closed  # past max_dropped the app goes
    assert any(r.kind == WireKind.ERROR and "rate-limited" in r.summary for r in wire.records())
    assert len(wire.records()) < 300  # the flood is counted, not recorded message by message


def test_a_postmessage_loop_is_dropped_past_the_rate_and_recovers_when_it_refills() -> None:
    limits = AppLimits(messages_burst=5, messages_per_second=1.0)
    bridge, host, sent, _ = make(limits)
    for _ in range(50):
        post(bridge, {"id": 1, "method": "ping"})
    assert len(sent) == 5 and bridge.dropped == 45 and host.notices
    bridge._messages._clock.now += 2.0  # type: ignore[attr-defined]
    post(bridge, {"id": 2, "method": "ping"})
    assert sent[-1] == {"jsonrpc": "2.0", "id": 2, "result": {}}


@pytest.mark.asyncio
async def test_links_sizes_garbage_and_teardown() -> None:
    bridge, host, sent, _ = make()
    post(bridge, {"id": 1, "method": "ui/open-link", "params": {"url": "https://example.com/x"}})
    post(bridge, {"id": 2, "method": "ui/open-link", "params": {"url": "file:///etc/passwd"}})
    post(bridge, {"method": "ui/notifications/size-changed", "params": {"width": 300, "height": 10**9}})
    bridge.receive("{not json")
    bridge.receive("x" * 2_000_000)
    assert host.links == ["https://example.com/x"]
    assert sent[1]["error"]["data"]["reason"] == "link-refused"
    assert host.sizes == [(300, AppLimits().max_side)]
    assert sent[2]["error"]["code"] == -32700
    post(bridge, {"id": 9, "method": "ui/initialize"})
    post(bridge, {"method": "ui/notifications/initialized"})
    teardown = asyncio.ensure_future(bridge.teardown("closed by the user"))
    await settle()
    request = sent[-1]
    assert request["method"] == "ui/resource-teardown"
    post(bridge, {"id": request["id"], "result": {}})
    assert await teardown is True and bridge.closed
