"""A2A agents asking for input with a ten-field form whose fields are in no alphabetical order.

An agent built on the A2A Python SDK 1.x cannot choose the key order of its JSON (its data parts are
protobuf ``Struct``s, written in an order that changes from run to run), so the peers here are ones
whose JSON keeps the order they wrote:

- ``form_agent_app``: a real third-party agent, served by fasta2a (A2A 1.0 over JSON-RPC; its data
  parts are plain dicts). It answers every message by waiting in ``input-required`` with
  ``{"form": {...}, "schema": SCHEMA}``, streamed as a status update.
- ``replayed_form_app(dialect)``: the same question replayed as raw JSON in the shapes fasta2a does
  not speak: ``"rest"`` (A2A 1.0 over HTTP+JSON, ``POST /message:send`` answered with a JSON body)
  and ``"0.3"`` (A2A 0.3 over JSON-RPC, ``message/send``); ``gzip=True`` puts Starlette's
  ``GZipMiddleware`` in front (the body then travels compressed). Use them with ``streaming=False``.

``python -m tests.servers.a2a_ordered_form [--port N]`` serves the fasta2a agent for trying by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import uuid
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

FIELDS = ["surname", "given_name", "passport", "nationality", "birth_date", "email", "phone", "seat", "meal", "zip"]
"""The form's fields in the order the agent writes them (neither sorted nor reversed)."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Passenger",
    "properties": {name: {"type": "string", "title": name.replace("_", " ").title(), "default": ""} for name in FIELDS},
    "required": ["surname", "passport", "email"],
}
FORM: dict[str, Any] = {"id": "passenger", "title": "Passenger", "values": {name: f"<{name}>" for name in FIELDS}}
"""The form's prefilled values, in the same order (the JSON beside the form shows them)."""
QUESTION = "Who is flying?"


def question_parts() -> list[dict[str, Any]]:
    """The question's parts in A2A 1.0 JSON: the text and the data part with the form and its schema."""
    return [{"text": QUESTION}, {"data": {"form": FORM, "schema": SCHEMA}}]


def form_agent_app(base_url: str) -> ASGIApp:
    """The fasta2a agent (see the module docstring); it needs its lifespan to run."""
    from fasta2a.applications import FastA2A
    from fasta2a.broker import InMemoryBroker
    from fasta2a.storage import InMemoryStorage
    from fasta2a.worker import Worker

    class FormWorker(Worker[Any]):
        async def run_task(self, params: Any) -> None:
            task_id, context_id = params["id"], params["context_id"]
            message: Any = {
                "role": "agent",
                "parts": question_parts(),
                "message_id": uuid.uuid4().hex,
                "context_id": context_id,
                "task_id": task_id,
            }
            await self.storage.update_task(task_id, state="input-required", new_messages=[message])
            await self.publish_status(task_id, context_id, "input-required", message)

        async def cancel_task(self, params: Any) -> None:
            await self.storage.update_task(params["id"], state="canceled")

        def build_message_history(self, history: list[Any]) -> list[Any]:
            return []

        def build_artifacts(self, result: Any) -> list[Any]:
            return []

    storage: InMemoryStorage[Any] = InMemoryStorage()
    broker = InMemoryBroker()
    worker = FormWorker(broker=broker, storage=storage)

    @asynccontextmanager
    async def lifespan(app: FastA2A) -> Any:
        async with app.task_manager, worker.run():
            yield

    return FastA2A(
        storage=storage, broker=broker, name="passenger-form", url=base_url, description="Asks who is flying.",
        lifespan=lifespan,
    )  # fmt: skip


def _card(base_url: str, dialect: str) -> dict[str, Any]:
    common = {
        "name": f"passenger-form-{dialect}",
        "description": "Asks who is flying (replayed JSON).",
        "version": "1.0.0",
        "skills": [],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "capabilities": {"streaming": False, "pushNotifications": False},
    }
    if dialect == "0.3":
        return {**common, "url": f"{base_url}/", "preferredTransport": "JSONRPC", "protocolVersion": "0.3.0"}
    interface = {"protocolBinding": "HTTP+JSON", "url": base_url, "protocolVersion": "1.0"}
    return {**common, "supportedInterfaces": [interface]}


def _task_1_0(ids: tuple[str, str, str]) -> dict[str, Any]:
    task_id, context_id, message_id = ids
    message = {"messageId": message_id, "role": "ROLE_AGENT", "parts": question_parts()}
    status = {"state": "TASK_STATE_INPUT_REQUIRED", "message": message}
    return {"id": task_id, "contextId": context_id, "status": status}


def _task_0_3(ids: tuple[str, str, str]) -> dict[str, Any]:
    task_id, context_id, message_id = ids
    parts = [{"kind": "text", "text": QUESTION}, {"kind": "data", "data": {"form": FORM, "schema": SCHEMA}}]
    message = {"kind": "message", "messageId": message_id, "role": "agent", "parts": parts}
    status = {"state": "input-required", "message": message}
    return {"kind": "task", "id": task_id, "contextId": context_id, "status": status}


def replayed_form_app(dialect: str, *, gzip: bool = False) -> Any:
    """An app factory for the replayed agent speaking ``dialect`` (``"rest"`` or ``"0.3"``), gzipped if asked."""
    if dialect not in ("rest", "0.3"):
        raise ValueError(f"unknown dialect {dialect!r}")

    def build(base_url: str) -> Starlette:
        card = _card(base_url, dialect)

        async def card_json(request: Request) -> JSONResponse:
            return JSONResponse(card)

        async def answer(request: Request) -> Response:
            body = await request.json()
            ids = uuid.uuid4().hex, uuid.uuid4().hex, uuid.uuid4().hex
            if dialect == "0.3":
                reply: dict[str, Any] = {"jsonrpc": "2.0", "id": body.get("id"), "result": _task_0_3(ids)}
            else:
                reply = {"task": _task_1_0(ids)}
            # json.dumps keeps the dicts' order: the form's fields go out as FIELDS lists them.
            return Response(json.dumps(reply), media_type="application/json")

        routes = [
            Route("/.well-known/agent-card.json", card_json),
            Route("/.well-known/agent.json", card_json),
            Route("/", answer, methods=["POST"]),
            Route("/message:send", answer, methods=["POST"]),
        ]
        middleware = [Middleware(GZipMiddleware, minimum_size=0)] if gzip else []
        return Starlette(routes=routes, middleware=middleware)

    return build


async def _serve(port: int) -> None:
    from workbench.core.serving import serve_asgi

    async with serve_asgi(form_agent_app, port=port, lifespan="on") as url:
        print(url, flush=True)
        await asyncio.Event().wait()


def main() -> None:
    """Serve the fasta2a agent until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m tests.servers.a2a_ordered_form")
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(_serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
