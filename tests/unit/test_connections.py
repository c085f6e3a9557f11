"""ConnectionManager: the state machine, its events, the owner task, loss, reconnect and closing.

The agents here are a small in-test class with the surface the manager uses (``connect``, ``aclose``,
``capabilities``, the optional ``on_lost`` hook): our own interface, told to succeed, fail, hang or die.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio

from workbench.core import connections as connections_module
from workbench.core.connection import ALLOWED_TRANSITIONS, Connection, check_transition
from workbench.core.connections import ConnectionManager
from workbench.core.errors import (
    ConnectError,
    ConnectionLostError,
    NotFoundError,
    UnreachableError,
    UsageError,
)
from workbench.core.events import ConnectionState, ConnectionStateChanged, EventBus, ServerProcessExited
from workbench.core.profiles import MCPHTTPProfile, MCPStdioProfile
from workbench.core.protocols.base import AgentCapabilities

S = ConnectionState
BOUND = 5.0  # seconds any wait in these tests may take at most


@dataclass
class Script:
    """How the next agent built for a connection behaves."""

    fail_with: BaseException | None = None
    hold_connect: asyncio.Event | None = None
    hang_close: bool = False
    protocol_version: str = "2026-07-28"


class ScriptedAgent:
    """The agent surface the manager relies on, driven by a ``Script``."""

    def __init__(self, profile: Any, script: Script, connect_started: asyncio.Event) -> None:
        self.name = profile.name
        self.on_lost: Callable[[BaseException], None] | None = None
        self.script = script
        self.connect_started = connect_started
        self.connect_task: asyncio.Task[Any] | None = None
        self.close_tasks: list[asyncio.Task[Any] | None] = []
        self.is_open = False

    def set_loss_handler(self, handler: Callable[[BaseException], None] | None) -> None:
        self.on_lost = handler

    async def connect(self) -> None:
        self.connect_task = asyncio.current_task()
        self.is_open = True  # resources are held from here on, even if the handshake then fails
        self.connect_started.set()
        if self.script.hold_connect is not None:
            await self.script.hold_connect.wait()
        if self.script.fail_with is not None:
            raise self.script.fail_with

    @property
    def capabilities(self) -> AgentCapabilities:
        if not self.is_open:
            raise UsageError("not connected")
        return AgentCapabilities(protocol="mcp", protocol_version=self.script.protocol_version, transport="stdio")

    async def aclose(self) -> None:
        self.close_tasks.append(asyncio.current_task())
        self.is_open = False
        if self.script.hang_close:
            await asyncio.Event().wait()

    def die(self, error: BaseException) -> None:
        assert self.on_lost is not None, "the manager installs the hook"
        self.on_lost(error)


class ScriptedFactory:
    """Builds ``ScriptedAgent``s; scripts are queued per connection id (default: connect fine)."""

    def __init__(self) -> None:
        self.scripts: dict[str, list[Script]] = {}
        self.built: list[ScriptedAgent] = []
        self.calls: list[dict[str, Any]] = []
        self._connect_started = asyncio.Event()

    async def handshake_started(self) -> None:
        """Wait until an agent's ``connect`` has begun (in its owner task)."""
        async with asyncio.timeout(BOUND):
            await self._connect_started.wait()

    def queue(self, connection_id: str, *scripts: Script) -> None:
        self.scripts.setdefault(connection_id, []).extend(scripts)

    async def __call__(self, profile: Any, *, connection_id: str, wire: Any, bus: Any) -> ScriptedAgent:
        self.calls.append({"profile": profile, "connection_id": connection_id, "wire": wire, "bus": bus})
        queued = self.scripts.get(connection_id) or []
        agent = ScriptedAgent(profile, queued.pop(0) if queued else Script(), self._connect_started)
        self.built.append(agent)
        return agent


