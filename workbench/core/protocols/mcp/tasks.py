"""MCP tasks in both shapes, chosen by what the server negotiated: one set of task requests for ``agent.tasks``.

**2026-07-28** (the ``io.modelcontextprotocol/tasks`` extension, SEP-2663, when ``server/discover``
offers it): the server answers a ``tools/call`` with a task handle when it chooses; ``tasks/get``
reports the status, the pending input requests (answered with ``tasks/update`` through the agent's
elicitation/sampling handlers) and, once ended, the outcome inline; ``tasks/cancel`` asks it to
stop. There is no ``tasks/list``: the list is the tasks this connection has seen, refreshed.
The requests themselves are ``tasks_ext``'s, on the SDK's public extension API.

**2025-11-25** (SEP-1686, the ``tasks`` server capability), built at the session level (the SDK
2.3.0 has none). A task-augmented ``tools/call`` (``params.task = {ttl}``) answers at once with a ``CreateTaskResult``;
the client then polls ``tasks/get`` (at the server's ``pollInterval``), fetches the outcome with
``tasks/result`` (which blocks until the task ends, and is also how an ``input_required`` task's
queued elicitation/sampling reaches the client), and may ``tasks/list`` / ``tasks/cancel``.
Requests go out through the session dispatcher's raw request (private SDK API, the only way to
receive a ``CreateTaskResult`` for ``tools/call`` without the SDK validating it as a tool result).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import mcp.types as types
from mcp import MCPError

from workbench.core.errors import NotFoundError, RemoteError, RequestTimeoutError, UnsupportedCapabilityError
from workbench.core.protocols.base import AgentEvent, AgentResult, Completed, Failed, StatusChanged, TextDelta
from workbench.core.protocols.mcp import convert, tasks_ext
from workbench.core.protocols.mcp._sdk_compat import send_raw_request
from workbench.core.protocols.mcp.discovery import PageGuard, is_modern
from workbench.core.protocols.mcp.listing_cap import page_refusal

if TYPE_CHECKING:
    from mcp import Client

    from workbench.core.protocols.mcp._catalog_sync import CatalogSync
    from workbench.core.protocols.mcp._funnel import RequestFunnel

TERMINAL = frozenset({"completed", "failed", "cancelled"})
MAX_SEEN = 1000
"""Tasks a connection remembers (the oldest seen first is forgotten first)."""
WAITING = "input_required"
MIN_POLL_S, MAX_POLL_S, DEFAULT_POLL_S = 0.1, 5.0, 1.0
SHAPE_2026 = "2026-07-28"
SHAPE_2025 = "2025-11-25"


@dataclass(frozen=True, slots=True)
class TaskInfo:
    """A server-side task as last reported (``tasks/get``, ``tasks/list``, status notifications)."""

    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl: int | None = None
    poll_interval: int | None = None
    shape: str = SHAPE_2025
    input_requests: Mapping[str, Any] | None = field(default=None, compare=False)
    outcome: Mapping[str, Any] | None = field(default=None, compare=False)
    error: Mapping[str, Any] | None = field(default=None, compare=False)
    raw: Any = field(default=None, compare=False, repr=False)

    @property
    def terminal(self) -> bool:
        """Whether the task has ended (completed, failed or cancelled)."""
        return self.status in TERMINAL

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> TaskInfo:
        """Parse a wire ``Task`` object (camelCase), validating it with the SDK type."""
        task = types.Task.model_validate(dict(data))
        return cls(
            task_id=task.task_id,
            status=str(task.status),
            status_message=task.status_message,
            created_at=str(task.created_at) if task.created_at is not None else None,
            last_updated_at=str(task.last_updated_at) if task.last_updated_at is not None else None,
            ttl=task.ttl,
            poll_interval=task.poll_interval,
            raw=task,
        )

    @classmethod
    def from_extension(cls, task: tasks_ext.DetailedTask) -> TaskInfo:
        """A task of the 2026-07-28 Tasks extension (``ttlMs``/``pollIntervalMs``, inline outcome)."""
        return cls(
            task_id=task.task_id,
            status=task.status,
            status_message=task.status_message,
            created_at=task.created_at,
            last_updated_at=task.last_updated_at,
            ttl=task.ttl_ms,
            poll_interval=task.poll_interval_ms,
            shape=SHAPE_2026,
            input_requests=task.input_requests,
            outcome=task.result,
            error=task.error,
            raw=task,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (what the server sent, in the workbench's names)."""
        out: dict[str, Any] = {
            "task_id": self.task_id,
            "status": self.status,
            "status_message": self.status_message,
            "created_at": self.created_at,
            "last_updated_at": self.last_updated_at,
            "ttl": self.ttl,
            "poll_interval": self.poll_interval,
            "shape": self.shape,
        }
        if self.input_requests:
            out["input_requests"] = dict(self.input_requests)
        if self.outcome is not None:
            out["result"] = dict(self.outcome)
        if self.error is not None:
            out["error"] = dict(self.error)
        return out


