"""Sampling through the Anthropic messages API: the one module that imports ``anthropic``.

Imported only when such an endpoint answers (``import anthropic`` costs ~1.1 s).
"""

from __future__ import annotations

from typing import Any

import anthropic

from workbench.core.errors import ModelResponseError
from workbench.core.protocols.base import ContentPart, SamplingRequest
from workbench.core.sampling.completion import Budget, Completion, TextSink, ToolCallDraft
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.sdk_calls import SDKErrors, client_options, read_answer
from workbench.core.sampling.tools import tool_result_text

_STOP = {"end_turn": "endTurn", "max_tokens": "maxTokens", "stop_sequence": "stopSequence", "tool_use": "toolUse"}


def _block(part: ContentPart) -> dict[str, Any] | None:
    data = part.data if isinstance(part.data, dict) else {}
    if part.type == "tool_use":
        return {
            "type": "tool_use",
            "id": str(data.get("id")),
            "name": str(data.get("name")),
            "input": data.get("input") or {},
        }
    if part.type == "tool_result":
        call_id = str(data.get("toolUseId") or data.get("tool_use_id"))
        block = {"type": "tool_result", "tool_use_id": call_id, "content": tool_result_text(part)}
        return block | ({"is_error": True} if data.get("isError") else {})
    if part.type == "image" and part.blob:
        return {"type": "image", "source": {"type": "base64", "media_type": part.mime_type, "data": part.blob}}
    if part.text:
        return {"type": "text", "text": part.text}
    return None


def messages(request: SamplingRequest) -> list[dict[str, Any]]:
    """The request as Anthropic messages (content blocks: text, image, tool_use, tool_result)."""
    out = []
    for message in request.messages:
        blocks = [b for b in (_block(p) for p in message.content) if b is not None]
        out.append({"role": "assistant" if message.role == "assistant" else "user", "content": blocks})
    return out


def _arguments(endpoint: ModelEndpoint, request: SamplingRequest) -> dict[str, Any]:
    max_tokens = min(request.max_tokens, endpoint.max_tokens or request.max_tokens)
    kwargs: dict[str, Any] = {"model": endpoint.model, "messages": messages(request), "max_tokens": max_tokens}
    if request.system_prompt:
        kwargs["system"] = request.system_prompt
    # The request's temperature is not forwarded: the messages API of anthropic 2.x has no such parameter.
    if request.stop_sequences:
        kwargs["stop_sequences"] = request.stop_sequences
    if request.tools:
        kwargs["tools"] = [
            {"name": t.name, "description": t.description or "", "input_schema": t.input_schema or {"type": "object"}}
            for t in request.tools
        ]
        mode = (request.tool_choice or {}).get("mode")
        choice = {"auto": "auto", "required": "any", "none": "none"}.get(str(mode))
        if choice:
            kwargs["tool_choice"] = {"type": choice}
    if endpoint.stream:
        kwargs["stream"] = True
    return kwargs


async def complete(
    endpoint: ModelEndpoint,
    key: str | None,
    request: SamplingRequest,
    on_text: TextSink | None,
    http_client: Any = None,
) -> Completion:
    """Ask the endpoint; the answer mapped to a ``Completion``.

    ``http_client`` (an ``httpx2.AsyncClient``, e.g. one that records into the wire log) carries the requests
    when given; the SDK's own client otherwise.

    Raises:
        ModelEndpointError: Refused, unreachable, or an HTTP error status.
        ModelTimeoutError: No answer within the endpoint's timeout.
        ModelResponseError: The answer (or its stream) is malformed.
    """
    label = f"The model endpoint {endpoint.name!r}"
    client = anthropic.AsyncAnthropic(**client_options(endpoint, key, http_client))
    with SDKErrors(anthropic, label, key, "an Anthropic message", endpoint.timeout):
        async with client:
            raw = await client.messages.create(**_arguments(endpoint, request))
            return await read_answer(raw, endpoint, label, on_text, _read_whole, _read_stream)


def _read_whole(raw: Any, endpoint: ModelEndpoint, label: str) -> Completion:
    budget = Budget(label)
    out = Completion(model=raw.model or endpoint.model)
    text = []
    for block in raw.content:
        if block.type == "text":
            text.append(budget.take(block.text))
        elif block.type == "tool_use":
            if not isinstance(block.input, dict):
                raise ModelResponseError(
                    f"{label} called the tool {block.name[:80]!r} with input that is not an object."
                )
            out.tool_uses.append(_use(block))
            budget.check_calls(len(out.tool_uses))
    out.text = "".join(text)
    out.stop_reason = _STOP.get(raw.stop_reason or "end_turn", "endTurn")
    out.input_tokens, out.output_tokens = raw.usage.input_tokens, raw.usage.output_tokens
    return out


def _use(block: Any) -> ContentPart:
    return ContentPart("tool_use", data={"id": block.id, "name": block.name, "input": dict(block.input)})


async def _read_stream(stream: Any, endpoint: ModelEndpoint, label: str, on_text: TextSink | None) -> Completion:
    budget = Budget(label)
    out = Completion(model=endpoint.model)
    text: list[str] = []
    drafts: dict[int, ToolCallDraft] = {}
    stop: str | None = None
    finished = False
    async for event in stream:
        kind = event.type
        if kind == "message_start":
            out.model = event.message.model or out.model
            out.input_tokens = event.message.usage.input_tokens
        elif kind == "content_block_start" and event.content_block.type == "tool_use":
            drafts[event.index] = ToolCallDraft(event.content_block.id, event.content_block.name)
            budget.check_calls(len(drafts))
        elif kind == "content_block_delta":
            delta = event.delta
            if delta.type == "text_delta":
                text.append(budget.take(delta.text))
                if on_text is not None:
                    on_text(delta.text)
            elif delta.type == "input_json_delta":
                draft = drafts.get(event.index)
                if draft is None:
                    raise ModelResponseError(f"{label} streamed tool arguments for a block that is not a tool call.")
                draft.arguments.append(budget.take(delta.partial_json))
        elif kind == "message_delta":
            stop = event.delta.stop_reason or stop
            if event.usage is not None and event.usage.output_tokens is not None:
                out.output_tokens = event.usage.output_tokens
        elif kind == "message_stop":
            finished = True
    if not finished:
        raise ModelResponseError(f"{label} ended its stream before the message was finished.")
    out.text = "".join(text)
    out.tool_uses = [drafts[i].part(label) for i in sorted(drafts)]
    out.stop_reason = _STOP.get(stop or "end_turn", "endTurn")
    return out
