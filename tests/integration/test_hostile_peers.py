"""Hostile peers: each ends in bounded time and memory, a typed error, and a wire log that kept it.

Every peer is a small loopback server under tests/servers. Bounds are generous ``asyncio.wait_for``
limits (a hang fails the test, it does not stall the suite); memory is this process's RSS sampled
while the peer works.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp.types import PARSE_ERROR

from tests.servers import script_path, start_listening_process
from tests.support.cli_runner import run_workbench
from tests.support.memory import MIB, peak_rss
from workbench.core.errors import AgentCardError, ProtocolError, RemoteError, RequestTimeoutError
from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES, HTTPLimits
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.protocols.snapshot import STATUS_HISTORY
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind, WireRecord

BOUND = 60.0


def stdio_agent(server: str, *args: str, **kwargs: Any) -> MCPAgent:
    return MCPAgent.stdio(sys.executable, [script_path(server), *args], mode="legacy", **kwargs)


def run_cli(*argv: str, timeout: float = BOUND) -> subprocess.CompletedProcess[str]:
    """``workbench ARGV`` as a user runs it (in this process: tests/support/cli_runner.py), bounded."""
    code, out, err = asyncio.run(run_workbench(*argv, timeout=timeout))
    return subprocess.CompletedProcess(["workbench", *argv], code, out, err)


def json_lines(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        if line.startswith("{"):
            yield json.loads(line)


# ------------------------------------------------------------------------------------------- stdio


def test_workbench_call_without_a_timeout_ends_on_a_reply_nested_100000_deep() -> None:
    done = run_cli("call", "--json", "nested", "--stdio", "--", sys.executable, script_path("unreadable_replies"))
    assert done.returncode == 1
    [failed] = [m for m in json_lines(done.stdout) if m.get("kind") == "failed"]
    assert failed["error"]["type"] == "ProtocolError" and failed["error"]["details"]["reason"] == "too-deep"


def test_workbench_inspect_refuses_a_tool_list_that_never_ends_naming_the_limit() -> None:
    done = run_cli("inspect", "--json", "--stdio", "--", sys.executable, script_path("endless_pages"), "forever")
    assert done.returncode == 1
    [failed] = [m for m in json_lines(done.stdout) if m.get("kind") == "failed"]
    assert failed["error"]["type"] == "ProtocolError" and failed["error"]["details"]["limit"] == "max_pages"


@pytest.mark.asyncio
async def test_ten_thousand_tools_are_all_listed_and_callable() -> None:
    async with peak_rss() as peak:
        agent = stdio_agent("many_tools")
        async with agent:
            await asyncio.wait_for(agent.connect(), BOUND)
            assert len(agent.tools) == 10_000
            result = await asyncio.wait_for(agent.call_tool("tool_09999", {}), BOUND)
            assert result.content[0].text == "ok tool_09999"
    assert peak.growth < 400 * MIB


def test_workbench_inspect_shows_ten_thousand_tools() -> None:
    done = run_cli("inspect", "--json", "--stdio", "--", sys.executable, script_path("many_tools"))
    assert done.returncode == 0, done.stderr[-2000:]
    [listing] = json_lines(done.stdout)
    assert len(listing["tools"]) == 10_000


def test_one_page_of_100000_tools_is_refused_unread_naming_the_page_limit() -> None:
    tracemalloc.start()
    try:
        done = run_cli("inspect", "--json", "--stdio", "--", sys.executable, script_path("many_tools"), "100000")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert done.returncode == 1
    [failed] = [m for m in json_lines(done.stdout) if m.get("kind") == "failed"]
    error = failed["error"]
    assert error["type"] == "ProtocolError"
    assert error["details"]["limit"] == "max_page_items" and error["details"]["pages"] == 1
    assert "pagination" not in error["hint"]
    assert peak < 100 * MIB  # the 14 MB page, read as text and counted; its 100,000 tools were never built


@pytest.mark.asyncio
async def test_tools_whose_schemas_have_ref_cycles_are_listed_and_called() -> None:
    async with stdio_agent("ref_cycle_schema") as agent:
        await asyncio.wait_for(agent.connect(), BOUND)
        assert sorted(agent.tools) == ["fan", "loop", "tree"]
        tree = {"root": {"label": "a", "children": [{"label": "b", "children": []}]}}
        for name, arguments in (("tree", tree), ("loop", {"x": 1}), ("fan", {"p0": {"p1": {}}})):
            result = await asyncio.wait_for(agent.call_tool(name, arguments), BOUND)
            assert result.structured_content == {"arguments": arguments}


def test_workbench_inspect_prints_tools_whose_schemas_have_ref_cycles() -> None:
    for output in ("--json", None):
        done = run_cli(
            "inspect", *([output] if output else []), "--stdio", "--", sys.executable, script_path("ref_cycle_schema")
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert "fan" in done.stdout and "loop" in done.stdout and "tree" in done.stdout


@pytest.mark.asyncio
async def test_a_flood_of_progress_notifications_reaches_the_caller_and_the_call_still_ends() -> None:
    count = 20_000  # 100,000 take ~37 s here (see the report); the behaviour is the same
    seen: list[float] = []
    wire = WireRecorder()
    async with peak_rss() as peak, stdio_agent("progress_flood", str(count), wire=wire) as agent:
        result = await asyncio.wait_for(
            agent.call_tool("flood", {}, on_progress=lambda progress, *rest: seen.append(progress)), 90
        )
    assert result.content[0].text == "done"
    assert len(seen) == count and seen[-1] == count - 1  # every one, in order
    progress = [r for r in wire.records() if r.method == "notifications/progress"]
    assert len(progress) == count  # the wire log kept them all
    assert peak.growth < 300 * MIB


@pytest.mark.asyncio
async def test_replies_to_unknown_and_duplicate_ids_do_not_answer_the_wrong_call() -> None:
    wire = WireRecorder()
    async with stdio_agent("wrong_ids", wire=wire) as agent:
        for _ in range(3):  # each call is surrounded by strangers and followed by its own duplicate
            result = await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)
            assert result.content[0].text == "yours"
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError):
            await asyncio.wait_for(agent.call_tool("only_wrong", {}, timeout=2), BOUND)
        assert time.monotonic() - started < 20
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "yours"
    ids = {r.rpc_id for r in wire.records() if r.kind is WireKind.JSONRPC}
    assert "987654321" in ids and any(i and i.startswith("stranger-") for i in ids)  # kept as they arrived


@pytest.mark.asyncio
async def test_invalid_utf8_is_shown_replaced_and_kept_in_the_wire_log() -> None:
    wire = WireRecorder()
    async with stdio_agent("invalid_utf8", wire=wire) as agent:
        text = (await asyncio.wait_for(agent.call_tool("text", {}), BOUND)).content[0].text
        assert text is not None and text.startswith("bad ") and "\ufffd" in text
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    [garbage] = [r for r in wire.records() if r.kind is WireKind.RAW]
    assert "not utf-8" in garbage.payload and "\ufffd" in garbage.payload


@pytest.mark.asyncio
async def test_a_server_that_never_finishes_the_handshake_fails_at_the_connect_timeout() -> None:
    wire = WireRecorder()
    agent = stdio_agent("no_handshake", wire=wire, connect_timeout=2)
    started = time.monotonic()
    with pytest.raises(RequestTimeoutError):
        await asyncio.wait_for(agent.connect(), BOUND)
    await asyncio.wait_for(agent.aclose(), BOUND)
    assert time.monotonic() - started < 20
    sent = [r.method for r in wire.records() if r.kind is WireKind.JSONRPC]
    assert "initialize" in sent  # the wire log shows what was asked and never answered


# -------------------------------------------------------------------------------------------- HTTP


@contextlib.asynccontextmanager
async def http_hostile() -> AsyncIterator[str]:
    async with start_listening_process([sys.executable, script_path("http_hostile")]) as server:
        yield server.url


@pytest.mark.asyncio
async def test_one_page_of_too_many_tools_over_http_is_refused_before_it_is_built() -> None:
    env = {**os.environ, "MANY_TOOLS": "30000"}
    async with start_listening_process([sys.executable, script_path("http_hostile")], env=env) as server:
        agent = MCPAgent(server.url, mode="legacy")
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.connect(), BOUND)
        await agent.aclose()
    assert refused.value.details["limit"] == "max_page_items" and refused.value.details["what"] == "tools"


def refusal_records(wire: WireRecorder, limit: str) -> list[WireRecord]:
    """The wire log's records of a refusal naming ``limit``."""
    return [r for r in wire.records() if r.kind is WireKind.ERROR and f"({limit})" in r.summary]


