"""Conversation: the protocol-neutral transcript built from user messages and agent events."""

from __future__ import annotations

import base64
import json

import pytest

from workbench.core.conversation import (
    AgentMessage,
    Answer,
    Artifact,
    Completion,
    Conversation,
    Failure,
    ItemChange,
    ItemKind,
    LogLine,
    Progress,
    Question,
    StatusLine,
    ToolCall,
    UserMessage,
)
from workbench.core.errors import RemoteError, UnsupportedCapabilityError
from workbench.core.protocols.base import (
    AgentResult,
    ArtifactUpdated,
    Completed,
    ContentPart,
    ElicitationRequest,
    ElicitationRequested,
    Failed,
    InputRequired,
    LogMessage,
    ProgressReported,
    StatusChanged,
    TextDelta,
    ToolCallRequested,
)
from workbench.core.protocols.base import InputRequest as AskedInput  # the peer's request

A2A = {"protocol": "a2a", "task_id": "t1", "context_id": "c1"}


def text(t: str, **ids: str) -> TextDelta:
    return TextDelta(text=t, **{**A2A, **ids})


def test_chunks_of_one_reply_accumulate_into_one_agent_message_with_incremental_changes() -> None:
    conv = Conversation()
    assert conv.add_user_message("hi") == [ItemChange(0, "appended")]
    assert conv.apply(text("Plan")) == [ItemChange(1, "appended")]
    assert conv.apply(text("ning ")) == [ItemChange(1, "updated")]
    assert conv.apply(text("done.")) == [ItemChange(1, "updated")]
    [user, agent] = conv.items
    assert isinstance(user, UserMessage) and user.text == "hi"
    assert isinstance(agent, AgentMessage)
    assert agent.text == "Planning done." and agent.chunk_count == 3 and agent.streaming


def test_a_status_line_between_texts_starts_a_new_agent_message_and_closes_the_old_one() -> None:
    conv = Conversation()
    conv.add_user_message("go")
    conv.apply(text("first"))
    changes = conv.apply(StatusChanged(state="working", message="first", **A2A))
    assert changes == [ItemChange(1, "updated"), ItemChange(2, "appended")]
    conv.apply(text("second"))
    kinds = [item.kind for item in conv]
    assert kinds == [ItemKind.USER, ItemKind.AGENT, ItemKind.STATUS, ItemKind.AGENT]
    first, status, second = conv[1], conv[2], conv[3]
    assert isinstance(first, AgentMessage) and not first.streaming
    assert isinstance(status, StatusLine) and status.state == "working" and status.message == "first"
    assert isinstance(second, AgentMessage) and second.text == "second" and second.streaming


def test_artifact_chunks_with_append_grow_one_item_and_a_non_append_update_replaces_it() -> None:
    conv = Conversation()
    conv.add_user_message("brief")
    part = ContentPart(type="text", text="# Lisbon\n", mime_type="text/markdown")
    assert conv.apply(ArtifactUpdated(artifact_id="a", name="Brief", parts=[part], **A2A)) == [
        ItemChange(1, "appended")
    ]
    more = ContentPart(type="text", text="Spring.\n")
    assert conv.apply(ArtifactUpdated(artifact_id="a", parts=[more], append=True, last_chunk=True, **A2A)) == [
        ItemChange(1, "updated")
    ]
    artifact = conv[1]
    assert isinstance(artifact, Artifact)
    assert artifact.title == "Brief" and artifact.chunks == 2 and artifact.last_chunk
    assert artifact.text() == "# Lisbon\nSpring.\n" and artifact.text_length == len(artifact.text())
    assert artifact.tail(8) == "Spring.\n"
    assert artifact.export() == (b"# Lisbon\nSpring.\n", "Brief.md")
    conv.apply(ArtifactUpdated(artifact_id="a", parts=[ContentPart(type="text", text="new")], **A2A))
    assert artifact.text() == "new" and artifact.chunks == 3


def test_artifact_export_decodes_a_single_binary_part_and_writes_data_parts_as_json() -> None:
    conv = Conversation()
    conv.add_user_message("files")
    blob = base64.b64encode(b"\x89PNG...").decode()
    image = ContentPart(type="image", blob=blob, mime_type="image/png")
    conv.apply(ArtifactUpdated(artifact_id="img/1", parts=[image], **A2A))
    data = ContentPart(type="data", data={"travellers": 2})
    conv.apply(ArtifactUpdated(artifact_id="booking", name="Booking summary", parts=[data], **A2A))
    img, booking = conv[1], conv[2]
    assert isinstance(img, Artifact) and isinstance(booking, Artifact)
    assert img.export() == (b"\x89PNG...", "img-1.png")
    payload, name = booking.export()
    assert json.loads(payload) == {"travellers": 2} and name == "Booking-summary.json"
    assert "[image: image (image/png), 7 bytes]" in img.text()


