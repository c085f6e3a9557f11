"""Fuzzing the A2A task reducer with random but well-typed event sequences, in any order.

Status updates, artifact chunks (``append``/``last_chunk``), messages and task snapshots for a few
tasks and artifacts arrive in whatever order Hypothesis picks. The reducer must never raise and its
views must match a plain model of the documented rules: the state is the last one reported (a
``submitted`` without a time, reported after the task moved on, is a late report and changes nothing), an
``append`` extends a known artifact and anything else replaces it, parts stay in arrival order,
messages are kept once per id, a terminal state completes every artifact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from a2a.types import (
    Artifact,
    Message,
    Part,
    Role,
    StreamResponse,
    Task,
    TaskArtifactUpdateEvent,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.protocols.a2a.convert import TERMINAL_STATES, state_name
from workbench.core.protocols.a2a.reducer import TaskReducer

FUZZ = settings(max_examples=200, deadline=None)

TASKS = ["t1", "t2"]
ARTIFACTS = ["a", "b", "c"]
STATES = [v for k, v in TaskState.items()]
TERMINAL = [TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED]


def message(mid: str, task_id: str, text: str, role: int = Role.ROLE_AGENT) -> Message:
    return Message(message_id=mid, task_id=task_id, context_id="ctx", role=role, parts=[Part(text=text)])  # type: ignore[arg-type]


def status_of(state: int, msg: Message | None) -> TaskStatus:
    status = TaskStatus(state=state)  # type: ignore[arg-type]
    if msg is not None:
        status.message.CopyFrom(msg)
    return status


texts = st.text(alphabet="xyz", max_size=3)
message_ids = st.sampled_from(["", "m1", "m2", "m3"])
messages = st.builds(
    message,
    message_ids,
    st.sampled_from(TASKS),
    texts,
    st.sampled_from([Role.ROLE_AGENT, Role.ROLE_USER]),
)


@st.composite
def status_updates(draw: Any) -> StreamResponse:
    task_id = draw(st.sampled_from(TASKS))
    msg = draw(st.none() | messages)
    update = TaskStatusUpdateEvent(
        task_id=task_id, context_id="ctx", status=status_of(draw(st.sampled_from(STATES)), msg)
    )
    return StreamResponse(status_update=update)


@st.composite
def artifact_updates(draw: Any) -> StreamResponse:
    parts = [Part(text=t) for t in draw(st.lists(texts, max_size=3))]
    artifact = Artifact(artifact_id=draw(st.sampled_from(ARTIFACTS)), name=draw(texts), parts=parts)
    update = TaskArtifactUpdateEvent(
        task_id=draw(st.sampled_from(TASKS)),
        context_id="ctx",
        artifact=artifact,
        append=draw(st.booleans()),
        last_chunk=draw(st.booleans()),
    )
    return StreamResponse(artifact_update=update)


@st.composite
def snapshots(draw: Any) -> StreamResponse:
    artifacts = [
        Artifact(artifact_id=aid, parts=[Part(text=t) for t in draw(st.lists(texts, max_size=2))])
        for aid in draw(st.lists(st.sampled_from(ARTIFACTS), max_size=3))
    ]
    task = Task(
        id=draw(st.sampled_from(TASKS)),
        context_id=draw(st.sampled_from(["", "ctx"])),
        status=status_of(draw(st.sampled_from(STATES)), draw(st.none() | messages)),
        history=draw(st.lists(messages, max_size=3)),
        artifacts=artifacts,
    )
    return StreamResponse(task=task)


events = st.one_of(status_updates(), artifact_updates(), snapshots(), messages.map(lambda m: StreamResponse(message=m)))


@dataclass
class Model:
    """What the documented rules say a task's view holds."""

    state: str | None = None
    artifacts: dict[str, list[str]] = field(default_factory=dict)

    def status(self, state: str) -> str | None:
        """A status applies unless the task has already ended (then it keeps its terminal state) or it
        is a late ``submitted`` (then nothing changes); returns the state the change reports."""
        if self.state in TERMINAL_STATES:
            return self.state
        if state == "submitted" and self.state not in (None, "submitted"):
            return None
        self.state = state
        return state


def texts_of(parts: Any) -> list[str]:
    return [p.text for p in parts]


def replay(sequence: list[StreamResponse]) -> tuple[TaskReducer, dict[str, Model]]:
    reducer, model = TaskReducer(), dict[str, Model]()
    for event in sequence:
        change = reducer.apply(event)
        kind = event.WhichOneof("payload")
        if kind == "task":
            m = model.setdefault(event.task.id, Model())
            for art in event.task.artifacts:
                m.artifacts[art.artifact_id] = texts_of(art.parts)
            assert change.state == m.status(state_name(event.task.status.state))
        elif kind == "status_update":
            m = model.setdefault(event.status_update.task_id, Model())
            assert change.state == m.status(state_name(event.status_update.status.state))
        elif kind == "artifact_update":
            update = event.artifact_update
            m = model.setdefault(update.task_id, Model())
            aid, parts = update.artifact.artifact_id, texts_of(update.artifact.parts)
            if update.append and aid in m.artifacts:
                m.artifacts[aid].extend(parts)
            else:
                m.artifacts[aid] = list(parts)
            assert change.state is None and [a.artifact_id for a in change.artifacts] == [aid]
    return reducer, model


