"""Sampling through an OpenAI-compatible chat completions API (OpenAI, Ollama, vLLM); the only ``openai`` importer.

Imported only when such an endpoint answers (``import openai`` costs ~0.4 s).
"""

from __future__ import annotations

import json
from typing import Any

import openai

from workbench.core.errors import ModelResponseError
from workbench.core.protocols.base import ContentPart, SamplingRequest
from workbench.core.sampling.completion import Budget, Completion, TextSink, ToolCallDraft
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.sdk_calls import SDKErrors, client_options, read_answer
from workbench.core.sampling.tools import tool_result_text

_STOP = {"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse", "function_call": "toolUse"}


def _user_parts(parts: list[ContentPart]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in parts:
        if part.type == "image" and part.blob:
            out.append({"type": "image_url", "image_url": {"url": f"data:{part.mime_type};base64,{part.blob}"}})
        elif part.text:
            out.append({"type": "text", "text": part.text})
    return out


def messages(request: SamplingRequest) -> list[dict[str, Any]]:
    """The request as chat messages: system, user/assistant, assistant ``tool_calls`` and ``tool`` results."""
    out: list[dict[str, Any]] = []
    if request.system_prompt:
        out.append({"role": "system", "content": request.system_prompt})
    for message in request.messages:
        uses = [p for p in message.content if p.type == "tool_use"]
        results = [p for p in message.content if p.type == "tool_result"]
        if message.role == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": "".join(p.text or "" for p in message.content)}
            if uses:
                entry["tool_calls"] = [
                    {
                        "id": str(u.data.get("id")),
                        "type": "function",
                        "function": {
                            "name": str(u.data.get("name")),
                            "arguments": json.dumps(u.data.get("input") or {}),
                        },
                    }
                    for u in uses
                ]
            out.append(entry)
            continue
        for result in results:
            data = result.data or {}
            call_id = str(data.get("toolUseId") or data.get("tool_use_id"))
            out.append({"role": "tool", "tool_call_id": call_id, "content": tool_result_text(result)})
        parts = _user_parts(message.content)
        if parts:
            out.append({"role": "user", "content": parts})
    return out


def _tools(request: SamplingRequest) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description or "", "parameters": t.input_schema or {}},
        }
        for t in request.tools or []
    ]


def _arguments(endpoint: ModelEndpoint, request: SamplingRequest) -> dict[str, Any]:
    max_tokens = min(request.max_tokens, endpoint.max_tokens or request.max_tokens)
    kwargs: dict[str, Any] = {"model": endpoint.model, "messages": messages(request), "max_tokens": max_tokens}
    if request.temperature is not None:
        kwargs["temperature"] = request.temperature
    if request.stop_sequences:
        kwargs["stop"] = request.stop_sequences
    if request.tools:
        kwargs["tools"] = _tools(request)
        mode = (request.tool_choice or {}).get("mode")
        if mode in ("auto", "required", "none"):
            kwargs["tool_choice"] = mode
    if endpoint.stream:
        kwargs["stream"] = True
        kwargs["stream_options"] = {"include_usage": True}
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
    client = openai.AsyncOpenAI(**client_options(endpoint, key, http_client))
    with SDKErrors(openai, label, key, "a chat completion", endpoint.timeout):
        async with client:
            raw = await client.chat.completions.create(**_arguments(endpoint, request))
            return await read_answer(raw, endpoint, label, on_text, _read_whole, _read_stream)


def _read_whole(raw: Any, endpoint: ModelEndpoint, label: str) -> Completion:
    choice = raw.choices[0]
    budget = Budget(label)
    out = Completion(model=raw.model or endpoint.model, text=budget.take(choice.message.content or ""))
    calls = choice.message.tool_calls or []
    budget.check_calls(len(calls))
    for call in calls:
        draft = ToolCallDraft(call.id, call.function.name)
        draft.arguments.append(budget.take(call.function.arguments or ""))
        out.tool_uses.append(draft.part(label))
    out.stop_reason = _STOP.get(choice.finish_reason or "stop", "endTurn")
    if raw.usage is not None:
        out.input_tokens, out.output_tokens = raw.usage.prompt_tokens, raw.usage.completion_tokens
    return out


async def _read_stream(stream: Any, endpoint: ModelEndpoint, label: str, on_text: TextSink | None) -> Completion:
    budget = Budget(label)
    out = Completion(model=endpoint.model)
    text: list[str] = []
    drafts: dict[int, ToolCallDraft] = {}
    finish: str | None = None
    async for chunk in stream:
        out.model = chunk.model or out.model
        if chunk.usage is not None:
            out.input_tokens, out.output_tokens = chunk.usage.prompt_tokens, chunk.usage.completion_tokens
        for choice in chunk.choices or []:
            delta = choice.delta
            if delta is not None and delta.content:
                text.append(budget.take(delta.content))
                if on_text is not None:
                    on_text(delta.content)
            for call in (delta.tool_calls if delta is not None else None) or []:
                draft = drafts.get(call.index)
                if draft is None:
                    name = call.function.name if call.function else None
                    if not name:
                        raise ModelResponseError(f"{label} streamed a tool call without a name.")
                    draft = drafts[call.index] = ToolCallDraft(call.id or f"call_{call.index}", name)
                    budget.check_calls(len(drafts))
                if call.function and call.function.arguments:
                    draft.arguments.append(budget.take(call.function.arguments))
            finish = choice.finish_reason or finish
    if finish is None:
        raise ModelResponseError(f"{label} ended its stream before the answer was finished.")
    out.text = "".join(text)
    out.tool_uses = [drafts[i].part(label) for i in sorted(drafts)]
    out.stop_reason = _STOP.get(finish, "endTurn")
    return out
