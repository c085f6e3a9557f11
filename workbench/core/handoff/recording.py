"""Recorded chains: collect a chain's events, save them as JSON Lines, load them, replay them without agents.

The file format is the ``--json`` output of ``workbench demo --scenario handoff --headless``: one
``HandoffEvent.to_dict()`` per line (``"type": "handoff"``), optionally ending with
``{"type": "final", "answer": ...}``. Lines of other types are kept aside, never an error.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.errors import ConfigError
from workbench.core.events import EventBus
from workbench.core.handoff.events import HandoffEvent

FINAL_TYPE = "final"
"""``type`` of the line carrying a chain's final answer."""


def final_line(answer: str, *, chain_id: str | None = None, state: str = "completed", **extra: Any) -> dict[str, Any]:
    """The JSON-ready final line of a recording."""
    return {"type": FINAL_TYPE, "chain_id": chain_id, "state": state, "answer": answer, **extra}


@dataclass(slots=True)
class ChainRecording:
    """A recorded chain.

    Attributes:
        events: The handoff events, in the order they happened.
        final: The final line (``{"type": "final", "answer": ...}``), if the recording has one.
        other: Lines of other types, kept as they were.
    """

    events: list[HandoffEvent] = field(default_factory=list)
    final: dict[str, Any] | None = None
    other: list[dict[str, Any]] = field(default_factory=list)

    def lines(self) -> list[dict[str, Any]]:
        """Every line, JSON-ready, in file order (events, then the final line)."""
        out = [e.to_dict() for e in self.events]
        if self.final is not None:
            out.append(self.final)
        return out


class ChainLog:
    """Collects ``HandoffEvent``s as they happen (subscribe it to a bus, or pass ``add`` as a callback)."""

    def __init__(self) -> None:
        self._events: list[HandoffEvent] = []
        self._unsubscribe: Callable[[], None] | None = None

    @classmethod
    def attach(cls, bus: EventBus) -> ChainLog:
        """A log subscribed to ``bus`` (``detach()`` stops it)."""
        log = cls()
        log._unsubscribe = bus.subscribe(HandoffEvent, log.add)
        return log

    def detach(self) -> None:
        """Stop receiving events from the bus."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def add(self, event: HandoffEvent) -> None:
        """Record one event."""
        self._events.append(event)

    def chains(self) -> list[str]:
        """The chain ids seen, in order of first appearance."""
        return list(dict.fromkeys(e.chain_id for e in self._events))

    def events(self, chain_id: str | None = None) -> list[HandoffEvent]:
        """The events of one chain (all events when ``chain_id`` is ``None``)."""
        return [e for e in self._events if chain_id is None or e.chain_id == chain_id]

    def recording(self, chain_id: str | None = None, *, final: dict[str, Any] | None = None) -> ChainRecording:
        """A recording of one chain (or everything)."""
        return ChainRecording(events=self.events(chain_id), final=final)


def parse_lines(lines: Iterable[str], *, source: str = "<text>") -> ChainRecording:
    """Read a recording from JSON Lines.

    Raises:
        ConfigError: A line is not a JSON object, or a handoff line is not a valid event.
    """
    recording = ChainRecording()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
            kind = data.get("type", "handoff")
            if kind == "handoff":
                recording.events.append(HandoffEvent.from_dict(data))
            elif kind == FINAL_TYPE:
                recording.final = data
            else:
                recording.other.append(data)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise ConfigError(
                "This is not a recorded handoff chain.",
                hint="give a JSON Lines file of handoff events (the --json output of a headless scenario)",
                details={"source": source, "line": number, "reason": str(exc)[:200]},
            ) from exc
    return recording


def load_jsonl(path: str | os.PathLike[str]) -> ChainRecording:
    """Load a recording (blocking I/O: from the UI, call it in a worker thread).

    Raises:
        ConfigError: The file cannot be read or is not a recording.
    """
    name = os.fspath(path)
    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError("Could not read the recorded chain.", details={"path": name}) from exc
    return parse_lines(text.splitlines(), source=name)


def save_jsonl(
    path: str | os.PathLike[str], events: Iterable[HandoffEvent], *, final: dict[str, Any] | None = None
) -> int:
    """Save events (and a final line) as JSON Lines; returns the number of lines (blocking I/O).

    Raises:
        ConfigError: The file cannot be written.
    """
    name = os.fspath(path)
    lines = ChainRecording(events=list(events), final=final).lines()
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    try:
        Path(name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError("Could not write the recorded chain.", details={"path": name}) from exc
    return len(lines)


class ChainReplay:
    """Steps through recorded events with no agents running.

    Step by step (``next()``), all at once (``all()``), or as an async iterator that can keep the
    original pacing (``play``); ``publish`` sends events to a bus so a live view can redraw them.

    Args:
        events: The events (or a ``ChainRecording``).
    """

    def __init__(self, events: Iterable[HandoffEvent] | ChainRecording) -> None:
        self.recording = events if isinstance(events, ChainRecording) else ChainRecording(events=list(events))
        self._events = self.recording.events
        self._position = 0

    @property
    def position(self) -> int:
        """How many events were stepped through."""
        return self._position

    @property
    def done(self) -> bool:
        """Whether every event was stepped through."""
        return self._position >= len(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def reset(self) -> None:
        """Start again from the first event."""
        self._position = 0

    def next(self) -> HandoffEvent | None:
        """The next event (``None`` at the end)."""
        if self.done:
            return None
        event = self._events[self._position]
        self._position += 1
        return event

    def all(self) -> list[HandoffEvent]:
        """Every event, in order (the position is not changed)."""
        return list(self._events)

    async def play(
        self,
        *,
        pace: bool = False,
        speed: float = 1.0,
        max_gap: float | None = 5.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> AsyncIterator[HandoffEvent]:
        """Yield the remaining events; with ``pace`` wait the recorded time between them.

        Args:
            pace: Keep the original timing (the ``at`` differences).
            speed: Play faster (2.0 halves the waits).
            max_gap: Longest wait between two events in seconds (``None``: no limit; a person
                filling a form can make a long gap).
            sleep: How to wait (for tests and custom clocks).
        """
        previous: HandoffEvent | None = None
        while (event := self.next()) is not None:
            if pace and previous is not None:
                gap = max(0.0, event.at - previous.at) / max(speed, 1e-9)
                if max_gap is not None:
                    gap = min(gap, max_gap)
                if gap > 0:
                    await sleep(gap)
            previous = event
            yield event

    def publish(self, bus: EventBus) -> int:
        """Publish the remaining events on ``bus`` at once; returns how many."""
        count = 0
        while (event := self.next()) is not None:
            bus.publish(event)
            count += 1
        return count
