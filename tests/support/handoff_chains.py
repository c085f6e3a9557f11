"""Handoff chains for tests: events built on a steady clock, a realistic trip, and publishing them."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState

if TYPE_CHECKING:  # the chains themselves need no Qt
    from workbench.ui.context import PanelContext

W, P, D, F, X, U = (
    HopState.WORKING,
    HopState.PENDING,
    HopState.DONE,
    HopState.FAILED,
    HopState.DENIED,
    HopState.WAITING_FOR_USER,
)
"""Hop states by one letter, as a chain reads in a table: working, pending, done, failed, denied, waiting."""


class Chain:
    """Builds a chain's events with a steady clock (0.25 s between events)."""

    def __init__(self, chain_id: str = "c1", start: float = 1_700_000_000.0) -> None:
        self.chain_id = chain_id
        self._clock = itertools.count()
        self._start = start
        self._hops: dict[str, tuple[str | None, str, str, str, HopKind, float]] = {}

    def hop(
        self,
        hid: str,
        state: HopState,
        src: str = "",
        dst: str = "",
        proto: str = "",
        kind: HopKind = HopKind.TOOL_CALL,
        summary: str = "",
        *,
        parent: str | None = "q",
        conn: str | None = None,
        seqs: tuple[int, int] | None = None,
        detail: dict[str, Any] | None = None,
    ) -> HandoffEvent:
        """The next event of hop ``hid``; source, target, protocol and kind are its first event's."""
        at = self._start + next(self._clock) * 0.25
        if hid not in self._hops:
            self._hops[hid] = (None if hid == "q" else parent, src, dst, proto, kind, at)
        parent_id, src, dst, proto, kind, started = self._hops[hid]
        return HandoffEvent(
            chain_id=self.chain_id,
            handoff_id=hid,
            parent_id=parent_id,
            source=src,
            target=dst,
            protocol=proto,
            kind=kind,
            state=state,
            summary=summary,
            detail=detail or {},
            connection_id=conn,
            wire_seqs=seqs,
            started_at=started,
            at=at,
        )


def trip_chain(chain_id: str = "c1") -> list[HandoffEvent]:
    """A realistic chain: question, tool call, sampling, user input, a denied and a failed hop, answer."""
    c = Chain(chain_id)
    return [
        c.hop("q", W, USER, "planner", "a2a", HopKind.QUESTION, "Plan my trip to Lisbon", conn="pl", seqs=(1, 2)),
        c.hop("t1", W, "planner", "weather", "mcp", HopKind.TOOL_CALL, "weather(city=Lisbon)", conn="wx", seqs=(3, 3)),
        c.hop("t1", D, summary="18°C, sunny", conn="wx", seqs=(3, 4), detail={"result": {"temp": 18}}),
        c.hop("s1", W, "weather", "writer", "a2a", HopKind.SAMPLING, "Summarise the forecast", conn="wx", seqs=(5, 5)),
        c.hop("s1", D, summary="Sunny all week", conn="wx", seqs=(5, 6)),
        c.hop("u1", U, "planner", USER, "local", HopKind.USER_INPUT, "Which dates?"),
        c.hop("u1", D, summary="May 3-7"),
        c.hop("x1", P, "planner", "booker", "a2a", HopKind.AGENT_TOOL, "book hotel", detail={"policy": "ask"}),
        c.hop("x1", X, summary="denied by the user"),
        c.hop("f1", W, "planner", "flights", "mcp", HopKind.TOOL_CALL, "search_flights", conn="fl", seqs=(7, 7)),
        c.hop("f1", F, summary="flights server timed out", conn="fl", seqs=(7, 8), detail={"code": "timeout"}),
        c.hop("q", D, summary="Here is your plan", conn="pl", seqs=(1, 9)),
    ]


def publish(ctx: PanelContext, events: list[HandoffEvent]) -> None:
    """Publish ``events`` on the context's bus, in order."""
    for event in events:
        ctx.services.bus.publish(event)
