"""A task's Messages section reads as a conversation: a streamed reply is one row, the answer to a question
follows it, and a message with nothing in it has no row."""

from __future__ import annotations

from a2a.types import Message, Part, Role, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent
from google.protobuf.json_format import ParseDict
from google.protobuf.struct_pb2 import Value

from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.task_info import task_sections
from workbench.core.protocols.snapshot import Row

T, C = "task-1", "ctx-1"


def agent(mid: str, *texts: str) -> Message:
    return Message(message_id=mid, role=Role.ROLE_AGENT, parts=[Part(text=t) for t in texts])


def status(state: int, message: Message | None = None) -> StreamResponse:
    st = TaskStatus(state=state)
    if message is not None:
        st.message.CopyFrom(message)
    return StreamResponse(status_update=TaskStatusUpdateEvent(task_id=T, context_id=C, status=st))


def started(prompt: str = "Plan a trip to Lisbon") -> TaskReducer:
    r = TaskReducer()
    user = Message(message_id="u1", role=Role.ROLE_USER, task_id=T, parts=[Part(text=prompt)])
    r.apply(StreamResponse(task=Task(id=T, context_id=C, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED))))
    r.record_outgoing(user)
    return r


def messages(r: TaskReducer) -> list[Row]:
    sections = {s.title: s.rows for s in task_sections(r.views[T])}
    return list(sections["Messages"])


def test_a_reply_streamed_in_status_messages_is_one_row_with_its_chunks_under_it() -> None:
    r = started()
    for n, text in enumerate(["Planning ", "a trip ", "to Lisbon."], 1):
        r.apply(status(TaskState.TASK_STATE_WORKING, agent(f"m{n}", text)))
    r.apply(status(TaskState.TASK_STATE_COMPLETED, agent("m4", "Done.")))
    rows = messages(r)
    assert [(row.label, row.value) for row in rows] == [
        ("1. user", "Plan a trip to Lisbon"),
        ("2–4. agent", "Planning a trip to Lisbon."),
    ]
    assert [(c.label, c.value) for c in rows[1].children] == [
        ("2. agent", "Planning"),
        ("3. agent", "a trip"),
        ("4. agent", "to Lisbon."),
    ]


def test_messages_said_on_their_own_stay_rows_of_their_own() -> None:
    r = started()
    for n in (1, 2, 3):
        r.apply(status(TaskState.TASK_STATE_WORKING, agent(f"m{n}", f"step {n}")))
    r.apply(status(TaskState.TASK_STATE_COMPLETED))
    assert [(row.label, row.value) for row in messages(r)][1:] == [
        ("2. agent", "step 1"),
        ("3. agent", "step 2"),
        ("4. agent", "step 3"),
    ]


def test_the_answer_to_a_question_follows_it_shows_its_data_and_an_empty_message_has_no_row() -> None:
    r = started()
    r.apply(status(TaskState.TASK_STATE_WORKING, agent("m1", "")))  # nothing said
    r.apply(status(TaskState.TASK_STATE_INPUT_REQUIRED, agent("q1", "When do you travel?")))
    data = ParseDict({"travellers": 2}, Value())
    r.record_outgoing(Message(message_id="u2", role=Role.ROLE_USER, task_id=T, parts=[Part(data=data)]))
    r.apply(status(TaskState.TASK_STATE_WORKING, agent("m2", "Searching flights.")))
    r.apply(status(TaskState.TASK_STATE_COMPLETED))
    rows = messages(r)
    assert [row.label for row in rows] == ["1. user", "3. agent", "4. user", "5. agent"]
    assert rows[1].value == "When do you travel?"
    assert rows[2].value.startswith("[data]") and '"travellers": 2' in rows[2].value
