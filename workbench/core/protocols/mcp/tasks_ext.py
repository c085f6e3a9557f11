"""The 2026-07-28 Tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) on the SDK's client extension API.

The SDK 2.3.0 has the extension surface (``mcp.client.extension``) but not this extension, so it
is declared here: a ``ClientExtension`` that advertises the identifier, claims the ``resultType:
"task"`` answer of ``tools/call`` (a ``CreateTaskResult``) and observes ``notifications/tasks``.
The task requests (``tasks/get``, ``tasks/update``, ``tasks/cancel``) are typed requests sent
through ``ClientSession.send_request``; input requests inside a task go through
``ClientSession.dispatch_input_request`` (the agent's elicitation/sampling handlers) and their
answers back with ``tasks/update``. There is no ``tasks/list`` and no blocking ``tasks/result`` in
this shape: a task's outcome comes inline in ``tasks/get`` once it is terminal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import mcp.types as types
from mcp import MCPError
from mcp.client.context import ClientRequestContext
from mcp.client.extension import ClaimContext, ClientExtension, NotificationBinding, ResultClaim
from pydantic import ConfigDict, Field, TypeAdapter

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
REQUEST_CANCELLED = -32800
"""The code a cancelled task's outcome is reported with (JSON-RPC's "request cancelled")."""
TERMINAL = frozenset({"completed", "failed", "cancelled"})
MIN_POLL_S, MAX_POLL_S, DEFAULT_POLL_S = 0.05, 5.0, 1.0

_INPUT_REQUEST: TypeAdapter[types.InputRequest] = TypeAdapter(types.InputRequest)


class _TaskFields(types.Result):
    """The ``Task`` fields (SEP-2663) as the server sends them; unknown fields are kept."""

    model_config = ConfigDict(extra="allow")

    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class CreateTaskResult(_TaskFields):
    """A ``tools/call`` answered with a task handle instead of its result (``resultType: "task"``)."""

    result_type: Literal["task"] = Field(default="task", alias="resultType")


class DetailedTask(_TaskFields):
    """A task as ``tasks/get`` and ``notifications/tasks`` report it: status-specific fields inline."""

    result_type: str | None = Field(default=None, alias="resultType")
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class TaskNotificationParams(DetailedTask):
    """The params of ``notifications/tasks`` (a full ``DetailedTask``)."""


class TaskIdParams(types.RequestParams):
    """Params naming one task."""

    task_id: str


class UpdateTaskParams(TaskIdParams):
    """Params of ``tasks/update``: answers to the task's input requests, by key."""

    input_responses: dict[str, Any]


class GetTaskRequest(types.Request[TaskIdParams, Literal["tasks/get"]]):
    """``tasks/get``."""

    method: Literal["tasks/get"] = "tasks/get"
    name_param = "taskId"


class UpdateTaskRequest(types.Request[UpdateTaskParams, Literal["tasks/update"]]):
    """``tasks/update``."""

    method: Literal["tasks/update"] = "tasks/update"
    name_param = "taskId"


class CancelTaskRequest(types.Request[TaskIdParams, Literal["tasks/cancel"]]):
    """``tasks/cancel``."""

    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param = "taskId"


class _Ack(types.Result):
    model_config = ConfigDict(extra="allow")


TaskSink = Callable[[DetailedTask, str | None], None]
"""Told of a task's state and, when known, the tool it runs."""


async def get_task(session: ClientSession, task_id: str, *, timeout: float | None = None) -> DetailedTask:
    """``tasks/get``: the task's status, its pending input requests or its outcome."""
    return await session.send_request(GetTaskRequest(params=TaskIdParams(task_id=task_id)), DetailedTask, timeout)


async def cancel_task(session: ClientSession, task_id: str, *, timeout: float | None = None) -> None:
    """``tasks/cancel`` (acknowledged at once; the task may reach ``cancelled`` later, or not)."""
    await session.send_request(CancelTaskRequest(params=TaskIdParams(task_id=task_id)), _Ack, timeout)


