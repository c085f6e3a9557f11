"""The hops of running chains: ids, nesting, wire sequence numbers, and publishing their ``HandoffEvent``s."""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from workbench.core.events import EventBus
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireRecord

log = logging.getLogger(__name__)

EventCallback = Callable[[HandoffEvent], None]
"""Receives every ``HandoffEvent`` as it happens (besides the bus)."""

SUMMARY_MAX = 200
"""Longest summary kept in an event (the rest is cut with an ellipsis)."""


def short(text: str, limit: int = SUMMARY_MAX) -> str:
    """One line of at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def new_id() -> str:
    """A fresh hop or chain id."""
    return uuid.uuid4().hex[:12]


@dataclass(slots=True)
class Hop:
    """One hop while it runs (mutable; every change is published as a frozen ``HandoffEvent``).

    Attributes:
        chain_id: The chain.
        handoff_id: This hop.
        parent: The hop that caused it (``None`` for the chain's first hop).
        source: Who asks.
        target: Who is asked.
        protocol: ``mcp``, ``a2a`` or ``local``.
        kind: What kind of hop.
        connection_id: The connection whose wire records belong to the hop.
        started_at: ``time.time()`` when it started.
        state: Its current state.
        wire_seqs: First and last wire sequence numbers seen on ``connection_id`` while it ran.
        child_errors: Codes and messages of child hops that failed (the cause of this hop's failure).
    """

    chain_id: str
    handoff_id: str
    parent: Hop | None
    source: str
    target: str
    protocol: str
    kind: HopKind
    connection_id: str | None = None
    started_at: float = field(default_factory=time.time)
    state: HopState = HopState.PENDING
    wire_seqs: tuple[int, int] | None = None
    child_errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def parent_id(self) -> str | None:
        """The parent hop's id."""
        return self.parent.handoff_id if self.parent is not None else None

    @property
    def depth(self) -> int:
        """How deep the hop is (the chain's first hop is 1)."""
        return 1 + (self.parent.depth if self.parent is not None else 0)

    def ancestors(self) -> list[Hop]:
        """The hops above this one, nearest first."""
        out: list[Hop] = []
        hop = self.parent
        while hop is not None:
            out.append(hop)
            hop = hop.parent
        return out

    def agents(self) -> list[str]:
        """Every agent taking part in the chain down to this hop (sources and targets), outermost first."""
        names: list[str] = []
        for hop in reversed([self, *self.ancestors()]):
            for name in (hop.source, hop.target):
                if name != USER and name not in names:
                    names.append(name)
        return names


current_hop: contextvars.ContextVar[Hop | None] = contextvars.ContextVar("workbench_handoff_hop", default=None)
"""The hop whose work the current task is doing (set while the router runs a hop's body)."""


@contextlib.contextmanager
def acting(hop: Hop) -> Iterator[None]:
    """Mark the current task as working for ``hop`` (handlers it triggers nest under it)."""
    token = current_hop.set(hop)
    try:
        yield
    finally:
        current_hop.reset(token)


class HopBook:
    """Open hops, their wire sequence numbers, and event publishing.

    Args:
        bus: Where ``HandoffEvent``s are published (optional).
        on_event: Also called with every event (optional).
        wire: The recorder whose records are matched to hops by connection id (optional).
    """

    def __init__(
        self, *, bus: EventBus | None = None, on_event: EventCallback | None = None, wire: WireRecorder | None = None
    ) -> None:
        self.bus = bus
        self.on_event = on_event
        self.wire = wire
        self._open: dict[str, Hop] = {}
        self._unsubscribe = wire.subscribe(self._on_record) if wire is not None else None

    def close(self) -> None:
        """Stop watching the wire recorder."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def start(
        self,
        *,
        parent: Hop | None,
        source: str,
        target: str,
        protocol: str,
        kind: HopKind,
        connection_id: str | None,
    ) -> Hop:
        """A new hop (not yet published) under ``parent``, or the first of a new chain."""
        hop = Hop(
            chain_id=parent.chain_id if parent is not None else new_id(),
            handoff_id=new_id(),
            parent=parent,
            source=source,
            target=target,
            protocol=protocol,
            kind=kind,
            connection_id=connection_id,
        )
        self._open[hop.handoff_id] = hop
        return hop

    def emit(self, hop: Hop, state: HopState, summary: str = "", detail: dict[str, Any] | None = None) -> HandoffEvent:
        """Move ``hop`` to ``state`` and publish the event."""
        hop.state = state
        if state.finished:
            self._open.pop(hop.handoff_id, None)
        event = HandoffEvent(
            chain_id=hop.chain_id,
            handoff_id=hop.handoff_id,
            parent_id=hop.parent_id,
            source=hop.source,
            target=hop.target,
            protocol=hop.protocol,
            kind=hop.kind,
            state=state,
            summary=short(summary),
            detail={"depth": hop.depth, **(detail or {})},
            connection_id=hop.connection_id,
            wire_seqs=hop.wire_seqs,
            started_at=hop.started_at,
        )
        if self.bus is not None:
            self.bus.publish(event)
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:  # a broken listener must not break the chain
                log.exception("handoff event callback failed")
        return event

    def is_open(self, hop: Hop) -> bool:
        """Whether ``hop`` has not finished."""
        return hop.handoff_id in self._open

    def latest_open_to(self, target: str) -> Hop | None:
        """The most recently started open hop whose target is ``target``."""
        for hop in reversed(self._open.values()):
            if hop.target == target and hop.state in (HopState.WORKING, HopState.WAITING_FOR_USER):
                return hop
        return None

    def parent_for(self, source: str) -> Hop | None:
        """The hop a request coming from ``source`` belongs to.

        The hop the current task works for, if it is open and targets ``source``; else the newest
        open hop targeting ``source`` (callbacks such as MCP sampling may run in another task);
        else ``None`` (the request starts a chain of its own).
        """
        hop = current_hop.get()
        if hop is not None and self.is_open(hop) and hop.target == source:
            return hop
        return self.latest_open_to(source)

    def _on_record(self, record: WireRecord) -> None:
        for hop in self._open.values():
            if hop.connection_id == record.connection_id and hop.state is not HopState.PENDING:
                first = hop.wire_seqs[0] if hop.wire_seqs is not None else record.seq
                hop.wire_seqs = (first, record.seq)
