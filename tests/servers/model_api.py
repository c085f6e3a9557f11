"""A loopback model endpoint for tests: OpenAI chat completions and Anthropic messages, streamed or whole.

Served in-process (``serve_model_api``) on 127.0.0.1 at an ephemeral port. What it answers depends on the
model asked for:

    echo        text: "echo: <the last user message's text>"
    weather     with tools and no tool result yet: a call of ``get_weather`` {"city": "Oslo"};
                after a tool result: "It is <the result's text>"
    ghost-tool  a call of ``no_such_tool`` (not offered)
    garbage     a body (or stream) that is not JSON / not the API's events
    cut         a stream that stops before the answer is finished
    hang        headers, then nothing (never finishes)
    leak-key    HTTP 401 whose error message echoes the key that was sent
    flood       a stream of text that never stops (until the client stops reading)
    call:TOOL   with tools and no tool result yet: "Calling TOOL." and a call of TOOL with the last user
                message's text as arguments (when it is a JSON object, else {}); after a tool result:
                "Result: <the result's text>" (a tool chat's model: calls whatever TOOL names)
    loop:TOOL   a call of TOOL with {} in every answer (a model that never stops calling)

Every request is kept in ``ModelAPI.seen`` (path, the key sent, the JSON body) and its headers in ``headers``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from workbench.core.serving import serve_asgi

WEATHER_ARGS = '{"city": "Oslo"}'


@dataclass
class Seen:
    path: str
    key: str | None
    body: dict[str, Any]


@dataclass
class ModelAPI:
    """The running server: its base URL and what it received."""

    url: str
    seen: list[Seen] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    hang: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    def base_url(self, api: str) -> str:
        """The base URL a model endpoint of ``api`` ("openai" or "anthropic") names for this server."""
        return self.openai_url if api == "openai" else self.url


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    out = []
    for block in content or []:
        if block.get("type") == "text":
            out.append(block.get("text", ""))
        elif block.get("type") == "tool_result":
            inner = block.get("content")
            out.append(inner if isinstance(inner, str) else _text_of(inner))
    return "".join(out)


def _answered(last: dict[str, Any], anthropic: bool) -> bool:
    """Whether the last message carries a tool result."""
    return last.get("role") == "tool" or (
        anthropic and any(b.get("type") == "tool_result" for b in last.get("content") or [] if isinstance(b, dict))
    )


def _plan(body: dict[str, Any], anthropic: bool) -> tuple[str, tuple[str, str] | None]:
    """(text, tool call (name, JSON arguments) or None) for the model asked for."""
    model = body.get("model")
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    if model == "ghost-tool":
        return "", ("no_such_tool", "{}")
    if isinstance(model, str) and model.startswith("loop:"):
        return "", (model.removeprefix("loop:"), "{}")
    if isinstance(model, str) and model.startswith("call:"):
        if body.get("tools") and not _answered(last, anthropic):
            user = _text_of(last.get("content"))
            try:
                arguments = user if isinstance(json.loads(user), dict) else "{}"
            except ValueError:
                arguments = "{}"
            return f"Calling {model.removeprefix('call:')}.", (model.removeprefix("call:"), arguments)
        return "Result: " + _text_of(last.get("content")), None
    if model == "weather":
        if body.get("tools") and not _answered(last, anthropic):
            return "Let me look.", ("get_weather", WEATHER_ARGS)
        return "It is " + _text_of(last.get("content")), None
    user = [m for m in messages if m.get("role") == "user"]
    return "echo: " + (_text_of(user[-1].get("content")) if user else ""), None


def _sse(events: Iterator[tuple[str | None, Any]]) -> Iterator[bytes]:
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        payload = data if isinstance(data, str) else json.dumps(data)
        yield f"{head}data: {payload}\n\n".encode()


def _openai_chunks(model: str, text: str, call: tuple[str, str] | None) -> Iterator[tuple[str | None, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": [choice]}

    yield None, chunk({"role": "assistant", "content": ""})
    for piece in text.split(" "):
        if piece:
            yield None, chunk({"content": piece + " "} if piece != text.split(" ")[-1] else {"content": piece})
    if call:
        name, arguments = call
        first = {"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": ""}}
        yield None, chunk({"tool_calls": [first]})
        for i in range(0, len(arguments), 5):
            yield None, chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments[i : i + 5]}}]})
    yield None, chunk({}, "tool_calls" if call else "stop")
    usage = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    yield (
        None,
        {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": [], "usage": usage},
    )
    yield None, "[DONE]"


def _anthropic_events(model: str, text: str, call: tuple[str, str] | None) -> Iterator[tuple[str | None, Any]]:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": []}
    message |= {"stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 13, "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": message}
    index = 0
    if text:
        yield (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        )
        for piece in (text[:4], text[4:]):
            delta = {"type": "text_delta", "text": piece}
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        index = 1
    if call:
        name, arguments = call
        block = {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": block}
        for i in range(0, len(arguments), 5):
            delta = {"type": "input_json_delta", "partial_json": arguments[i : i + 5]}
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = {"stop_reason": "tool_use" if call else "end_turn", "stop_sequence": None}
    yield "message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 9}}
    yield "message_stop", {"type": "message_stop"}


def _whole(anthropic: bool, model: str, text: str, call: tuple[str, str] | None) -> dict[str, Any]:
    if anthropic:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        if call:
            content.append({"type": "tool_use", "id": "toolu_1", "name": call[0], "input": json.loads(call[1])})
        return {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": content,
                "stop_reason": "tool_use" if call else "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 13, "output_tokens": 9}}  # fmt: skip
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if call:
        message["tool_calls"] = [
            {"id": "call_1", "type": "function", "function": {"name": call[0], "arguments": call[1]}}
        ]
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}
    usage = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": model, "choices": [choice], "usage": usage}


def _big(event: dict[str, Any], anthropic: bool) -> dict[str, Any]:
    """The same text delta carrying 64 KiB of text."""
    text = "y" * 65536
    if anthropic:
        return {"delta": {"type": "text_delta", "text": text}}
    choice = dict(event["choices"][0]) | {"delta": {"content": text}}
    return {"choices": [choice]}


def _app(api: ModelAPI) -> Starlette:
    async def answer(request: Request) -> Response:
        anthropic = request.url.path.endswith("/messages")
        body = await request.json()
        api.headers.append(dict(request.headers))
        bearer = request.headers.get("authorization", "").removeprefix("Bearer ")
        key = request.headers.get("x-api-key") or bearer or None  # the Anthropic SDK sends either
        api.seen.append(Seen(request.url.path, key, body))
        model = str(body.get("model"))
        stream = bool(body.get("stream"))
        if model == "leak-key":
            error = {"message": f"Incorrect API key provided: {key}", "type": "invalid_request_error"}
            return JSONResponse({"type": "error", "error": error} if anthropic else {"error": error}, status_code=401)
        if model == "hang":

            async def forever() -> AsyncIterator[bytes]:
                yield b": waiting\n\n"
                await api.hang.wait()

            return StreamingResponse(forever(), media_type="text/event-stream")
        if model == "garbage":
            if stream:
                junk = [b"data: {not json at all\n\n", b"\x00\xff garbage \n\n", b"data: [DONE]\n\n"]
                return StreamingResponse(iter(junk), media_type="text/event-stream")
            return Response(b"<html>definitely not json", media_type="application/json")
        if model == "flood":
            first = list(_anthropic_events(model, "x", None) if anthropic else _openai_chunks(model, "x", None))
            delta = first[3] if anthropic else first[1]  # a text delta, repeated without end

            def endless() -> Iterator[bytes]:
                yield from _sse(iter(first[:3] if anthropic else first[:1]))
                piece = next(_sse(iter([(*delta[:1], {**delta[1], **_big(delta[1], anthropic)})])))
                while True:
                    yield piece

            return StreamingResponse(endless(), media_type="text/event-stream")
        text, call = _plan(body, anthropic)
        if not stream:
            return JSONResponse(_whole(anthropic, model, text, call))
        events = list(_anthropic_events(model, text, call) if anthropic else _openai_chunks(model, text, call))
        if model == "cut":
            events = events[:2]
        return StreamingResponse(_sse(iter(events)), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", answer, methods=["POST"]),
                             Route("/v1/messages", answer, methods=["POST"])])  # fmt: skip


@contextlib.asynccontextmanager
async def serve_model_api() -> AsyncIterator[ModelAPI]:
    """Serve both APIs while the context is open."""
    holder: list[ModelAPI] = []

    def factory(base: str) -> Starlette:
        holder.append(ModelAPI(base))
        return _app(holder[0])

    async def release() -> None:
        holder[0].hang.set()

    async with serve_asgi(factory, lifespan="off", before_stop=release):
        yield holder[0]