async def answer_inputs(
    session: ClientSession,
    task: DetailedTask,
    answered: set[str],
    *,
    timeout: float | None = None,
) -> int:
    """Answer the task's input requests not answered yet (through the client's callbacks), with ``tasks/update``.

    Keys already in ``answered`` are skipped (a poll repeats pending requests, and another follower
    of the same task may be asking already); the keys asked here are added before asking.

    Returns:
        How many requests were answered.

    Raises:
        MCPError: A callback refused with an error (it is not sent; the task keeps waiting).
    """
    pending = {k: v for k, v in (task.input_requests or {}).items() if k not in answered}
    if not pending:
        return 0
    answered.update(pending)  # claimed before asking: a second follower of the task does not ask again
    try:
        responses: dict[str, Any] = {}
        for key, raw in pending.items():
            request = _INPUT_REQUEST.validate_python(raw)
            params = request.params
            ctx = ClientRequestContext(session=session, request_id=key, meta=params.meta if params else None)
            outcome = await session.dispatch_input_request(ctx, request)
            if isinstance(outcome, types.ErrorData):
                raise MCPError(outcome.code, outcome.message, outcome.data)
            responses[key] = outcome.model_dump(by_alias=True, mode="json", exclude_none=True)
        update = UpdateTaskRequest(params=UpdateTaskParams(task_id=task.task_id, input_responses=responses))
        await session.send_request(update, _Ack, timeout)
    except BaseException:
        answered.difference_update(pending)  # not answered after all: the next poll may ask again
        raise
    return len(responses)


def detailed(task: _TaskFields) -> DetailedTask:
    """``task`` as a ``DetailedTask`` (a creation answer carries the same task fields)."""
    if isinstance(task, DetailedTask):
        return task
    data = task.model_dump(by_alias=True, exclude_none=True)
    data["resultType"] = "complete"
    return DetailedTask.model_validate(data)


def poll_seconds(task: _TaskFields) -> float:
    """How long to wait before asking about ``task`` again (its ``pollIntervalMs``, kept within bounds)."""
    interval = task.poll_interval_ms / 1000 if task.poll_interval_ms else DEFAULT_POLL_S
    return min(max(interval, MIN_POLL_S), MAX_POLL_S)


def tool_outcome(task: DetailedTask) -> types.CallToolResult:
    """A terminal task's ``tools/call`` outcome.

    Raises:
        MCPError: The task failed (its JSON-RPC error) or was cancelled (-32800 with the task's id).
    """
    if task.status == "completed" and task.result is not None:
        return types.CallToolResult.model_validate(task.result)
    if task.status == "failed":
        error = task.error or {}
        code = error.get("code")
        raise MCPError(
            code if isinstance(code, int) else types.INTERNAL_ERROR,
            str(error.get("message") or task.status_message or "The task failed."),
            {"taskId": task.task_id, "data": error.get("data")},
        )
    raise MCPError(
        REQUEST_CANCELLED,
        task.status_message or f"Task {task.task_id} ended as {task.status} without a result.",
        {"taskId": task.task_id, "status": task.status},
    )


async def follow_to_end(
    session: ClientSession,
    first: _TaskFields,
    *,
    on_task: TaskSink | None = None,
    tool: str | None = None,
    timeout: float | None = None,
    answered: set[str] | None = None,
) -> DetailedTask:
    """Poll a task until it ends, answering its input requests; ``timeout`` bounds the whole wait.

    ``answered`` holds the input-request keys answered before (shared by callers that follow the
    same task); each request is put to the user once.

    Raises:
        TimeoutError: The task had not ended after ``timeout`` seconds (it is left running).
        MCPError: A ``tasks/get`` or ``tasks/update`` failed.
    """
    answered = answered if answered is not None else set()
    task: _TaskFields = first
    async with asyncio.timeout(timeout):
        while True:
            if isinstance(task, DetailedTask):
                if on_task is not None:
                    on_task(task, tool)
                if task.status in TERMINAL:
                    return task
                if task.status == "input_required" and await answer_inputs(session, task, answered):
                    task = await get_task(session, task.task_id)
                    continue
            await asyncio.sleep(poll_seconds(task))
            task = await get_task(session, task.task_id)


