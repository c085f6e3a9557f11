"""``--timeout`` bounds a whole request, and each request that gets no answer says why.

Against loopback peers that answer nothing (tests/servers/http_unanswered.py) or one byte a second
or nothing (tests/servers/a2a_trickle.py): a timeout is a ``RequestTimeoutError`` naming its seconds, even when
the MCP server's GET stream got a 405 meanwhile or the A2A agent keeps the body trickling; a
connection closed without an answer is a ``ConnectionLostError`` whose cause says so; a legacy SSE
endpoint on another origin is refused at once, naming it. Each run is bounded well below what
waiting for the slow peer (or the 30 s connect timeout) would take.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tests.servers import ListeningProcess, script_path, start_listening_process
from tests.support.cli_runner import failure, workbench
from workbench.core.errors import CLOSED_WITHOUT_ANSWER

pytestmark = pytest.mark.asyncio
BOUND = 15.0
"""Seconds a run may take: far less than the trickle (minutes) or the connect timeout (30 s)."""


@asynccontextmanager
async def server(name: str) -> AsyncIterator[ListeningProcess]:
    async with start_listening_process([sys.executable, script_path(name)]) as running:
        yield running


async def test_an_mcp_call_left_unanswered_times_out_naming_its_seconds_though_the_get_stream_got_405() -> None:
    async with server("http_unanswered") as peer:
        code, out, err = await workbench(
            "call", "--json", "silent", "--mcp", f"{peer.url}/mcp", "--mode", "legacy", "--timeout", "2", timeout=BOUND
        )
        await peer.wait_for_stderr("gone silent")  # the call was given up, not left open
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "RequestTimeoutError" and error["details"]["timeout"] == 2


@pytest.mark.parametrize("path", ["hangup", "reset"])
async def test_an_mcp_server_that_closes_the_connection_without_an_answer_is_named_as_the_cause(path: str) -> None:
    async with server("http_unanswered") as peer:
        code, out, err = await workbench("inspect", "--json", "--mcp", f"{peer.url}/{path}/mcp", timeout=BOUND)
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "ConnectionLostError" and error["details"]["cause"] == CLOSED_WITHOUT_ANSWER


async def test_a_legacy_sse_endpoint_on_another_origin_is_refused_at_once_naming_that_origin() -> None:
    async with server("http_unanswered") as peer:
        port = peer.url.rsplit(":", 1)[1]
        code, out, err = await workbench(
            "inspect", "--json", "--mcp-sse", f"{peer.url}/elsewhere/sse", "--connect-timeout", "60", timeout=BOUND
        )
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "ProtocolError"
    assert error["details"] == {"endpoint_origin": f"http://localhost:{port}", "origin": peer.url}


@pytest.mark.parametrize("agent", ["sse", "json"])
async def test_an_a2a_answer_trickling_in_a_byte_a_second_ends_at_the_timeout(agent: str) -> None:
    async with server("a2a_trickle") as peer:
        code, out, err = await workbench(
            "send", "--json", "--a2a", f"{peer.url}/{agent}", "hello", "--timeout", "2", timeout=BOUND
        )
        await peer.wait_for_stderr(f"gone {agent}")  # the request was given up, not left open
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "RequestTimeoutError" and error["details"]["timeout"] == 2


async def test_an_a2a_stream_trickling_after_its_first_event_ends_at_the_timeout() -> None:
    async with server("a2a_trickle") as peer:
        code, out, err = await workbench(
            "send", "--json", "--a2a", f"{peer.url}/sse-then", "hello", "--timeout", "2", timeout=BOUND
        )
        await peer.wait_for_stderr("gone sse-then")  # the stream was given up, not left open
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "RequestTimeoutError" and error["details"]["timeout"] == 2


async def test_an_a2a_agent_that_resets_the_connection_without_an_answer_is_named_as_the_cause() -> None:
    async with server("a2a_trickle") as peer:
        code, out, err = await workbench("send", "--json", "--a2a", f"{peer.url}/reset", "hello", timeout=BOUND)
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "ConnectionLostError" and error["details"]["cause"] == CLOSED_WITHOUT_ANSWER
