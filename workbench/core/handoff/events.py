"""Handoff events: every hop of a multi-agent chain, as facts a view can draw and a file can replay.

A *chain* starts with one user question. Each *hop* is one agent asking another (or the user) for
something; hops nest (``parent_id``), so the chain is a tree in time order. A hop's life::

    PENDING ──▶ WORKING ──▶ DONE
       │           │  ▲
       ▼           ▼  │
     DENIED   WAITING_FOR_USER         any ──▶ FAILED

- ``PENDING``: the route's policy asks the user to approve (who asks whom for what).
- ``WORKING``: the request went out (an arrow source → target).
- ``WAITING_FOR_USER``: the target paused for the user (input-required, elicitation): target → user.
- ``DONE`` / ``FAILED`` / ``DENIED``: the answer came back (target → source), or not.

Each state change is one ``HandoffEvent`` published on the core ``EventBus``. Events carry the
connection whose wire records belong to the hop and the wire sequence numbers seen while it ran, so
clicking an arrow can select those records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from workbench.core.events import CoreEvent

USER = "user"
"""The lane name of the person using the workbench."""


class HopKind(StrEnum):
    """What kind of handoff a hop is."""

    QUESTION = "question"  # the user's question to the first agent
    SAMPLING = "sampling"  # an MCP server's sampling request routed to another agent (MCP → A2A)
    TOOL_CALL = "tool-call"  # an A2A agent's tool call run on an MCP server (A2A → MCP)
    PROXY = "proxy"  # an A2A proxy agent calling an MCP tool on the user's behalf (A2A → MCP)
    AGENT_TOOL = "agent-tool"  # an agent offered as a tool to another agent
    USER_INPUT = "user-input"  # an agent asked the user (input-required, elicitation)


class HopState(StrEnum):
    """Where a hop is in its life (see the module docstring)."""

    PENDING = "pending"
    WORKING = "working"
    WAITING_FOR_USER = "waiting-for-user"
    DONE = "done"
    FAILED = "failed"
    DENIED = "denied"

    @property
    def finished(self) -> bool:
        """Whether the hop has ended."""
        return self in (HopState.DONE, HopState.FAILED, HopState.DENIED)


@dataclass(frozen=True, slots=True)
class HandoffEvent(CoreEvent):
    """One state change of one hop.

    Attributes:
        chain_id: The chain (one user question) this hop belongs to.
        handoff_id: This hop's id (stable across its events).
        parent_id: The hop that caused this one (``None`` for the chain's first hop).
        source: Who asks (an agent name, or ``USER``).
        target: Who is asked (an agent name, or ``USER``).
        protocol: ``mcp``, ``a2a`` or ``local`` (the user, the router itself).
        kind: What kind of handoff.
        state: The hop's new state.
        summary: One line: what is asked, answered, or what failed (untrusted text; show it plain).
        detail: JSON-ready extras (arguments, answer excerpt, error code, policy, depth).
        connection_id: The connection whose wire records belong to this hop, if any.
        wire_seqs: Wire record sequence numbers observed for this hop so far (first, last), if any.
        started_at: When the hop started (``time.time()``); ``at`` is when this event happened.
    """

    chain_id: str
    handoff_id: str
    parent_id: str | None
    source: str
    target: str
    protocol: str
    kind: HopKind
    state: HopState
    summary: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    connection_id: str | None = None
    wire_seqs: tuple[int, int] | None = None
    started_at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the line format of ``--json`` output and of recorded chains)."""
        return {
            "type": "handoff",
            "at": self.at,
            "chain_id": self.chain_id,
            "handoff_id": self.handoff_id,
            "parent_id": self.parent_id,
            "source": self.source,
            "target": self.target,
            "protocol": self.protocol,
            "kind": self.kind.value,
            "state": self.state.value,
            "summary": self.summary,
            "detail": self.detail,
            "connection_id": self.connection_id,
            "wire_seqs": list(self.wire_seqs) if self.wire_seqs else None,
            "started_at": self.started_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandoffEvent:
        """Rebuild an event from ``to_dict`` output (replay)."""
        seqs = data.get("wire_seqs")
        return cls(
            at=float(data["at"]),
            chain_id=str(data["chain_id"]),
            handoff_id=str(data["handoff_id"]),
            parent_id=data.get("parent_id"),
            source=str(data["source"]),
            target=str(data["target"]),
            protocol=str(data["protocol"]),
            kind=HopKind(data["kind"]),
            state=HopState(data["state"]),
            summary=str(data.get("summary", "")),
            detail=dict(data.get("detail") or {}),
            connection_id=data.get("connection_id"),
            wire_seqs=(int(seqs[0]), int(seqs[1])) if seqs else None,
            started_at=float(data.get("started_at", 0.0)),
        )
