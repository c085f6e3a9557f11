"""Mutable per-server state of the demo MCP server (counter, dynamic tools, subscribers, cancellations)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import anyio
from mcp.server.session import ServerSession


@dataclass
class DemoState:
    """State shared by the tools, resources and prompts of one demo server instance.

    Attributes:
        counter: Value behind the `demo://counter` resource.
        added_tools: How many tools `add_tool` has registered so far.
        subscribers: Legacy-era `resources/subscribe` registrations, by URI.
        cancellations: One line per cancelled `slow_count` call, e.g. "slow_count cancelled at step 3".
        cancellation_recorded: Set when the first cancellation was recorded (for in-process tests).
    """

    counter: int = 0
    added_tools: int = 0
    subscribers: dict[str, list[ServerSession]] = field(default_factory=dict)
    cancellations: list[str] = field(default_factory=list)
    cancellation_recorded: anyio.Event = field(default_factory=anyio.Event)

    def record_cancellation(self, line: str) -> None:
        """Remember that a call was cancelled and say so on stderr (tests read it from there)."""
        self.cancellations.append(line)
        print(line, file=sys.stderr, flush=True)
        self.cancellation_recorded.set()
