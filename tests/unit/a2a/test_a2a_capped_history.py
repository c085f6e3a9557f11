"""A task's status history and messages keep the first and the latest items and count the rest."""

from __future__ import annotations

import json

from a2a.types import Message, Part, Role, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent

from workbench.core.protocols.a2a.capped import DEFAULT_HEAD, DEFAULT_TAIL, CappedHistory
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.task_info import task_json, task_sections
from workbench.core.protocols.snapshot import STATUS_HISTORY

T, C = "task-1", "ctx-1"
MIB = 1024 * 1024


def test_a_capped_history_keeps_the_first_and_the_last_items_and_counts_the_ones_between() -> None:
    history: CappedHistory[int] = CappedHistory(head=3, tail=4)
    for i in range(1, 101):
        history.append(i)
    assert list(history) == [1, 2, 3, 97, 98, 99, 100]
    assert history.dropped == 93 and history.total == 100 and history.gap_at == 3
    assert list(history.numbered()) == [(1, 1), (2, 2), (3, 3), (97, 97), (98, 98), (99, 99), (100, 100)]
    assert history[-1] == 100 and history[3] == 97 and history[:2] == [1, 2]
    assert list(reversed(history)) == [100, 99, 98, 97, 3, 2, 1]


def test_a_short_history_is_kept_whole() -> None:
    history: CappedHistory[int] = CappedHistory(head=3, tail=4)
    for i in range(7):
        history.append(i)
    assert list(history) == list(range(7)) and history.dropped == 0
    assert [n for n, _ in history.numbered()] == [1, 2, 3, 4, 5, 6, 7]


def test_the_byte_bound_drops_the_oldest_of_the_latest_then_the_last_of_the_first_but_never_the_newest() -> None:
    history: CappedHistory[int] = CappedHistory(head=3, tail=10, max_bytes=100, size=lambda n: n)
    for n in (10, 20, 30, 5, 5):
        history.append(n)
    assert list(history) == [10, 20, 30, 5, 5] and history.kept_bytes == 70
    history.append(40)  # 110 bytes: the oldest of the latest go (5, then 5 again) until it fits
    assert list(history) == [10, 20, 30, 40] and history.dropped == 2 and history.kept_bytes == 100
    history.append(90)  # the latest go one by one, then the first from their end
    assert list(history) == [10, 90] and history.kept_bytes == 100
    assert [n for n, _ in history.numbered()] == [1, 7]
    history.append(500)  # larger than the bound on its own: kept, alone
    assert list(history) == [500] and history.dropped == 7 and history.total == 8
    assert [n for n, _ in history.numbered()] == [8]


def test_the_byte_bound_when_everything_is_still_in_the_first_items() -> None:
    history: CappedHistory[int] = CappedHistory(head=5, tail=10, max_bytes=50, size=lambda n: n)
    for n in (20, 20, 20):
        history.append(n)
    assert list(history) == [20, 20] and history.dropped == 1 and history.gap_at == 1
    history.append(1)  # the first items are closed once one was dropped
    assert list(history) == [20, 20, 1] and history.gap_at == 1


def working(n: int, text: str) -> StreamResponse:
    message = Message(message_id=f"status-{n}", role=Role.ROLE_AGENT, parts=[Part(text=text)])
    status = TaskStatus(state=TaskState.TASK_STATE_WORKING, message=message)
    return StreamResponse(status_update=TaskStatusUpdateEvent(task_id=T, context_id=C, status=status))


def test_ten_thousand_status_updates_of_a_task_keep_the_first_and_the_latest() -> None:
    r = TaskReducer()
    r.apply(StreamResponse(task=Task(id=T, context_id=C, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))))
    for n in range(1, 10_001):
        change = r.apply(working(n, f"step {n}"))
        assert change.status_message is not None and change.status_message.message_id == f"status-{n}"
    view = r.views[T]
    assert len(view.status_history) == DEFAULT_HEAD + DEFAULT_TAIL
    assert view.status_dropped == 10_001 - DEFAULT_HEAD - DEFAULT_TAIL
    assert view.status_history[0].state == "submitted" and view.status_history[1].text == "step 1"
    assert view.status_history[-1].text == "step 10000" and view.status.message.message_id == "status-10000"
    # each earlier status message became a message of the task's history: the same bound
    assert len(view.messages) == DEFAULT_HEAD + DEFAULT_TAIL
    assert view.messages[-1].message_id == "status-9999" and view.messages_dropped == 9_999 - len(view.messages)
    # a status seen earlier, even one not kept, is not news when it comes again
    assert r.apply(working(7, "step 7")).status_message is None


def test_the_task_view_says_how_many_status_updates_and_messages_were_not_kept() -> None:
    r = TaskReducer()
    for n in range(1, 101):
        r.apply(working(n, f"step {n}"))
    view = r.views[T]
    sections = {s.title: s.rows for s in task_sections(view)}
    rows = sections[STATUS_HISTORY]
    # one row per state on each side of the gap, each report under it
    assert [row.label for row in rows] == ["1. working", "…", "2. working"]
    assert len(rows[0].children) == DEFAULT_HEAD and len(rows[2].children) == DEFAULT_TAIL
    assert rows[1].value == "45 earlier status updates not kept"
    assert rows[2].value.startswith("step 100") and rows[2].children[-1].value == "step 100"
    assert sections["Messages"][DEFAULT_HEAD].value == "44 earlier messages not kept"
    data = json.loads(task_json(view))
    assert data["status_updates_not_kept"] == 45 and data["status_updates_not_kept_after"] == DEFAULT_HEAD
    assert data["messages_not_kept"] == 44 and len(data["status_history"]) == DEFAULT_HEAD + DEFAULT_TAIL


def test_a_task_with_1_mib_status_messages_keeps_a_bounded_number_of_bytes() -> None:
    r = TaskReducer()
    filler = "y" * MIB
    for n in range(1, 201):
        r.apply(working(n, filler))
    view = r.views[T]
    assert view.status_history.kept_bytes <= 17 * MIB and view.messages.kept_bytes <= 17 * MIB
    assert view.status_dropped > 150 and view.status_history[-1].message is view.status.message
    assert view.status_history[0].text == filler  # the first is kept in full


def test_message_ids_of_any_length_are_remembered_for_de_duplication() -> None:
    r = TaskReducer()
    long_id = "i" * MIB
    status = TaskStatus(
        state=TaskState.TASK_STATE_WORKING,
        message=Message(message_id=long_id, role=Role.ROLE_AGENT, parts=[Part(text="x")]),
    )
    event = StreamResponse(status_update=TaskStatusUpdateEvent(task_id=T, context_id=C, status=status))
    r.apply(event)
    r.apply(working(1, "next"))  # the long-id status becomes history
    view = r.views[T]
    assert view.knows_message(long_id) and max(len(k) for k in view._message_ids) <= 64
    assert r.apply(event).status_message is None