@FUZZ
@given(st.lists(events, max_size=30))
def test_any_sequence_of_events_merges_as_the_rules_say(sequence: list[StreamResponse]) -> None:
    reducer, model = replay(sequence)
    assert set(reducer.views) == set(model)
    for task_id, m in model.items():
        view = reducer.views[task_id]
        assert view.state == (m.state or "unspecified")
        assert list(view.artifacts) == list(m.artifacts)  # in order of first appearance
        for aid, expected in m.artifacts.items():
            assert [p.text for p in view.artifacts[aid].parts] == expected
            assert texts_of(view.artifacts[aid].artifact.parts) == expected
        if view.terminal:
            assert all(av.complete for av in view.artifacts.values())  # chunks after the end included
        ids = [msg.message_id for msg in view.messages if msg.message_id]
        assert len(ids) == len(set(ids))  # each message once
        assert view.to_task().id == task_id and isinstance(view.to_dict(), dict)


@FUZZ
@given(
    st.lists(st.lists(texts, min_size=1, max_size=3), min_size=1, max_size=20),
    st.sampled_from(TERMINAL),
    st.randoms(use_true_random=False),
)
def test_a_well_formed_stream_ends_in_one_terminal_state_with_its_chunks_in_order(
    chunks: list[list[str]], terminal: int, rnd: Any
) -> None:
    """submitted, working, chunks of two artifacts interleaved, one terminal status."""
    t = "t1"
    sequence = [
        StreamResponse(task=Task(id=t, context_id="ctx", status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))),
        StreamResponse(
            status_update=TaskStatusUpdateEvent(
                task_id=t, context_id="ctx", status=TaskStatus(state=TaskState.TASK_STATE_WORKING)
            )
        ),
    ]
    seen: dict[str, int] = {}
    owner: list[str] = []
    for i, parts in enumerate(chunks):
        aid = rnd.choice(["a", "b"])
        owner.append(aid)
        seen[aid] = seen.get(aid, 0) + 1
        update = TaskArtifactUpdateEvent(
            task_id=t,
            context_id="ctx",
            artifact=Artifact(artifact_id=aid, parts=[Part(text=f"{i}:{p}") for p in parts]),
            append=seen[aid] > 1,
            last_chunk=i == len(chunks) - 1,
        )
        sequence.append(StreamResponse(artifact_update=update))
    sequence.append(
        StreamResponse(
            status_update=TaskStatusUpdateEvent(task_id=t, context_id="ctx", status=TaskStatus(state=terminal))  # type: ignore[arg-type]
        )
    )
    reducer = TaskReducer()
    changed = [reducer.apply(event).state_changed for event in sequence]
    view = reducer.views[t]
    terminal_entries = [s.state for s in view.status_history if s.state in TERMINAL_STATES]
    assert terminal_entries == [state_name(terminal)] and view.status_history[-1].state == state_name(terminal)
    assert [s.state for s in view.status_history] == ["submitted", "working", state_name(terminal)]
    assert changed[0] and changed[1] and changed[-1] and not any(changed[2:-1])
    for aid, av in view.artifacts.items():
        expected = [
            f"{i}:{p}"
            for i, parts in enumerate(chunks)
            for p in parts
            if sequence[i + 2].artifact_update.artifact.artifact_id == aid
        ]
        assert [p.text for p in av.parts] == expected
        assert av.complete and av.chunks == seen[aid]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(TERMINAL), st.booleans())
def test_a_chunk_after_the_task_ended_is_complete(terminal: int, append: bool) -> None:
    reducer = TaskReducer()
    update = TaskStatusUpdateEvent(task_id="t1", context_id="ctx", status=TaskStatus(state=terminal))  # type: ignore[arg-type]
    reducer.apply(StreamResponse(status_update=update))
    late = TaskArtifactUpdateEvent(
        task_id="t1", context_id="ctx", artifact=Artifact(artifact_id="a", parts=[Part(text="x")]), append=append
    )
    reducer.apply(StreamResponse(artifact_update=late))
    assert reducer.views["t1"].artifacts["a"].complete


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(TERMINAL), st.lists(st.sampled_from(STATES), min_size=1, max_size=4))
def test_a_task_stays_in_its_first_terminal_state_whatever_comes_after(first: int, later: list[int]) -> None:
    reducer = TaskReducer()
    for state in [TaskState.TASK_STATE_WORKING, first, *later]:
        update = TaskStatusUpdateEvent(task_id="t1", context_id="ctx", status=TaskStatus(state=state))  # type: ignore[arg-type]
        reducer.apply(StreamResponse(status_update=update))
    view = reducer.views["t1"]
    assert view.state == state_name(first)
    assert [s.state for s in view.status_history if s.state in TERMINAL_STATES] == [state_name(first)]


def test_a_long_session_keeps_a_bounded_number_of_task_views_forgetting_ended_ones_first() -> None:
    reducer = TaskReducer(max_views=3)

    def status(task_id: str, state: int) -> None:
        update = TaskStatusUpdateEvent(task_id=task_id, context_id="ctx", status=TaskStatus(state=state))  # type: ignore[arg-type]
        reducer.apply(StreamResponse(status_update=update))

    status("waiting", TaskState.TASK_STATE_INPUT_REQUIRED)
    for n in range(1, 6):
        status(f"done-{n}", TaskState.TASK_STATE_COMPLETED)
    assert list(reducer.views) == ["waiting", "done-4", "done-5"]  # the task still waiting is kept
