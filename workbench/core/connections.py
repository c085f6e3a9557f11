"""ConnectionManager: profiles become live connections, each opened and closed by one owner task.

The states a connection goes through, and which changes are allowed, are drawn in
``workbench.core.connection``; the manager moves a ``Connection`` through them.

The owner task: an MCP ``Client`` (anyio cancel scopes) must be entered and left by the same task, so
each attempt runs one task that builds the agent, ``await agent.connect()``, parks until asked to stop
or told the peer is gone, then ``await agent.aclose()``. Other tasks use ``connection.agent``
concurrently. ``disconnect()`` wakes the owner and waits for it with a bound (cancelling it if it
overruns); during the handshake it cancels the owner, which closes the half-open agent.

How a lost peer is noticed: one path. The agent is the one that sees its peer go (a stdio child that
exits, a stream that ends, a request that fails with ``ConnectionLostError``); the manager hands it
``Connection.mark_lost`` as its loss handler (``RemoteAgent.set_loss_handler``), and the agent calls
it once. Nothing else reports a loss: not the ``ServerProcessExited`` event (published for the
stderr log after the agent has called the handler), not the code whose request failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Generator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from workbench.core.agent_factory import AgentFactory, DefaultAgentFactory
from workbench.core.connection import Attempt, Connection
from workbench.core.errors import (
    ConnectError,
    NotFoundError,
    UnreachableError,
    UsageError,
    WorkbenchError,
)
from workbench.core.events import ConnectionState, EventBus
from workbench.core.profiles import ConnectionProfile
from workbench.core.protocols.contract import RemoteAgent

if TYPE_CHECKING:
    from workbench.core.wire.recorder import WireRecorder

log = logging.getLogger(__name__)

S = ConnectionState

CONNECT_GRACE = 5.0
"""Seconds the manager waits beyond the profile's connect timeout before giving up on the agent."""

DEFAULT_CLOSE_TIMEOUT = 10.0
"""Seconds ``disconnect`` waits for the owner task to close the agent before cancelling it."""