class MCPTasks:
    """Task requests of one MCP connection (``agent.tasks`` is ``task_facet.MCPTaskOperations``, built on this).

    Args:
        funnel: The connection's request funnel (every task request goes through it).
        sync: The connection's catalog (a tool's task support and output schema) and capabilities.
    """

    def __init__(self, funnel: RequestFunnel, sync: CatalogSync) -> None:
        self._funnel = funnel
        self._sync = sync
        self._seen: dict[str, tuple[TaskInfo, str | None]] = {}  # task id -> (last info, tool)
        self._answered: dict[str, set[str]] = {}  # 2026 task id -> input-request keys answered

    def extension(self) -> tasks_ext.TasksClientExtension:
        """The Tasks extension for a new SDK ``Client`` of this connection (what it sees is remembered here)."""
        return tasks_ext.TasksClientExtension(
            on_task=self.observed, default_timeout=self._sync.config.request_timeout, answered_for=self._answered_keys
        )

    def _answered_keys(self, task_id: str) -> set[str]:
        return self._answered.setdefault(task_id, set())

    def observed(self, task: tasks_ext.DetailedTask, tool: str | None) -> None:
        """Remember a 2026 task's state, however it arrived (a call's answer, a poll, a notification)."""
        self._remember(TaskInfo.from_extension(task), tool)

    @property
    def agent_name(self) -> str:
        """The connection's display name (for messages)."""
        return self._funnel.agent_name

    def seen(self) -> list[tuple[TaskInfo, str | None]]:
        """Every task this connection started, fetched or listed: its last info and its tool (if known)."""
        return list(self._seen.values())

    def seen_task(self, task_id: str) -> tuple[TaskInfo, str | None] | None:
        """One task as last seen, with its tool (``None``: never seen)."""
        return self._seen.get(task_id)

    def _remember(self, info: TaskInfo, tool: str | None = None) -> TaskInfo:
        old = self._seen.pop(info.task_id, None)
        self._seen[info.task_id] = (info, tool or (old[1] if old else None))
        while len(self._seen) > MAX_SEEN:
            del self._seen[next(iter(self._seen))]
        return info

    def supported_for(self, tool: str) -> str | None:
        """The tool's ``execution.taskSupport`` (``required`` / ``optional`` / ``forbidden``), if declared."""
        spec = self._sync.catalog.tool(tool)
        execution = getattr(spec.raw, "execution", None) if spec is not None else None
        return getattr(execution, "task_support", None)

    async def _raw(
        self, method: str, params: Mapping[str, Any] | None, doing: str, *, guard: PageGuard | None = None
    ) -> dict[str, Any]:
        async def send(client: Client) -> dict[str, Any]:
            try:
                return await send_raw_request(client.session, method, params)
            except MCPError as exc:  # a listing page refused unread (listing_cap) says so, by its own error
                refused = page_refusal(exc, pages=guard.pages + 1, items=guard.items) if guard else None
                if refused is not None:
                    raise refused from None
                raise

        try:
            return await self._funnel.request(doing, send)
        except RemoteError as exc:
            if exc.remote_code == types.INVALID_PARAMS and "taskId" in (params or {}):
                raise NotFoundError(exc.message, details=exc.details) from exc
            raise

    async def shape(self) -> str:
        """The task shape the server negotiated: ``"2026-07-28"`` (the extension) or ``"2025-11-25"``.

        Raises:
            UnsupportedCapabilityError: The server offers tasks in neither shape.
        """
        client = await self._funnel.client()
        if is_modern(client) and tasks_ext.offered(client.server_capabilities):
            return SHAPE_2026
        caps = self._sync.capabilities
        if caps is None or not caps.supports_tasks or client.server_capabilities.tasks is None:
            raise UnsupportedCapabilityError(
                f"{self._funnel.agent_name!r} does not offer tasks (neither the 'tasks' server capability "
                f"nor the {tasks_ext.TASKS_EXTENSION} extension).",
                hint="call the tool directly with agent.call_tool(...)",
            )
        return SHAPE_2025

    async def _require_tasks(self) -> None:
        await self.shape()

    async def _ext(self, doing: str, fn: Any) -> Any:
        """Run ``fn(session)`` through the funnel (a 2026 task request); a bad task id is ``NotFoundError``."""

        async def send(client: Client) -> Any:
            return await fn(client.session)

        try:
            return await self._funnel.request(doing, send)
        except RemoteError as exc:
            if exc.remote_code == types.INVALID_PARAMS:
                raise NotFoundError(exc.message, details=exc.details) from exc
            raise

    async def start(
        self, tool: str, arguments: Mapping[str, Any] | None = None, *, ttl_ms: int | None = None
    ) -> TaskInfo:
        """Start a task-augmented tool call; returns the created task at once."""
        if await self.shape() == SHAPE_2026:
            return await self._start_2026(tool, arguments)
        params: dict[str, Any] = {"name": tool, "arguments": dict(arguments or {}), "task": {}}
        if ttl_ms is not None:
            params["task"]["ttl"] = ttl_ms
        created = await self._raw("tools/call", params, f"starting tool {tool!r} as a task")
        if "task" not in created:
            raise UnsupportedCapabilityError(
                f"{self._funnel.agent_name!r} ran {tool!r} directly instead of creating a task.",
                hint="this tool does not support task execution",
                details={"result": created},
            )
        return self._remember(TaskInfo.from_wire(created["task"]), tool)

    async def _start_2026(self, tool: str, arguments: Mapping[str, Any] | None) -> TaskInfo:
        async def call(session: Any) -> Any:
            return await session.call_tool(tool, dict(arguments or {}), allow_claimed=True)

        answer = await self._ext(f"starting tool {tool!r} as a task", call)
        if not isinstance(answer, tasks_ext.CreateTaskResult):
            raise UnsupportedCapabilityError(
                f"{self._funnel.agent_name!r} ran {tool!r} directly instead of creating a task.",
                hint="with the 2026 Tasks extension the server decides which calls become tasks",
                details={"result": convert.dump(answer)},
            )
        return self._remember(TaskInfo.from_extension(tasks_ext.detailed(answer)), tool)

    async def get(self, task_id: str) -> TaskInfo:
        """Fetch the task's current status (2026: with its pending input requests or its outcome)."""
        if await self.shape() == SHAPE_2026:
            task = await self._ext(f"getting task {task_id}", lambda session: tasks_ext.get_task(session, task_id))
            return self._remember(TaskInfo.from_extension(task))
        return self._remember(
            TaskInfo.from_wire(await self._raw("tasks/get", {"taskId": task_id}, f"getting task {task_id}"))
        )

    async def result(self, task_id: str, tool: str | None = None, *, timeout: float | None = None) -> Any:
        """Wait for and return the task's outcome (a ``ToolResult`` for tool tasks).

        2025-11-25: ``tasks/result``; while the server holds it open it may deliver the task's queued
        elicitation or sampling requests, which go to the agent's handlers. 2026-07-28: ``tasks/get``
        at the task's poll interval until it ends, its input requests answered through the same
        handlers (``tasks/update``), each once.

        Args:
            task_id: The task.
            tool: The tool it runs (its output schema shapes the result), if known.
            timeout: Seconds to wait at most (``None``: 2026 waits for as long as it takes).

        Raises:
            RequestTimeoutError: The task had not ended within ``timeout`` (it keeps running).
            RemoteError: The task failed, or was cancelled (2026: code -32800).
        """
        tool = tool or self._tool_of(task_id)
        if await self.shape() == SHAPE_2026:
            return await self._result_2026(task_id, tool, timeout)
        raw = await self._raw("tasks/result", {"taskId": task_id}, f"getting the result of task {task_id}")
        call = types.CallToolResult.model_validate(raw)
        schema = self._sync.catalog.output_schemas.get(tool) if tool else None
        return convert.tool_result(call, schema)

    async def _result_2026(self, task_id: str, tool: str | None, timeout: float | None) -> Any:
        answered = self._answered.setdefault(task_id, set())

        async def follow(session: Any) -> tasks_ext.DetailedTask:
            first = await tasks_ext.get_task(session, task_id)
            return await tasks_ext.follow_to_end(session, first, on_task=self.observed, tool=tool, answered=answered)

        try:
            async with asyncio.timeout(timeout):
                task = await self._ext(f"waiting for the result of task {task_id}", follow)
        except TimeoutError:
            raise RequestTimeoutError(
                f"Task {task_id} had not ended after {timeout:g} s; it is still running on the server.",
                hint="wait longer, or cancel it",
                details={"task_id": task_id, "last": self._last_dict(task_id)},
            ) from None
        try:
            call = tasks_ext.tool_outcome(task)
        except MCPError as exc:
            raise RemoteError(
                f"Task {task_id} ended as {task.status}: {exc.error.message}",
                remote_code=exc.error.code,
                remote_data=exc.error.data,
                details={"task_id": task_id, "state": task.status},
            ) from None
        schema = self._sync.catalog.output_schemas.get(tool) if tool else None
        return convert.tool_result(call, schema)

    async def answer(self, info: TaskInfo) -> int:
        """Answer a 2026 task's pending input requests through the agent's handlers (``tasks/update``), each once.

        Returns:
            How many requests were answered (0 for a 2025 task: its requests come with ``tasks/result``).
        """
        if info.shape != SHAPE_2026 or not isinstance(info.raw, tasks_ext.DetailedTask):
            return 0
        task, answered = info.raw, self._answered.setdefault(info.task_id, set())
        done: int = await self._ext(
            f"answering the input requests of task {info.task_id}",
            lambda session: tasks_ext.answer_inputs(session, task, answered),
        )
        return done

    def _last_dict(self, task_id: str) -> dict[str, Any] | None:
        seen = self._seen.get(task_id)
        return seen[0].to_dict() if seen is not None else None

    def _tool_of(self, task_id: str) -> str | None:
        seen = self._seen.get(task_id)
        return seen[1] if seen is not None else None

    async def list_all(self) -> list[TaskInfo]:
        """List the server's tasks (2025: ``tasks/list``, all pages; 2026: the tasks seen here, refreshed)."""
        if await self.shape() == SHAPE_2026:
            for info, _tool in self.seen():
                if not info.terminal:
                    try:
                        await self.get(info.task_id)
                    except NotFoundError:  # expired and purged on the server: keep what was seen last
                        continue
            return [info for info, _tool in self.seen()]
        out: list[TaskInfo] = []
        cursor: str | None = None
        guard = PageGuard("tasks")
        while True:
            page = await self._raw("tasks/list", {"cursor": cursor} if cursor else None, "listing tasks", guard=guard)
            tasks = page.get("tasks", [])
            out.extend(self._remember(TaskInfo.from_wire(t)) for t in tasks)
            cursor = page.get("nextCursor")
            if not guard.page(len(tasks), cursor):
                return out

    async def cancel(self, task_id: str) -> TaskInfo:
        """Cancel a task (working or waiting for input); the task as the server reports it afterwards.

        2026-07-28: ``tasks/cancel`` is only acknowledged; the status is read back with ``tasks/get``
        and may still say ``working`` for a while (cancellation is cooperative).
        """
        if await self.shape() == SHAPE_2026:
            await self._ext(f"cancelling task {task_id}", lambda session: tasks_ext.cancel_task(session, task_id))
            self._answered.pop(task_id, None)
            return await self.get(task_id)
        return self._remember(
            TaskInfo.from_wire(await self._raw("tasks/cancel", {"taskId": task_id}, f"cancelling task {task_id}"))
        )

    async def run(
        self, tool: str, arguments: Mapping[str, Any] | None = None, *, ttl_ms: int | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Run a tool as a task: yield ``StatusChanged`` as it moves, then ``Completed`` or ``Failed``.

        Closing the iterator early cancels the task on the server.
        """
        common: dict[str, Any] = {"agent": self._funnel.agent_name, "protocol": "mcp"}
        info = await self.start(tool, arguments, ttl_ms=ttl_ms)
        yield StatusChanged(state=info.status, message=info.status_message, task_id=info.task_id, raw=info, **common)
        finished = False
        try:
            last = (info.status, info.status_message)
            # A 2026 task's input requests are answered here and the polling goes on; a 2025 task's
            # arrive while tasks/result is open (below).
            while info.status not in TERMINAL and (info.status != WAITING or info.shape == SHAPE_2026):
                if not (info.status == WAITING and await self.answer(info)):
                    await asyncio.sleep(poll_seconds(info))
                info = await self.get(info.task_id)
                if (info.status, info.status_message) != last:
                    last = (info.status, info.status_message)
                    yield StatusChanged(
                        state=info.status, message=info.status_message, task_id=info.task_id, raw=info, **common
                    )
            if info.status == "cancelled":
                finished = True
                yield Completed(
                    result=AgentResult(text="", state="canceled", task_id=info.task_id, raw=info),
                    task_id=info.task_id,
                    **common,
                )
                return
            result = await self.result(info.task_id, tool)
            finished = True
            final = await self.get(info.task_id)
            if final.status != info.status:
                yield StatusChanged(
                    state=final.status, message=final.status_message, task_id=final.task_id, raw=final, **common
                )
            if result.text:
                yield TextDelta(text=result.text, task_id=info.task_id, **common)
            yield Completed(
                result=AgentResult(
                    text=result.text,
                    parts=result.content,
                    state="failed" if result.is_error or final.status == "failed" else "completed",
                    structured=result.structured_content,
                    is_error=result.is_error,
                    task_id=info.task_id,
                    tool_result=result,
                    raw=result.raw,
                ),
                task_id=info.task_id,
                **common,
            )
        except (NotFoundError, RemoteError) as exc:
            finished = True
            yield Failed(error=exc, message=exc.message, task_id=info.task_id, **common)
        finally:
            if not finished:
                await _cancel_quietly(self, info.task_id)


def poll_seconds(info: TaskInfo) -> float:
    """How long to wait before asking about ``info`` again (its poll interval, kept within bounds)."""
    interval = (info.poll_interval / 1000) if info.poll_interval else DEFAULT_POLL_S
    return min(max(interval, MIN_POLL_S), MAX_POLL_S)


async def _cancel_quietly(tasks: MCPTasks, task_id: str) -> None:
    """Best-effort cancel when the consumer walked away (shielded so the request goes out)."""
    try:
        await asyncio.shield(tasks.cancel(task_id))
    except Exception:  # the task may have ended meanwhile; nothing to tell anyone
        return
