"""Handoff chains as Mermaid text and the drawing rules behind it (no Qt)."""

from __future__ import annotations

import itertools

from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.core.handoff.mermaid import (
    SequenceBuilder,
    StepStyle,
    mermaid_text,
    step_for,
    to_mermaid,
)

_clock = itertools.count(1)


def ev(hid: str, state: HopState, src: str, dst: str, proto: str, kind: HopKind, summary: str = "") -> HandoffEvent:
    return HandoffEvent(
        chain_id="c1",
        handoff_id=hid,
        parent_id=None if hid == "q" else "q",
        source=src,
        target=dst,
        protocol=proto,
        kind=kind,
        state=state,
        summary=summary,
        started_at=1000.0,
        at=1000.0 + next(_clock),
    )


def small_chain() -> list[HandoffEvent]:
    w, p, d, f, x, u = (
        HopState.WORKING,
        HopState.PENDING,
        HopState.DONE,
        HopState.FAILED,
        HopState.DENIED,
        HopState.WAITING_FOR_USER,
    )
    return [
        ev("q", w, USER, "planner", "a2a", HopKind.QUESTION, "What's the weather?"),
        ev("t1", p, "planner", "weather", "mcp", HopKind.TOOL_CALL, "get_forecast(city=Paris)"),
        ev("t1", w, "planner", "weather", "mcp", HopKind.TOOL_CALL, "get_forecast(city=Paris)"),
        ev("t1", w, "planner", "weather", "mcp", HopKind.TOOL_CALL, "get_forecast(city=Paris)"),  # update only
        ev("t1", d, "planner", "weather", "mcp", HopKind.TOOL_CALL, "18°C; sunny"),
        ev("u1", u, "planner", USER, "local", HopKind.USER_INPUT, "Which day?"),
        ev("u1", d, "planner", USER, "local", HopKind.USER_INPUT, "tomorrow"),
        ev("s1", w, "weather", "writer", "a2a", HopKind.SAMPLING, "summarise <b>x</b>; #1"),
        ev("s1", f, "weather", "writer", "a2a", HopKind.SAMPLING, "timeout"),
        ev("d1", p, "planner", "mailer", "a2a", HopKind.AGENT_TOOL, "send email"),
        ev("d1", x, "planner", "mailer", "a2a", HopKind.AGENT_TOOL, "user denied"),
        ev("q", d, USER, "planner", "a2a", HopKind.QUESTION, "Sunny <i>tomorrow</i>\nbye"),
    ]


def test_a_small_chain_becomes_exact_mermaid_text() -> None:
    assert to_mermaid(small_chain()) == (
        "sequenceDiagram\n"
        "    actor U as User\n"
        "    participant P1 as planner (a2a)\n"
        "    participant P2 as weather (mcp)\n"
        "    participant P3 as writer (a2a)\n"
        "    participant P4 as mailer (a2a)\n"
        "    U->>P1: What's the weather?\n"
        "    Note over P1: approval needed: get_forecast(city=Paris)\n"
        "    P1->>P2: get_forecast(city=Paris)\n"
        "    P2-->>P1: 18°C#59; sunny\n"
        "    P1->>U: Which day?\n"
        "    Note over P1: waiting for user\n"
        "    U-->>P1: tomorrow\n"
        "    P2->>P3: summarise #60;b#62;x#60;/b#62;#59; #35;1\n"
        "    P3--xP2: failed: timeout\n"
        "    Note over P1: approval needed: send email\n"
        "    P4--xP1: denied: user denied\n"
        "    P1-->>U: Sunny #60;i#62;tomorrow#60;/i#62; bye\n"
    )


def test_an_empty_chain_is_a_diagram_with_only_the_user() -> None:
    assert to_mermaid([]) == "sequenceDiagram\n    actor U as User\n"


def test_mermaid_text_escapes_markup_and_collapses_whitespace() -> None:
    assert mermaid_text('a;b\n<c>&#d {"f": 1}') == 'a#59;b #60;c#62;#38;#35;d {"f": 1}'


def test_a_hop_answered_after_waiting_for_the_user_draws_the_users_answer() -> None:
    waiting = ev("h", HopState.WAITING_FOR_USER, "planner", "coder", "a2a", HopKind.AGENT_TOOL, "Which repo?")
    again = ev("h", HopState.WORKING, "planner", "coder", "a2a", HopKind.AGENT_TOOL, "acme/app")
    ask = step_for(HopState.WORKING, waiting)
    answer = step_for(HopState.WAITING_FOR_USER, again)
    assert ask is not None and (ask.style, ask.sender, ask.receiver) == (StepStyle.ASK_USER, "coder", USER)
    assert answer is not None and (answer.style, answer.sender, answer.receiver) == (
        StepStyle.USER_ANSWER,
        USER,
        "coder",
    )
    assert answer.label == "answered: acme/app"


def test_repeated_states_and_events_after_the_end_draw_nothing() -> None:
    working = ev("h", HopState.WORKING, "a", "b", "mcp", HopKind.TOOL_CALL)
    done = ev("h", HopState.DONE, "a", "b", "mcp", HopKind.TOOL_CALL)
    assert step_for(HopState.WORKING, working) is None
    assert step_for(HopState.DONE, working) is None
    assert step_for(HopState.FAILED, done) is None


def test_the_builder_orders_lanes_user_first_then_by_first_appearance() -> None:
    builder = SequenceBuilder()
    added = [builder.add(e)[0] for e in small_chain()]
    assert builder.lanes == [USER, "planner", "weather", "writer", "mailer"]
    assert added[0] == ["planner"] and added[1] == ["weather"]
    assert builder.protocols == {"planner": "a2a", "weather": "mcp", "writer": "a2a", "mailer": "a2a"}
    assert [s.style for s in builder.steps].count(StepStyle.REQUEST) == 3
