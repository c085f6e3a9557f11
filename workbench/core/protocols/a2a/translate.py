"""Turns reducer ``Change``s into neutral ``AgentEvent``s, results and input requests.

Input-required convention (what ``InputRequest.schema`` is taken from), in order:

1. a data part whose value has a ``"schema"`` key holding a JSON Schema object
   (the demo travel agent sends ``{"form": {...}, "schema": {...}}``);
2. a data part whose value is itself a JSON Schema (has ``"$schema"``, or ``"type": "object"``
   with ``"properties"``);
3. a data part with media type ``application/schema+json``.

``InputRequest.data`` is always the first data part's value, unchanged. A data part holding
``{"tool_calls": [{"name"|"tool_name", "arguments"|"args", "id"|"call_id"}, ...]}`` also yields one
``ToolCallRequested`` per call before the ``InputRequired`` event.

With a ``DataOrder`` (the session's), the question's data and schema and a result's status message
keep the key order of the agent's JSON (a protobuf ``Struct`` keeps none; see ``json_order``).
Without it (gRPC) their keys are sorted. ``InputRequest.schema`` has its properties, at every level,
in the order to show them (``workbench.core.schema_order``): the agent's, unless the schema names
one with ``x-order`` / ``ui:order`` / ``propertyOrder``.
"""

from __future__ import annotations

import json
from typing import Any

from a2a.types import Message

from workbench.core.protocols.a2a.convert import INTERRUPTED_STATES, TERMINAL_STATES, message_text, parts_to_content
from workbench.core.protocols.a2a.json_order import DataOrder
from workbench.core.protocols.a2a.reducer import Change, TaskView
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    ArtifactUpdated,
    ContentPart,
    InputRequest,
    StatusChanged,
    TextDelta,
    ToolCallRequested,
)
from workbench.core.schema_order import in_display_order

PROTOCOL = "a2a"