async def cancel_quietly(session: ClientSession, task_id: str) -> None:
    """Best-effort ``tasks/cancel`` when the caller walked away (shielded so the request goes out)."""
    try:
        await asyncio.shield(cancel_task(session, task_id, timeout=5.0))
    except Exception:  # the task may have ended meanwhile, or the session with it; nobody to tell
        return


class TasksClientExtension(ClientExtension):
    """Declares the Tasks extension on a ``Client`` and finishes the tasks a plain ``call_tool`` gets.

    A server may answer any ``tools/call`` with a task; ``Client.call_tool`` then hands the task
    to this claim's resolver, which follows it to its end (answering its input requests) within
    the call's timeout, and cancels it on the server when the caller gives up.

    Args:
        on_task: Told of every state of every task seen (creations, polls, notifications).
        default_timeout: Seconds a call waits for its task when the call itself sets no timeout
            (``None``: as long as it takes).
        answered_for: The input-request keys already answered (or being asked) for a task id,
            shared with the connection's other followers of the task.
    """

    identifier = TASKS_EXTENSION

    def __init__(
        self,
        on_task: TaskSink | None = None,
        *,
        default_timeout: float | None = None,
        answered_for: Callable[[str], set[str]] | None = None,
    ) -> None:
        self._on_task = on_task
        self._default_timeout = default_timeout
        self._answered_for = answered_for

    def claims(self) -> Sequence[ResultClaim[Any]]:
        """The ``resultType: "task"`` answer of ``tools/call``."""
        return (ResultClaim(result_type="task", model=CreateTaskResult, resolve=self._resolve),)

    def notifications(self) -> Sequence[NotificationBinding[Any]]:
        """``notifications/tasks`` (status pushes), given to ``on_task``."""
        binding = NotificationBinding(
            method="notifications/tasks", params_type=TaskNotificationParams, handler=self._pushed
        )
        return (binding,)

    async def _pushed(self, params: TaskNotificationParams) -> None:
        if self._on_task is not None:
            self._on_task(params, None)

    def seen(self, task: _TaskFields, tool: str | None) -> None:
        """Report a task state to ``on_task`` (a creation answer as the task it describes)."""
        if self._on_task is not None:
            self._on_task(detailed(task), tool)

    async def _resolve(self, created: CreateTaskResult, ctx: ClaimContext) -> types.CallToolResult:
        self.seen(created, ctx.tool_name)
        timeout = ctx.read_timeout_seconds if ctx.read_timeout_seconds is not None else self._default_timeout
        finished = False
        try:
            answered = self._answered_for(created.task_id) if self._answered_for is not None else None
            task = await follow_to_end(
                ctx.session, created, on_task=self._on_task, tool=ctx.tool_name, timeout=timeout, answered=answered
            )
            finished = True
        except TimeoutError:
            raise MCPError(
                types.REQUEST_TIMEOUT,
                f"Task {created.task_id} of tool {ctx.tool_name!r} did not end within {timeout:g} s; it was cancelled.",
                {"taskId": created.task_id},
            ) from None
        finally:
            if not finished:
                await cancel_quietly(ctx.session, created.task_id)
        return tool_outcome(task)


def offered(capabilities: types.ServerCapabilities | None) -> bool:
    """Whether the server's capabilities offer the Tasks extension."""
    extensions: Mapping[str, Any] | None = getattr(capabilities, "extensions", None)
    return bool(extensions) and TASKS_EXTENSION in (extensions or {})