class Recorder:
    """Collects state changes and lets a test wait for one."""

    def __init__(self, bus: EventBus) -> None:
        self.events: list[ConnectionStateChanged] = []
        self._changed = asyncio.Event()
        bus.subscribe(ConnectionStateChanged, self._on_event)

    def _on_event(self, event: ConnectionStateChanged) -> None:
        self.events.append(event)
        self._changed.set()

    def path(self, connection_id: str) -> list[tuple[S, S]]:
        return [(e.old, e.new) for e in self.events if e.connection_id == connection_id]

    async def wait_for(self, connection_id: str, state: S) -> ConnectionStateChanged:
        async with asyncio.timeout(BOUND):
            while True:
                for event in self.events:
                    if event.connection_id == connection_id and event.new is state:
                        return event
                self._changed.clear()
                await self._changed.wait()


def profile(profile_id: str = "srv", **kw: Any) -> MCPStdioProfile:
    return MCPStdioProfile(id=profile_id, name=f"server {profile_id}", command="demo-server", **kw)


@pytest.fixture
def bus() -> EventBus:
    return EventBus()


@pytest.fixture
def factory() -> ScriptedFactory:
    return ScriptedFactory()


@pytest.fixture
def recorder(bus: EventBus) -> Recorder:
    return Recorder(bus)


@pytest_asyncio.fixture
async def manager(bus: EventBus, factory: ScriptedFactory) -> AsyncIterator[ConnectionManager]:
    mgr = ConnectionManager(bus, factory=factory, close_timeout=BOUND)
    yield mgr
    await mgr.aclose()


# ------------------------------------------------------------------ the diagram


def test_only_the_transitions_of_the_diagram_are_allowed() -> None:
    allowed = {(old, new) for old, targets in ALLOWED_TRANSITIONS.items() for new in targets}
    assert allowed == {
        (S.DISCONNECTED, S.CONNECTING),
        (S.CONNECTING, S.CONNECTED),
        (S.CONNECTING, S.FAILED),
        (S.CONNECTING, S.CLOSED),
        (S.CONNECTED, S.FAILED),
        (S.CONNECTED, S.CLOSED),
        (S.FAILED, S.CONNECTING),
        (S.FAILED, S.CLOSED),
        (S.CLOSED, S.CONNECTING),
    }
    for old, new in itertools.product(S, S):
        if (old, new) in allowed:
            check_transition(old, new)
        else:
            with pytest.raises(UsageError):
                check_transition(old, new)


# ------------------------------------------------------------------ connecting


