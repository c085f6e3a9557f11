"""A stream event's JSON ``result`` → ``StreamResponse``, with a short path for artifact chunks.

The SDK parses each event with ``json_format.ParseDict``, pure Python that walks the descriptors:
about 50 µs per event, most of the client's CPU on a long stream. An artifact chunk the way agents
send it — ``taskId``, ``contextId``, ``append``, ``lastChunk`` and an ``artifact`` with an id, a
name, a description and text parts (with a media type or a file name) — is built here with the
protobuf constructors instead (about 6 µs), giving the message ``ParseDict`` gives. Anything else
(another member, a value of another type, metadata, extensions, a file or data part, a status
update, a task, a message) takes the SDK's own parse, errors included.
"""

from __future__ import annotations

from typing import Any

from a2a.types import Artifact, Part, StreamResponse, TaskArtifactUpdateEvent
from a2a.utils.proto_utils import parse_lenient
from google.protobuf.json_format import ParseError

_UPDATE_KEYS = frozenset({"taskId", "contextId", "artifact", "append", "lastChunk"})
_ARTIFACT_KEYS = frozenset({"artifactId", "name", "description", "parts"})
_PART_KEYS = frozenset({"text", "mediaType", "filename"})


def stream_response(result: Any) -> StreamResponse:
    """The ``StreamResponse`` of one event's ``result``, as ``parse_lenient`` reads it.

    Raises:
        google.protobuf.json_format.ParseError: As the SDK's parse does, for what it cannot read (also
            for a lone surrogate in a string, where the SDK's parse raises a ``SystemError``).
    """
    if type(result) is dict and len(result) == 1 and (chunk := _artifact_chunk(result)) is not None:
        return chunk
    try:
        return parse_lenient(result, StreamResponse())
    except (SystemError, UnicodeError) as exc:
        # protobuf's upb runtime cannot encode a lone surrogate (JSON may carry "\ud800") and reports it
        # as a SystemError; it is unreadable input like any other: the typed parse error, not a crash.
        raise ParseError(f"a string in the event cannot be encoded as UTF-8 ({exc.__cause__ or exc})") from exc


def _artifact_chunk(result: dict[str, Any]) -> StreamResponse | None:
    """The chunk built directly, or ``None`` when it is not of the plain shape (the SDK reads it then)."""
    update = result.get("artifactUpdate")
    if type(update) is not dict or not update.keys() <= _UPDATE_KEYS:
        return None
    artifact = update.get("artifact")
    if type(artifact) is not dict or not artifact.keys() <= _ARTIFACT_KEYS:
        return None
    task_id, context_id = update.get("taskId", ""), update.get("contextId", "")
    append, last_chunk = update.get("append", False), update.get("lastChunk", False)
    artifact_id, name = artifact.get("artifactId", ""), artifact.get("name", "")
    description, parts = artifact.get("description", ""), artifact.get("parts", [])
    if not (
        type(task_id) is str
        and type(context_id) is str
        and type(append) is bool
        and type(last_chunk) is bool
        and type(artifact_id) is str
        and type(name) is str
        and type(description) is str
        and type(parts) is list
    ):
        return None
    try:
        built: list[Part] = []
        for part in parts:
            if type(part) is not dict or type(text := part.get("text")) is not str:
                return None
            if len(part) == 1:
                built.append(Part(text=text))
                continue
            media_type, filename = part.get("mediaType", ""), part.get("filename", "")
            if not part.keys() <= _PART_KEYS or type(media_type) is not str or type(filename) is not str:
                return None
            built.append(Part(text=text, media_type=media_type, filename=filename))
        return StreamResponse(
            artifact_update=TaskArtifactUpdateEvent(
                task_id=task_id,
                context_id=context_id,
                artifact=Artifact(artifact_id=artifact_id, name=name, description=description, parts=built),
                append=append,
                last_chunk=last_chunk,
            )
        )
    except ValueError:  # a string protobuf refuses (a lone surrogate): the SDK's parse says why
        return None
