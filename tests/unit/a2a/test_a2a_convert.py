"""Conversions between A2A protobuf parts/messages and the neutral content types."""

from __future__ import annotations

import base64

import pytest
from a2a.types import Part, Role, TaskState

from workbench.core.errors import UsageError
from workbench.core.protocols.a2a.convert import (
    build_message,
    content_to_part,
    data_part,
    part_to_content,
    python_to_value,
    state_name,
    state_value,
    value_to_python,
)
from workbench.core.protocols.base import ContentPart, InputResponse


def test_integral_numbers_come_back_as_ints_and_others_stay_floats() -> None:
    value = {"n": 2, "half": 0.5, "big": 2.0**60, "nested": [1, {"x": 3}], "t": True, "none": None}
    back = value_to_python(python_to_value(value))
    assert back == {"n": 2, "half": 0.5, "big": 2.0**60, "nested": [1, {"x": 3}], "t": True, "none": None}
    assert type(back["n"]) is int and type(back["big"]) is float


@pytest.mark.parametrize(
    "content",
    [
        ContentPart("text", text="hello", mime_type="text/markdown"),
        ContentPart("data", data={"a": [1, 2], "b": "c"}),
        ContentPart("data", data=[1, "two"]),
        ContentPart("image", blob=base64.b64encode(b"\x89PNG").decode(), mime_type="image/png", name="a.png"),
        ContentPart("audio", blob=base64.b64encode(b"RIFF").decode(), mime_type="audio/wav"),
        ContentPart("file", blob=base64.b64encode(b"%PDF").decode(), mime_type="application/pdf", name="x.pdf"),
        ContentPart("file", uri="https://example.com/f.pdf", mime_type="application/pdf", name="f.pdf"),
    ],
)
def test_parts_round_trip(content: ContentPart) -> None:
    assert part_to_content(content_to_part(content)).to_dict() == content.to_dict()


def test_text_parts_keep_raw_only_when_they_carry_metadata() -> None:
    plain = Part(text="x")
    assert part_to_content(plain).raw is None
    tagged = Part(text="x")
    tagged.metadata.update({"lang": "en"})
    assert part_to_content(tagged).raw is tagged
    assert part_to_content(data_part({"a": 1})).raw is not None


def test_part_with_nothing_to_send_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        content_to_part(ContentPart("image"))


def test_message_from_an_input_response_carries_text_data_and_both_ids() -> None:
    msg = build_message(InputResponse(text="yes", data={"n": 1}), task_id="t", context_id="c", metadata={"k": "v"})
    assert msg.role == Role.ROLE_USER and msg.message_id
    assert (msg.task_id, msg.context_id) == ("t", "c")
    assert [p.WhichOneof("content") for p in msg.parts] == ["text", "data"]
    assert dict(msg.metadata) == {"k": "v"}


def test_message_from_text_data_and_extra_parts_keeps_their_order() -> None:
    msg = build_message("look", data=[1], parts=[ContentPart("file", uri="https://x/y")])
    assert [p.WhichOneof("content") for p in msg.parts] == ["text", "data", "url"]
    assert not msg.task_id and not msg.context_id


def test_message_with_nothing_in_it_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        build_message(None)
    with pytest.raises(UsageError):
        build_message(InputResponse())


def test_state_names_map_both_ways() -> None:
    assert state_name(TaskState.TASK_STATE_INPUT_REQUIRED) == "input_required"
    assert state_value("input_required") == TaskState.TASK_STATE_INPUT_REQUIRED
    assert state_value("TASK_STATE_CANCELED") == TaskState.TASK_STATE_CANCELED
    assert state_value("working") == TaskState.TASK_STATE_WORKING
    with pytest.raises(UsageError):
        state_value("sleeping")
