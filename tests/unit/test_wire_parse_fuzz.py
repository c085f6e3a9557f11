"""Fuzzing the wire parsers: whatever a peer sends, the wire log records it and never raises.

Covers ``workbench.core.wire.parse`` (classify, scan_large, preview, compact_json, utf8_len), the
text path of ``WireRecorder.jsonrpc``/``raw``/``sse_event`` and the SSE framer that feeds the tap.
Large texts are classified from their leading/trailing members, not decoded: a large message whose
body is not even JSON still shows as the response it says it is.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.http.sse import SSEFramer, parse_frame
from workbench.core.wire.parse import LARGE_TEXT, classify, compact_json, preview, scan_large, utf8_len
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
ids = st.none() | st.integers(-(2**63), 2**63) | st.text(max_size=12) | st.floats(allow_nan=False)
methods = st.sampled_from(["tools/call", "prompts/get", "tools/list", "initialize"]) | st.text(max_size=16)
jsonrpc_like = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0"]) | json_scalars,
        "id": ids | json_values,
        "method": methods | json_values,
        "params": json_values | st.fixed_dictionaries({"name": json_values}),
        "result": json_values,
        "error": json_values | st.fixed_dictionaries({"code": json_values, "message": json_values}),
    },
)
any_json = json_values | jsonrpc_like | st.lists(jsonrpc_like, max_size=4)
texts = st.text() | st.binary().map(lambda b: b.decode("utf-8", "surrogateescape"))


@FUZZ
@given(any_json)
def test_classify_never_raises_and_names_a_known_kind(obj: Any) -> None:
    kind, method, _rid, detail = classify(obj)
    assert kind in {"request", "notification", "response", "error", "batch", "other"}
    assert method is None or isinstance(method, str)
    assert isinstance(detail, str)
    assert kind == "error" or len(detail) <= 60  # an error's detail is its code


@FUZZ
@given(texts, st.integers(min_value=0, max_value=200))
def test_preview_is_one_line_of_bounded_length(text: str, limit: int) -> None:
    shown = preview(text, limit)
    assert "\n" not in shown
    assert len(shown) <= limit + 1  # the ellipsis


@FUZZ
@given(texts)
def test_scan_large_and_utf8_len_never_raise_on_any_text(text: str) -> None:
    found = scan_large(text)
    assert found is None or ("id" in found or "method" in found)
    assert utf8_len(text) == len(text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(json_values | st.builds(object) | st.sets(st.integers(), max_size=3))
def test_compact_json_always_returns_text(obj: Any) -> None:
    assert isinstance(compact_json(obj), str)


def test_compact_json_of_a_cycle_is_its_repr_not_an_error() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    assert compact_json(cycle) == repr(cycle)


@FUZZ
@given(st.one_of(texts, st.binary(), any_json.map(json.dumps)), st.sampled_from(list(Direction)))
def test_the_wire_log_records_any_text_as_it_arrived(message: str | bytes, direction: Direction) -> None:
    wire = WireRecorder()
    record = wire.jsonrpc("c", direction, message)  # type: ignore[arg-type]  # bytes are accepted too
    expected = message if isinstance(message, str) else message.decode("utf-8", "replace")
    assert record.payload == expected
    assert record.kind is WireKind.JSONRPC and isinstance(record.summary, str)
    assert wire.raw("c", direction, expected).payload == expected


@FUZZ
@given(jsonrpc_like, st.sampled_from([Direction.OUT, Direction.IN]))
def test_a_request_and_its_response_pair_whatever_else_they_carry(
    message: dict[str, Any], direction: Direction
) -> None:
    wire = WireRecorder()
    request = {**message, "id": 7, "method": "tools/call"}
    request.pop("result", None), request.pop("error", None)
    sent = wire.jsonrpc("c", direction, request)
    answer = wire.jsonrpc("c", Direction.IN if direction is Direction.OUT else Direction.OUT, '{"id":7,"result":{}}')
    assert sent.method == "tools/call" and sent.rpc_id == "7"
    assert answer.latency_ms is not None and wire.find_response(sent) is answer


@settings(max_examples=50, deadline=None)
@given(
    st.integers(-(10**6), 10**6) | st.text(alphabet="abc-_0123456789", max_size=10),
    st.sampled_from(["result", "error", "params"]),
    st.text(min_size=1, max_size=50),
)
def test_a_large_message_is_classified_from_its_head_without_decoding_its_body(
    rid: int | str, member: str, garbage: str
) -> None:
    body = "[" * 50_000 + garbage + "{" * (LARGE_TEXT // 2)  # not JSON, deeper than any parser allows
    head = f'{{"jsonrpc":"2.0","id":{json.dumps(rid)},'
    if member == "params":
        head += '"method":"notifications/progress",'
    text = f'{head}"{member}":{body}}}'
    assert len(text) > LARGE_TEXT
    record = WireRecorder().jsonrpc("c", Direction.IN, text)
    assert record.rpc_id == str(rid)
    assert "invalid" not in record.summary  # had it been decoded, it would be invalid JSON
    assert record.payload == text


@FUZZ
@given(st.lists(st.binary(max_size=40), max_size=12), st.data())
def test_the_sse_framer_gives_the_same_frames_however_the_bytes_are_split(pieces: list[bytes], data: Any) -> None:
    stream = b"".join(pieces)
    whole = SSEFramer()
    expected = whole.feed(stream)
    expected_last = whole.close()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    split = SSEFramer()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got.extend(split.feed(stream[start:end]))
    assert got == expected
    assert split.close() == expected_last


@FUZZ
@given(texts)
def test_parse_frame_and_the_sse_record_never_raise(text: str) -> None:
    frame = parse_frame(text)
    record = WireRecorder().sse_event("c", frame.data or "", event=frame.event, event_id=frame.event_id)
    assert "\n" not in record.summary
