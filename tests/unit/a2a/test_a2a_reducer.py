"""The task reducer: merging stream events and snapshots into the client's view of each task."""

from __future__ import annotations

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

from workbench.core.protocols.a2a.reducer import TaskReducer

T, C = "task-1", "ctx-1"


def agent_msg(mid: str, text: str) -> Message:
    return Message(message_id=mid, role=Role.ROLE_AGENT, parts=[Part(text=text)])


def task_event(state: int = TaskState.TASK_STATE_SUBMITTED, history: list[Message] | None = None) -> StreamResponse:
    task = Task(id=T, context_id=C, status=TaskStatus(state=state), history=history or [])
    return StreamResponse(task=task)


def status(state: int, message: Message | None = None) -> StreamResponse:
    st = TaskStatus(state=state)
    if message is not None:
        st.message.CopyFrom(message)
    return StreamResponse(status_update=TaskStatusUpdateEvent(task_id=T, context_id=C, status=st))


def chunk(text: str, *, aid: str = "a", append: bool = False, last: bool = False, name: str = "") -> StreamResponse:
    art = Artifact(artifact_id=aid, name=name, parts=[Part(text=text)])
    update = TaskArtifactUpdateEvent(task_id=T, context_id=C, artifact=art, append=append, last_chunk=last)
    return StreamResponse(artifact_update=update)


def test_artifact_chunks_are_appended_and_completed_by_the_last_chunk() -> None:
    r = TaskReducer()
    r.apply(task_event())
    first = r.apply(chunk("Hel", name="greeting"))
    assert first.artifacts[0].append is False and first.state is None
    r.apply(chunk("lo", append=True))
    last = r.apply(chunk("!", append=True, last=True))
    assert last.artifacts[0].append and last.artifacts[0].last_chunk
    assert [p.text for p in last.artifacts[0].parts] == ["!"]
    view = r.views[T]
    av = view.artifacts["a"]
    assert (av.chunks, av.complete, av.name) == (3, True, "greeting")
    assert [p.text for p in av.parts] == ["Hel", "lo", "!"]
    assert [p.text for p in av.artifact.parts] == ["Hel", "lo", "!"]
    assert av.artifact.name == "greeting"


def test_non_append_chunk_replaces_the_artifact() -> None:
    r = TaskReducer()
    r.apply(chunk("old"))
    r.apply(chunk("more", append=True))
    r.apply(chunk("new"))
    av = r.views[T].artifacts["a"]
    assert [p.text for p in av.parts] == ["new"]
    assert av.chunks == 3


def test_append_to_an_unknown_artifact_starts_it_and_reports_no_append() -> None:
    r = TaskReducer()
    change = r.apply(chunk("late", aid="b", append=True))
    assert change.artifacts[0].append is False
    assert [p.text for p in r.views[T].artifacts["b"].parts] == ["late"]


def test_event_parts_are_not_changed_by_later_chunks() -> None:
    r = TaskReducer()
    first = r.apply(chunk("one"))
    r.apply(chunk("two", append=True))
    assert [p.text for p in first.artifacts[0].parts] == ["one"]


def test_status_updates_keep_history_and_move_old_status_messages_to_messages() -> None:
    r = TaskReducer()
    r.apply(task_event(history=[Message(message_id="u1", role=Role.ROLE_USER, parts=[Part(text="hi")])]))
    working = r.apply(status(TaskState.TASK_STATE_WORKING, agent_msg("m1", "thinking")))
    assert working.state_changed and working.state == "working"
    assert working.status_message is not None
    again = r.apply(status(TaskState.TASK_STATE_WORKING, agent_msg("m2", "still thinking")))
    assert not again.state_changed
    done = r.apply(status(TaskState.TASK_STATE_COMPLETED, agent_msg("m3", "done")))
    assert done.state_changed and done.state == "completed"
    view = r.views[T]
    assert [s.state for s in view.status_history] == ["submitted", "working", "working", "completed"]
    assert [s.text for s in view.status_history][1:] == ["thinking", "still thinking", "done"]
    assert [m.message_id for m in view.messages] == ["u1", "m1", "m2"]
    assert view.terminal and not view.interrupted
    task = view.to_task()
    assert task.status.message.message_id == "m3"
    assert [m.message_id for m in task.history] == ["u1", "m1", "m2"]


def test_snapshot_after_streamed_events_adds_nothing_twice() -> None:
    r = TaskReducer()
    r.apply(task_event())
    r.apply(status(TaskState.TASK_STATE_WORKING, agent_msg("m1", "thinking")))
    r.apply(chunk("a"))
    r.apply(chunk("b", append=True, last=True))
    r.apply(status(TaskState.TASK_STATE_INPUT_REQUIRED, agent_msg("q1", "which date?")))
    snapshot = r.views[T].to_task()
    change = r.apply_task(snapshot)
    assert not change.state_changed
    assert change.artifacts == ()
    assert change.agent_messages == ()
    assert change.status_message is None
    assert r.views[T].interrupted


def test_snapshot_reveals_what_a_dropped_client_missed() -> None:
    r = TaskReducer()
    r.apply(task_event())
    r.apply(chunk("a"))
    server = Task(id=T, context_id=C, status=TaskStatus(state=TaskState.TASK_STATE_COMPLETED))
    server.history.append(agent_msg("m9", "progress you missed"))
    server.artifacts.append(Artifact(artifact_id="a", parts=[Part(text="a"), Part(text="b")]))
    change = r.apply_task(server)
    assert change.state_changed and change.state == "completed"
    assert [m.message_id for m in change.agent_messages] == ["m9"]
    assert [p.text for p in change.artifacts[0].parts] == ["a", "b"]
    assert r.views[T].artifacts["a"].complete


def test_outgoing_messages_join_the_history_of_known_tasks() -> None:
    r = TaskReducer()
    r.apply(task_event())
    r.record_outgoing(Message(message_id="u2", role=Role.ROLE_USER, task_id=T, parts=[Part(text="answer")]))
    r.record_outgoing(Message(message_id="u3", role=Role.ROLE_USER, task_id="unknown", parts=[Part(text="x")]))
    assert [m.message_id for m in r.views[T].messages] == ["u2"]
    assert "unknown" not in r.views


def test_message_only_reply_is_reported_without_a_view() -> None:
    r = TaskReducer()
    change = r.apply(StreamResponse(message=agent_msg("r1", "hello")))
    assert change.reply is not None and change.view is None and change.state is None


def test_artifact_metadata_and_late_names_are_merged() -> None:
    r = TaskReducer()
    r.apply(chunk("x"))
    late = Artifact(artifact_id="a", name="named later", parts=[Part(text="y")])
    late.metadata.update({"k": "v"})
    update = TaskArtifactUpdateEvent(task_id=T, context_id=C, artifact=late, append=True)
    r.apply(StreamResponse(artifact_update=update))
    av = r.views[T].artifacts["a"]
    assert av.name == "named later"
    assert dict(av.artifact.metadata) == {"k": "v"}
    assert av.to_dict()["parts"] == [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]
