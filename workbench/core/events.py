"""Frozen core events (past-tense facts) and a small synchronous publish/subscribe bus.

Services publish; the Qt bridge and the CLI subscribe. Handlers run synchronously on the publishing
thread (the event loop's), so they must be quick: queue work, never block.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

log = logging.getLogger(__name__)


class ConnectionState(StrEnum):
    """Lifecycle of one connection, owned by the connection manager."""

    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    FAILED = "failed"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class CoreEvent:
    """Base of every event on the bus; ``at`` is wall-clock seconds."""

    at: float = field(default_factory=time.time, kw_only=True)


@dataclass(frozen=True, slots=True)
class ConnectionStateChanged(CoreEvent):
    """A connection moved to a new state.

    Attributes:
        connection_id: The connection's id (the profile id for saved profiles).
        old: Previous state.
        new: New state.
        detail: Protocol version when connected; the user-facing reason when failed.
        error: The typed error behind a failure, if any.
    """

    connection_id: str
    old: ConnectionState
    new: ConnectionState
    detail: str | None = None
    error: Exception | None = None


@dataclass(frozen=True, slots=True)
class ServerStderrLine(CoreEvent):
    """A stdio server wrote one line to its stderr."""

    connection_id: str
    line: str


@dataclass(frozen=True, slots=True)
class ServerProcessExited(CoreEvent):
    """A stdio server's process ended (expectedly or not)."""

    connection_id: str
    pid: int
    returncode: int | None
    expected: bool


@dataclass(frozen=True, slots=True)
class ListChanged(CoreEvent):
    """The peer said one of its lists (tools, resources, prompts) changed and it was re-fetched."""

    connection_id: str
    what: str


@dataclass(frozen=True, slots=True)
class ResourceUpdated(CoreEvent):
    """A subscribed resource changed on the peer."""

    connection_id: str
    uri: str


Handler = Callable[[Any], None]


class EventBus:
    """Type-keyed synchronous publish/subscribe.

    Subscribing to a base class receives its subclasses too. A failing handler is logged and does
    not stop delivery to the others.
    """

    def __init__(self) -> None:
        self._handlers: list[tuple[type[Any], Handler]] = []

    def subscribe(self, event_type: type[Any], handler: Handler) -> Callable[[], None]:
        """Register ``handler`` for events of ``event_type``; returns an unsubscribe function."""
        entry = (event_type, handler)
        self._handlers.append(entry)

        def unsubscribe() -> None:
            if entry in self._handlers:
                self._handlers.remove(entry)

        return unsubscribe

    def publish(self, event: Any) -> None:
        """Deliver ``event`` to every matching handler, in subscription order."""
        for event_type, handler in list(self._handlers):
            if isinstance(event, event_type):
                try:
                    handler(event)
                except Exception:  # a broken subscriber must not break the publisher
                    log.exception("event handler %r failed for %r", handler, type(event).__name__)


@dataclass(frozen=True, slots=True)
class ElicitationCompleted(CoreEvent):
    """An MCP server said an out-of-band (URL mode) elicitation finished."""

    connection_id: str
    elicitation_id: str
