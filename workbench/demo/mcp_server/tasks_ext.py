"""The 2026-07-28 Tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) on the demo server.

The SDK has the extension API (``mcp.server.extension.Extension``) but no tasks: this module is
the server side built on it. A ``tools/call`` of a task tool from a client that declared the
extension answers at once with a ``CreateTaskResult`` (``resultType: "task"``); the work runs in
an asyncio task of its own and the client follows it with ``tasks/get`` (status, message,
``inputRequests`` while it waits for the user, the result once done), answers with ``tasks/update``
and stops it with ``tasks/cancel``. Tools:

- ``task_count`` counts to ``n`` with a pause per step; the status message says which step.
- ``task_confirm`` asks the user (form elicitation inside the task), then answers with the choice.
- ``task_forever`` never ends (for clients' timeouts); only ``tasks/cancel`` stops it.

A client that did not declare the extension gets ``task_count`` run inline, and -32021 (missing
required client capability) for the other two.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mcp import MCPError
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp_types import (
    INVALID_PARAMS,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolRequestParams,
    RequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
POLL_INTERVAL_MS = 50
TTL_MS = 600_000
TASK_TOOLS = ("task_count", "task_confirm", "task_forever")


class TaskIdParams(RequestParams):
    """Params of ``tasks/get`` and ``tasks/cancel``."""

    task_id: str = Field(alias="taskId")


class UpdateTaskParams(TaskIdParams):
    """Params of ``tasks/update``: the answers to the task's input requests, by key."""

    input_responses: dict[str, Any] = Field(alias="inputResponses", default_factory=dict)


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


