"""Test-only A2A agents: echo/commands, legacy and odd cards, bearer-protected, gRPC-only.

Every factory takes the base URL (``serve_agent`` binds first) and returns a Starlette app.
The echo agent obeys the first word of the first user message:

- ``message-reply ...``  a message-only reply echoing the parts (no task);
- ``ask-tools``          input-required with ``{"tool_calls": [...]}``;
- ``ask-schema``         input-required with a bare JSON Schema data part;
- ``need-auth``          auth-required until the request carries ``Authorization: Bearer letmein``;
- ``explode``            working, one artifact chunk, then an exception (stream gets an error);
- ``silent <seconds>``   working, silence, then completed;
- anything else          a task whose artifact ``echo`` repeats every part, completed with a
                         message naming the context and skill.
A resumed task completes with an artifact ``answer`` echoing the answer's parts.

``fasta2a_agent`` serves a third-party peer instead: tests/servers/fasta2a_agent.py's echo agent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from a2a.helpers import new_data_part, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Message, Role, TaskState
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from workbench.core.serving import serve_asgi
from workbench.demo.a2a_agents.common import make_app, make_card
from workbench.demo.a2a_agents.travel import SKILL as TRAVEL_SKILL
from workbench.demo.a2a_agents.travel import TravelExecutor

BEARER = "s3cret-token-123"
INBAND_TOKEN = "letmein"
TOOL_CALLS = [{"name": "lookup", "arguments": {"q": "weather"}, "id": "call-1"}]
BARE_SCHEMA = {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]}
ECHO_SKILL = AgentSkill(id="echo", name="Echo", description="Echoes parts", tags=["test"], examples=["hello"])
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)


def _command(message: Message | None) -> tuple[str, str]:
    if message is None:
        return "", ""
    text = "".join(p.text for p in message.parts if p.WhichOneof("content") == "text").strip()
    word, _, rest = text.partition(" ")
    return word, rest


class EchoExecutor(AgentExecutor):
    """See the module docstring."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = context.current_task
        word, rest = _command(context.message)
        if task is None and word == "message-reply":
            reply = Message(
                message_id="reply-" + context.message.message_id,
                role=Role.ROLE_AGENT,
                parts=list(context.message.parts),
                context_id=context.context_id or "",
            )
            await event_queue.enqueue_event(reply)
            return
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        first = next((m for m in task.history if m.role == Role.ROLE_USER), context.message)
        word, rest = _command(first)
        if task.status.state in WAITING:
            await self._resume(context, up, word)
            return
        if word == "ask-tools":
            await up.requires_input(
                up.new_agent_message([new_text_part("Run these tools."), new_data_part({"tool_calls": TOOL_CALLS})])
            )
        elif word == "ask-schema":
            await up.requires_input(up.new_agent_message([new_text_part("Pick a colour."), new_data_part(BARE_SCHEMA)]))
        elif word == "need-auth":
            if self._authorized(context):
                await up.complete(up.new_agent_message([new_text_part("authorized")]))
            else:
                await up.requires_auth(up.new_agent_message([new_text_part("Sign in first.")]))
        elif word == "explode":
            await up.start_work()
            await up.add_artifact([new_text_part("partial")], artifact_id="partial", name="partial")
            raise RuntimeError("executor exploded")
        elif word == "silent":
            await up.start_work(up.new_agent_message([new_text_part("thinking quietly")]))
            await asyncio.sleep(float(rest or "1"))
            await up.complete(up.new_agent_message([new_text_part("done after silence")]))
        else:
            skill = dict(MessageToDict(first.metadata)).get("skill_id", "") if first.HasField("metadata") else ""
            await up.start_work()
            await up.add_artifact(list(context.message.parts), artifact_id="echo", name="echo")
            await up.complete(up.new_agent_message([new_text_part(f"context={task.context_id} skill={skill}")]))

    @staticmethod
    def _authorized(context: RequestContext) -> bool:
        headers: dict[str, Any] = context.call_context.state.get("headers", {}) if context.call_context else {}
        return headers.get("authorization") == f"Bearer {INBAND_TOKEN}"

    async def _resume(self, context: RequestContext, up: TaskUpdater, word: str) -> None:
        assert context.message is not None
        if word == "need-auth" and not self._authorized(context):
            await up.requires_auth(up.new_agent_message([new_text_part("Still not signed in.")]))
            return
        await up.start_work()
        await up.add_artifact(list(context.message.parts), artifact_id="answer", name="answer")
        await up.complete(up.new_agent_message([new_text_part("resumed")]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        assert task is not None
        up = TaskUpdater(event_queue, task.id, task.context_id)
        await up.cancel()


def echo_app(base_url: str) -> Starlette:
    """The echo agent (1.0, JSON-RPC + REST)."""
    card = make_card(base_url, name="Echo", description="Test echo agent", skills=[ECHO_SKILL])
    return make_app(card, EchoExecutor())


def legacy_card_json(base_url: str) -> dict[str, Any]:
    """A card in the A2A 0.3 shape (``url``, ``preferredTransport``, ``protocolVersion``)."""
    return {
        "name": "Legacy Travel",
        "description": "A 0.3-era agent",
        "version": "0.3.1",
        "url": f"{base_url}/",
        "preferredTransport": "JSONRPC",
        "protocolVersion": "0.3.0",
        "capabilities": {"streaming": True, "pushNotifications": False},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "plan-trip", "name": "Plan a trip", "description": "Plans trips", "tags": ["travel"]}],
    }


