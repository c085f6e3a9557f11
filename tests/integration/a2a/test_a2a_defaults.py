"""A2AAgent's defaults are the ones docs/agents.md lists (the same as MCPAgent's), each checked by what it does.

The connect timeout bounds the agent card's fetch too: a peer that accepts the TCP connection and
never answers stops the connection after ``connect_timeout``, not after a read timeout per URL tried.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.cli_runner import workbench
from workbench.core.errors import ConfigError, RequestTimeoutError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.a2a_agents.travel import build_travel_app

DOCS = Path(__file__).resolve().parents[3] / "docs" / "agents.md"


def documented_defaults() -> dict[str, str]:
    """The defaults table of docs/agents.md: option → default cell."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Defaults", 1)[1]
    rows = re.findall(r"^\| `?([^|`]+?)`? \| ([^|]+?) \|", section, flags=re.MULTILINE)
    return {name.strip(): default.strip() for name, default in rows}


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts TCP connections and never sends a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)  # kept open, never read or answered

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        server.close()


def test_the_timeouts_and_connection_id_are_the_documented_defaults_and_those_of_mcp() -> None:
    documented = documented_defaults()
    agent = A2AAgent("http://agent.test")
    mcp = MCPAgent("http://server.test/mcp")
    assert documented["connect_timeout"] == "30 s"
    assert agent.config.connect_timeout == mcp.config.connect_timeout == 30.0
    assert documented["request_timeout"] == "`None`"
    assert agent.config.request_timeout is None and mcp.config.request_timeout is None
    assert "A2A: the URL" in documented["connection_id"]
    assert agent.connection_id == "http://agent.test"


@pytest.mark.asyncio
async def test_without_a_wire_recorder_the_agent_records_its_traffic_in_its_own() -> None:
    assert "own `WireRecorder`" in documented_defaults()["wire"]
    app = build_travel_app("http://travel.test", chunk_delay=0)
    agent = A2AAgent("http://travel.test", http_transport=httpx.ASGITransport(app))
    assert isinstance(agent.config.wire, WireRecorder)
    async with agent:
        await agent.invoke_async("Plan a trip to Lisbon")
    kinds = {r.kind for r in agent.config.wire.records()}
    assert {WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE, WireKind.SSE_EVENT} <= kinds
    other = A2AAgent("http://travel.test")
    assert other.config.wire is not agent.config.wire  # each agent its own log unless one is shared


@pytest.mark.asyncio
async def test_with_no_request_timeout_requests_carry_no_read_limit() -> None:
    # httpx's own default would give up after 5 s; the agent's None must reach the client as "no limit".
    app = build_travel_app("http://travel.test", chunk_delay=0)

    class Seeing(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx.ASGITransport(app)
            self.read_timeouts: list[float | None] = []

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            self.read_timeouts.append((request.extensions.get("timeout") or {}).get("read", "unset"))
            return await self.inner.handle_async_request(request)

    transport = Seeing()
    async with A2AAgent("http://travel.test", streaming=False, http_transport=transport) as agent:
        result = await agent.invoke_async("Plan a trip to Lisbon")
    assert result.state == "input_required"
    assert transport.read_timeouts and set(transport.read_timeouts) == {None}


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"binding": "GRPC-ish"}, "binding"),
        ({"connect_timeout": 0}, "connect_timeout"),
        ({"connect_timeout": -1}, "connect_timeout"),
        ({"request_timeout": 0}, "request_timeout"),
        ({"stream_idle_timeout": -5}, "stream_idle_timeout"),
        ({"protocol_version": "2.0"}, "protocol_version"),
    ],
)
def test_a_bad_option_is_a_config_error_at_construction_naming_it(kwargs: dict[str, object], option: str) -> None:
    assert (
        "`ConfigError` at construction"
        in documented_defaults()["a bad option (unknown mode, transport, binding, protocol version)"]
    )
    with pytest.raises(ConfigError) as info:
        A2AAgent("http://agent.test", **kwargs)  # type: ignore[arg-type]
    assert info.value.details["option"] == option


@pytest.mark.parametrize("url", ["agent.test:8000", "ftp://agent.test/", "file:///etc/passwd"])
def test_a_url_that_is_not_http_is_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError) as info:
        A2AAgent(url)
    assert info.value.details["option"] == "url"


@pytest.mark.asyncio
async def test_the_connect_timeout_bounds_the_card_fetch_from_a_peer_that_never_answers(silent_port: int) -> None:
    agent = A2AAgent(f"http://127.0.0.1:{silent_port}", connect_timeout=1.0)
    started = time.monotonic()
    with pytest.raises(RequestTimeoutError) as info:
        await agent.connect()
    elapsed = time.monotonic() - started
    assert 0.9 <= elapsed < 3.0, elapsed
    assert info.value.details["connect_timeout"] == 1.0
    assert not agent.connected


@pytest.mark.asyncio
async def test_send_with_connect_timeout_3_stops_in_about_3_seconds_against_a_silent_agent(silent_port: int) -> None:
    started = time.monotonic()
    code, _out, err = await workbench(
        "send", "--a2a", f"http://127.0.0.1:{silent_port}", "--connect-timeout", "3", "hello", timeout=30
    )
    elapsed = time.monotonic() - started
    assert code != 0
    assert "3 s" in err
    assert elapsed < 3 + 5, elapsed  # 3 s of waiting plus the interpreter's start-up on a loaded machine
