"""Conversions between MCP SDK types and the protocol-neutral core types."""

from __future__ import annotations

from typing import Any

import mcp.types as types

from workbench.core.protocols.base import (
    ContentPart,
    ElicitationRequest,
    ElicitationResponse,
    SamplingMessage,
    SamplingRequest,
    SamplingResponse,
    ToolResult,
)
from workbench.core.protocols.catalog import ToolSpec


def dump(model: Any) -> Any:
    """Wire-shaped JSON of an SDK model (camelCase, unset fields left out)."""
    if model is None:
        return None
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def content_part(block: Any) -> ContentPart:
    """Convert one MCP content block (tool result, prompt message, sampling content)."""
    if isinstance(block, types.TextContent):
        return ContentPart("text", text=block.text, raw=block)
    if isinstance(block, types.ImageContent):
        return ContentPart("image", blob=block.data, mime_type=block.mime_type, raw=block)
    if isinstance(block, types.AudioContent):
        return ContentPart("audio", blob=block.data, mime_type=block.mime_type, raw=block)
    if isinstance(block, types.ResourceLink):
        return ContentPart("resource_link", uri=str(block.uri), name=block.name, mime_type=block.mime_type, raw=block)
    if isinstance(block, types.EmbeddedResource):
        return resource_contents_part(block.resource, raw=block)
    return ContentPart(getattr(block, "type", "unknown"), data=dump(block), raw=block)


def resource_contents_part(contents: Any, raw: Any = None) -> ContentPart:
    """Convert text or blob resource contents into a ``resource`` part."""
    meta = getattr(contents, "meta", None)
    meta = dict(meta) if meta else None
    if isinstance(contents, types.TextResourceContents):
        return ContentPart(
            "resource",
            text=contents.text,
            uri=str(contents.uri),
            mime_type=contents.mime_type,
            raw=raw or contents,
            meta=meta,
        )
    return ContentPart(
        "resource",
        blob=getattr(contents, "blob", None),
        uri=str(contents.uri),
        mime_type=getattr(contents, "mime_type", None),
        raw=raw or contents,
        meta=meta,
    )


def tool_spec(tool: types.Tool) -> ToolSpec:
    """Convert an MCP tool listing entry."""
    return ToolSpec(
        name=tool.name,
        title=tool.title or (tool.annotations.title if tool.annotations else None),
        description=tool.description,
        input_schema=dict(tool.input_schema or {}),
        output_schema=dict(tool.output_schema) if tool.output_schema is not None else None,
        annotations=dump(tool.annotations) if tool.annotations else None,
        kind="tool",
        raw=tool,
        meta=dict(tool.meta) if tool.meta else None,
    )


def output_schema_errors(schema: dict[str, Any] | None, result: types.CallToolResult) -> list[str]:
    """Check structured content against a declared output schema; return readable problems.

    Problems are shown to the user, never raised: a debugging tool must display what arrived.
    """
    if not schema or result.is_error:
        return []
    if result.structured_content is None:
        return ["the tool declares an outputSchema but returned no structuredContent"]
    # Imported here: jsonschema (with referencing and attrs) costs a command that lists tools ~40 ms.
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        validator = Draft202012Validator(schema)
        errors = sorted(validator.iter_errors(result.structured_content), key=lambda e: list(e.path))
    except SchemaError as exc:
        return [f"the tool's outputSchema is itself invalid: {exc.message}"]
    out = []
    for err in errors[:20]:
        where = "/".join(str(p) for p in err.path) or "(root)"
        out.append(f"{where}: {err.message}")
    return out


def tool_result(result: types.CallToolResult, schema: dict[str, Any] | None) -> ToolResult:
    """Convert a ``CallToolResult``, checking it against the tool's output schema."""
    return ToolResult(
        content=[content_part(b) for b in result.content],
        structured_content=result.structured_content,
        is_error=bool(result.is_error),
        schema_errors=output_schema_errors(schema, result),
        meta=dict(result.meta) if result.meta else None,
        raw=result,
    )


def elicitation_request(params: Any, agent: str) -> ElicitationRequest:
    """Convert elicitation params (form or URL mode)."""
    if isinstance(params, types.ElicitRequestURLParams):
        return ElicitationRequest(
            mode="url",
            message=params.message,
            url=params.url,
            elicitation_id=params.elicitation_id,
            agent=agent,
            raw=params,
        )
    schema = getattr(params, "requested_schema", None)
    return ElicitationRequest(
        mode="form",
        message=params.message,
        requested_schema=dump(schema) if hasattr(schema, "model_dump") else schema,
        agent=agent,
        raw=params,
    )


def elicit_result(response: ElicitationResponse) -> types.ElicitResult:
    """Convert the user's answer into the SDK result."""
    if response.action == "accept":
        return types.ElicitResult(action="accept", content=response.content)
    return types.ElicitResult(action=response.action)


def sampling_request(params: types.CreateMessageRequestParams, agent: str, connection_id: str = "") -> SamplingRequest:
    """Convert a sampling request from the connection called ``agent`` whose id is ``connection_id``."""
    messages = []
    for m in params.messages:
        blocks = m.content if isinstance(m.content, list) else [m.content]
        messages.append(SamplingMessage(role=str(m.role), content=[content_part(b) for b in blocks]))
    tools = [tool_spec(t) for t in params.tools] if params.tools else None
    return SamplingRequest(
        messages=messages,
        max_tokens=params.max_tokens,
        system_prompt=params.system_prompt,
        temperature=params.temperature,
        stop_sequences=params.stop_sequences,
        metadata=dict(params.metadata) if params.metadata else None,
        model_preferences=dump(params.model_preferences),
        include_context=params.include_context,
        tools=tools,
        tool_choice=dump(getattr(params, "tool_choice", None)),
        agent=agent,
        connection_id=connection_id,
        raw=params,
    )


def sampling_result(response: SamplingResponse) -> types.CreateMessageResult | types.CreateMessageResultWithTools:
    """Convert a sampling reply into the SDK result: with tools (SEP-1577) when it holds ``tool_use`` parts."""
    if not response.content:
        return types.CreateMessageResult(
            role="assistant",
            model=response.model,
            stop_reason=response.stop_reason,
            content=types.TextContent(text=response.text),
        )
    blocks: list[types.TextContent | types.ToolUseContent] = []
    for part in response.content:
        if part.type == "tool_use":
            data = part.data or {}
            blocks.append(
                types.ToolUseContent(id=str(data.get("id")), name=str(data.get("name")), input=data.get("input") or {})
            )
        elif part.text:
            blocks.append(types.TextContent(text=part.text))
    if not any(isinstance(b, types.ToolUseContent) for b in blocks):
        text = "".join(b.text for b in blocks if isinstance(b, types.TextContent))
        return types.CreateMessageResult(
            role="assistant",
            model=response.model,
            stop_reason=response.stop_reason,
            content=types.TextContent(text=text),
        )
    return types.CreateMessageResultWithTools(
        role="assistant", model=response.model, stop_reason=response.stop_reason, content=blocks
    )