@pytest.mark.asyncio
async def test_connect_publishes_connecting_then_connected_with_the_protocol_version(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    assert conn.state is S.CONNECTED
    assert conn.protocol_version == "2026-07-28"
    assert conn.connected_at is not None
    assert conn.agent is factory.built[0]
    assert conn.connected_agent() is factory.built[0]
    assert recorder.path("srv") == [(S.DISCONNECTED, S.CONNECTING), (S.CONNECTING, S.CONNECTED)]
    assert recorder.events[-1].detail == "2026-07-28"
    assert manager.get("srv") is conn
    assert manager.connections() == [conn]


@pytest.mark.asyncio
async def test_the_factory_gets_the_profile_connection_id_wire_and_bus(bus: EventBus, factory: ScriptedFactory) -> None:
    wire = object()
    async with ConnectionManager(bus, factory=factory, wire=wire) as mgr:  # type: ignore[arg-type]
        await mgr.connect(profile(), connection_id="custom-id")
        assert mgr.get("custom-id") is not None
    (call,) = factory.calls
    assert call["connection_id"] == "custom-id"
    assert call["wire"] is wire
    assert call["bus"] is bus
    assert call["profile"].id == "srv"


@pytest.mark.asyncio
async def test_one_owner_task_connects_and_closes_the_agent_not_the_callers(
    manager: ConnectionManager, factory: ScriptedFactory
) -> None:
    connect_caller = asyncio.create_task(manager.connect(profile()))
    await asyncio.wait_for(connect_caller, BOUND)
    agent = factory.built[0]
    disconnect_caller = asyncio.create_task(manager.disconnect("srv"))
    await asyncio.wait_for(disconnect_caller, BOUND)
    assert agent.connect_task is not None
    assert agent.close_tasks == [agent.connect_task]
    assert agent.connect_task not in (connect_caller, disconnect_caller, asyncio.current_task())
    assert agent.connect_task.get_name() == "workbench-connection:srv"


@pytest.mark.asyncio
async def test_a_failed_handshake_raises_the_typed_error_and_publishes_failed_with_the_reason(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    error = UnreachableError("Could not start 'demo-server'.", hint="is it installed?")
    factory.queue("srv", Script(fail_with=error))
    with pytest.raises(UnreachableError) as exc:
        await manager.connect(profile())
    assert exc.value is error
    conn = manager.get("srv")
    assert conn is not None
    assert conn.state is S.FAILED
    assert conn.error is error
    assert conn.agent is None
    assert recorder.path("srv") == [(S.DISCONNECTED, S.CONNECTING), (S.CONNECTING, S.FAILED)]
    failed = recorder.events[-1]
    assert failed.error is error
    assert failed.detail == str(error)
    agent = factory.built[0]
    assert agent.close_tasks == [agent.connect_task]  # the half-open agent was closed by its owner
    with pytest.raises(UnreachableError):
        conn.connected_agent()


@pytest.mark.asyncio
async def test_a_foreign_exception_from_the_agent_becomes_a_connect_error(
    manager: ConnectionManager, factory: ScriptedFactory
) -> None:
    cause = RuntimeError("library bug")
    factory.queue("srv", Script(fail_with=cause))
    with pytest.raises(ConnectError) as exc:
        await manager.connect(profile())
    assert exc.value.code == "connect"
    assert exc.value.__cause__ is cause


@pytest.mark.asyncio
async def test_a_single_typed_error_inside_an_exception_group_is_unwrapped(
    manager: ConnectionManager, factory: ScriptedFactory
) -> None:
    inner = ConnectionLostError("stream closed")
    factory.queue("srv", Script(fail_with=ExceptionGroup("task group", [inner])))
    with pytest.raises(ConnectionLostError) as exc:
        await manager.connect(profile())
    assert exc.value is inner


@pytest.mark.asyncio
async def test_a_handshake_that_hangs_past_the_connect_timeout_fails(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections_module, "CONNECT_GRACE", 0.0)
    factory.queue("srv", Script(hold_connect=asyncio.Event()))  # never set
    with pytest.raises(ConnectError) as exc:
        await manager.connect(profile(connect_timeout=0.05))
    assert exc.value.code == "connect"
    assert exc.value.details["timeout"] == 0.05
    assert recorder.path("srv")[-1] == (S.CONNECTING, S.FAILED)
    assert factory.built[0].is_open is False


@pytest.mark.asyncio
async def test_connect_on_a_connected_connection_is_refused_and_changes_nothing(
    manager: ConnectionManager, recorder: Recorder
) -> None:
    await manager.connect(profile())
    before = list(recorder.events)
    with pytest.raises(UsageError):
        await manager.connect(profile())
    assert recorder.events == before
    conn = manager.get("srv")
    assert conn is not None
    assert conn.state is S.CONNECTED


@pytest.mark.asyncio
async def test_connect_reuses_a_closed_connection_with_the_new_profile(
    manager: ConnectionManager, recorder: Recorder
) -> None:
    first = await manager.connect(profile())
    await manager.disconnect("srv")
    second = await manager.connect(profile(mode="legacy"))
    assert second is first
    assert second.profile.mode == "legacy"
    assert recorder.path("srv")[-2:] == [(S.CLOSED, S.CONNECTING), (S.CONNECTING, S.CONNECTED)]


# ------------------------------------------------------------------ disconnecting


@pytest.mark.asyncio
async def test_disconnect_closes_the_agent_and_ends_closed(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    await manager.disconnect("srv")
    assert conn.state is S.CLOSED
    assert conn.agent is None
    assert conn.error is None
    assert factory.built[0].is_open is False
    assert recorder.path("srv")[-1] == (S.CONNECTED, S.CLOSED)
    with pytest.raises(UsageError):
        conn.connected_agent()


@pytest.mark.asyncio
async def test_disconnecting_a_closed_connection_again_does_nothing(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    await manager.connect(profile())
    await manager.disconnect("srv")
    before = list(recorder.events)
    await manager.disconnect("srv")
    assert recorder.events == before
    assert len(factory.built[0].close_tasks) == 1


@pytest.mark.asyncio
async def test_disconnect_during_the_handshake_abandons_it_and_connect_raises(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    factory.queue("srv", Script(hold_connect=asyncio.Event()))
    connecting = asyncio.create_task(manager.connect(profile()))
    await recorder.wait_for("srv", S.CONNECTING)
    await factory.handshake_started()
    await manager.disconnect("srv")
    with pytest.raises(ConnectError) as exc:
        await asyncio.wait_for(connecting, BOUND)
    assert exc.value.details["closed"] is True
    assert recorder.path("srv") == [(S.DISCONNECTED, S.CONNECTING), (S.CONNECTING, S.CLOSED)]
    agent = factory.built[0]
    assert agent.close_tasks == [agent.connect_task]
    assert agent.is_open is False


@pytest.mark.asyncio
async def test_cancelling_the_connect_call_abandons_the_attempt(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    factory.queue("srv", Script(hold_connect=asyncio.Event()))
    connecting = asyncio.create_task(manager.connect(profile()))
    await factory.handshake_started()
    connecting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await connecting
    await recorder.wait_for("srv", S.CLOSED)
    assert factory.built[0].is_open is False
    assert factory.built[0].close_tasks == [factory.built[0].connect_task]


@pytest.mark.asyncio
async def test_disconnect_right_after_connect_started_closes_even_before_the_owner_ran(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    connecting = asyncio.create_task(manager.connect(profile()))
    await recorder.wait_for("srv", S.CONNECTING)  # the owner task exists but has not run a step
    await manager.disconnect("srv")
    with pytest.raises(ConnectError):
        await asyncio.wait_for(connecting, BOUND)
    conn = manager.get("srv")
    assert conn is not None
    assert conn.state is S.CLOSED
    assert all(not a.is_open for a in factory.built)


@pytest.mark.asyncio
async def test_disconnect_is_bounded_when_the_agent_will_not_close(
    bus: EventBus, recorder: Recorder, factory: ScriptedFactory
) -> None:
    factory.queue("srv", Script(hang_close=True))
    async with ConnectionManager(bus, factory=factory, close_timeout=0.05) as mgr:
        conn = await mgr.connect(profile())
        await asyncio.wait_for(mgr.disconnect("srv"), BOUND)
        assert conn.state is S.CLOSED


@pytest.mark.asyncio
async def test_an_unknown_connection_id_is_not_found(manager: ConnectionManager) -> None:
    with pytest.raises(NotFoundError):
        await manager.disconnect("nope")
    with pytest.raises(NotFoundError):
        await manager.reconnect("nope")


@pytest.mark.asyncio
async def test_remove_disconnects_and_forgets(manager: ConnectionManager, factory: ScriptedFactory) -> None:
    await manager.connect(profile())
    await manager.remove("srv")
    assert manager.get("srv") is None
    assert factory.built[0].is_open is False


# ------------------------------------------------------------------ losing the peer


@pytest.mark.asyncio
async def test_a_peer_lost_through_the_agent_hook_fails_the_connection_after_closing_the_agent(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    agent = factory.built[0]
    lost = ConnectionLostError("The server closed the stream.")
    agent.die(lost)
    failed = await recorder.wait_for("srv", S.FAILED)
    assert (failed.old, failed.error, failed.detail) == (S.CONNECTED, lost, str(lost))
    assert conn.error is lost
    assert conn.agent is None
    assert agent.close_tasks == [agent.connect_task]


@pytest.mark.asyncio
async def test_a_foreign_loss_reason_is_wrapped_in_a_connection_lost_error(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    cause = BrokenPipeError("pipe")
    factory.built[0].die(cause)
    await recorder.wait_for("srv", S.FAILED)
    assert isinstance(conn.error, ConnectionLostError)
    assert conn.error.__cause__ is cause


@pytest.mark.asyncio
async def test_a_lost_peer_fails_only_its_own_connection(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    crashing = await manager.connect(profile("crashing"))
    other = await manager.connect(profile("other"))
    factory.built[0].die(ConnectionLostError("gone", details={"pid": 4242, "returncode": -9}))
    failed = await recorder.wait_for("crashing", S.FAILED)
    assert isinstance(failed.error, ConnectionLostError)
    assert failed.error.details == {"pid": 4242, "returncode": -9}
    assert crashing.state is S.FAILED
    assert other.state is S.CONNECTED


@pytest.mark.asyncio
async def test_a_server_exit_event_is_no_report_of_a_loss_only_the_agent_reports_one(
    manager: ConnectionManager, recorder: Recorder, bus: EventBus
) -> None:
    conn = await manager.connect(profile())
    bus.publish(ServerProcessExited(connection_id="srv", pid=1, returncode=-9, expected=False))
    await asyncio.sleep(0)  # give a (wrong) owner wake-up the chance to run
    assert conn.state is S.CONNECTED
    assert recorder.path("srv")[-1] == (S.CONNECTING, S.CONNECTED)


@pytest.mark.asyncio
async def test_a_loss_reported_twice_fails_the_connection_once_with_the_first_error(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    first = ConnectionLostError("the stream ended")
    factory.built[0].die(first)
    factory.built[0].die(ConnectionLostError("and the process exited"))
    await recorder.wait_for("srv", S.FAILED)
    conn.mark_lost(ConnectionLostError("once it is FAILED, ignored"))
    assert conn.error is first
    assert [new for _, new in recorder.path("srv")].count(S.FAILED) == 1


@pytest.mark.asyncio
async def test_a_loss_reported_during_the_handshake_fails_the_attempt_once_it_returns(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    gate = asyncio.Event()
    factory.queue("srv", Script(hold_connect=gate))
    connecting = asyncio.create_task(manager.connect(profile()))
    await recorder.wait_for("srv", S.CONNECTING)
    await factory.handshake_started()
    factory.built[0].die(ConnectionLostError("child exited during start-up"))
    gate.set()
    with pytest.raises(ConnectionLostError):
        await asyncio.wait_for(connecting, BOUND)
    assert recorder.path("srv") == [(S.DISCONNECTED, S.CONNECTING), (S.CONNECTING, S.FAILED)]


@pytest.mark.asyncio
async def test_disconnecting_a_failed_connection_moves_it_to_closed_without_closing_the_agent_twice(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    factory.built[0].die(ConnectionLostError("gone"))
    await recorder.wait_for("srv", S.FAILED)
    await manager.disconnect("srv")
    assert conn.state is S.CLOSED
    assert recorder.path("srv")[-2:] == [(S.CONNECTED, S.FAILED), (S.FAILED, S.CLOSED)]
    assert len(factory.built[0].close_tasks) == 1


@pytest.mark.asyncio
async def test_a_loss_reported_while_disconnecting_does_not_turn_closed_into_failed(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    conn = await manager.connect(profile())
    disconnecting = asyncio.create_task(manager.disconnect("srv"))
    await asyncio.sleep(0)  # disconnect has asked the owner to stop
    factory.built[0].die(ConnectionLostError("the pipe broke while closing"))
    await asyncio.wait_for(disconnecting, BOUND)
    assert conn.state is S.CLOSED
    assert S.FAILED not in [new for _, new in recorder.path("srv")]


# ------------------------------------------------------------------ reconnecting


@pytest.mark.asyncio
async def test_reconnect_closes_and_connects_again_with_a_new_agent(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    first = await manager.connect(profile())
    factory.queue("srv", Script(protocol_version="2025-11-25"))
    again = await manager.reconnect("srv")
    assert again is first
    assert again.state is S.CONNECTED
    assert again.protocol_version == "2025-11-25"
    old, new = factory.built
    assert again.agent is new
    assert old.is_open is False
    assert recorder.path("srv") == [
        (S.DISCONNECTED, S.CONNECTING),
        (S.CONNECTING, S.CONNECTED),
        (S.CONNECTED, S.CLOSED),
        (S.CLOSED, S.CONNECTING),
        (S.CONNECTING, S.CONNECTED),
    ]


@pytest.mark.asyncio
async def test_reconnect_after_a_failure_goes_straight_to_connecting(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    factory.queue("srv", Script(fail_with=UnreachableError("refused")))
    with pytest.raises(UnreachableError):
        await manager.connect(profile())
    conn = await manager.reconnect("srv")
    assert conn.state is S.CONNECTED
    assert conn.error is None
    assert recorder.path("srv")[-3:] == [
        (S.CONNECTING, S.FAILED),
        (S.FAILED, S.CONNECTING),
        (S.CONNECTING, S.CONNECTED),
    ]


@pytest.mark.asyncio
async def test_a_failing_reconnect_raises_and_leaves_the_connection_failed(
    manager: ConnectionManager, factory: ScriptedFactory
) -> None:
    await manager.connect(profile())
    factory.queue("srv", Script(fail_with=UnreachableError("refused")))
    with pytest.raises(UnreachableError):
        await manager.reconnect("srv")
    conn = manager.get("srv")
    assert conn is not None
    assert conn.state is S.FAILED


@pytest.mark.asyncio
async def test_two_reconnects_at_once_run_one_after_the_other(
    manager: ConnectionManager, recorder: Recorder, factory: ScriptedFactory
) -> None:
    await manager.connect(profile())
    results = await asyncio.wait_for(asyncio.gather(manager.reconnect("srv"), manager.reconnect("srv")), BOUND)
    assert all(c.state is S.CONNECTED for c in results)
    assert len(factory.built) == 3
    assert [a.is_open for a in factory.built] == [False, False, True]
    assert [new for _, new in recorder.path("srv")].count(S.CONNECTED) == 3


# ------------------------------------------------------------------ many at once, closing all


@pytest.mark.asyncio
async def test_several_connections_live_at_once_and_close_independently(
    manager: ConnectionManager, factory: ScriptedFactory
) -> None:
    conns = await asyncio.wait_for(asyncio.gather(*(manager.connect(profile(f"s{i}")) for i in range(3))), BOUND)
    assert [c.state for c in conns] == [S.CONNECTED] * 3
    owners = {a.connect_task for a in factory.built}
    assert len(owners) == 3  # one owner task each
    await manager.disconnect("s1")
    assert [c.state for c in conns] == [S.CONNECTED, S.CLOSED, S.CONNECTED]
    assert [a.is_open for a in sorted(factory.built, key=lambda a: a.name)] == [True, False, True]


@pytest.mark.asyncio
async def test_aclose_closes_every_connection_and_refuses_new_ones(
    bus: EventBus, recorder: Recorder, factory: ScriptedFactory
) -> None:
    mgr = ConnectionManager(bus, factory=factory)
    factory.queue("bad", Script(fail_with=UnreachableError("refused")))
    await mgr.connect(profile("a"))
    await mgr.connect(profile("b"))
    with pytest.raises(UnreachableError):
        await mgr.connect(profile("bad"))
    await mgr.aclose()
    assert {c.id: c.state for c in mgr.connections()} == {"a": S.CLOSED, "b": S.CLOSED, "bad": S.CLOSED}
    assert not any(a.is_open for a in factory.built)
    with pytest.raises(UsageError):
        await mgr.connect(profile("c"))
    await mgr.aclose()  # twice is fine


@pytest.mark.asyncio
async def test_a_connection_repr_names_its_id_kind_and_state(manager: ConnectionManager) -> None:
    conn = await manager.connect(MCPHTTPProfile(id="h", name="h", url="http://127.0.0.1:9/mcp"))
    assert isinstance(conn, Connection)
    assert repr(conn) == "<Connection 'h' mcp-http connected>"


@pytest.mark.asyncio
async def test_start_connect_is_connecting_on_return_and_awaiting_it_gives_the_connection(
    manager: ConnectionManager, recorder: Recorder
) -> None:
    pending = manager.start_connect(profile())
    assert manager.get("srv").state is S.CONNECTING  # before any task ran: a window says so at once
    assert recorder.path("srv") == [(S.DISCONNECTED, S.CONNECTING)]
    async with asyncio.timeout(BOUND):
        conn = await pending
    assert conn.state is S.CONNECTED
    with pytest.raises(UsageError):
        manager.start_connect(profile())  # already connected: refused at once, not when awaited
