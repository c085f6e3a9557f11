"""Core types in the JSON shapes an MCP App expects on its bridge (a tool, a tool result, resource contents)."""

from __future__ import annotations

from typing import Any

from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.protocols.content import ContentPart


def tool_json(tool: ToolSpec) -> dict[str, Any]:
    """``tool`` as an MCP ``Tool`` (camelCase, unset fields left out)."""
    out: dict[str, Any] = {"name": tool.name, "inputSchema": tool.input_schema or {"type": "object"}}
    for key, value in (
        ("title", tool.title),
        ("description", tool.description),
        ("outputSchema", tool.output_schema),
        ("annotations", tool.annotations),
        ("_meta", tool.meta),
    ):
        if value is not None:
            out[key] = value
    return out


def _resource_json(part: ContentPart) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": part.uri or ""}
    if part.mime_type:
        out["mimeType"] = part.mime_type
    if part.text is not None:
        out["text"] = part.text
    else:
        out["blob"] = part.blob or ""
    if part.meta:
        out["_meta"] = part.meta
    return out


def content_json(part: ContentPart) -> dict[str, Any]:
    """One content part as an MCP content block."""
    if part.type == "text":
        return {"type": "text", "text": part.text or ""}
    if part.type in ("image", "audio"):
        return {"type": part.type, "data": part.blob or "", "mimeType": part.mime_type or ""}
    if part.type == "resource_link":
        out: dict[str, Any] = {"type": "resource_link", "uri": part.uri or "", "name": part.name or part.uri or ""}
        if part.mime_type:
            out["mimeType"] = part.mime_type
        return out
    if part.type == "resource":
        return {"type": "resource", "resource": _resource_json(part)}
    if isinstance(part.data, dict):
        return part.data
    return {"type": "text", "text": part.text or ""}


def tool_result_json(result: ToolResult) -> dict[str, Any]:
    """``result`` as an MCP ``CallToolResult`` (``content``, ``structuredContent``, ``isError``, ``_meta``)."""
    out: dict[str, Any] = {"content": [content_json(p) for p in result.content], "isError": result.is_error}
    if result.structured_content is not None:
        out["structuredContent"] = result.structured_content
    if result.meta:
        out["_meta"] = result.meta
    return out


def resource_contents_json(contents: ResourceContents) -> dict[str, Any]:
    """``contents`` as an MCP ``ReadResourceResult``."""
    return {"contents": [_resource_json(p) for p in contents.parts]}
