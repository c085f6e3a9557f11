"""MCP tasks (SEP-1686, protocol 2025-11-25) built at the session level: the SDK 2.3.0 has none.

A task-augmented ``tools/call`` (``params.task = {ttl}``) answers at once with a ``CreateTaskResult``;
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

from workbench.core.errors import NotFoundError, RemoteError, UnsupportedCapabilityError
from workbench.core.protocols.base import AgentEvent, AgentResult, Completed, Failed, StatusChanged, TextDelta
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._sdk_compat import send_raw_request
from workbench.core.protocols.mcp.discovery import PageGuard
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

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "task_id": self.task_id,
            "status": self.status,
            "status_message": self.status_message,
            "created_at": self.created_at,
            "last_updated_at": self.last_updated_at,
            "ttl": self.ttl,
            "poll_interval": self.poll_interval,
        }


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

    async def _require_tasks(self) -> None:
        await self._funnel.client()
        caps = self._sync.capabilities
        if caps is None or not caps.supports_tasks:
            raise UnsupportedCapabilityError(
                f"{self._funnel.agent_name!r} does not offer tasks (no 'tasks' server capability).",
                hint="call the tool directly with agent.call_tool(...)",
            )

    async def start(
        self, tool: str, arguments: Mapping[str, Any] | None = None, *, ttl_ms: int | None = None
    ) -> TaskInfo:
        """Start a task-augmented tool call; returns the created task at once."""
        await self._require_tasks()
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

    async def get(self, task_id: str) -> TaskInfo:
        """Fetch the task's current status."""
        return self._remember(
            TaskInfo.from_wire(await self._raw("tasks/get", {"taskId": task_id}, f"getting task {task_id}"))
        )

    async def result(self, task_id: str, tool: str | None = None) -> Any:
        """Wait for and return the task's outcome (a ``ToolResult`` for tool tasks).

        While the server holds this request open it may deliver the task's queued elicitation or
        sampling requests, which go to the agent's handlers.
        """
        raw = await self._raw("tasks/result", {"taskId": task_id}, f"getting the result of task {task_id}")
        call = types.CallToolResult.model_validate(raw)
        schema = self._sync.catalog.output_schemas.get(tool) if tool else None
        return convert.tool_result(call, schema)

    async def list_all(self) -> list[TaskInfo]:
        """List the server's tasks (all pages)."""
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
        """Cancel a task (working or waiting for input)."""
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
            while info.status not in TERMINAL and info.status != WAITING:
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
