"""How a chain of handoff events reads as a sequence diagram: the drawing rules, and Mermaid text.

The rules (one place, used by the window's Handoff view and by the Mermaid export):

- ``PENDING``: an approval marker on the source's lane.
- ``WORKING``: a request arrow source → target (after ``WAITING_FOR_USER``: the user's answer,
  user → target; a repeated ``WORKING`` only updates the hop and draws nothing).
- ``WAITING_FOR_USER``: an arrow to the user from the agent that waits (the target; the source when
  the hop's target is the user itself) plus a "waiting for user" note in Mermaid.
- ``DONE`` / ``FAILED`` / ``DENIED``: a dashed reply arrow target → source.

Lanes (participants) are the user first, then every agent in order of first appearance.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from workbench.core.handoff.events import USER, HandoffEvent, HopState

USER_TITLE = "User"
"""How the user's lane is titled."""


class StepStyle(StrEnum):
    """What one step of the diagram is."""

    REQUEST = "request"  # source → target, solid
    ASK_USER = "ask-user"  # the waiting agent → user, solid
    USER_ANSWER = "user-answer"  # user → the agent that waited, dashed
    REPLY = "reply"  # target → source, dashed (done)
    FAILED = "failed"  # target → source, dashed, marked failed
    DENIED = "denied"  # target → source, dashed, marked denied
    APPROVAL = "approval"  # a marker on the source lane (waiting for the user's approval)


@dataclass(frozen=True, slots=True)
class SequenceStep:
    """One arrow (or marker) of the diagram, caused by one event.

    Attributes:
        style: What the step is.
        sender: The lane the arrow starts at (the marker's lane for ``APPROVAL``).
        receiver: The lane the arrow ends at (== ``sender`` for ``APPROVAL``).
        event: The event that drew it.
    """

    style: StepStyle
    sender: str
    receiver: str
    event: HandoffEvent

    @property
    def label(self) -> str:
        """The arrow's text (untrusted: the summary comes from a peer)."""
        summary = " ".join(self.event.summary.split())
        match self.style:
            case StepStyle.REQUEST:
                return summary or self.event.kind.value
            case StepStyle.ASK_USER:
                return summary or "waiting for the user"
            case StepStyle.USER_ANSWER:
                return "answered" + (f": {summary}" if summary else "")
            case StepStyle.REPLY:
                return summary or "done"
            case StepStyle.FAILED:
                return "failed" + (f": {summary}" if summary else "")
            case StepStyle.DENIED:
                return "denied" + (f": {summary}" if summary else "")
            case StepStyle.APPROVAL:
                return "approval needed" + (f": {summary}" if summary else "")


_FINISHED_STYLE = {HopState.DONE: StepStyle.REPLY, HopState.FAILED: StepStyle.FAILED, HopState.DENIED: StepStyle.DENIED}


def step_for(previous: HopState | None, event: HandoffEvent) -> SequenceStep | None:
    """The step ``event`` draws, given the hop's previous state (``None``: the hop's first event).

    Returns ``None`` when the event only updates the hop (same state again, or an event after the end).
    """
    state = event.state
    if previous is not None and (previous == state or previous.finished):
        return None
    if state is HopState.PENDING:
        return SequenceStep(StepStyle.APPROVAL, event.source, event.source, event)
    if state is HopState.WORKING:
        if previous is HopState.WAITING_FOR_USER:
            waiting = event.target if event.target != USER else event.source
            return SequenceStep(StepStyle.USER_ANSWER, USER, waiting, event)
        return SequenceStep(StepStyle.REQUEST, event.source, event.target, event)
    if state is HopState.WAITING_FOR_USER:
        waiting = event.target if event.target != USER else event.source
        return SequenceStep(StepStyle.ASK_USER, waiting, USER, event)
    return SequenceStep(_FINISHED_STYLE[state], event.target, event.source, event)


class SequenceBuilder:
    """Turns events, one at a time, into lanes and steps (the incremental form of the rules)."""

    def __init__(self) -> None:
        self.lanes: list[str] = [USER]
        self.protocols: dict[str, str] = {}
        self.steps: list[SequenceStep] = []
        self._states: dict[str, HopState] = {}

    def add(self, event: HandoffEvent) -> tuple[list[str], SequenceStep | None]:
        """Take in one event; returns the lanes it added and the step it drew (if any)."""
        new_lanes = [name for name in dict.fromkeys((event.source, event.target)) if name not in self.lanes]
        self.lanes.extend(new_lanes)
        if event.target != USER and event.protocol:
            self.protocols.setdefault(event.target, event.protocol)
        step = step_for(self._states.get(event.handoff_id), event)
        self._states[event.handoff_id] = event.state
        if step is not None:
            self.steps.append(step)
        return new_lanes, step


_ESCAPES = {ord(char): f"#{ord(char)};" for char in "#;<>&"}
"""``#`` starts entity codes, ``;`` ends a statement, ``<>&`` would be markup in the rendered SVG."""


def mermaid_text(text: str) -> str:
    """``text`` made safe for one Mermaid line: whitespace collapsed, markup characters as entity codes."""
    return " ".join(text.split()).translate(_ESCAPES)


_ARROWS = {
    StepStyle.REQUEST: "->>",
    StepStyle.ASK_USER: "->>",
    StepStyle.USER_ANSWER: "-->>",
    StepStyle.REPLY: "-->>",
    StepStyle.FAILED: "--x",
    StepStyle.DENIED: "--x",
}


def to_mermaid(events: Iterable[HandoffEvent]) -> str:
    """A Mermaid ``sequenceDiagram`` of a chain's events (in the order given).

    Participants are declared first (the user as an ``actor``), each agent titled with its name and
    protocol. Requests are ``->>``, replies ``-->>``, failures and denials ``--x``; waiting for the
    user and approvals are notes. Every remote text is escaped with Mermaid entity codes.
    """
    builder = SequenceBuilder()
    for event in events:
        builder.add(event)
    ids = {USER: "U"}
    lines = ["sequenceDiagram", f"    actor U as {USER_TITLE}"]
    for number, name in enumerate(builder.lanes[1:], start=1):
        ids[name] = f"P{number}"
        protocol = builder.protocols.get(name)
        title = f"{name} ({protocol})" if protocol else name
        lines.append(f"    participant P{number} as {mermaid_text(title)}")
    for step in builder.steps:
        label = mermaid_text(step.label)
        if step.style is StepStyle.APPROVAL:
            lines.append(f"    Note over {ids[step.sender]}: {label}")
            continue
        lines.append(f"    {ids[step.sender]}{_ARROWS[step.style]}{ids[step.receiver]}: {label}")
        if step.style is StepStyle.ASK_USER:
            lines.append(f"    Note over {ids[step.sender]}: waiting for user")
    return "\n".join(lines) + "\n"
