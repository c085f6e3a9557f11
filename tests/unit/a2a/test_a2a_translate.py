"""Reducer changes become neutral events; input-required messages become input requests."""

from __future__ import annotations

from a2a.types import Artifact, Message, Part, Role, StreamResponse, Task, TaskState, TaskStatus, TaskStatusUpdateEvent

from workbench.core.protocols.a2a.convert import data_part
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.translate import (
    events_for,
    find_schema,
    input_request,
    result_from_view,
    tool_calls,
)
from workbench.core.protocols.base import ContentPart, StatusChanged, TextDelta, ToolCallRequested

SCHEMA = {"type": "object", "properties": {"d": {"type": "string"}}}


def status(state: int, *parts: Part) -> StreamResponse:
    st = TaskStatus(state=state)
    if parts:
        st.message.CopyFrom(Message(message_id=f"m{state}", role=Role.ROLE_AGENT, parts=list(parts)))
    return StreamResponse(status_update=TaskStatusUpdateEvent(task_id="t", context_id="c", status=st))


def test_schema_is_found_under_a_schema_key_as_a_bare_schema_or_by_media_type() -> None:
    assert find_schema([ContentPart("data", data={"form": {}, "schema": SCHEMA})]) == SCHEMA
    assert find_schema([ContentPart("data", data=SCHEMA)]) == SCHEMA
    assert find_schema([ContentPart("data", data={"$schema": "x", "type": "string"})]) == {
        "$schema": "x",
        "type": "string",
    }
    typed = {"anyOf": []}
    assert find_schema([ContentPart("data", data=typed, mime_type="application/schema+json")]) == typed
    assert find_schema([ContentPart("data", data={"form": {"a": 1}}), ContentPart("text", text="x")]) is None


def test_tool_calls_are_normalised() -> None:
    parts = [ContentPart("data", data={"tool_calls": [{"tool_name": "a", "args": 3, "call_id": "1"}, "junk"]})]
    assert tool_calls(parts) == [{"name": "a", "arguments": {"value": 3}, "call_id": "1"}]
    assert tool_calls([ContentPart("data", data={"x": 1})]) == []


def test_openai_style_tool_calls_with_a_nested_function_are_read() -> None:
    call = {"id": "c1", "function": {"name": "weather", "arguments": '{"city": "Lisbon"}'}}
    parts = [ContentPart("data", data={"tool_calls": [call]})]
    assert tool_calls(parts) == [{"name": "weather", "arguments": {"city": "Lisbon"}, "call_id": "c1"}]


def test_working_status_with_a_message_yields_a_status_change_then_text() -> None:
    r = TaskReducer()
    events = events_for(r.apply(status(TaskState.TASK_STATE_WORKING, Part(text="hi"))), agent="A")
    assert [type(e) for e in events] == [StatusChanged, TextDelta]
    assert events[0].state == "working" and events[1].text == "hi"
    assert all(e.agent == "A" and e.protocol == "a2a" and e.task_id == "t" for e in events)


def test_input_required_question_is_not_repeated_as_text_and_tool_calls_become_events() -> None:
    r = TaskReducer()
    calls = data_part({"tool_calls": [{"name": "lookup", "arguments": {"q": 1}, "id": "c1"}]})
    change = r.apply(status(TaskState.TASK_STATE_INPUT_REQUIRED, Part(text="run this"), calls))
    events = events_for(change, agent="A")
    assert [type(e) for e in events] == [StatusChanged, ToolCallRequested]
    assert isinstance(events[1], ToolCallRequested) and events[1].arguments == {"q": 1}
    request = input_request(r.views["t"], agent="A")
    assert (request.kind, request.text, request.task_id, request.context_id) == ("input", "run this", "t", "c")
    assert request.data == {"tool_calls": [{"name": "lookup", "arguments": {"q": 1}, "id": "c1"}]}


def test_auth_required_without_text_gets_a_default_question() -> None:
    r = TaskReducer()
    r.apply(status(TaskState.TASK_STATE_AUTH_REQUIRED))
    request = input_request(r.views["t"], agent="A")
    assert request.kind == "auth" and request.text


def test_result_joins_status_text_and_artifacts_and_finds_structured_data() -> None:
    r = TaskReducer()
    task = Task(id="t", context_id="c", status=TaskStatus(state=TaskState.TASK_STATE_COMPLETED))
    task.status.message.CopyFrom(Message(message_id="m", role=Role.ROLE_AGENT, parts=[Part(text="Done.")]))
    task.artifacts.append(Artifact(artifact_id="text", parts=[Part(text="a"), Part(text="b")]))
    task.artifacts.append(Artifact(artifact_id="json", parts=[data_part({"n": 1})]))
    r.apply_task(task)
    result = result_from_view(r.views["t"])
    assert result.text == "Done.\nab"
    assert result.structured == {"n": 1}
    assert result.state == "completed" and not result.is_error
    assert list(result.artifacts) == ["text", "json"]
    assert isinstance(result.raw, Task) and result.raw.artifacts[0].parts[1].text == "b"


def test_failed_task_result_is_an_error() -> None:
    r = TaskReducer()
    r.apply(status(TaskState.TASK_STATE_FAILED, Part(text="boom")))
    result = result_from_view(r.views["t"])
    assert result.is_error and result.state == "failed" and result.text == "boom"