@pytest.mark.asyncio
@pytest.mark.parametrize("tool", ["huge", "huge_chunked"], ids=["content-length", "no-length"])
async def test_a_200_mb_http_response_is_refused_naming_the_limit_in_bounded_memory(tool: str) -> None:
    wire = WireRecorder()
    async with http_hostile() as url, peak_rss() as peak, MCPAgent(url, mode="legacy", wire=wire) as agent:
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool(tool, {}), BOUND)
        assert refused.value.details["limit"] == "max_message_bytes"
        assert refused.value.details["limit_bytes"] == DEFAULT_MAX_MESSAGE_BYTES
        assert refused.value.hint and "max_message_bytes" in refused.value.hint
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 300 * MIB
    responses = [r for r in wire.records() if r.kind is WireKind.HTTP_RESPONSE and r.http and r.http["status"] == 200]
    assert responses and max(r.size for r in responses) <= 1 * MIB  # what arrived, cut, not 200 MB
    assert refusal_records(wire, "max_message_bytes")


@pytest.mark.asyncio
async def test_a_200_mb_event_on_a_legacy_sse_session_is_refused_and_the_session_closed_cleanly() -> None:
    wire = WireRecorder()
    async with http_hostile() as base, peak_rss() as peak:
        url = base.removesuffix("/mcp") + "/sse"
        async with MCPAgent(url, transport="sse", mode="legacy", wire=wire) as agent:
            assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
            with pytest.raises(ProtocolError) as refused:
                await asyncio.wait_for(agent.call_tool("huge", {}), BOUND)
            assert refused.value.details["limit"] == "max_message_bytes"
        async with MCPAgent(url, transport="sse", mode="legacy", wire=wire) as again:  # the app goes on
            assert (await asyncio.wait_for(again.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 300 * MIB
    assert refusal_records(wire, "max_message_bytes")


@pytest.mark.asyncio
async def test_an_endless_sse_stream_of_1_mb_events_ends_at_the_request_timeout_with_the_wire_log_bounded() -> None:
    wire = WireRecorder(max_chars=64 * MIB)
    no_stream_limit = HTTPLimits(max_stream_bytes=None)  # the timeout, not the stream limit, ends it here
    async with (
        http_hostile() as url,
        peak_rss() as peak,
        MCPAgent(url, mode="legacy", wire=wire, limits=no_stream_limit) as agent,
    ):
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError):
            await asyncio.wait_for(agent.call_tool("endless", {}, timeout=3), BOUND)
        assert time.monotonic() - started < 30
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    events = [r for r in wire.records() if r.kind is WireKind.SSE_EVENT]
    assert events and wire.held_chars <= 64 * MIB + 2 * MIB  # the newest events kept, the oldest evicted
    assert peak.growth < 400 * MIB


@pytest.mark.asyncio
async def test_an_endless_sse_stream_without_a_timeout_is_refused_naming_a_limit() -> None:
    wire = WireRecorder(max_chars=64 * MIB)  # keep this test's own memory small either way
    async with http_hostile() as url, peak_rss() as peak, MCPAgent(url, mode="legacy", wire=wire) as agent:
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool("endless", {}), BOUND)
        assert refused.value.details["limit"] == "max_stream_bytes"
        assert refused.value.details["limit_bytes"] == DEFAULT_MAX_STREAM_BYTES
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 400 * MIB
    assert refusal_records(wire, "max_stream_bytes")


