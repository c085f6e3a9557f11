"""ConnectionManager against the real demo MCP server: stdio child, Streamable HTTP and SSE on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from workbench.core.connection import Connection
from workbench.core.connections import ConnectionManager
from workbench.core.errors import ConnectError, ConnectionLostError
from workbench.core.events import ConnectionState, ConnectionStateChanged, EventBus, ServerProcessExited
from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile, MCPStdioProfile
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.mcp_server import serve_http

S = ConnectionState
BOUND = 30.0
REPO = Path(__file__).resolve().parents[2]


def stdio_profile(profile_id: str = "demo-stdio") -> MCPStdioProfile:
    return MCPStdioProfile(
        id=profile_id,
        name="demo (stdio)",
        command=sys.executable,
        args=["-m", "workbench.demo.mcp_server", "--stdio"],
        cwd=str(REPO),
    )


def process_alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # closed again: nothing listens there


class States:
    def __init__(self, bus: EventBus) -> None:
        self.events: list[ConnectionStateChanged] = []
        self.exits: list[ServerProcessExited] = []
        self._changed = asyncio.Event()
        bus.subscribe(ConnectionStateChanged, self._on)
        bus.subscribe(ServerProcessExited, self.exits.append)

    def _on(self, event: ConnectionStateChanged) -> None:
        self.events.append(event)
        self._changed.set()

    def path(self, cid: str) -> list[S]:
        return [e.new for e in self.events if e.connection_id == cid]

    async def wait_for(self, cid: str, state: S) -> ConnectionStateChanged:
        async with asyncio.timeout(BOUND):
            while True:
                for event in self.events:
                    if event.connection_id == cid and event.new is state:
                        return event
                self._changed.clear()
                await self._changed.wait()


@pytest.fixture
def bus() -> EventBus:
    return EventBus()


@pytest.fixture
def states(bus: EventBus) -> States:
    return States(bus)


@pytest_asyncio.fixture
async def manager(bus: EventBus) -> AsyncIterator[ConnectionManager]:
    mgr = ConnectionManager(bus, wire=WireRecorder())
    yield mgr
    await mgr.aclose()


@pytest.mark.asyncio
async def test_a_stdio_profile_connects_and_disconnect_leaves_no_child(
    manager: ConnectionManager, states: States
) -> None:
    conn = await asyncio.wait_for(manager.connect(stdio_profile()), BOUND)
    assert conn.state is S.CONNECTED
    assert conn.protocol_version == "2026-07-28"  # auto mode + a 2.x server
    agent = conn.agent
    assert isinstance(agent, MCPAgent)
    assert agent.stdio_process is not None
    pid = agent.stdio_process.pid
    assert pid is not None
    assert process_alive(pid)
    assert len(agent.tools) > 0
    await asyncio.wait_for(manager.disconnect("demo-stdio"), BOUND)
    assert conn.state is S.CLOSED
    assert not process_alive(pid)
    assert states.path("demo-stdio") == [S.CONNECTING, S.CONNECTED, S.CLOSED]
    assert [(e.pid, e.expected) for e in states.exits] == [(pid, True)]


@pytest.mark.asyncio
async def test_a_killed_stdio_server_fails_the_connection_and_reconnect_starts_a_new_one(
    manager: ConnectionManager, states: States
) -> None:
    conn = await asyncio.wait_for(manager.connect(stdio_profile()), BOUND)
    assert isinstance(conn.agent, MCPAgent)
    info = conn.agent.stdio_process
    assert info is not None
    assert info.pid is not None
    first_pid = info.pid
    os.kill(first_pid, signal.SIGKILL)
    failed = await states.wait_for("demo-stdio", S.FAILED)
    assert isinstance(failed.error, ConnectionLostError)
    assert failed.error.details["returncode"] == -signal.SIGKILL
    assert conn.agent is None

    again = await asyncio.wait_for(manager.reconnect("demo-stdio"), BOUND)
    assert again.state is S.CONNECTED
    assert isinstance(again.agent, MCPAgent)
    info = again.agent.stdio_process
    assert info is not None
    assert info.pid not in (None, first_pid)
    second_pid = info.pid
    assert second_pid is not None
    await asyncio.wait_for(manager.aclose(), BOUND)
    assert not process_alive(second_pid)
    assert states.path("demo-stdio") == [S.CONNECTING, S.CONNECTED, S.FAILED, S.CONNECTING, S.CONNECTED, S.CLOSED]


@pytest.mark.asyncio
async def test_a_killed_stdio_server_is_reported_lost_exactly_once(
    manager: ConnectionManager, states: States, monkeypatch: pytest.MonkeyPatch
) -> None:
    reports: list[BaseException] = []
    mark_lost = Connection.mark_lost

    def counted(conn: Connection, error: BaseException) -> None:
        reports.append(error)
        mark_lost(conn, error)

    monkeypatch.setattr(Connection, "mark_lost", counted)
    conn = await asyncio.wait_for(manager.connect(stdio_profile()), BOUND)
    assert isinstance(conn.agent, MCPAgent)
    info = conn.agent.stdio_process
    assert info is not None
    assert info.pid is not None
    os.kill(info.pid, signal.SIGKILL)
    failed = await states.wait_for("demo-stdio", S.FAILED)
    assert [(e.pid, e.expected) for e in states.exits] == [(info.pid, False)]  # published before FAILED
    assert len(reports) == 1
    assert failed.error is reports[0]
    assert states.path("demo-stdio") == [S.CONNECTING, S.CONNECTED, S.FAILED]


@pytest.mark.asyncio
async def test_a_stdio_command_that_does_not_exist_fails_with_a_connect_error(
    manager: ConnectionManager, states: States
) -> None:
    profile = MCPStdioProfile(id="missing", name="missing", command="/nonexistent/workbench-test-server")
    with pytest.raises(ConnectError):
        await asyncio.wait_for(manager.connect(profile), BOUND)
    assert states.path("missing") == [S.CONNECTING, S.FAILED]


@pytest.mark.asyncio
@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
async def test_an_http_profile_connects_reports_its_version_and_disconnects(
    manager: ConnectionManager, states: States, transport: str
) -> None:
    async with serve_http(transport="sse" if transport == "sse" else "streamable-http") as url:
        cls = MCPSSEProfile if transport == "sse" else MCPHTTPProfile
        conn = await asyncio.wait_for(manager.connect(cls(id="demo-http", name="demo (http)", url=url)), BOUND)
        assert conn.state is S.CONNECTED
        assert conn.protocol_version
        assert conn.capabilities is not None
        assert conn.capabilities.transport
        assert len(conn.connected_agent().tools) > 0
        await asyncio.wait_for(manager.disconnect("demo-http"), BOUND)
        assert conn.state is S.CLOSED
    assert states.path("demo-http") == [S.CONNECTING, S.CONNECTED, S.CLOSED]


@pytest.mark.asyncio
async def test_an_http_profile_with_nothing_listening_fails_with_a_connect_error(
    manager: ConnectionManager, states: States
) -> None:
    profile = MCPHTTPProfile(id="nobody", name="nobody", url=f"http://127.0.0.1:{free_port()}/mcp", connect_timeout=10)
    with pytest.raises(ConnectError):
        await asyncio.wait_for(manager.connect(profile), BOUND)
    failed = await states.wait_for("nobody", S.FAILED)
    assert isinstance(failed.error, ConnectError)
    assert failed.detail


@pytest.mark.asyncio
async def test_a_stdio_and_an_http_connection_live_side_by_side(manager: ConnectionManager) -> None:
    async with serve_http() as url:
        stdio, http = await asyncio.wait_for(
            asyncio.gather(
                manager.connect(stdio_profile()),
                manager.connect(MCPHTTPProfile(id="demo-http", name="demo (http)", url=url)),
            ),
            BOUND,
        )
        assert (stdio.state, http.state) == (S.CONNECTED, S.CONNECTED)
        await asyncio.wait_for(manager.aclose(), BOUND)
        assert (stdio.state, http.state) == (S.CLOSED, S.CLOSED)
