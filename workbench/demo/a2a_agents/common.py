"""Shared plumbing for the demo A2A agents: app assembly and in-process serving on loopback."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import httpx
from a2a.helpers import new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill, Message, Task
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.routing import BaseRoute

from workbench.core.http.tls import verifying_context
from workbench.core.protocols.a2a.convert import value_to_python
from workbench.core.serving import serve_asgi


class _ClientGoneIsNoServerError(logging.Filter):
    """The SDK's JSON-RPC route logs a client that went away mid-request as an ERROR, twice.

    ``Unhandled exception`` with starlette's ``ClientDisconnect``, then the internal error it would
    have answered (code -32603, empty message). A caller closing its connection (a window closed
    while a task list was being polled) is not the demo agent failing: both records go to DEBUG.
    """

    def __init__(self) -> None:
        super().__init__()
        self._gone = False

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, ClientDisconnect):
            self._gone = True
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        elif self._gone and record.levelno >= logging.ERROR and record.getMessage().endswith("Message=''"):
            self._gone = False
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


logging.getLogger("a2a.server.routes.jsonrpc_dispatcher").addFilter(_ClientGoneIsNoServerError())

JSONRPC_PATH = "/"
REST_PATH = "/rest"


def interfaces(base_url: str, *, protocol_version: str = "1.0", rest: bool = True) -> list[AgentInterface]:
    """The JSON-RPC (at ``/``) and HTTP+JSON (at ``/rest``) interfaces of an agent at ``base_url``."""
    out = [AgentInterface(protocol_binding="JSONRPC", protocol_version=protocol_version, url=f"{base_url}/")]
    if rest:
        out.append(
            AgentInterface(
                protocol_binding="HTTP+JSON", protocol_version=protocol_version, url=f"{base_url}{REST_PATH}"
            )
        )
    return out


def make_card(
    base_url: str,
    *,
    name: str,
    description: str,
    skills: Sequence[AgentSkill],
    streaming: bool = True,
    push: bool = False,
    protocol_version: str = "1.0",
    rest: bool = True,
    version: str = "1.0.0",
    **extra: Any,
) -> AgentCard:
    """A demo agent card naming its real URL."""
    return AgentCard(
        name=name,
        description=description,
        version=version,
        supported_interfaces=interfaces(base_url, protocol_version=protocol_version, rest=rest),
        capabilities=AgentCapabilities(streaming=streaming, push_notifications=push),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=list(skills),
        **extra,
    )


def make_app(
    card: AgentCard,
    executor: AgentExecutor,
    *,
    push: bool = False,
    compat_0_3: bool = False,
    rest: bool = True,
    extended_card: AgentCard | None = None,
    middleware: Sequence[Middleware] = (),
    extra_routes: Sequence[BaseRoute] = (),
    serve_card: bool = True,
) -> Starlette:
    """A Starlette app serving ``card`` and the A2A JSON-RPC (``/``) and REST (``/rest``) endpoints.

    Args:
        card: The card (served at the well-known path).
        executor: The agent logic.
        push: Store push configs and send push notifications (to any URL, loopback included).
        compat_0_3: Also answer A2A 0.3 clients.
        rest: Serve the HTTP+JSON binding too.
        extended_card: An extended card for ``GetExtendedAgentCard``.
        middleware: Starlette middleware (e.g. authentication).
        extra_routes: Routes added before the A2A ones.
        serve_card: Serve the card at the well-known path (off to publish it elsewhere).
    """
    push_http = httpx.AsyncClient(timeout=httpx.Timeout(10.0), verify=verifying_context()) if push else None
    push_store = InMemoryPushNotificationConfigStore() if push else None
    handler = DefaultRequestHandler(
        agent_executor=executor,
        task_store=InMemoryTaskStore(),
        agent_card=card,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_http, push_store) if push_http and push_store else None,
        extended_agent_card=extended_card,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await handler.aclose()
            if push_http is not None:
                await push_http.aclose()

    routes: list[BaseRoute] = [
        *extra_routes,
        *(create_agent_card_routes(card) if serve_card else []),
        *create_jsonrpc_routes(handler, rpc_url=JSONRPC_PATH, enable_v0_3_compat=compat_0_3),
    ]
    if rest:
        routes += create_rest_routes(handler, path_prefix=REST_PATH, enable_v0_3_compat=compat_0_3)
    return Starlette(routes=routes, lifespan=lifespan, middleware=list(middleware))


@contextlib.asynccontextmanager
async def serve_agent(
    app_factory: Callable[[str], Starlette],
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    any_port_if_taken: bool = False,
) -> AsyncIterator[str]:
    """Serve ``app_factory(base_url)`` in-process with uvicorn; yields the base URL.

    The socket is bound before the app is built, so the card names the real port (an ephemeral
    one when ``port`` is taken and ``any_port_if_taken`` is set).
    """
    async with serve_asgi(app_factory, host, port, any_port_if_taken=any_port_if_taken) as url:
        yield url


def message_payload(message: Message | None) -> Any:
    """What a user message carries: its first data part (plain JSON), else its text parsed as JSON, else text.

    Integral numbers come back as ``int`` (protobuf ``Struct`` numbers are doubles on the wire).
    """
    if message is None:
        return None
    for part in message.parts:
        if part.WhichOneof("content") == "data":
            return value_to_python(part.data)
    text = "".join(p.text for p in message.parts if p.WhichOneof("content") == "text").strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return text or None


async def start_task(context: RequestContext, event_queue: EventQueue) -> tuple[Task, TaskUpdater]:
    """The task this request continues, or a new one (enqueued first, as A2A requires), and its updater."""
    task = context.current_task
    if task is None:
        assert context.message is not None
        task = new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
    return task, TaskUpdater(event_queue, task.id, task.context_id)


def updater_for_cancel(context: RequestContext, event_queue: EventQueue) -> TaskUpdater:
    """The updater of the task a cancel request names (from the stored task, else the request's ids)."""
    task = context.current_task
    task_id = task.id if task is not None else context.task_id
    context_id = task.context_id if task is not None else context.context_id
    assert task_id is not None and context_id is not None
    return TaskUpdater(event_queue, task_id, context_id)