class ConnectionManager:
    """Owns every live connection: opens, watches, closes and reopens them.

    Args:
        bus: Where state changes are published (and ``ServerProcessExited`` is watched).
        wire: Wire recorder handed to every agent.
        factory: Builds agents from profiles (default: ``DefaultAgentFactory()``: no handlers, no
            secrets; the app passes one with its handlers and credential store).
        close_timeout: Seconds to wait for an owner task to close its agent before cancelling it.

    Use ``async with ConnectionManager(bus) as manager:`` or call ``aclose()`` when done.
    """

    def __init__(
        self,
        bus: EventBus,
        *,
        wire: WireRecorder | None = None,
        factory: AgentFactory | None = None,
        close_timeout: float = DEFAULT_CLOSE_TIMEOUT,
    ) -> None:
        self._bus = bus
        self._wire = wire
        self._factory: AgentFactory = factory or DefaultAgentFactory()
        self._close_timeout = close_timeout
        self._connections: dict[str, Connection] = {}
        self._closed = False

    # ------------------------------------------------------------------ queries

    def get(self, connection_id: str) -> Connection | None:
        """The connection with ``connection_id``, if the manager has one."""
        return self._connections.get(connection_id)

    def connections(self) -> list[Connection]:
        """Every connection the manager holds, in the order they were first made."""
        return list(self._connections.values())

    # ------------------------------------------------------------------ commands

    async def connect(
        self, profile: ConnectionProfile, *, connection_id: str | None = None, agent: RemoteAgent | None = None
    ) -> Connection:
        """Open a connection for ``profile`` and return once it is CONNECTED (``start_connect``, awaited).

        A CLOSED or FAILED connection with the same id is reused (with this ``profile``).

        Args:
            profile: What to connect to.
            connection_id: The id to use (default: ``profile.id``).
            agent: An agent built elsewhere (not connected yet) to connect and own instead of one from
                the factory — e.g. the handoff router's agents, whose handlers the router answers, so
                the window lists, inspects and closes the very agents that take part in the chain.
                The manager connects it, closes it on disconnect, and a reconnect builds a fresh one
                from the factory.

        Returns:
            The connection, CONNECTED (it may fail later; watch its state).

        Raises:
            UsageError: The manager is closed, or the connection is already CONNECTING or CONNECTED.
            WorkbenchError: Why it failed (``ConnectError`` and subclasses, ``ConnectionLostError``,
                ...); the connection is FAILED and the event was published. ``ConnectError`` too
                when it was disconnected before the handshake finished (it is then CLOSED).
        """
        return await self.start_connect(profile, connection_id=connection_id, agent=agent)

    def start_connect(
        self, profile: ConnectionProfile, *, connection_id: str | None = None, agent: RemoteAgent | None = None
    ) -> Awaitable[Connection]:
        """Start connecting ``profile`` now: the connection is CONNECTING (and the event published) on return.

        Whoever shows the connection says "connecting" from the moment it was asked for, not from
        the moment a task gets to run. Arguments, errors and the result as ``connect``'s.

        Returns:
            What to await for the connection, CONNECTED (``connect``'s result and errors). Awaiting
            it is optional: the attempt runs on its own, and a waiter cancelled abandons it.

        Raises:
            UsageError: The manager is closed, or the connection is already CONNECTING or CONNECTED.
        """
        self._check_open()
        cid = connection_id or profile.id
        conn = self._connections.get(cid)
        if conn is None:
            conn = Connection(cid, profile, self._bus)
            self._connections[cid] = conn
        elif conn.state in (S.CONNECTING, S.CONNECTED):
            raise UsageError(
                f"{conn.profile.name!r} is already {conn.state.value}.",
                hint="disconnect it first, or use reconnect",
                details={"connection_id": cid, "state": conn.state.value},
            )
        attempt = self._start(conn, profile, agent)
        return _PendingConnect(self, conn, attempt)

    async def disconnect(self, connection_id: str) -> None:
        """Close the connection; it ends CLOSED. Closing a CLOSED connection does nothing.

        Waits for the owner task to close the agent (bounded by ``close_timeout``, then it is
        cancelled). A connection still handshaking is abandoned; its ``connect()`` raises.

        Raises:
            NotFoundError: No connection has this id.
        """
        await self._stop(self._require(connection_id))

    async def reconnect(self, connection_id: str) -> Connection:
        """Close the connection if it is open, then connect again with the same profile.

        Returns:
            The connection, CONNECTED.

        Raises:
            NotFoundError: No connection has this id.
            UsageError: The manager is closed.
            WorkbenchError: Why the new attempt failed (see ``connect``).
        """
        conn = self._require(connection_id)
        async with conn.lifecycle:  # two reconnects in a row run one after the other
            self._check_open()
            await self._stop(conn, then_reopen=True)
            attempt = conn.attempt
            if conn.state in (S.CONNECTING, S.CONNECTED) and attempt is not None:
                return await self._await_attempt(conn, attempt)  # someone connected it meanwhile
            return await self._await_attempt(conn, self._start(conn, conn.profile))

    async def remove(self, connection_id: str) -> None:
        """Disconnect the connection and forget it (``get`` returns ``None`` afterwards).

        Raises:
            NotFoundError: No connection has this id.
        """
        await self._stop(self._require(connection_id))
        self._connections.pop(connection_id, None)

    async def aclose(self) -> None:
        """Close every connection (concurrently) and refuse new ones. Safe to call twice."""
        self._closed = True
        await asyncio.gather(*(self._stop(c) for c in list(self._connections.values())))

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError("The connection manager is closed.", hint="make a new ConnectionManager")

    def _require(self, connection_id: str) -> Connection:
        conn = self._connections.get(connection_id)
        if conn is None:
            raise NotFoundError(f"There is no connection {connection_id!r}.", details={"connection_id": connection_id})
        return conn

    def _start(self, conn: Connection, profile: ConnectionProfile, agent: RemoteAgent | None = None) -> Attempt:
        attempt = conn.mark_connecting(profile, agent)
        attempt.task = asyncio.create_task(self._own(conn, attempt), name=f"workbench-connection:{conn.id}")
        return attempt

    async def _await_attempt(self, conn: Connection, attempt: Attempt) -> Connection:
        try:
            await attempt.settled.wait()
        except asyncio.CancelledError:
            # The caller gave up on connecting: abandon the attempt rather than leave it half-open.
            if conn.attempt is attempt:
                await self._stop(conn)
            raise
        if attempt.outcome is not None:
            raise attempt.outcome
        return conn

    async def _stop(self, conn: Connection, *, then_reopen: bool = False) -> None:
        """Bring ``conn`` to CLOSED (or leave it FAILED when ``then_reopen``), closing its agent."""
        attempt = conn.attempt
        task = attempt.task if attempt is not None else None
        if attempt is not None and task is not None and not task.done():
            attempt.stop_requested = True
            if attempt.phase in ("starting", "handshake"):
                task.cancel()  # the owner closes the half-open agent as it unwinds
            else:
                attempt.wake.set()
            done, _ = await asyncio.wait({task}, timeout=self._close_timeout)
            if not done:
                log.warning("connection %r did not close within %.1f s; cancelling it", conn.id, self._close_timeout)
                task.cancel()
                done, _ = await asyncio.wait({task}, timeout=self._close_timeout)
                if not done:
                    log.warning("connection %r ignored cancellation; leaving its task behind", conn.id)
            if conn.attempt is attempt and conn.state in (S.CONNECTING, S.CONNECTED):
                # The owner never ran, or was stuck: record the outcome it could not.
                conn.mark_closed()
                attempt.settle(_closed_while_connecting(conn))
        if conn.state is S.FAILED and not then_reopen:
            conn.mark_closed()

    async def _own(self, conn: Connection, attempt: Attempt) -> None:
        """The owner task: the only task that connects and closes this attempt's agent."""
        agent: RemoteAgent | None = None
        profile = conn.profile
        try:
            attempt.phase = "handshake"
            agent = attempt.agent
            if agent is None:
                agent = await self._factory(profile, connection_id=conn.id, wire=self._wire, bus=self._bus)
            agent.set_loss_handler(conn.mark_lost)
            async with asyncio.timeout(profile.connect_timeout + CONNECT_GRACE):
                await agent.connect()
            if attempt.lost is not None:
                raise attempt.lost
            capabilities = agent.capabilities
        except asyncio.CancelledError:
            attempt.phase = "closing"
            await self._close_agent(conn, agent)
            if conn.attempt is attempt and conn.state is S.CONNECTING:
                conn.mark_closed("closed while connecting")
            attempt.settle(_closed_while_connecting(conn))
            attempt.phase = "done"
            raise
        except Exception as exc:  # the owner task is a top-level handler: every failure becomes FAILED
            error = _as_workbench_error(exc, profile)
            attempt.phase = "closing"
            await self._close_agent(conn, agent)
            conn.mark_failed(attempt, error)
            attempt.settle(error)
            attempt.phase = "done"
            return

        attempt.phase = "running"
        conn.mark_ready(agent, capabilities)
        attempt.settle(None)
        try:
            await attempt.wake.wait()
        finally:
            # Reached when stop was requested, the peer was lost, or this task was cancelled.
            attempt.phase = "closing"
            await self._close_agent(conn, agent)
            lost = attempt.loss()
            if conn.attempt is attempt and conn.state is S.CONNECTED:
                if attempt.stop_requested or lost is None:
                    conn.mark_closed()
                else:
                    conn.mark_failed(attempt, lost)
            attempt.phase = "done"

    async def _close_agent(self, conn: Connection, agent: RemoteAgent | None) -> None:
        """Close ``agent`` from the owner task; a failure to close is logged, never raised."""
        conn.drop_agent()
        if agent is None:
            return
        try:
            async with asyncio.timeout(self._close_timeout):
                await agent.aclose()
        except TimeoutError:
            log.warning("closing the agent of connection %r took over %.1f s", conn.id, self._close_timeout)
        except Exception:  # closing is best effort: the connection is going away either way
            log.warning("closing the agent of connection %r failed", conn.id, exc_info=True)


