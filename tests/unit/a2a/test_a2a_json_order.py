"""``DataOrder``: the key order of an agent's data parts, read from its JSON, bounded, safe on odd input."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format, struct_pb2

from workbench.core.protocols.a2a import json_order
from workbench.core.protocols.a2a.convert import parts_to_content, struct_to_python
from workbench.core.protocols.a2a.json_order import DataOrder, in_json_order
from workbench.core.protocols.base import ContentPart

NAMES = ["zulu", "mike", "alpha", "kilo", "echo", "yankee", "bravo", "oscar", "delta", "lima"]


def _message(message_id: str, data: Any, *, key: str = "messageId") -> dict[str, Any]:
    return {key: message_id, "role": "ROLE_AGENT", "parts": [{"text": "Fill it"}, {"data": data}]}


def _converted(data: Any) -> list[ContentPart]:
    """The parts of a message holding ``data`` as the adapter converts them (keys sorted)."""
    from a2a.types import Message

    message = json_format.ParseDict(_message("m", data), Message())
    return parts_to_content(message.parts)


def _document(*messages: dict[str, Any]) -> bytes:
    task = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": messages[-1]}}
    if messages[:-1]:
        task["history"] = list(messages[:-1])
    return json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"task": task}}).encode()


def test_a_struct_converts_with_its_keys_sorted_whatever_order_it_was_built_in() -> None:
    struct = struct_pb2.Struct()
    struct.update({name: {"b": 1, "a": 2} for name in NAMES})
    converted = struct_to_python(struct)
    assert list(converted) == sorted(NAMES)
    assert all(list(v) == ["a", "b"] for v in converted.values())


def test_a_messages_data_gets_the_key_order_of_its_json_at_every_level() -> None:
    data = {"schema": {"properties": {n: {"type": "string", "title": n} for n in NAMES}}, "form": {"id": "f"}}
    order = DataOrder()
    order.observe(_document(_message("m", data)))
    text, part = order.apply("m", _converted(data))
    assert text.text == "Fill it"
    assert list(part.data) == ["schema", "form"]
    assert list(part.data["schema"]["properties"]) == NAMES
    assert list(part.data["schema"]["properties"]["zulu"]) == ["type", "title"]
    assert part.data == data


def test_a_0_3_message_and_its_wrapped_data_part_are_read_too() -> None:
    items = [{n: 1 for n in NAMES}]
    message = {
        "kind": "message",
        "message_id": "m3",
        "parts": [{"kind": "data", "data": {"value": items}, "metadata": {"data_part_compat": True}}],
    }
    order = DataOrder()
    order.observe(json.dumps({"result": {"kind": "task", "status": {"message": message}}}).encode())
    [part] = order.apply("m3", [ContentPart(type="data", data=[{n: 1 for n in sorted(NAMES)}])])
    assert list(part.data[0]) == NAMES


def test_without_the_messages_json_or_with_other_parts_the_converted_parts_stay_as_they_are() -> None:
    data = {n: 1 for n in NAMES}
    order = DataOrder()
    parts = _converted(data)
    assert order.apply("m", parts) is parts  # never seen
    order.observe(_document(_message("other", data)))
    assert order.apply("m", parts) is parts  # another message
    order.observe(_document({"messageId": "m", "parts": [{"data": data}]}))
    assert order.apply("m", parts) is parts  # one part in the JSON, two converted: not the same message


def test_keys_the_json_lacks_follow_in_their_sorted_order_and_lists_of_another_length_keep_theirs() -> None:
    assert list(in_json_order({"a": 1, "b": 2, "z": 3}, {"z": None, "q": None})) == ["z", "a", "b"]
    assert in_json_order([{"b": 1, "a": 2}], [{"a": None, "b": None}, None]) == [{"b": 1, "a": 2}]
    assert list(in_json_order([{"b": 1, "a": 2}], [{"a": None, "b": None}])[0]) == ["a", "b"]


def test_the_newest_messages_are_kept_the_status_message_last_and_oldest_go_first(monkeypatch: Any) -> None:
    monkeypatch.setattr(json_order, "MAX_MESSAGES", 3)
    order = DataOrder()
    history = [_message(f"h{i}", {"x": i}) for i in range(5)]
    order.observe(_document(*history, _message("question", {"y": 1})))
    assert len(order) == 3
    parts = [ContentPart(type="text", text="Fill it"), ContentPart(type="data", data={"y": 1})]
    assert order.apply("question", parts) is not parts  # the status message outlived the history


def test_kept_bytes_are_bounded_and_the_newest_message_always_stays(monkeypatch: Any) -> None:
    monkeypatch.setattr(json_order, "MAX_KEPT_BYTES", 1000)
    order = DataOrder()
    documents = [_document(_message(f"m{i}", {"pad": "x" * 200, "i": i})) for i in range(10)]
    for document in documents:
        order.observe(document)
    assert len(order) == 1000 // len(documents[0]) > 1
    order.observe(_document(_message("huge", {"pad": "x" * 5000})))
    assert len(order) == 1


def test_large_odd_or_hostile_documents_are_passed_over_without_errors(monkeypatch: Any) -> None:
    monkeypatch.setattr(json_order, "MAX_DOCUMENT_BYTES", 10_000)
    order = DataOrder()
    order.observe(_document(_message("big", {"pad": "x" * 20_000})))
    order.observe(b'{"messageId": "m", "parts": [{"data": ')  # cut short
    order.observe(b"\xff\xfe not json messageId")
    order.observe(b'{"messageId": 7, "parts": [{"data": {}}]}')  # an id that is no string
    order.observe(b'{"messageId": "m", "parts": "no list"}')
    deep = "[" * 5000 + "]" * 5000
    order.observe(f'{{"messageId": "deep", "parts": [{{"data": {deep}}}]}}'.encode())
    assert len(order) <= 1
    nested: Any = {"a": 1}
    for _ in range(200):
        nested = {"k": nested, "j": 0}
    order.observe(json.dumps({"messageId": "nest", "parts": [{"data": nested}]}).encode())
    [part] = order.apply("nest", [ContentPart(type="data", data=nested)])
    assert part.data == nested  # ordered as far as MAX_DEPTH, the rest as it was