@dataclass
class DemoTask:
    """One task of the demo server: its state as ``tasks/get`` reports it, and its answers."""

    task_id: str
    tool: str
    status: str = "working"
    status_message: str | None = None
    created_at: str = field(default_factory=_now)
    last_updated_at: str = field(default_factory=_now)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, asyncio.Future[Any]] = field(default_factory=dict)
    runner: asyncio.Task[None] | None = None

    def move(self, status: str, message: str | None = None) -> None:
        """Change the status (and message) and stamp the update time."""
        self.status, self.status_message, self.last_updated_at = status, message, _now()

    def wire(self, result_type: str = "complete") -> dict[str, Any]:
        """The task as a ``DetailedTask`` (the payload of ``tasks/get`` and the creation answer)."""
        out: dict[str, Any] = {
            "resultType": result_type,
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttlMs": TTL_MS,
            "pollIntervalMs": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            out["statusMessage"] = self.status_message
        if self.status == "input_required":
            out["inputRequests"] = dict(self.input_requests)
        if self.status == "completed" and self.result is not None:
            out["result"] = self.result
        if self.status == "failed" and self.error is not None:
            out["error"] = self.error
        return out

    async def ask(self, key: str, request: dict[str, Any]) -> Any:
        """Publish an input request under ``key`` and wait for the client's ``tasks/update`` answer."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.answers[key] = future
        self.input_requests[key] = request
        self.move("input_required", "Waiting for your answer")
        try:
            return await future
        finally:
            self.input_requests.pop(key, None)
            if self.status == "input_required" and not self.input_requests:
                self.move("working", "Got the answer")


def _text_result(text: str) -> dict[str, Any]:
    # The tools' output schema is `{"result": string}` (a plain `str` return), so structured too.
    return {"content": [{"type": "text", "text": text}], "structuredContent": {"result": text}, "isError": False}


async def _count(task: DemoTask, arguments: Mapping[str, Any]) -> dict[str, Any]:
    n = int(arguments.get("n", 3))
    pause = float(arguments.get("pause_ms", 20)) / 1000
    for step in range(1, n + 1):
        task.move("working", f"step {step} of {n}")
        await asyncio.sleep(pause)
    return _text_result(f"counted to {n}")


async def _confirm(task: DemoTask, arguments: Mapping[str, Any]) -> dict[str, Any]:
    question = str(arguments.get("question", "Go ahead?"))
    answer = await task.ask(
        "confirm",
        {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": question,
                "requestedSchema": {
                    "type": "object",
                    "properties": {"ok": {"type": "boolean", "title": "Go ahead"}},
                    "required": ["ok"],
                },
            },
        },
    )
    action = answer.get("action") if isinstance(answer, Mapping) else None
    content = answer.get("content") if isinstance(answer, Mapping) else None
    if action == "accept" and isinstance(content, Mapping) and content.get("ok") is True:
        return _text_result("confirmed")
    return _text_result(f"not confirmed ({action or 'no answer'})")


async def _forever(task: DemoTask, arguments: Mapping[str, Any]) -> dict[str, Any]:
    task.move("working", "running until cancelled")
    await asyncio.Event().wait()
    return _text_result("unreachable")


Job = Callable[[DemoTask, Mapping[str, Any]], Awaitable[dict[str, Any]]]
JOBS: dict[str, Job] = {"task_count": _count, "task_confirm": _confirm, "task_forever": _forever}


def declared_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether this request's client capabilities declare the tasks extension."""
    meta: Any = ctx.meta or {}
    caps = meta.get(CLIENT_CAPABILITIES_KEY) if isinstance(meta, Mapping) else None
    extensions = caps.get("extensions") if isinstance(caps, Mapping) else None
    return isinstance(extensions, Mapping) and TASKS_EXTENSION in extensions


class DemoTasksExtension(Extension):
    """Serves SEP-2663 tasks: task tools answer with a task handle, ``tasks/get|update|cancel`` follow it."""

    identifier = TASKS_EXTENSION

    def __init__(self) -> None:
        self.tasks: dict[str, DemoTask] = {}
        self._ids = itertools.count(1)

    def methods(self) -> Sequence[MethodBinding]:
        """``tasks/get``, ``tasks/update`` and ``tasks/cancel`` (2026-07-28 connections only)."""
        modern = frozenset(MODERN_PROTOCOL_VERSIONS)
        return (
            MethodBinding("tasks/get", TaskIdParams, self._get, modern),
            MethodBinding("tasks/update", UpdateTaskParams, self._update, modern),
            MethodBinding("tasks/cancel", TaskIdParams, self._cancel, modern),
        )

    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Answer a task tool's call with a task handle when the client declared the extension."""
        job = JOBS.get(params.name)
        if job is None or ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return await call_next(ctx)
        if not declared_tasks(ctx):
            if params.name == "task_count":
                return await call_next(ctx)
            raise MCPError(
                MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
            )
        task = DemoTask(task_id=f"demo-task-{next(self._ids)}", tool=params.name)
        self.tasks[task.task_id] = task
        task.runner = asyncio.get_running_loop().create_task(self._run(task, job, dict(params.arguments or {})))
        return task.wire("task")

    async def _run(self, task: DemoTask, job: Job, arguments: Mapping[str, Any]) -> None:
        try:
            result = await job(task, arguments)
        except asyncio.CancelledError:
            task.move("cancelled", "Cancelled at the client's request")
            return
        except Exception as exc:  # the task's outcome, reported through tasks/get
            task.error = {"code": -32603, "message": str(exc)}
            task.move("failed", "The job failed")
            return
        task.result = result
        task.move("completed", "Done")

    def _task(self, task_id: str) -> DemoTask:
        task = self.tasks.get(task_id)
        if task is None:
            raise MCPError(INVALID_PARAMS, f"Failed to retrieve task: no task {task_id!r}")
        return task

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: TaskIdParams) -> dict[str, Any]:
        return self._task(params.task_id).wire()

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskParams) -> dict[str, Any]:
        task = self._task(params.task_id)
        for key, answer in params.input_responses.items():
            future = task.answers.get(key)
            if future is not None and not future.done():  # unknown or answered keys are ignored (SEP-2663)
                future.set_result(answer)
        return {}

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskIdParams) -> dict[str, Any]:
        task = self._task(params.task_id)
        if task.runner is not None and not task.runner.done():
            task.runner.cancel()
            # Said at once, so a tasks/get right after the acknowledgement reads it (the spec allows later).
            task.move("cancelled", "Cancelled at the client's request")
        return {}


def register_tools(server: MCPServer) -> None:
    """The task tools as plain tools (listed; ``task_count`` also runs inline for clients without tasks)."""

    @server.tool(description="Count to n, one step per pause (a task on clients with the tasks extension).")
    async def task_count(n: int = 3, pause_ms: int = 20) -> str:
        for _ in range(n):
            await asyncio.sleep(pause_ms / 1000)
        return f"counted to {n}"

    @server.tool(description="Ask you to confirm inside a task, then report the answer (tasks extension only).")
    async def task_confirm(question: str = "Go ahead?") -> str:
        raise MCPError(MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability")

    @server.tool(description="A task that never ends until cancelled (tasks extension only).")
    async def task_forever() -> str:
        raise MCPError(MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability")
