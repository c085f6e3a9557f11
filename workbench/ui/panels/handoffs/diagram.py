"""ChainDiagram: one chain's lanes, arrows and hops, built incrementally from HandoffEvents (no Qt).

The drawing rules live in ``workbench.core.handoff.mermaid`` (shared with the Mermaid export); this
module adds what the window needs on top: lane states, the hops' latest facts, and a ``DiagramChange``
per event so the scene can add items instead of redrawing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.mermaid import SequenceBuilder, SequenceStep, StepStyle, to_mermaid


class LaneState(StrEnum):
    """What a lane's agent (or the user) is doing now."""

    IDLE = "idle"
    WORKING = "working"
    WAITING_FOR_USER = "waiting-for-user"
    DONE = "done"
    FAILED = "failed"


@dataclass(slots=True)
class Lane:
    """One participant: the user or an agent.

    Attributes:
        name: The agent's name (``USER`` for the user).
        index: Position from the left (the user is 0).
        protocol: ``mcp``/``a2a``/``local`` of the first hop that asked it ("" until known).
        state: What it is doing now.
    """

    name: str
    index: int
    protocol: str = ""
    state: LaneState = LaneState.IDLE


@dataclass(slots=True)
class Hop:
    """One hop's latest facts (merged from its events).

    Attributes:
        handoff_id, parent_id, source, target, protocol, kind, state, summary, detail, connection_id,
        wire_seqs, started_at: As in the hop's latest ``HandoffEvent``; ``summary``, ``connection_id`` and
        ``wire_seqs`` keep the last non-empty value.
        updated_at: When its latest event happened.
        events: Every event of the hop, in order.
        arrows: Indexes (in ``ChainDiagram.arrows``) of the arrows it drew.
    """

    handoff_id: str
    parent_id: str | None
    source: str
    target: str
    protocol: str
    kind: HopKind
    state: HopState
    summary: str
    detail: dict[str, Any]
    connection_id: str | None
    wire_seqs: tuple[int, int] | None
    started_at: float
    updated_at: float
    events: list[HandoffEvent] = field(default_factory=list)
    arrows: list[int] = field(default_factory=list)

    @classmethod
    def from_event(cls, event: HandoffEvent) -> Hop:
        """A hop as its first event describes it."""
        return cls(
            handoff_id=event.handoff_id,
            parent_id=event.parent_id,
            source=event.source,
            target=event.target,
            protocol=event.protocol,
            kind=event.kind,
            state=event.state,
            summary=event.summary,
            detail=dict(event.detail),
            connection_id=event.connection_id,
            wire_seqs=event.wire_seqs,
            started_at=event.started_at or event.at,
            updated_at=event.at,
            events=[event],
        )

    def update(self, event: HandoffEvent) -> None:
        """Take in a later event of the same hop."""
        self.events.append(event)
        self.state = event.state
        self.protocol = event.protocol or self.protocol
        self.summary = event.summary or self.summary
        self.detail = {**self.detail, **event.detail}
        self.connection_id = event.connection_id or self.connection_id
        self.wire_seqs = event.wire_seqs or self.wire_seqs
        self.started_at = event.started_at or self.started_at
        self.updated_at = event.at

    @property
    def duration(self) -> float | None:
        """Seconds from start to end once finished (``None`` while running)."""
        return max(0.0, self.updated_at - self.started_at) if self.state.finished else None


@dataclass(frozen=True, slots=True)
class Arrow:
    """One drawn step: an arrow between lanes, or an approval marker (``style`` ``APPROVAL``).

    Attributes:
        index: Its row in the diagram (time order).
        hop_id: The hop that drew it.
        step: The drawing rule's step (style, sender, receiver, event).
        sender: Lane index the arrow starts at.
        receiver: Lane index it ends at (== ``sender`` for a marker).
    """

    index: int
    hop_id: str
    step: SequenceStep
    sender: int
    receiver: int

    @property
    def style(self) -> StepStyle:
        """What the step is."""
        return self.step.style

    @property
    def label(self) -> str:
        """The arrow's text (untrusted: show it plain)."""
        return self.step.label


@dataclass(frozen=True, slots=True)
class DiagramChange:
    """What one event changed: what the scene must add or recolour.

    Attributes:
        event: The event.
        hop: The hop it belongs to (its latest facts).
        new_lanes: Lanes that appeared (always at the right end).
        new_arrows: Arrows drawn (at the bottom).
        changed_lanes: Lanes whose state changed.
    """

    event: HandoffEvent
    hop: Hop
    new_lanes: tuple[Lane, ...] = ()
    new_arrows: tuple[Arrow, ...] = ()
    changed_lanes: tuple[Lane, ...] = ()


