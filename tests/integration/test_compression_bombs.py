"""Compressed bombs: size limits count what a body decodes to, and decoding never holds more than a piece.

Against tests/servers/compression_bomb.py (MCP Streamable HTTP and an A2A agent on 127.0.0.1), whose
bombs are ~1 KiB on the wire per MiB decoded: each is refused with a ``ProtocolError`` naming the
limit, after about the limit's worth of decoded bytes (``details["received_bytes"]``), in bounded
memory; the connection then answers a proper compressed request.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tracemalloc
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.servers import ListeningProcess, script_path, start_listening_process
from tests.support.memory import MIB, peak_rss
from workbench.core.errors import AgentCardError, AuthRequiredError, ProtocolError
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.http.decoding import DECODED_PIECE_BYTES
from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, RECORD_PREVIEW_BYTES, HTTPLimits
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

pytestmark = pytest.mark.asyncio
BOUND = 60.0
"""Seconds a refusal may take: far more than it needs, so a hang fails instead of stalling the suite."""
ONE_MIB = HTTPLimits(max_message_bytes=MIB)


@contextlib.asynccontextmanager
async def bomb_server(bomb_mb: int = 1024) -> AsyncIterator[ListeningProcess]:
    env = {**os.environ, "BOMB_MB": str(bomb_mb)}
    async with start_listening_process([sys.executable, script_path("compression_bomb")], env=env) as server:
        yield server


@contextlib.contextmanager
def traced_peak() -> Iterator[list[int]]:
    """The most memory Python allocated at once while the block ran, beyond what it held before (bytes)."""
    tracemalloc.start()
    peak = [0]
    try:
        start = tracemalloc.get_traced_memory()[0]
        yield peak
    finally:
        peak[0] = tracemalloc.get_traced_memory()[1] - start
        tracemalloc.stop()


def assert_refused_after_the_limit(error: ProtocolError, limit: int) -> None:
    details = error.details
    assert details["limit"] == "max_message_bytes" and details["limit_bytes"] == limit
    assert limit < details["received_bytes"] <= limit + DECODED_PIECE_BYTES  # decoded bytes, counted as they came


async def test_a_gzip_bomb_of_1_gib_answering_an_mcp_call_is_refused_at_the_default_limit_in_bounded_memory() -> None:
    wire = WireRecorder()
    async with (
        bomb_server() as server,
        peak_rss() as peak,
        MCPAgent(server.url + "/mcp", mode="legacy", wire=wire) as agent,
    ):
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool("gzip", {}), BOUND)
        assert_refused_after_the_limit(refused.value, DEFAULT_MAX_MESSAGE_BYTES)
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 300 * MIB
    answers = [r for r in wire.records() if r.kind is WireKind.HTTP_RESPONSE and r.http and r.http["status"] == 200]
    assert max(r.size for r in answers) <= RECORD_PREVIEW_BYTES  # the wire log keeps a preview, decoded
    assert any(r.payload.startswith('{"jsonrpc": "2.0"') for r in answers)


@pytest.mark.parametrize("tool", ["gzip", "deflate", "raw_deflate", "gzip_sse"])
async def test_an_mcp_answer_that_inflates_past_the_message_limit_is_refused_naming_it(tool: str) -> None:
    async with (
        bomb_server() as server,
        peak_rss() as peak,
        MCPAgent(server.url + "/mcp", mode="legacy", limits=ONE_MIB) as agent,
    ):
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool(tool, {"mib": 256}), BOUND)
        assert_refused_after_the_limit(refused.value, MIB)
        assert refused.value.hint and "--max-message-bytes" in refused.value.hint
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"
    assert peak.growth < 64 * MIB


async def test_an_mcp_answer_in_a_coding_that_is_not_decoded_is_refused_as_such() -> None:
    async with bomb_server() as server, MCPAgent(server.url + "/mcp", mode="legacy") as agent:
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.call_tool("brotli", {}), BOUND)
        details: dict[str, Any] = refused.value.details
        assert details["reason"] == "unsupported-encoding" and details["encoding"] == ["br"]
        assert (await asyncio.wait_for(agent.call_tool("echo", {}), BOUND)).content[0].text == "ok"


async def test_an_a2a_reply_that_inflates_past_the_message_limit_is_refused_naming_it() -> None:
    wire = WireRecorder()
    async with (
        bomb_server(256) as server,
        peak_rss() as peak,
        A2AAgent(server.url + "/a2a", streaming=False, limits=ONE_MIB, wire=wire) as agent,
    ):
        with pytest.raises(ProtocolError) as refused:
            await asyncio.wait_for(agent.invoke_async("bomb"), BOUND)
        assert_refused_after_the_limit(refused.value, MIB)
        assert (await asyncio.wait_for(agent.invoke_async("hello"), BOUND)).text == "ok"
    assert peak.growth < 64 * MIB
    assert [r for r in wire.records() if r.kind is WireKind.ERROR and "(max_message_bytes)" in r.summary]


async def test_an_agent_card_that_inflates_to_1_gib_is_refused_after_the_card_limit_holding_little_more() -> None:
    async with bomb_server() as server:
        with traced_peak() as peak, pytest.raises(AgentCardError) as refused:
            async with A2AAgent(server.url + "/card", connect_timeout=BOUND):
                pass
        assert refused.value.details["problem"] == "too-large" and refused.value.details["limit_bytes"] == 4 * MIB
    assert peak[0] < 24 * MIB  # the card read so far and its record; never a whole inflated read


async def test_following_an_authorization_url_past_bombs_holds_neither_in_memory() -> None:
    async with bomb_server() as server, peak_rss() as peak:
        with pytest.raises(AuthRequiredError) as stopped:  # a page for a person: its body is not read
            await asyncio.wait_for(follow_redirects_opener(server.url + "/authorize"), BOUND)
        assert stopped.value.details["oauth"] == "needs-a-person"
        with pytest.raises(ProtocolError) as refused:  # a redirect's body is read, as it decodes, to the limit
            await asyncio.wait_for(follow_redirects_opener(server.url + "/authorize-redirect"), BOUND)
        assert_refused_after_the_limit(refused.value, DEFAULT_MAX_MESSAGE_BYTES)
    assert peak.growth < 300 * MIB
