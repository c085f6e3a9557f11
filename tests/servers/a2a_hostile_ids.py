"""An A2A agent (1.0, HTTP+JSON) whose task ids, context ids and interface host are written to escape a shell.

``hostile_ids_app(task_id, context_id)`` answers every message with a task waiting in
``input-required`` under those ids (``x; touch f;``, ``$(…)``, backticks, quotes, a newline followed by
a second command …), so the command the workbench prints to continue it is built from them.
``interface_url=`` makes its card name that URL as its interface instead of its own (a host such as
``evil;$(touch${IFS}f)``, which a URL may hold): a credential for the card's origin is refused there, and
the workbench names that origin in an ``--allow-origin`` hint. Served in-process with
``workbench.core.serving.serve_asgi`` on 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

QUESTION = "What next?"


def hostile_ids_app(
    task_id: str,
    context_id: str,
    *,
    interface_url: str | None = None,
    state: str = "TASK_STATE_INPUT_REQUIRED",
    received: list[dict[str, Any]] | None = None,
) -> Callable[[str], Starlette]:
    """An app factory for ``serve_asgi``: the agent described in the module docstring.

    ``state``: the task's state in every answer. ``received``: each message the agent gets is appended.
    """

    def build(base_url: str) -> Starlette:
        interface = {"protocolBinding": "HTTP+JSON", "url": interface_url or base_url, "protocolVersion": "1.0"}
        card = {
            "name": "hostile-ids",
            "description": "Waits for input under ids chosen to escape a shell.",
            "version": "1.0.0",
            "supportedInterfaces": [interface],
            "capabilities": {"streaming": False, "pushNotifications": False},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [],
        }

        async def card_json(request: Request) -> JSONResponse:
            return JSONResponse(card)

        async def answer(request: Request) -> Response:
            message_in = (json.loads(await request.body() or b"{}")).get("message") or {}
            if received is not None:
                received.append(message_in)
            message: dict[str, Any] = {"messageId": "question-1", "role": "ROLE_AGENT", "parts": [{"text": QUESTION}]}
            status: dict[str, Any] = {"state": state, "message": message}
            task = {"id": task_id, "contextId": context_id, "status": status}
            return Response(json.dumps({"task": task}), media_type="application/json")

        return Starlette(
            routes=[
                Route("/.well-known/agent-card.json", card_json),
                Route("/message:send", answer, methods=["POST"]),
            ]
        )

    return build
