"""Client-side tasks (MCP 2025-11-25): task-augmented sampling and elicitation from the server, run in the background.

A handshake-era server may send ``sampling/createMessage`` or ``elicitation/create`` with a ``task``
field when the client declared ``capabilities.tasks.requests`` for it. The client then is the
task's receiver: it answers ``CreateTaskResult`` at once, runs the request through the usual
callbacks (the person's dialog, the sampling responder) in the background, and answers the
server's ``tasks/get``, ``tasks/result`` (blocking until the task ends), ``tasks/list`` and
``tasks/cancel`` about it. The SDK does none of this: ``ClientTaskHost.answer`` sees each of the
server's requests first (``_sdk_compat.route_server_requests``) and leaves the rest to the SDK.

Bounded: at most ``MAX_TASKS`` tasks are kept (the oldest finished one makes room; when all are
running a new one is refused), each is dropped when its ttl (at most ``MAX_TTL_MS``) has elapsed,
a running one cancelled then. The tasks live as long as the session.

While the request runs its task is ``working``: ``input_required`` means the *requestor* (here the
server) must supply input through ``tasks/result``, which never happens for a client's task, even
when a person is filling in the form (``statusMessage`` says so).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import mcp.types as types
from mcp import MCPError
from mcp.client.context import ClientRequestContext
from mcp_types import methods
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from workbench.core.profiles.client_capabilities import ClientCapabilitySwitches

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

log = logging.getLogger(__name__)

SAMPLING = "sampling/createMessage"
ELICITATION = "elicitation/create"
SERVED = frozenset({"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"})
"""The server's requests about a client-side task."""
RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task"
TERMINAL = frozenset({"completed", "failed", "cancelled"})

MAX_TASKS = 32
"""Tasks kept per session, finished ones included."""
MAX_TTL_MS = 3_600_000
"""The longest a task is kept (ms from creation); also the ttl of a request that asks for none."""
POLL_INTERVAL_MS = 1000
"""The polling interval suggested to the server."""
WAITING_ON_A_PERSON = "waiting for the user's answer"


def hosted_methods(switches: ClientCapabilitySwitches) -> frozenset[str]:
    """The server requests a connection runs as tasks: those whose capability and the tasks switch are on."""
    if not switches.tasks:
        return frozenset()
    hosted = set()
    if switches.sampling:
        hosted.add(SAMPLING)
    if switches.elicitation:
        hosted.add(ELICITATION)
    return frozenset(hosted)


