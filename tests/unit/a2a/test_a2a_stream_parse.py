"""The short path for artifact chunks gives exactly what the SDK's parse gives, or leaves the event to it."""

from __future__ import annotations

from typing import Any

import pytest
from a2a.types import StreamResponse
from a2a.utils.proto_utils import parse_lenient
from google.protobuf.json_format import ParseError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.protocols.a2a.stream_parse import _artifact_chunk, stream_response

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CHUNK = {
    "artifactUpdate": {
        "taskId": "t1",
        "contextId": "c1",
        "artifact": {"artifactId": "a", "name": "out", "parts": [{"text": "chunk 1\n"}]},
        "append": True,
    }
}

odd = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.lists(st.text(max_size=3), max_size=2)
text = st.text(max_size=8) | st.sampled_from(["\ud800", "", "café"])
anything = text | odd | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2) | st.sampled_from(["true", 1])


def perturbed(plain: st.SearchStrategy[dict[str, Any]], keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """``plain`` values, half of them with one member (known or not) set to something else."""
    changed = st.tuples(plain, st.sampled_from(keys), anything).map(lambda t: {**t[0], t[1]: t[2]})
    return plain | changed


plain_parts = st.fixed_dictionaries({"text": text}, optional={"mediaType": text, "filename": text})
parts = perturbed(plain_parts, ["text", "mediaType", "filename", "url", "metadata", "media_type", "raw"])
plain_artifacts = st.fixed_dictionaries(
    {}, optional={"artifactId": text, "name": text, "description": text, "parts": st.lists(parts, max_size=3)}
)
artifacts = perturbed(
    plain_artifacts, ["artifactId", "name", "description", "parts", "extensions", "metadata", "artifact_id"]
)
plain_updates = st.fixed_dictionaries(
    {"artifact": artifacts},
    optional={"taskId": text, "contextId": text, "append": st.booleans(), "lastChunk": st.booleans()},
)
updates = perturbed(plain_updates, ["taskId", "contextId", "artifact", "append", "lastChunk", "metadata", "task_id"])
results = st.fixed_dictionaries({"artifactUpdate": updates}) | st.fixed_dictionaries(
    {"artifactUpdate": updates | odd}, optional={"statusUpdate": st.just({})}
)


def outcome(parse: Any, result: Any) -> tuple[str, Any]:
    try:
        message = parse(result)
    except ParseError:
        return "ParseError", None
    return "ok", message


def sdk_outcome(result: Any) -> tuple[str, Any]:
    """The SDK's parse; its ``SystemError`` for a lone surrogate (protobuf's upb) counts as unreadable."""
    try:
        return outcome(lambda r: parse_lenient(r, StreamResponse()), result)
    except (SystemError, UnicodeError):
        return "ParseError", None


@FUZZ
@given(results)
def test_any_artifact_update_reads_as_the_sdk_reads_it(result: dict[str, Any]) -> None:
    ours = outcome(stream_response, result)
    sdk = sdk_outcome(result)
    assert ours[0] == sdk[0]
    if ours[1] is not None:
        assert ours[1] == sdk[1]
        assert ours[1].SerializeToString(deterministic=True) == sdk[1].SerializeToString(deterministic=True)
        update, expected = ours[1].artifact_update, sdk[1].artifact_update
        assert [p.WhichOneof("content") for p in update.artifact.parts] == [
            p.WhichOneof("content") for p in expected.artifact.parts
        ]


@pytest.mark.parametrize(
    "result",
    [
        {"artifactUpdate": {"artifact": "\ud800"}},  # found by the fuzz test: the SDK's parse raised SystemError
        {"statusUpdate": {"taskId": "\ud800"}},
    ],
)
def test_a_lone_surrogate_is_an_unreadable_event_not_a_crash(result: dict[str, Any]) -> None:
    with pytest.raises(ParseError):
        stream_response(result)


@pytest.mark.parametrize(
    "result",
    [
        CHUNK,
        {"artifactUpdate": {"artifact": {"parts": [{"text": "", "mediaType": "text/plain", "filename": "a.txt"}]}}},
        {"artifactUpdate": {"artifact": {}, "lastChunk": True}},
    ],
)
def test_a_plain_chunk_takes_the_short_path_and_equals_the_sdk_parse(result: dict[str, Any]) -> None:
    short = _artifact_chunk(result)
    assert short is not None
    assert short == parse_lenient(result, StreamResponse())


@pytest.mark.parametrize(
    "result",
    [
        {"artifactUpdate": {**CHUNK["artifactUpdate"], "metadata": {"k": 1}}},
        {"artifactUpdate": {"artifact": {"parts": [{"url": "https://example.test/x"}]}}},
        {"artifactUpdate": {"task_id": "t1", "artifact": {}}},
        {"statusUpdate": {"taskId": "t1", "status": {"state": "TASK_STATE_WORKING"}}},
        {"artifactUpdate": {"artifact": {"parts": [{"text": "\ud800"}]}}},
    ],
)
def test_anything_else_is_left_to_the_sdk(result: dict[str, Any]) -> None:
    assert _artifact_chunk(result) is None