def test_progress_keeps_one_item_per_turn_holding_the_latest_value() -> None:
    conv = Conversation()
    conv.add_user_message("ask")
    conv.apply(ProgressReported(progress=1, total=3, message="reading", protocol="mcp"))
    conv.apply(LogMessage(level="info", logger="demo", data="ask: received 1 words", protocol="mcp"))
    assert conv.apply(ProgressReported(progress=3, total=3, protocol="mcp")) == [ItemChange(1, "updated")]
    progress, log = conv[1], conv[2]
    assert isinstance(progress, Progress)
    assert (progress.progress, progress.total, progress.message, progress.updates) == (3, 3, "reading", 2)
    assert progress.fraction == 1.0
    assert isinstance(log, LogLine) and log.text == "ask: received 1 words" and log.logger == "demo"
    conv.apply(Completed(result=AgentResult(text="ok"), protocol="mcp"))
    conv.add_user_message("again")
    conv.apply(ProgressReported(progress=1, total=None, protocol="mcp"))
    assert len(conv.items_of_kind(ItemKind.PROGRESS)) == 2


def test_log_lines_with_structured_data_read_as_json() -> None:
    conv = Conversation()
    conv.apply(LogMessage(level="warning", data={"n": 1}, protocol="mcp"))
    line = conv[0]
    assert isinstance(line, LogLine) and line.text == '{"n": 1}'
    assert conv.turns[0].prompt == ""  # a stray event opens a turn


def test_tool_calls_are_items_with_name_and_arguments() -> None:
    conv = Conversation()
    conv.add_user_message("use a tool")
    conv.apply(ToolCallRequested(name="search", arguments={"q": "x"}, call_id="1", **A2A))
    call = conv[1]
    assert isinstance(call, ToolCall) and (call.name, call.arguments, call.call_id) == ("search", {"q": "x"}, "1")


def paused(conv: Conversation) -> None:
    conv.add_user_message("Plan a trip to Lisbon")
    conv.apply(text("Planning."))
    conv.apply(StatusChanged(state="input_required", message="When?", **A2A))
    asked = AskedInput(kind="input", text="When?", task_id="t1", context_id="c1", schema={"type": "object"})
    conv.apply(InputRequired(request=asked, **A2A))
    result = AgentResult(text="When?", state="input_required", task_id="t1", context_id="c1")
    conv.apply(Completed(result=result, **A2A))


def test_a_turn_that_ends_input_required_waits_and_the_answer_continues_the_same_task() -> None:
    conv = Conversation()
    paused(conv)
    request = conv.waiting_request
    assert conv.waiting_task_id == "t1" and not conv.running
    assert isinstance(request, Question) and request.status == "waiting" and request.schema == {"type": "object"}
    completion = conv.items[-1]
    assert isinstance(completion, Completion) and completion.state == "input_required" and completion.echoed
    changes = conv.add_answer('{"travellers": 2}', data={"travellers": 2})
    assert changes == [ItemChange(conv.items.index(request), "updated"), ItemChange(len(conv) - 1, "appended")]
    assert request.status == "answered"
    answer = conv.items[-1]
    assert isinstance(answer, Answer) and answer.task_id == "t1" and answer.context_id == "c1"
    turn = conv.current_turn
    assert turn is not None and turn.continues_task == "t1" and turn.running
    conv.apply(text("Searching."))
    conv.apply(Completed(result=AgentResult(text="done", task_id="t1", context_id="c1"), **A2A))
    assert conv.waiting_task_id is None and conv.turns[-1].state == "completed"
    assert conv.messages() == [
        ("user", "Plan a trip to Lisbon"),
        ("agent", "Planning."),
        ("user", '{"travellers": 2}'),
        ("agent", "Searching."),
    ]


def test_a_request_answered_by_a_handler_is_marked_answered_when_the_stream_goes_on() -> None:
    conv = Conversation()
    conv.add_user_message("book")
    request = ElicitationRequest(mode="form", message="Your name?", requested_schema={"type": "object"})
    conv.apply(ElicitationRequested(request=request, protocol="mcp"))
    item = conv[1]
    assert isinstance(item, Question) and item.request_kind == "elicitation" and item.status == "pending"
    assert conv.apply(ProgressReported(progress=1, protocol="mcp"))[0] == ItemChange(1, "updated")
    assert item.status == "answered"


