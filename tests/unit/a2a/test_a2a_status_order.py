"""A task's status history reads in the order the task went through it, whatever order reports arrive in."""

from __future__ import annotations

from a2a.types import Message, Part, Role, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent
from google.protobuf.timestamp_pb2 import Timestamp

from workbench.core.protocols.a2a.capped import CappedHistory
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.task_info import task_sections
from workbench.core.protocols.snapshot import STATUS_HISTORY

T, C = "task-1", "ctx-1"
WORKING, SUBMITTED = TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_SUBMITTED
INPUT = TaskState.TASK_STATE_INPUT_REQUIRED


def _status(state: int, at: str | None, mid: str | None = None, text: str = "") -> TaskStatus:
    st = TaskStatus(state=state)
    if at is not None:
        stamp = Timestamp()
        stamp.FromJsonString(at)
        st.timestamp.CopyFrom(stamp)
    if mid is not None:
        st.message.CopyFrom(Message(message_id=mid, role=Role.ROLE_AGENT, parts=[Part(text=text)]))
    return st


def update(state: int, at: str | None, mid: str | None = None, text: str = "") -> StreamResponse:
    event = TaskStatusUpdateEvent(task_id=T, context_id=C, status=_status(state, at, mid, text))
    return StreamResponse(status_update=event)


def snapshot(state: int, at: str | None = None) -> StreamResponse:
    return StreamResponse(task=Task(id=T, context_id=C, status=_status(state, at)))


T1, T2, T3 = "2026-05-01T10:00:01Z", "2026-05-01T10:00:02Z", "2026-05-01T10:00:03Z"


def states(reducer: TaskReducer) -> list[str]:
    return [entry.state for entry in reducer.views[T].status_history]


def test_an_opening_snapshot_read_after_the_task_moved_on_goes_first_and_changes_nothing() -> None:
    r = TaskReducer()
    r.apply(update(WORKING, T1, "m1", "Looking"))  # a listing showed it working before the stream began
    late = r.apply(snapshot(SUBMITTED))
    assert late.state is None and not late.state_changed  # not a change of state: the stream reads on
    repeat = r.apply(update(WORKING, T1, "m1", "Looking"))  # the same report again
    assert not repeat.state_changed and repeat.status_message is None
    r.apply(update(WORKING, T2, "m2", "Found"))
    r.apply(update(INPUT, T3, "m3", "Which?"))
    assert states(r) == ["submitted", "working", "working", "input_required"]
    assert r.views[T].state == "input_required"


def test_a_report_older_than_the_latest_is_placed_by_its_time_and_does_not_become_the_status() -> None:
    r = TaskReducer()
    r.apply(update(WORKING, T1, "m1", "Looking"))
    r.apply(update(INPUT, T3, "m3", "Which?"))
    late = r.apply(update(WORKING, T2, "m2", "Found"))
    assert late.state is None
    assert [(e.state, e.text) for e in r.views[T].status_history] == [
        ("working", "Looking"),
        ("working", "Found"),
        ("input_required", "Which?"),
    ]
    assert r.views[T].state == "input_required"


def test_the_detail_shows_one_row_per_state_in_order_with_each_report_under_it() -> None:
    r = TaskReducer()
    for event in (
        update(WORKING, T1, "m1", "Looking"),
        snapshot(SUBMITTED),
        update(WORKING, T1, "m1", "Looking"),
        update(WORKING, T2, "m2", "Found"),
        update(INPUT, T3, "m3", "Which?"),
    ):
        r.apply(event)
    [section] = [s for s in task_sections(r.views[T]) if s.title == STATUS_HISTORY]
    assert [row.label for row in section.rows] == ["1. submitted", "2. working", "3. input_required"]
    assert len(section.rows[1].children) == 2 and "Found" in section.rows[1].value


def test_an_insert_keeps_the_history_bounded_around_its_gap() -> None:
    h: CappedHistory[int] = CappedHistory(head=2, tail=3, max_bytes=None)
    for n in (1, 2, 3, 4):
        h.append(n)
    h.insert(0, 0)  # the head passes its last item to the tail: nothing was dropped yet
    assert (list(h), h.dropped) == ([0, 1, 2, 3, 4], 0)
    h.insert(5, 5)
    assert (list(h), h.dropped) == ([0, 1, 3, 4, 5], 1)  # the tail's oldest went into the gap
    h.insert(1, 9)
    assert (list(h), h.dropped, h.gap_at) == ([0, 9, 3, 4, 5], 2, 2)


def test_a_state_reported_as_one_streamed_text_shows_the_whole_text_and_separate_reports_the_latest() -> None:
    r = TaskReducer()
    chunks = [("m1", "Planning "), ("m2", "a trip "), ("m3", "to Lisbon.")]
    for n, (mid, text) in enumerate(chunks, 1):
        r.apply(update(WORKING, f"2026-05-01T10:00:0{n}Z", mid, text))
    r.apply(update(INPUT, T3.replace("03", "09"), "m4", "Which dates?"))
    [section] = [s for s in task_sections(r.views[T]) if s.title == STATUS_HISTORY]
    working = section.rows[0]
    assert working.value == "Planning a trip to Lisbon. (3 updates)"
    assert [child.value for child in working.children] == ["Planning", "a trip", "to Lisbon."]

    r = TaskReducer()
    r.apply(update(WORKING, T1, "m1", "Looking"))
    r.apply(update(WORKING, T2, "m2", "Found"))
    [section] = [s for s in task_sections(r.views[T]) if s.title == STATUS_HISTORY]
    assert section.rows[0].value == "Found (2 updates)"  # two reports said on their own: the latest