def tasks_capability(hosted: frozenset[str], version: str) -> types.ClientTasksCapability | None:
    """The ``capabilities.tasks`` a handshake-era client declares for ``hosted`` (``None``: none, or 2026-era)."""
    if not hosted or version not in HANDSHAKE_PROTOCOL_VERSIONS:
        return None
    sampling = types.TasksSamplingCapability(create_message=types.TasksCreateMessageCapability())
    elicitation = types.TasksElicitationCapability(create=types.TasksCreateElicitationCapability())
    return types.ClientTasksCapability(
        list=types.TasksListCapability(),
        cancel=types.TasksCancelCapability(),
        requests=types.ClientTasksRequestsCapability(
            sampling=sampling if SAMPLING in hosted else None,
            elicitation=elicitation if ELICITATION in hosted else None,
        ),
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class ClientTask:
    """One task the client runs for the server.

    Attributes:
        task_id: The id the client gave it.
        method: The request it runs (``sampling/createMessage`` or ``elicitation/create``).
        status: ``working``, then ``completed``, ``failed`` or ``cancelled``.
        ttl_ms: How long it is kept from creation, in ms.
        created_at: ISO 8601 creation time.
        last_updated_at: ISO 8601 time of the last status change.
        status_message: What it is doing or why it ended, for people.
        result: The request's result once completed (camelCase JSON).
        error: The request's error once failed.
    """

    task_id: str
    method: str
    status: types.TaskStatus
    ttl_ms: int
    created_at: str
    last_updated_at: str
    status_message: str | None = None
    result: dict[str, Any] | None = None
    error: types.ErrorData | None = None
    expires: float = 0.0
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    done: anyio.Event = field(default_factory=anyio.Event)

    def wire(self) -> dict[str, Any]:
        """The ``Task`` object as it goes on the wire (camelCase)."""
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            task["statusMessage"] = self.status_message
        return task

    def settle(
        self,
        status: types.TaskStatus,
        *,
        result: dict[str, Any] | None = None,
        error: types.ErrorData | None = None,
        message: str | None = None,
    ) -> None:
        """End the task (once: a later call changes nothing)."""
        if self.status in TERMINAL:
            return
        self.status = status
        self.result = result
        self.error = error
        self.status_message = message
        self.last_updated_at = _now()
        self.done.set()


class ClientTaskHost:
    """The receiver side of the server's task-augmented requests, for one session.

    Enter it (``async with``) around the SDK ``Client``: the requests run in its task group, and
    leaving it cancels those still running. ``answer`` is the route handed to
    ``_sdk_compat.route_server_requests``.

    Args:
        hosted: The methods run as tasks (``hosted_methods``); a task-augmented request for another
            one is left to the SDK, which ignores ``task`` and answers it directly, as the spec asks
            of a receiver that did not declare it.
    """

    def __init__(self, hosted: frozenset[str]) -> None:
        self.hosted = hosted
        self._tasks: dict[str, ClientTask] = {}
        self._group: anyio.abc.TaskGroup | None = None

    async def __aenter__(self) -> ClientTaskHost:
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        group, self._group = self._group, None
        assert group is not None
        group.cancel_scope.cancel()
        return await group.__aexit__(exc_type, exc, tb)

    async def answer(
        self, session: ClientSession, request_id: types.RequestId, method: str, params: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """Answer one of the server's requests if it is about a client-side task, else ``None``.

        Raises:
            mcp.MCPError: The answer is a JSON-RPC error (unknown or expired task, a cancel of a
                finished one, too many tasks, a task's own error from ``tasks/result``).
        """
        if (session.protocol_version or HANDSHAKE_PROTOCOL_VERSIONS[-1]) not in HANDSHAKE_PROTOCOL_VERSIONS:
            return None  # a 2026-era server sends the client no requests of its own
        given = dict(params or {})
        if method in self.hosted and isinstance(given.get("task"), dict):
            return self._create(session, request_id, method, given)
        if method not in SERVED:
            return None
        self._expire()
        if method == "tasks/list":
            if given.get("cursor") is not None:
                raise MCPError(
                    code=types.INVALID_PARAMS, message="Unknown cursor: this client lists every task at once."
                )
            return {"tasks": [task.wire() for task in self._tasks.values()]}
        task = self._tasks.get(str(given.get("taskId", "")))
        if task is None:
            raise MCPError(code=types.INVALID_PARAMS, message="No such task (unknown, or its ttl has elapsed).")
        if method == "tasks/get":
            return task.wire()
        if method == "tasks/cancel":
            if task.status in TERMINAL:
                raise MCPError(code=types.INVALID_PARAMS, message=f"The task is already {task.status}.")
            task.settle("cancelled", message="cancelled by the server")
            task.scope.cancel()
            return task.wire()
        return await self._result(task)

    def _create(
        self, session: ClientSession, request_id: types.RequestId, method: str, params: dict[str, Any]
    ) -> dict[str, Any]:
        version = session.protocol_version or HANDSHAKE_PROTOCOL_VERSIONS[-1]
        try:
            request = methods.parse_server_request(method, version, params)
        except ValidationError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid {method} params.") from exc
        self._make_room()
        requested = params["task"].get("ttl")
        ttl = min(requested, MAX_TTL_MS) if isinstance(requested, int) and requested >= 0 else MAX_TTL_MS
        created = _now()
        task = ClientTask(
            task_id=secrets.token_hex(12),
            method=method,
            status="working",
            ttl_ms=ttl,
            created_at=created,
            last_updated_at=created,
            status_message=WAITING_ON_A_PERSON if method == ELICITATION else None,
            expires=time.monotonic() + ttl / 1000,
        )
        self._tasks[task.task_id] = task
        assert self._group is not None, "ClientTaskHost must be entered before the session"
        self._group.start_soon(self._run, session, request_id, version, request, task)
        return {"task": task.wire()}

    def _make_room(self) -> None:
        self._expire()
        if len(self._tasks) < MAX_TASKS:
            return
        finished = next((key for key, task in self._tasks.items() if task.status in TERMINAL), None)
        if finished is None:
            raise MCPError(code=types.INVALID_REQUEST, message=f"This client runs at most {MAX_TASKS} tasks at once.")
        del self._tasks[finished]

    def _expire(self) -> None:
        now = time.monotonic()
        for key, task in list(self._tasks.items()):
            if task.expires <= now:
                self._drop(key, task)

    def _drop(self, key: str, task: ClientTask) -> None:
        task.settle("failed", error=types.ErrorData(code=types.INTERNAL_ERROR, message="The task's ttl elapsed."))
        task.scope.cancel()
        self._tasks.pop(key, None)

    async def _run(
        self, session: ClientSession, request_id: types.RequestId, version: str, request: Any, task: ClientTask
    ) -> None:
        params = request.params
        context = ClientRequestContext(session=session, request_id=request_id, meta=params.meta if params else None)
        task.scope.deadline = anyio.current_time() + max(task.expires - time.monotonic(), 0.0)
        with task.scope:
            response = await self._respond(session, context, version, request, task)
            if isinstance(response, types.ErrorData):
                task.settle("failed", error=response, message=response.message)
            else:
                task.settle("completed", result=response)
        if task.scope.cancelled_caught and task.status not in TERMINAL:
            # The ttl ran out while the request was still being answered.
            self._drop(task.task_id, task)

    async def _respond(
        self, session: ClientSession, context: ClientRequestContext, version: str, request: Any, task: ClientTask
    ) -> dict[str, Any] | types.ErrorData:
        try:
            response = await session.dispatch_input_request(context, request)
        except Exception:  # a handler's bug must end the task, not the session
            log.exception("answering the server's %s task failed", task.method)
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"The client failed to answer {task.method}.")
        if isinstance(response, types.ErrorData):
            return response
        dumped = response.model_dump(by_alias=True, mode="json", exclude_none=True)
        try:
            methods.validate_client_result(task.method, version, dumped)
        except ValidationError:
            log.exception("the answer to the server's %s task is not a valid result", task.method)
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"The client's {task.method} answer is invalid.")
        return dumped

    async def _result(self, task: ClientTask) -> dict[str, Any]:
        await task.done.wait()
        if task.status == "completed" and task.result is not None:
            meta = {**task.result.get("_meta", {}), RELATED_TASK_META_KEY: {"taskId": task.task_id}}
            return {**task.result, "_meta": meta}
        if task.error is not None:
            raise MCPError.from_error_data(task.error)
        raise MCPError(code=types.INVALID_PARAMS, message=f"The task was {task.status}; it has no result.")