def legacy_agent_json_only_app(base_url: str) -> Starlette:
    """A 0.3 agent whose card (0.3 shape) is only at ``/.well-known/agent.json``."""
    card = make_card(
        base_url, name="Legacy Travel", description="A 0.3-era agent", skills=[TRAVEL_SKILL], protocol_version="0.3"
    )
    raw = legacy_card_json(base_url)

    async def agent_json(request: Request) -> JSONResponse:
        return JSONResponse(raw)

    return make_app(
        card,
        TravelExecutor(0.0),
        compat_0_3=True,
        rest=False,
        serve_card=False,
        extra_routes=[Route("/.well-known/agent.json", agent_json)],
    )


def agent_json_only_app(base_url: str) -> Starlette:
    """A 1.0 echo agent whose card is only at ``/.well-known/agent.json``."""
    card = make_card(base_url, name="Echo (agent.json)", description="card at agent.json", skills=[ECHO_SKILL])

    async def agent_json(request: Request) -> JSONResponse:
        return JSONResponse(MessageToDict(card))

    return make_app(card, EchoExecutor(), serve_card=False, extra_routes=[Route("/.well-known/agent.json", agent_json)])


def not_json_card_app(base_url: str) -> Starlette:
    """Serves HTML where the card should be."""

    async def html(request: Request) -> PlainTextResponse:
        return PlainTextResponse("<html>not a card</html>", media_type="text/html")

    return Starlette(routes=[Route("/.well-known/agent-card.json", html)])


def invalid_card_app(base_url: str) -> Starlette:
    """Serves JSON that is not a valid card (wrong types)."""

    async def bad(request: Request) -> JSONResponse:
        return JSONResponse({"name": "Broken", "skills": "not-a-list", "capabilities": 5})

    return Starlette(routes=[Route("/.well-known/agent-card.json", bad)])


def no_card_app(base_url: str) -> Starlette:
    """Serves nothing at all (404 everywhere)."""
    return Starlette(routes=[])


def grpc_only_app(base_url: str) -> Starlette:
    """A card offering only a gRPC interface."""
    card = AgentCard(
        name="gRPC only",
        description="speaks gRPC only",
        version="1.0.0",
        supported_interfaces=[AgentInterface(protocol_binding="GRPC", protocol_version="1.0", url="127.0.0.1:1")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[ECHO_SKILL],
    )

    async def card_json(request: Request) -> JSONResponse:
        return JSONResponse(MessageToDict(card))

    return Starlette(routes=[Route("/.well-known/agent-card.json", card_json)])


class BearerMiddleware:
    """Pure ASGI middleware: 401 for everything but the well-known card without the bearer token."""

    def __init__(self, app: ASGIApp, token: str = BEARER) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/.well-known/"):
            headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
            if headers.get("authorization") != f"Bearer {self.token}":
                response = JSONResponse(
                    {"error": "unauthorized"}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


SECRET_SKILL = AgentSkill(id="secret-skill", name="Secret", description="Only for signed-in callers", tags=["test"])


def bearer_app(base_url: str) -> Starlette:
    """The echo agent behind a bearer token, with an extended card adding ``secret-skill``."""
    card = make_card(
        base_url,
        name="Protected Echo",
        description="needs a bearer token",
        skills=[ECHO_SKILL],
    )
    card.capabilities.extended_agent_card = True
    card.security_schemes["bearer"].http_auth_security_scheme.scheme = "Bearer"
    card.security_requirements.add().schemes["bearer"].list.extend([])
    extended = AgentCard()
    extended.CopyFrom(card)
    extended.skills.append(SECRET_SKILL)
    return make_app(card, EchoExecutor(), extended_card=extended, middleware=[Middleware(BearerMiddleware)])


@asynccontextmanager
async def fasta2a_agent() -> AsyncIterator[str]:
    """The fasta2a echo agent on an ephemeral loopback port (skipped when fasta2a is not installed)."""
    pytest.importorskip("fasta2a.pydantic_ai", reason="fasta2a with its pydantic-ai bridge is not installed")
    from tests.servers.fasta2a_agent import fasta2a_app

    async with serve_asgi(fasta2a_app, lifespan="on") as url:
        yield url