@pytest.mark.asyncio
@pytest.mark.expected_error_logs  # the SDK logs the unparsable answer at ERROR
async def test_of_two_concurrent_calls_only_the_one_whose_answer_was_refused_reports_the_limit() -> None:
    wire = WireRecorder()
    async with http_hostile() as url, MCPAgent(url, mode="legacy", wire=wire) as agent:
        huge, garbage = await asyncio.wait_for(
            asyncio.gather(
                agent.call_tool("huge", {}),
                agent.call_tool("garbage_after_huge", {}),  # fails after the refusal, for its own reason
                return_exceptions=True,
            ),
            BOUND,
        )
    assert isinstance(huge, ProtocolError) and huge.details["limit"] == "max_message_bytes"
    calls = {r.rpc_id: r for r in wire.records() if r.kind is WireKind.JSONRPC and r.method == "tools/call"}
    assert huge.details["request_id"] in calls  # the refusal names the request whose answer it was
    assert isinstance(garbage, RemoteError) and garbage.details["remote_code"] == PARSE_ERROR
    assert "limit" not in garbage.details


@pytest.mark.asyncio
async def test_an_endless_notification_flood_on_a_legacy_sse_session_is_refused_at_the_stream_limit() -> None:
    """The session stream carries every answer: a flood while a call waits ends at max_stream_bytes."""
    wire = WireRecorder(max_chars=64 * MIB)
    limits = HTTPLimits(max_stream_bytes=24 * MIB)  # the default's path, in a fifth of the time
    async with start_listening_process([sys.executable, script_path("http_hostile")]) as server, peak_rss() as peak:
        url = server.url.removesuffix("/mcp") + "/sse"
        async with MCPAgent(url, transport="sse", mode="legacy", wire=wire, limits=limits) as agent:
            assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
            started = time.monotonic()
            with pytest.raises(ProtocolError) as refused:
                await asyncio.wait_for(agent.call_tool("endless", {}), BOUND)  # no timeout: the limit ends it
            assert time.monotonic() - started < 30
            details = refused.value.details
            assert details["limit"] == "max_stream_bytes" and details["limit_bytes"] == 24 * MIB
            assert details["received_bytes"] > 24 * MIB and details["request_id"]
            assert refused.value.hint and "--max-stream-bytes" in refused.value.hint
        gone = await server.wait_for_stderr("gone sse session", timeout=BOUND)  # the flood stopped
        assert int(gone.split()[-2]) < 200
        async with MCPAgent(url, transport="sse", mode="legacy", wire=wire, limits=limits) as again:
            assert (await asyncio.wait_for(again.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 200 * MIB
    assert refusal_records(wire, "max_stream_bytes")
    notes = [r for r in wire.records() if r.kind is WireKind.SSE_EVENT and "notifications/message" in r.payload]
    assert notes  # what arrived is in the wire log


def test_workbench_call_refuses_a_200_mb_response_with_a_hint_and_exit_1() -> None:
    async def run() -> subprocess.CompletedProcess[str]:
        async with http_hostile() as url:
            return await asyncio.to_thread(run_cli, "call", "--json", "huge", "--mcp", url, "--mode", "legacy")

    done = asyncio.run(run())
    assert done.returncode == 1
    [failed] = [m for m in json_lines(done.stdout) if m.get("kind") == "failed"]
    error = failed["error"]
    assert error["type"] == "ProtocolError" and error["details"]["limit"] == "max_message_bytes"
    assert "max_message_bytes" in error["hint"]


# --------------------------------------------------------------------------------------------- A2A


@pytest.mark.asyncio
@pytest.mark.parametrize("where", ["", "/chunked"], ids=["content-length", "no-length"])
async def test_a_50_mb_agent_card_is_refused_naming_the_limit_before_it_is_read(where: str) -> None:
    wire = WireRecorder()
    async with start_listening_process([sys.executable, script_path("a2a_huge_card")]) as server, peak_rss() as peak:
        started = time.monotonic()
        with pytest.raises(AgentCardError) as refused:
            async with A2AAgent(server.url + where, wire=wire, connect_timeout=BOUND):
                pass
        assert time.monotonic() - started < 30
        assert refused.value.details["problem"] == "too-large"
        assert refused.value.details["limit_bytes"] < 50 * MIB
        gone = await server.wait_for_stderr("gone after", timeout=BOUND)
        assert int(gone.split()[2]) < 50  # the client hung up long before the end
    assert peak.growth < 100 * MIB
    assert any(r.kind is WireKind.HTTP_RESPONSE for r in wire.records())


BINDINGS = ["JSONRPC", "HTTP+JSON"]


@contextlib.asynccontextmanager
async def a2a_hostile() -> AsyncIterator[str]:
    async with start_listening_process([sys.executable, script_path("a2a_hostile")]) as server:
        yield server.url


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", BINDINGS)
@pytest.mark.parametrize("text", ["huge", "huge_chunked"], ids=["content-length", "no-length"])
async def test_a_200_mb_a2a_reply_is_refused_naming_the_limit_in_bounded_memory(binding: str, text: str) -> None:
    wire = WireRecorder()
    async with (
        a2a_hostile() as url,
        peak_rss() as peak,
        A2AAgent(url, binding=binding, streaming=False, wire=wire) as agent,  # type: ignore[arg-type]
    ):
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.invoke_async(text), BOUND)
        assert refused.value.details["limit"] == "max_message_bytes"
        assert refused.value.details["limit_bytes"] == DEFAULT_MAX_MESSAGE_BYTES
        assert (await asyncio.wait_for(agent.invoke_async("hello"), BOUND)).text == "ok"
    assert peak.growth < 300 * MIB
    assert refusal_records(wire, "max_message_bytes")


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", BINDINGS)
async def test_an_endless_a2a_stream_of_1_mb_events_is_refused_at_the_stream_limit(binding: str) -> None:
    wire = WireRecorder(max_chars=64 * MIB)
    async with (
        a2a_hostile() as url,
        peak_rss() as peak,
        A2AAgent(url, binding=binding, wire=wire) as agent,  # type: ignore[arg-type]
    ):
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.invoke_async("endless"), BOUND)
        assert refused.value.details["limit"] == "max_stream_bytes"
        assert (await asyncio.wait_for(agent.invoke_async("hello"), BOUND)).text == "ok"
        view = agent.tasks.views["task-1"]  # ~128 status updates of 1 MiB: the first and the latest kept
        assert view.status_dropped > 0 and view.status_history.kept_bytes <= 17 * MIB
        snapshot = agent.tasks.known_task("task-1")
        assert snapshot is not None
        [history] = [section for section in snapshot.sections if section.title == STATUS_HISTORY]
        assert any(row.value.endswith("earlier status updates not kept") for row in history.rows)
    # What is held at the peak: the wire log's 64 Mi characters, the task view's bounded history
    # (16 MiB), the SDK's event in flight: 74-103 MiB measured on this machine. A task view keeping
    # every status message would hold 0.35-0.48 GB.
    assert peak.growth < DEFAULT_MAX_STREAM_BYTES * 5 // 4
    assert refusal_records(wire, "max_stream_bytes")


def test_workbench_inspect_refuses_a_50_mb_agent_card() -> None:
    async def run() -> subprocess.CompletedProcess[str]:
        async with start_listening_process([sys.executable, script_path("a2a_huge_card")]) as server:
            return await asyncio.to_thread(run_cli, "inspect", "--json", "--a2a", server.url)

    done = asyncio.run(run())
    assert done.returncode == 1
    [failed] = [m for m in json_lines(done.stdout) if m.get("kind") == "failed"]
    assert failed["error"]["type"] == "AgentCardError" and failed["error"]["details"]["problem"] == "too-large"
