"""``TaskReducer.apply_resent_task``: a task re-sent first on continuation reports only what is new."""

from __future__ import annotations

from a2a.types import Artifact, Message, Part, Role, Task, TaskState, TaskStatus

from workbench.core.protocols.a2a.reducer import TaskReducer


def msg(mid: str, role: Role, text: str) -> Message:
    return Message(message_id=mid, role=role, parts=[Part(text=text)], task_id="t", context_id="c")


def resent(state: TaskState, history: list[Message], status_text: str | None = None) -> Task:
    status = TaskStatus(state=state)
    if status_text is not None:
        status.message.CopyFrom(msg("q", Role.ROLE_AGENT, status_text))
    task = Task(id="t", context_id="c", status=status, history=history)
    task.artifacts.append(Artifact(artifact_id="steps", name="steps", parts=[Part(text="step 1"), Part(text="step 2")]))
    return task


EARLIER = [msg("u1", Role.ROLE_USER, "Plan a trip"), msg("a1", Role.ROLE_AGENT, "thinking…")]


def test_an_unknown_task_re_sent_waiting_reports_nothing_of_its_earlier_turns() -> None:
    change = TaskReducer().apply_resent_task(
        resent(TaskState.TASK_STATE_INPUT_REQUIRED, [*EARLIER, msg("u2", Role.ROLE_USER, "Lisbon")], "Which city?"),
        "u2",
    )
    assert (change.agent_messages, change.artifacts, change.status_message) == ((), (), None)
    assert not change.state_changed and change.view is not None
    assert [m.message_id for m in change.view.messages] == ["u1", "a1", "u2"]
    assert change.view.artifacts["steps"].parts[1].text == "step 2"  # kept, so later chunks append to it


def test_history_after_the_sent_message_and_a_status_that_moved_on_are_new() -> None:
    after = msg("a2", Role.ROLE_AGENT, "Looking up Lisbon")
    change = TaskReducer().apply_resent_task(
        resent(TaskState.TASK_STATE_WORKING, [*EARLIER, msg("u2", Role.ROLE_USER, "Lisbon"), after]), "u2"
    )
    assert [m.message_id for m in change.agent_messages] == ["a2"]
    assert change.state == "working" and change.state_changed
    assert change.artifacts == ()


def test_a_snapshot_without_the_sent_message_is_all_earlier_turns() -> None:
    change = TaskReducer().apply_resent_task(resent(TaskState.TASK_STATE_INPUT_REQUIRED, EARLIER, "Which city?"), "u2")
    assert change.agent_messages == () and change.artifacts == ()
