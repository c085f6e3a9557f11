"""An A2A 1.0 agent (JSON-RPC, in-process on 127.0.0.1) whose stream reports a task's states out of order.

What a client sees when a listing overtook the stream's first event (the demo travel agent, a poll of
the Tasks tab during a chat turn): the task already working, then the stream's opening snapshot of
it as submitted, then the same working report again, then the rest:

    statusUpdate working @T1 "Looking up trains"   (the report the listing already showed)
    task         submitted (no time)               (the snapshot taken when the task began)
    statusUpdate working @T1 "Looking up trains"   (the same report again)
    statusUpdate working @T2 "Found 3 trains"
    statusUpdate input-required @T3 "Which train?"

``GetTask`` and ``ListTasks`` answer the task as it ends (input-required @T3) once a message started it
(``ListTasks`` lists nothing before). Serve it with
``workbench.core.serving.serve_asgi(late_snapshot_app)``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

TASK_ID, CONTEXT_ID = "task-late-1", "ctx-late-1"
T1, T2, T3 = "2026-05-01T10:00:01.000Z", "2026-05-01T10:00:02.000Z", "2026-05-01T10:00:03.000Z"
STATES = ["submitted", "working", "input_required"]
"""The states the task goes through, in order (what its detail must list, once each)."""


def _message(message_id: str, text: str, role: str = "ROLE_AGENT") -> dict[str, Any]:
    return {
        "messageId": message_id,
        "role": role,
        "parts": [{"text": text}],
        "taskId": TASK_ID,
        "contextId": CONTEXT_ID,
    }


def _status(state: str, at: str | None = None, message: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"state": state}
    if at is not None:
        out["timestamp"] = at
    if message is not None:
        out["message"] = message
    return out


LOOKING = _message("status-1", "Looking up trains")
FOUND = _message("status-2", "Found 3 trains")
QUESTION = _message("status-3", "Which train?")
USER = _message("user-1", "Book a train to Porto", role="ROLE_USER")
FINAL = {"id": TASK_ID, "contextId": CONTEXT_ID, "status": _status("TASK_STATE_INPUT_REQUIRED", T3, QUESTION)}


def _update(status: dict[str, Any]) -> dict[str, Any]:
    return {"statusUpdate": {"taskId": TASK_ID, "contextId": CONTEXT_ID, "status": status}}


EVENTS = [
    _update(_status("TASK_STATE_WORKING", T1, LOOKING)),
    {"task": {"id": TASK_ID, "contextId": CONTEXT_ID, "status": _status("TASK_STATE_SUBMITTED"), "history": [USER]}},
    _update(_status("TASK_STATE_WORKING", T1, LOOKING)),
    _update(_status("TASK_STATE_WORKING", T2, FOUND)),
    _update(_status("TASK_STATE_INPUT_REQUIRED", T3, QUESTION)),
]


def late_snapshot_app(base_url: str) -> Starlette:
    """The agent at ``base_url`` (its card names JSON-RPC at ``/``)."""
    started: list[bool] = []

    async def card(request: Request) -> Response:
        return JSONResponse(
            {
                "name": "Late snapshot agent",
                "description": "Reports a task's states out of order.",
                "version": "1.0.0",
                "supportedInterfaces": [
                    {"url": f"{base_url}/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
                ],
                "capabilities": {"streaming": True},
                "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain"],
                "skills": [],
            }
        )

    async def rpc(request: Request) -> Response:
        body = await request.json()
        rid, method = body.get("id"), body.get("method")

        def reply(result: Any) -> dict[str, Any]:
            return {"jsonrpc": "2.0", "id": rid, "result": result}

        if method == "SendStreamingMessage":
            started.append(True)

            async def events() -> AsyncIterator[bytes]:
                for event in EVENTS:
                    yield f"data: {json.dumps(reply(event))}\n\n".encode()

            return StreamingResponse(events(), media_type="text/event-stream")
        if method == "GetTask":
            return JSONResponse(reply(FINAL))
        if method == "ListTasks":
            tasks = [FINAL] if started else []
            return JSONResponse(reply({"tasks": tasks, "nextPageToken": "", "pageSize": 50, "totalSize": len(tasks)}))
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})

    return Starlette(routes=[Route("/.well-known/agent-card.json", card), Route("/", rpc, methods=["POST"])])
