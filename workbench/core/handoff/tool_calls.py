"""The ``tool_calls`` / ``tool_results`` data parts of A2A input-required pauses, and proxy requests.

An agent asks for tools by pausing in ``input-required`` with a data part (OpenAI's shape; the flat
``name``/``arguments`` shape is read too)::

    {"tool_calls": [{"id": "call-1", "function": {"name": "weather", "arguments": "<JSON text>"}}]}

and gets the answers back, on the same task, as a data part::

    {"tool_results": [{"id": "call-1", "name": "weather", "is_error": false, "content": "...",
                       "structured": {...}}]}

A failed call has ``is_error: true`` and ``error: {"code", "message", "caused_by": [...]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.base import ContentPart, ToolResult

PROXY_KEYS = ("target_mcp_server_id", "tool_name")
"""Keys of an A2A → MCP proxy request (the proxy pattern's data part)."""


@dataclass(frozen=True, slots=True)
class ToolCallEntry:
    """One entry of a ``tool_calls`` data part: a tool call an agent asks the workbench to make.

    Attributes:
        name: The tool (or agent tool) to call.
        arguments: Its arguments (a JSON string in the request is decoded).
        call_id: The id the agent gave it (echoed in the result).
        problem: Why the entry could not be read, if it could not.
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None
    problem: str | None = None


def find_tool_calls(data: Any) -> list[ToolCallEntry] | None:
    """The calls a data part value asks for, or ``None`` when it holds no ``tool_calls`` list."""
    if not isinstance(data, dict) or not isinstance(data.get("tool_calls"), list):
        return None
    calls: list[ToolCallEntry] = []
    for index, entry in enumerate(data["tool_calls"]):
        if not isinstance(entry, dict):
            calls.append(ToolCallEntry(name="", call_id=f"#{index}", problem="a tool call must be an object"))
            continue
        nested = entry.get("function")
        function: dict[str, Any] = nested if isinstance(nested, dict) else entry
        name = function.get("name") or function.get("tool_name") or ""
        raw_args = function.get("arguments", function.get("args", {}))
        call_id = entry.get("id") or entry.get("call_id")
        problem = None
        arguments: dict[str, Any] = {}
        if isinstance(raw_args, str):
            try:
                decoded = json.loads(raw_args) if raw_args.strip() else {}
            except ValueError:
                decoded, problem = None, "the arguments are not JSON"
            raw_args = decoded
        if isinstance(raw_args, dict):
            arguments = raw_args
        elif problem is None:
            problem = "the arguments must be a JSON object"
        if not name:
            problem = problem or "the tool call names no function"
        calls.append(
            ToolCallEntry(
                name=str(name), arguments=arguments, call_id=str(call_id) if call_id else None, problem=problem
            )
        )
    return calls


def tool_calls_in(parts: list[ContentPart], data: Any = None) -> list[ToolCallEntry] | None:
    """The tool calls of an input request: its ``data``, else any of its data parts."""
    found = find_tool_calls(data)
    if found is not None:
        return found
    for part in parts:
        if part.type == "data":
            found = find_tool_calls(part.data)
            if found is not None:
                return found
    return None


def result_entry(call: ToolCallEntry, result: ToolResult) -> dict[str, Any]:
    """The ``tool_results`` entry for a call that returned (a tool error is ``is_error``)."""
    entry: dict[str, Any] = {"id": call.call_id, "name": call.name, "is_error": result.is_error, "content": result.text}
    if result.structured_content is not None:
        entry["structured"] = result.structured_content
    if result.is_error:
        entry["error"] = {"code": "tool-error", "message": result.text or "the tool reported an error"}
    return entry


def error_entry(call: ToolCallEntry, error: WorkbenchError | None, *, message: str | None = None) -> dict[str, Any]:
    """The ``tool_results`` entry for a call that failed (refused, unknown, unreachable ...)."""
    if error is None:
        body: dict[str, Any] = {"code": "usage", "message": message or "the tool call could not be read"}
    else:
        body = {"code": error.code, "message": error.message}
        caused_by = error.details.get("caused_by")
        if caused_by:
            body["caused_by"] = caused_by
    return {"id": call.call_id, "name": call.name, "is_error": True, "content": body["message"], "error": body}


def proxy_request(message: str) -> dict[str, Any] | None:
    """The A2A → MCP proxy request a message holds (a JSON object with ``PROXY_KEYS``), if any."""
    text = message.strip()
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(value, dict) and all(isinstance(value.get(k), str) for k in PROXY_KEYS):
        return value
    return None


def proxy_outcome(structured: Any) -> dict[str, Any] | None:
    """What an A2A → MCP proxy reported (its ``mcp-result`` data, or its failure data), if it looks like one."""
    if isinstance(structured, dict) and "target_mcp_server_id" in structured:
        return structured
    return None
