"""What responders share: the last user message's text, tool-use parts, and the check that a tool was offered."""

from __future__ import annotations

from typing import Any

from workbench.core.errors import SamplingToolError
from workbench.core.protocols.base import ContentPart, SamplingRequest, parts_text

MAX_TOOL_USES = 32
"""Most tool calls one reply may hold (a model asking for more is a ``ModelResponseError``)."""


def tool_use_part(call_id: str, name: str, arguments: dict[str, Any]) -> ContentPart:
    """A ``tool_use`` content part (``data`` = ``{"id", "name", "input"}``)."""
    return ContentPart("tool_use", data={"id": call_id, "name": name, "input": arguments})


def offered_tools(request: SamplingRequest) -> set[str]:
    """The names of the tools the request offers (empty: none)."""
    return {t.name for t in request.tools or []}


def check_tool_uses(request: SamplingRequest, parts: list[ContentPart], responder: str) -> None:
    """Refuse a reply that calls a tool the request did not offer.

    Raises:
        SamplingToolError: A ``tool_use`` part names a tool missing from ``request.tools``.
    """
    offered = offered_tools(request)
    for part in parts:
        if part.type != "tool_use":
            continue
        name = str((part.data or {}).get("name"))
        if name not in offered:
            listed = ", ".join(sorted(offered)) or "none"
            raise SamplingToolError(
                f"{responder} called the tool {name[:80]!r}, which the sampling request did not offer.",
                hint=f"tools offered: {listed}",
                details={"tool": name[:200], "offered": sorted(offered)},
            )


def last_user_text(request: SamplingRequest) -> str:
    """The text of the last user message (a tool result's text when that is what it carries)."""
    for message in reversed(request.messages):
        if message.role != "user":
            continue
        text = parts_text(message.content)
        if text:
            return text
        return "".join(tool_result_text(p) for p in message.content if p.type == "tool_result")
    return ""


def tool_result_text(part: ContentPart) -> str:
    """The text inside a ``tool_result`` part (its ``content`` blocks' text, joined)."""
    data = part.data if isinstance(part.data, dict) else {}
    blocks = data.get("content") or []
    return "".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text")


def has_tool_result(request: SamplingRequest) -> bool:
    """Whether the last message carries a tool result (the model's tool call was answered)."""
    return bool(request.messages) and any(p.type == "tool_result" for p in request.messages[-1].content)