class ChainDiagram:
    """One chain's sequence diagram, grown one event at a time.

    Args:
        chain_id: The chain's id (events of other chains are refused).
        title: How the chain picker names it (default: from its first question).
    """

    def __init__(self, chain_id: str, title: str = "") -> None:
        self.chain_id = chain_id
        self._title = title
        self.lanes: list[Lane] = [Lane(USER, 0, "local")]
        self.arrows: list[Arrow] = []
        self.hops: dict[str, Hop] = {}
        self.events: list[HandoffEvent] = []
        self.created_at = time.time()
        self._by_name: dict[str, Lane] = {USER: self.lanes[0]}
        self._builder = SequenceBuilder()

    @property
    def title(self) -> str:
        """The picker's name for the chain (the first question, or the chain id)."""
        if self._title:
            return self._title
        first = self.events[0] if self.events else None
        return " ".join(first.summary.split())[:80] if first and first.summary else self.chain_id

    def lane(self, name: str) -> Lane | None:
        """The lane of ``name`` (``USER`` for the user)."""
        return self._by_name.get(name)

    def hop(self, handoff_id: str) -> Hop | None:
        """The hop with this id."""
        return self.hops.get(handoff_id)

    def add(self, event: HandoffEvent) -> DiagramChange:
        """Take in the chain's next event and say what changed.

        Raises:
            ValueError: The event belongs to another chain.
        """
        if event.chain_id != self.chain_id:
            raise ValueError(f"event of chain {event.chain_id!r} given to chain {self.chain_id!r}")
        self.events.append(event)
        if event.started_at and event.started_at < self.created_at:
            self.created_at = event.started_at
        hop = self.hops.get(event.handoff_id)
        if hop is None:
            hop = self.hops[event.handoff_id] = Hop.from_event(event)
        else:
            hop.update(event)
        lane_names, step = self._builder.add(event)
        new_lanes = []
        for name in lane_names:
            lane = Lane(name, len(self.lanes))
            self.lanes.append(lane)
            self._by_name[name] = lane
            new_lanes.append(lane)
        for name, protocol in self._builder.protocols.items():
            self._by_name[name].protocol = self._by_name[name].protocol or protocol
        new_arrows: tuple[Arrow, ...] = ()
        if step is not None:
            arrow = Arrow(
                len(self.arrows),
                hop.handoff_id,
                step,
                self._by_name[step.sender].index,
                self._by_name[step.receiver].index,
            )
            self.arrows.append(arrow)
            hop.arrows.append(arrow.index)
            new_arrows = (arrow,)
        changed = self._restate()
        return DiagramChange(
            event, hop, tuple(new_lanes), new_arrows, tuple(lane for lane in changed if lane not in new_lanes)
        )

    def to_mermaid(self) -> str:
        """The chain as Mermaid ``sequenceDiagram`` text."""
        return to_mermaid(self.events)

    def _restate(self) -> list[Lane]:
        """Recompute every lane's state; returns the lanes whose state changed."""
        states = {lane.name: LaneState.IDLE for lane in self.lanes}
        last_finish: dict[str, tuple[float, HopState]] = {}
        waiting_for_user = False
        for hop in self.hops.values():
            if hop.state in (HopState.WAITING_FOR_USER, HopState.PENDING):
                waiting_for_user = True
            agent = hop.target if hop.target != USER else hop.source
            if agent == USER:
                continue
            if hop.state is HopState.WAITING_FOR_USER:
                states[agent] = LaneState.WAITING_FOR_USER
            elif hop.state is HopState.WORKING and hop.target != USER:
                if states[agent] is not LaneState.WAITING_FOR_USER:
                    states[agent] = LaneState.WORKING
            elif hop.state in (HopState.DONE, HopState.FAILED) and hop.target != USER:
                previous = last_finish.get(agent)
                if previous is None or hop.updated_at >= previous[0]:
                    last_finish[agent] = (hop.updated_at, hop.state)
        for agent, (_at, state) in last_finish.items():
            if states[agent] is LaneState.IDLE:
                states[agent] = LaneState.DONE if state is HopState.DONE else LaneState.FAILED
        if waiting_for_user:
            states[USER] = LaneState.WAITING_FOR_USER
        changed = []
        for lane in self.lanes:
            if lane.state is not states[lane.name]:
                lane.state = states[lane.name]
                changed.append(lane)
        return changed