def _looks_like_schema(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if "$schema" in value:
        return True
    return value.get("type") == "object" and isinstance(value.get("properties"), dict)


def _display_schema(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    shown: dict[str, Any] | None = in_display_order(schema) if schema is not None else None
    return shown


def find_schema(parts: list[ContentPart]) -> dict[str, Any] | None:
    """The JSON Schema an input-required message offers for the answer (see the module docstring)."""
    for p in parts:
        if p.type != "data":
            continue
        if isinstance(p.data, dict) and _looks_like_schema(p.data.get("schema")):
            schema: dict[str, Any] = p.data["schema"]
            return schema
        if _looks_like_schema(p.data):
            whole: dict[str, Any] = p.data
            return whole
        if p.mime_type == "application/schema+json" and isinstance(p.data, dict):
            typed: dict[str, Any] = p.data
            return typed
    return None


def tool_calls(parts: list[ContentPart]) -> list[dict[str, Any]]:
    """The ``tool_calls`` entries of the first data part holding them (normalised keys).

    Both shapes are read: flat ``{"name", "arguments"}`` and OpenAI-style
    ``{"id", "function": {"name", "arguments"}}`` (arguments possibly a JSON string).
    """
    for p in parts:
        if p.type == "data" and isinstance(p.data, dict) and isinstance(p.data.get("tool_calls"), list):
            out: list[dict[str, Any]] = []
            for call in p.data["tool_calls"]:
                if not isinstance(call, dict):
                    continue
                raw_function = call.get("function")
                function: dict[str, Any] = raw_function if isinstance(raw_function, dict) else {}
                name = call.get("name") or call.get("tool_name") or function.get("name") or ""
                args = call.get("arguments", call.get("args", function.get("arguments", {})))
                if isinstance(args, str):
                    try:
                        args = json.loads(args)
                    except json.JSONDecodeError:
                        args = {"value": args}
                out.append(
                    {
                        "name": str(name),
                        "arguments": args if isinstance(args, dict) else {"value": args},
                        "call_id": call.get("id") or call.get("call_id"),
                    }
                )
            return out
    return []


def message_parts(message: Message | None, order: DataOrder | None = None) -> list[ContentPart]:
    """A message's parts, converted; with ``order``, its data in the key order of the agent's JSON."""
    if message is None:
        return []
    parts = parts_to_content(message.parts)
    return order.apply(message.message_id, parts) if order is not None else parts


def input_request(view: TaskView, *, agent: str, order: DataOrder | None = None) -> InputRequest:
    """The ``InputRequest`` for a task waiting in input-required or auth-required.

    With ``order``, its data, schema and parts keep the key order of the agent's JSON.
    """
    message = view.status_message
    parts = message_parts(message, order)
    data = next((p.data for p in parts if p.type == "data"), None)
    text = message_text(message) if message is not None else ""
    if not text and view.state == "auth_required":
        text = "The agent needs a credential to continue."
    return InputRequest(
        kind="auth" if view.state == "auth_required" else "input",
        text=text,
        task_id=view.task_id,
        context_id=view.context_id,
        data=data,
        schema=_display_schema(find_schema(parts)),
        parts=parts,
        agent=agent,
        raw=message,
    )


def events_for(change: Change, *, agent: str, raw: Any = None) -> list[AgentEvent]:
    """The events one change produces (interrupted states yield only ``StatusChanged`` here).

    The caller adds ``InputRequired`` / ``AuthRequired`` (it needs to decide how to continue) and
    ``Completed`` / ``Failed``.
    """
    if change.artifacts and change.state is None and change.reply is None:
        # An artifact chunk (the hot path of long streams): nothing else can be in the change.
        tid, cid = change.task_id, change.context_id
        return [
            ArtifactUpdated(
                artifact_id=a.artifact_id,
                name=a.name,
                parts=a.parts,
                append=a.append,
                last_chunk=a.last_chunk,
                agent=agent,
                protocol=PROTOCOL,
                task_id=tid,
                context_id=cid,
                raw=raw,
            )
            for a in change.artifacts
        ]
    out: list[AgentEvent] = []
    common: dict[str, Any] = {
        "agent": agent,
        "protocol": PROTOCOL,
        "task_id": change.task_id,
        "context_id": change.context_id,
        "raw": raw,
    }
    for msg in change.agent_messages:
        text = message_text(msg)
        if text:
            out.append(TextDelta(text=text, **common))
    status_text = message_text(change.status_message) if change.status_message is not None else None
    if change.state_changed and change.state is not None:
        out.append(StatusChanged(state=change.state, message=status_text or None, **common))
    if status_text and change.state not in INTERRUPTED_STATES:
        out.append(TextDelta(text=status_text, **common))
    if change.state in INTERRUPTED_STATES and change.status_message is not None:
        for call in tool_calls(parts_to_content(change.status_message.parts)):
            out.append(
                ToolCallRequested(name=call["name"], arguments=call["arguments"], call_id=call["call_id"], **common)
            )
    for art in change.artifacts:
        out.append(
            ArtifactUpdated(
                artifact_id=art.artifact_id,
                name=art.name,
                parts=art.parts,
                append=art.append,
                last_chunk=art.last_chunk,
                **common,
            )
        )
    if change.reply is not None:
        text = message_text(change.reply)
        if text:
            out.append(TextDelta(text=text, **common))
    return out


def _join(texts: list[str]) -> str:
    return "\n".join(t for t in texts if t)


def result_from_view(view: TaskView, order: DataOrder | None = None) -> AgentResult:
    """The ``AgentResult`` for a task that ended or paused.

    ``parts`` are the final status message's parts followed by every artifact's parts; ``text``
    joins the status message text and each artifact's text with newlines; ``structured`` is the
    first data part found in the artifacts, else in the status message (with ``order``, in the key
    order of the agent's JSON).
    """
    status_parts: list[ContentPart] = []
    message = view.status_message
    if message is not None and (view.state in TERMINAL_STATES or view.state in INTERRUPTED_STATES):
        status_parts = message_parts(message, order)
    artifacts = {aid: list(av.content) for aid, av in view.artifacts.items()}
    parts = [*status_parts, *(p for ps in artifacts.values() for p in ps)]
    texts = ["".join(p.text or "" for p in status_parts if p.type == "text")]
    texts += ["".join(p.text or "" for p in ps if p.type == "text") for ps in artifacts.values()]
    structured = next((p.data for ps in artifacts.values() for p in ps if p.type == "data"), None)
    if structured is None:
        structured = next((p.data for p in status_parts if p.type == "data"), None)
    return AgentResult(
        text=_join(texts),
        parts=parts,
        state=view.state,
        structured=structured,
        is_error=view.state in ("failed", "rejected"),
        task_id=view.task_id,
        context_id=view.context_id,
        artifacts=artifacts,
        raw=view.to_task(),
    )


def result_from_message(message: Message, order: DataOrder | None = None) -> AgentResult:
    """The ``AgentResult`` for a message-only reply (no task); ``order`` as for ``input_request``."""
    parts = message_parts(message, order)
    return AgentResult(
        text="".join(p.text or "" for p in parts if p.type == "text"),
        parts=parts,
        state="completed",
        structured=next((p.data for p in parts if p.type == "data"), None),
        task_id=message.task_id or None,
        context_id=message.context_id or None,
        raw=message,
    )