def test_answering_when_nothing_waits_is_refused() -> None:
    conv = Conversation()
    conv.add_user_message("hi")
    with pytest.raises(ValueError):
        conv.add_user_message("again")  # the first turn still runs
    conv.apply(Completed(result=AgentResult(text="hello"), protocol="mcp"))
    with pytest.raises(ValueError):
        conv.add_answer("yes")


def test_failed_events_and_raised_errors_end_the_turn_with_the_error_code() -> None:
    conv = Conversation()
    conv.add_user_message("x")
    conv.apply(text("partial"))
    error = RemoteError("the agent broke", hint="try later")
    conv.apply(Failed(error=error, message="the agent broke", **A2A))
    failure = conv.items[-1]
    assert isinstance(failure, Failure) and failure.code == RemoteError.code and failure.hint == "try later"
    assert conv.turns[0].state == "failed" and not conv.running
    agent = conv[1]
    assert isinstance(agent, AgentMessage) and not agent.streaming
    conv.add_user_message("y")
    conv.fail(UnsupportedCapabilityError("no entry point"))
    failure = conv.items[-1]
    assert isinstance(failure, Failure) and failure.code == "unsupported" and failure.turn == 1


def test_end_turn_marks_a_stopped_stream_canceled_and_keeps_the_partial_reply() -> None:
    conv = Conversation()
    conv.add_user_message("long")
    conv.apply(text("so far"))
    changes = conv.end_turn("canceled")
    assert changes == [ItemChange(1, "updated"), ItemChange(2, "appended")]
    done = conv.items[-1]
    assert isinstance(done, Completion) and done.state == "canceled" and done.task_id == "t1"
    assert conv.end_turn() == []  # nothing runs any more


def test_turns_keep_the_task_and_context_ids_their_events_carried() -> None:
    conv = Conversation()
    conv.add_user_message("a")
    conv.apply(StatusChanged(state="submitted", protocol="a2a", task_id="t9", context_id="c9"))
    conv.apply(Completed(result=AgentResult(text="", task_id="t9", context_id="c9"), protocol="a2a"))
    turn = conv.turns[0]
    assert (turn.task_id, turn.context_id, turn.state) == ("t9", "c9", "completed")
    assert turn.ended_at is not None and turn.ended_at >= turn.started_at


def test_to_dicts_is_json_ready_for_every_item_kind() -> None:
    conv = Conversation()
    paused(conv)
    conv.add_answer("{}", data={})
    conv.apply(ToolCallRequested(name="t", **A2A))
    conv.apply(ArtifactUpdated(artifact_id="a", parts=[ContentPart(type="text", text="x")], **A2A))
    conv.apply(ProgressReported(progress=1, protocol="mcp"))
    conv.apply(LogMessage(level="info", data="l", protocol="mcp"))
    conv.apply(Failed(error=RemoteError("no"), **A2A))
    dumped = json.dumps(conv.to_dicts())
    kinds = {d["kind"] for d in json.loads(dumped)}
    assert kinds == {k.value for k in ItemKind}


def test_a_result_text_is_marked_echoed_only_when_the_turn_already_showed_it() -> None:
    conv = Conversation()
    conv.add_user_message("stream")
    conv.apply(ArtifactUpdated(artifact_id="s", parts=[ContentPart(type="text", text="chunk 0\n")], **A2A))
    conv.apply(Completed(result=AgentResult(text="chunk 0\n"), **A2A))
    first = conv.items[-1]
    assert isinstance(first, Completion) and first.echoed
    conv.add_user_message("quiet")
    conv.apply(Completed(result=AgentResult(text="only here"), protocol="mcp"))
    second = conv.items[-1]
    assert isinstance(second, Completion) and not second.echoed and second.text == "only here"


def test_ending_a_turn_updates_its_artifacts_that_never_got_their_last_chunk() -> None:
    conv = Conversation()
    conv.add_user_message("go")
    conv.apply(ArtifactUpdated(artifact_id="open", parts=[ContentPart(type="text", text="a")], **A2A))
    conv.apply(ArtifactUpdated(artifact_id="done", parts=[], last_chunk=True, **A2A))
    changes = conv.end_turn("canceled")
    assert ItemChange(1, "updated") in changes and ItemChange(2, "updated") not in changes
