"""Connection: one profile's live connection, its state machine and the attempt that owns it.

State diagram (``ConnectionState``; every change is published as ``ConnectionStateChanged``)::

    DISCONNECTED ──▶ CONNECTING ──▶ CONNECTED
                       │    │         │    │
                       │    ▼         │    │
                       │  FAILED ◀────┘    │
                       │    │              │
                       ▼    ▼              │
                       CLOSED ◀────────────┘

    and back: FAILED ──▶ CONNECTING, CLOSED ──▶ CONNECTING

    from          to          when
    DISCONNECTED  CONNECTING  connect(): a new Connection's first attempt
    CONNECTING    CONNECTED   the handshake finished (detail: the protocol version)
    CONNECTING    FAILED      the handshake failed or timed out (detail: the reason)
    CONNECTING    CLOSED      disconnect() / reconnect() / aclose(), or connect()'s caller was cancelled
    CONNECTED     FAILED      the peer went away (detail: the reason)
    CONNECTED     CLOSED      disconnect() / reconnect() / aclose()
    FAILED        CONNECTING  connect() / reconnect()
    FAILED        CLOSED      disconnect() / remove() / aclose()
    CLOSED        CONNECTING  connect() / reconnect()

- ``DISCONNECTED`` is where a ``Connection`` starts, before its first attempt; it is never re-entered.
  A saved profile with no ``Connection`` is shown as disconnected too.
- ``CLOSED`` means the workbench closed it on purpose; ``FAILED`` means it could not connect or the
  peer went away, with the typed error in ``Connection.error`` and the user-facing reason in the
  event's ``detail``. In both, the agent has been closed already (no child process, no socket).
- ``reconnect()`` is ``disconnect()`` then ``connect()`` with the same profile: CONNECTED → CLOSED →
  CONNECTING → …; from FAILED or CLOSED it goes straight to CONNECTING.
- Any other change is refused (``UsageError``): e.g. ``connect()`` on a connection that is CONNECTING
  or CONNECTED.

The ``Connection`` owns its state: the manager (``workbench.core.connections``) moves it with
``mark_connecting``, ``mark_ready``, ``mark_failed``, ``mark_closed`` and ``drop_agent``, each of
which sets its fields and publishes the change; the agent moves it with ``mark_lost``, the one way a
lost peer is reported.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

from workbench.core.errors import ConnectionLostError, UsageError, WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged, EventBus
from workbench.core.profiles import ConnectionProfile
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.contract import RemoteAgent

S = ConnectionState

ALLOWED_TRANSITIONS: Mapping[ConnectionState, frozenset[ConnectionState]] = {
    S.DISCONNECTED: frozenset({S.CONNECTING}),
    S.CONNECTING: frozenset({S.CONNECTED, S.FAILED, S.CLOSED}),
    S.CONNECTED: frozenset({S.FAILED, S.CLOSED}),
    S.FAILED: frozenset({S.CONNECTING, S.CLOSED}),
    S.CLOSED: frozenset({S.CONNECTING}),
}
"""Every legal state change; anything else is refused."""


def check_transition(old: ConnectionState, new: ConnectionState) -> None:
    """Refuse a state change the diagram does not have.

    Raises:
        UsageError: ``old`` → ``new`` is not allowed.
    """
    if new not in ALLOWED_TRANSITIONS[old]:
        raise UsageError(
            f"A connection cannot go from {old.value} to {new.value}.",
            details={"from": old.value, "to": new.value},
        )


class Attempt:
    """One try at a connection: its owner task and how the task is told to stop.

    ``Connection.mark_connecting`` makes one; the manager gives it its owner task and reads and
    sets its fields as the attempt goes on.
    """

    def __init__(self, agent: RemoteAgent | None = None) -> None:
        self.agent = agent  # an agent built elsewhere to connect (None: the factory builds one)
        self.task: asyncio.Task[None] | None = None
        self.phase: str = "starting"  # starting → handshake → running → closing → done
        self.settled = asyncio.Event()  # set once the handshake succeeded or failed
        self.outcome: WorkbenchError | None = None
        self.wake = asyncio.Event()
        self.stop_requested = False
        self.lost: WorkbenchError | None = None

    def loss(self) -> WorkbenchError | None:
        """Why the peer is gone, if it is (a method: the field changes behind awaits)."""
        return self.lost

    def settle(self, error: WorkbenchError | None) -> None:
        """Record how the handshake ended (``None``: it succeeded); only the first outcome counts."""
        if not self.settled.is_set():
            self.outcome = error
            self.settled.set()


class Connection:
    """One live (or formerly live) connection. Created by ``ConnectionManager``; read its fields.

    Attributes are read-only properties. They change only through the ``mark_*`` methods: the
    manager's owner task calls them as the attempt moves through the states, and the agent calls
    ``mark_lost`` when its peer goes away.
    """

    def __init__(self, connection_id: str, profile: ConnectionProfile, bus: EventBus) -> None:
        self._id = connection_id
        self._profile: ConnectionProfile = profile
        self._bus = bus
        self._state = ConnectionState.DISCONNECTED
        self._agent: RemoteAgent | None = None
        self._error: WorkbenchError | None = None
        self._capabilities: AgentCapabilities | None = None
        self._connected_at: float | None = None
        self._attempt: Attempt | None = None
        self._lifecycle = asyncio.Lock()

    # ------------------------------------------------------------------ read-only view

    @property
    def id(self) -> str:
        """The connection id (the profile's id unless the caller chose another)."""
        return self._id

    @property
    def profile(self) -> ConnectionProfile:
        """The profile of the current (or last) attempt."""
        return self._profile

    @property
    def state(self) -> ConnectionState:
        """Where the connection is in its life (see the module docstring)."""
        return self._state

    @property
    def agent(self) -> RemoteAgent | None:
        """The connected agent while CONNECTED; ``None`` otherwise."""
        return self._agent

    @property
    def error(self) -> WorkbenchError | None:
        """Why the last attempt failed (FAILED only)."""
        return self._error

    @property
    def capabilities(self) -> AgentCapabilities | None:
        """What the agent offered when it connected."""
        return self._capabilities

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version once connected."""
        return self._capabilities.protocol_version if self._capabilities else None

    @property
    def connected_at(self) -> float | None:
        """Wall-clock time (``time.time()``) of the last successful handshake."""
        return self._connected_at

    def connected_agent(self) -> RemoteAgent:
        """The agent, or a typed error saying why there is none.

        Raises:
            WorkbenchError: The failure's error when FAILED; ``UsageError`` when not connected.
        """
        if self._agent is not None and self._state is ConnectionState.CONNECTED:
            return self._agent
        if self._state is ConnectionState.FAILED and self._error is not None:
            raise self._error
        raise UsageError(
            f"{self._profile.name!r} is not connected ({self._state.value}).",
            hint="connect it first",
            details={"connection_id": self._id, "state": self._state.value},
        )

    @property
    def attempt(self) -> Attempt | None:
        """The current (or last) attempt at connecting: the manager's handle on its owner task."""
        return self._attempt

    @property
    def lifecycle(self) -> asyncio.Lock:
        """Held by the manager while it closes and reopens the connection (reconnects run one at a time)."""
        return self._lifecycle

    # ------------------------------------------------------------------ transitions

    def mark_lost(self, error: BaseException) -> None:
        """The agent's loss handler: its peer is gone; the connection moves to FAILED once the agent is closed.

        The one way a loss is reported (see the module docstring). Safe to call more than once (the
        first error is kept) and in any state: ignored unless CONNECTING or CONNECTED, and while a
        disconnect is under way.

        Args:
            error: What showed it (``ConnectionLostError`` normally; others are wrapped in one).
        """
        attempt = self._attempt
        if attempt is None or attempt.stop_requested or self._state not in (S.CONNECTING, S.CONNECTED):
            return
        if attempt.lost is None:
            if isinstance(error, WorkbenchError):
                attempt.lost = error
            else:
                attempt.lost = ConnectionLostError(f"The connection to {self._profile.name!r} was lost: {error}")
                attempt.lost.__cause__ = error
        attempt.wake.set()

    def mark_connecting(self, profile: ConnectionProfile, agent: RemoteAgent | None = None) -> Attempt:
        """Start a new attempt with ``profile`` (and an agent built elsewhere, if given): CONNECTING.

        The last attempt's error and capabilities are cleared.

        Returns:
            The new attempt; the manager gives it its owner task.

        Raises:
            UsageError: The connection is CONNECTING or CONNECTED.
        """
        check_transition(self._state, S.CONNECTING)
        self._profile = profile
        self._attempt = Attempt(agent)
        self._error = None
        self._capabilities = None
        self._transition(S.CONNECTING)
        return self._attempt

    def mark_ready(self, agent: RemoteAgent, capabilities: AgentCapabilities) -> None:
        """The handshake finished: CONNECTED, with ``agent`` to use (detail: the protocol version)."""
        check_transition(self._state, S.CONNECTED)
        self._agent = agent
        self._capabilities = capabilities
        self._connected_at = time.time()
        self._transition(S.CONNECTED, detail=capabilities.protocol_version)

    def mark_failed(self, attempt: Attempt, error: WorkbenchError) -> None:
        """``attempt`` failed with ``error``: FAILED.

        Nothing happens when a newer attempt replaced it, or it was closed meanwhile.
        """
        if self._attempt is not attempt or self._state not in (S.CONNECTING, S.CONNECTED):
            return
        self._agent = None
        self._error = error
        self._transition(S.FAILED, detail=str(error), error=error)

    def mark_closed(self, detail: str = "closed") -> None:
        """Closed on purpose: CLOSED, without an agent.

        Raises:
            UsageError: The connection is DISCONNECTED or CLOSED already.
        """
        check_transition(self._state, S.CLOSED)
        self._agent = None
        self._transition(S.CLOSED, detail=detail)

    def drop_agent(self) -> None:
        """Stop handing out the agent (it is being closed); the state changes once it is."""
        self._agent = None

    def _transition(
        self, new: ConnectionState, *, detail: str | None = None, error: WorkbenchError | None = None
    ) -> None:
        old = self._state
        check_transition(old, new)
        self._state = new
        self._bus.publish(ConnectionStateChanged(self._id, old, new, detail=detail, error=error))

    def __repr__(self) -> str:
        return f"<Connection {self._id!r} {self._profile.kind} {self._state.value}>"
