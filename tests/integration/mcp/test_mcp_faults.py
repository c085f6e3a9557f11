"""Bad peers: each fault ends in a typed error, the process survives, and the wire log keeps what arrived."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from tests.servers import run_http_script, script_path
from workbench.core.errors import (
    AuthRequiredError,
    ConnectionLostError,
    ProtocolError,
    RemoteError,
    RequestTimeoutError,
    UnreachableError,
)
from workbench.core.events import EventBus, ServerProcessExited, ServerStderrLine
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.records import Direction, WireKind

pytestmark = pytest.mark.asyncio


def fault_agent(name: str, **kwargs: object) -> MCPAgent:
    return MCPAgent.stdio(sys.executable, [script_path(name)], **kwargs)  # type: ignore[arg-type]


async def test_server_crash_mid_call_reports_connection_lost_at_once_and_keeps_stderr() -> None:
    bus = EventBus()
    exited: list[ServerProcessExited] = []
    bus.subscribe(ServerProcessExited, exited.append)
    async with fault_agent("crash_mid_call", bus=bus, mode="legacy") as agent:
        started = time.monotonic()
        with pytest.raises(ConnectionLostError) as info:
            await agent.call_tool("crash", {})
        assert time.monotonic() - started < 5
        assert "code 3" in info.value.message
        assert exited and exited[0].returncode == 3 and not exited[0].expected
        with pytest.raises(ConnectionLostError):
            await agent.call_tool("crash", {})
        kinds = {r.kind for r in agent.config.wire.records(agent.connection_id)}
        assert {WireKind.STDERR, WireKind.PROCESS, WireKind.JSONRPC} <= kinds


async def test_garbage_on_stdout_is_logged_raw_and_the_session_keeps_working() -> None:
    async with fault_agent("garbage_stdout", mode="legacy") as agent:
        result = await agent.call_tool("echo", {"text": "still here"})
        assert "still here" in result.text
        raw = [r for r in agent.config.wire.records(agent.connection_id) if r.kind is WireKind.RAW]
        assert any("not JSON-RPC" in r.payload for r in raw)


async def test_malformed_jsonrpc_replies_end_in_a_protocol_error_with_the_raw_lines_logged() -> None:
    agent = fault_agent("malformed_jsonrpc", mode="legacy", connect_timeout=3)
    # The lines arrive in order: no "jsonrpc" (raw), both result and error (the SDK reads it as an
    # error object), truncated JSON (raw). Either typed error is an honest report.
    with pytest.raises((ProtocolError, RemoteError)):
        await agent.connect()
    await agent.aclose()
    raw = [r for r in agent.config.wire.records(agent.connection_id) if r.kind is WireKind.RAW]
    assert len(raw) >= 1


@pytest.mark.parametrize(("transport", "mode"), [("stdio", "auto"), ("http", "auto"), ("http", "legacy")])
async def test_a_20_megabyte_result_arrives_whole_and_is_recorded(transport: str, mode: str) -> None:
    async def check(agent: MCPAgent) -> None:
        result = await agent.call_tool("big_result", {"megabytes": 20})
        assert len(result.text) >= 20 * 1024 * 1024
        biggest = max(agent.config.wire.records(agent.connection_id), key=lambda r: r.size)
        assert biggest.size >= 20 * 1024 * 1024 and biggest.direction is Direction.IN

    if transport == "stdio":
        async with MCPAgent.stdio(sys.executable, ["-m", "workbench.demo.mcp_server", "--stdio"], mode=mode) as agent:
            await check(agent)
    else:
        from workbench.demo.mcp_server import serve_http

        async with serve_http() as url, MCPAgent(url, mode=mode) as agent:
            await check(agent)


async def test_unreachable_url_is_a_clear_unreachable_error() -> None:
    agent = MCPAgent("http://127.0.0.1:9/mcp", connect_timeout=10)
    with pytest.raises(UnreachableError) as info:
        await agent.connect()
    assert "127.0.0.1:9" in info.value.message
    errors = [r for r in agent.config.wire.records(agent.connection_id) if r.kind is WireKind.ERROR]
    assert errors, "the failed HTTP attempt is in the wire log"


async def test_missing_executable_is_a_clear_unreachable_error() -> None:
    with pytest.raises(UnreachableError):
        await MCPAgent.stdio("/nonexistent/mcp-server").connect()


async def test_http_401_asks_for_credentials_and_500_is_a_remote_error_with_the_status() -> None:
    async with run_http_script("http_status") as base:
        with pytest.raises(AuthRequiredError) as info:
            await MCPAgent(f"{base}/401", mode="legacy").connect()
        assert info.value.details.get("http_status") == 401
        assert info.value.details.get("www_authenticate", "").startswith("Bearer")
        agent = MCPAgent(f"{base}/500", mode="legacy")
        with pytest.raises(RemoteError) as failed:
            await agent.connect()
        assert failed.value.details.get("http_status") == 500
        assert failed.value.remote_code == 500
        statuses = [r.http.get("status") for r in agent.config.wire.records(agent.connection_id) if r.http]
        assert 500 in statuses


async def test_a_server_that_never_answers_times_out_and_the_call_is_cancelled_on_the_server() -> None:
    bus = EventBus()
    cancelled = asyncio.Event()
    bus.subscribe(ServerStderrLine, lambda e: e.line.startswith("cancelled") and cancelled.set())
    async with fault_agent("never_answers", bus=bus, mode="legacy") as agent:
        with pytest.raises(RequestTimeoutError):
            await agent.call_tool("wait_forever", {}, timeout=1)
        await asyncio.wait_for(cancelled.wait(), 10)


async def test_cancelling_a_call_to_a_silent_server_sends_the_cancel() -> None:
    bus = EventBus()
    cancelled = asyncio.Event()
    bus.subscribe(ServerStderrLine, lambda e: e.line.startswith("cancelled") and cancelled.set())
    async with fault_agent("never_answers", bus=bus, mode="legacy") as agent:
        sent = asyncio.Event()
        agent.config.wire.subscribe(lambda r: r.method == "tools/call" and sent.set())
        call = asyncio.create_task(agent.call_tool("wait_forever", {}))
        await asyncio.wait_for(sent.wait(), 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.wait_for(cancelled.wait(), 10)