def _closed_while_connecting(conn: Connection) -> ConnectError:
    return ConnectError(
        f"The connection to {conn.profile.name!r} was closed before it was established.",
        details={"connection_id": conn.id, "closed": True},
    )


def _as_workbench_error(exc: Exception, profile: ConnectionProfile) -> WorkbenchError:
    """The typed error for a failed attempt (foreign exceptions are wrapped, with ``__cause__`` kept)."""
    if isinstance(exc, WorkbenchError):
        return exc
    if isinstance(exc, ExceptionGroup):
        leaves = _leaves(exc)
        typed = [e for e in leaves if isinstance(e, WorkbenchError)]
        if len(typed) == 1:
            return typed[0]
    error: WorkbenchError
    if isinstance(exc, TimeoutError):
        error = ConnectError(
            f"Connecting to {profile.name!r} took longer than {profile.connect_timeout:g} s.",
            hint="check that the server is running, or raise the connect timeout in the profile",
            details={"timeout": profile.connect_timeout},
        )
    elif isinstance(exc, OSError):
        error = UnreachableError(f"Could not reach {profile.name!r}: {exc}", details={"errno": exc.errno})
    else:
        error = ConnectError(f"Could not connect to {profile.name!r}: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


class _PendingConnect:
    """A connect under way (``ConnectionManager.start_connect``); awaiting it waits for its outcome.

    Not a coroutine until awaited, so one never awaited (its window closed first) leaves no warning.
    """

    def __init__(self, manager: ConnectionManager, conn: Connection, attempt: Attempt) -> None:
        self._manager, self._conn, self._attempt = manager, conn, attempt

    def __await__(self) -> Generator[Any, None, Connection]:
        return self._manager._await_attempt(self._conn, self._attempt).__await__()
