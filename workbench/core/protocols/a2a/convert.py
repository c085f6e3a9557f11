"""Converts between A2A protobuf objects (parts, messages, values) and the neutral content types.

Objects in data parts come out with their keys sorted (a protobuf ``Struct`` keeps no order; see
``struct_to_python``). Numbers in A2A data parts travel as ``google.protobuf.Value`` doubles, so ``2`` arrives as
``2.0``; ``value_to_python`` gives integral doubles back as ``int`` (within ±2**53) so forms and
tool arguments keep the types a person typed.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from a2a.types import Message, Part, Role, TaskState
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict, ParseDict

from workbench.core.errors import UsageError
from workbench.core.fastinit import fast_constructor
from workbench.core.protocols.base import ContentPart, InputResponse, parts_text

_MAX_EXACT_INT = 2**53

STATE_NAMES: dict[int, str] = {
    TaskState.TASK_STATE_UNSPECIFIED: "unspecified",
    TaskState.TASK_STATE_SUBMITTED: "submitted",
    TaskState.TASK_STATE_WORKING: "working",
    TaskState.TASK_STATE_COMPLETED: "completed",
    TaskState.TASK_STATE_FAILED: "failed",
    TaskState.TASK_STATE_CANCELED: "canceled",
    TaskState.TASK_STATE_INPUT_REQUIRED: "input_required",
    TaskState.TASK_STATE_REJECTED: "rejected",
    TaskState.TASK_STATE_AUTH_REQUIRED: "auth_required",
}
"""Proto task state → the neutral state name used in events and results."""

TERMINAL_STATES = frozenset({"completed", "failed", "canceled", "rejected"})
INTERRUPTED_STATES = frozenset({"input_required", "auth_required"})


def state_name(state: int) -> str:
    """The neutral name of a proto ``TaskState`` (``working``, ``input_required`` ...)."""
    return STATE_NAMES.get(state, "unspecified")


def state_value(name: str) -> int:
    """The proto ``TaskState`` for a neutral name (``input_required``) or a proto name.

    Raises:
        UsageError: For an unknown name.
    """
    for value, neutral in STATE_NAMES.items():
        if name == neutral:
            return value
    try:
        return int(TaskState.Value(name if name.startswith("TASK_STATE_") else f"TASK_STATE_{name.upper()}"))
    except ValueError:
        raise UsageError(
            f"Unknown task state {name!r}.", hint="use one of: " + ", ".join(sorted(STATE_NAMES.values()))
        ) from None


# --------------------------------------------------------------------------- values


def value_to_python(value: struct_pb2.Value) -> Any:
    """Convert a protobuf ``Value`` to plain JSON-ready Python (integral doubles become ``int``)."""
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        n = value.number_value
        if n.is_integer() and abs(n) < _MAX_EXACT_INT:
            return int(n)
        return n
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return value.bool_value
    if kind == "struct_value":
        return struct_to_python(value.struct_value)
    if kind == "list_value":
        return [value_to_python(v) for v in value.list_value.values]
    return None


def struct_to_python(struct: struct_pb2.Struct) -> dict[str, Any]:
    """Convert a protobuf ``Struct`` to a dict with its keys sorted (see ``value_to_python``).

    A ``Struct`` is a map and keeps no order; the protobuf runtime iterates it in an order that
    changes from one process to the next, so the keys are sorted to be the same on every run.
    ``json_order.DataOrder`` puts a message's data back in the order the agent's JSON had.
    """
    fields = struct.fields
    return {k: value_to_python(fields[k]) for k in sorted(fields)}


def python_to_value(obj: Any) -> struct_pb2.Value:
    """Convert a JSON-ready Python value to a protobuf ``Value``.

    Raises:
        UsageError: When ``obj`` is not JSON-serialisable.
    """
    out = struct_pb2.Value()
    try:
        ParseDict(obj, out)
    except Exception as exc:  # ParseError / TypeError from json_format on odd input
        raise UsageError(f"Data part is not JSON: {exc}") from exc
    return out


def python_to_struct(obj: Mapping[str, Any]) -> struct_pb2.Struct:
    """Convert a JSON-ready dict to a protobuf ``Struct``."""
    out = struct_pb2.Struct()
    out.update(dict(obj))
    return out


# --------------------------------------------------------------------------- parts


def _kind_for_media(media_type: str) -> str:
    if media_type.startswith("image/"):
        return "image"
    if media_type.startswith("audio/"):
        return "audio"
    return "file"


_content = fast_constructor(ContentPart)


def part_to_content(part: Part) -> ContentPart:
    """Convert one A2A ``Part`` to a ``ContentPart`` (``raw`` keeps the proto, except for plain text)."""
    kind = part.WhichOneof("content")
    mime = part.media_type or None
    name = part.filename or None
    if kind == "text":
        # A plain text part keeps no ``raw``: holding each streamed chunk's proto would keep every
        # chunk's whole message in memory (the event's ``raw`` has it while the event lives).
        raw = part if part.HasField("metadata") else None
        return _content(type="text", text=part.text, mime_type=mime, name=name, raw=raw)
    if kind == "data":
        return _content(type="data", data=value_to_python(part.data), mime_type=mime, name=name, raw=part)
    if kind == "raw":
        blob = base64.b64encode(part.raw).decode("ascii")
        return _content(type=_kind_for_media(mime or ""), blob=blob, mime_type=mime, name=name, raw=part)
    if kind == "url":
        return _content(type="file", uri=part.url, mime_type=mime, name=name, raw=part)
    return _content(type="text", text="", raw=part)


def parts_to_content(parts: Iterable[Part]) -> list[ContentPart]:
    """Convert a sequence of A2A parts."""
    return [part_to_content(p) for p in parts]


def content_to_part(content: ContentPart) -> Part:
    """Convert a ``ContentPart`` to an A2A ``Part``.

    Text and text resources become text parts, ``data`` becomes a data part, anything with a
    ``blob`` becomes raw bytes, anything with only a ``uri`` becomes a URL part.

    Raises:
        UsageError: For a part with nothing to send.
    """
    part = Part()
    if content.type == "data":
        part.data.CopyFrom(python_to_value(content.data))
    elif content.text is not None and content.type in ("text", "resource"):
        part.text = content.text
    elif content.blob is not None:
        part.raw = base64.b64decode(content.blob)
    elif content.uri is not None:
        part.url = content.uri
    else:
        raise UsageError(f"A {content.type!r} part has no text, data, blob or uri to send.")
    if content.mime_type:
        part.media_type = content.mime_type
    if content.name:
        part.filename = content.name
    return part


def text_part(text: str) -> Part:
    """A text part."""
    return Part(text=text)


def data_part(data: Any) -> Part:
    """A data part holding any JSON value."""
    part = Part()
    part.data.CopyFrom(python_to_value(data))
    return part


# --------------------------------------------------------------------------- messages


def new_message_id() -> str:
    """A fresh message id."""
    return uuid.uuid4().hex


def build_message(
    prompt: str | InputResponse | Sequence[ContentPart] | None = None,
    *,
    data: Any = None,
    parts: Sequence[ContentPart] | None = None,
    task_id: str | None = None,
    context_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Message:
    """Build the user ``Message`` that ``stream_async`` sends.

    Args:
        prompt: Text, an ``InputResponse`` (``text`` → text part, ``data`` → data part), or parts.
        data: An extra JSON value sent as a data part.
        parts: Extra parts appended after the prompt.
        task_id: The task to continue (input-required / auth-required), if any.
        context_id: The conversation context, if any.
        metadata: Message metadata (e.g. the skill id).

    Returns:
        A message with a fresh id and ``ROLE_USER``.

    Raises:
        UsageError: When there is nothing to send.
    """
    out: list[Part] = []
    if isinstance(prompt, str):
        out.append(text_part(prompt))
    elif isinstance(prompt, InputResponse):
        if prompt.text is not None:
            out.append(text_part(prompt.text))
        if prompt.data is not None:
            out.append(data_part(prompt.data))
    elif prompt is not None:
        out.extend(content_to_part(p) for p in prompt)
    if data is not None:
        out.append(data_part(data))
    if parts:
        out.extend(content_to_part(p) for p in parts)
    if not out:
        raise UsageError("Nothing to send: give text, data or parts.")
    msg = Message(message_id=new_message_id(), role=Role.ROLE_USER, parts=out)
    if task_id:
        msg.task_id = task_id
    if context_id:
        msg.context_id = context_id
    if metadata:
        msg.metadata.CopyFrom(python_to_struct(metadata))
    return msg


def message_text(message: Message) -> str:
    """The text of a message's text parts, joined without separators."""
    return parts_text(parts_to_content(message.parts))


def message_to_dict(message: Any) -> dict[str, Any]:
    """Any protobuf message as camelCase JSON-ready dict (what the wire carries)."""
    result: dict[str, Any] = MessageToDict(message)
    return result
