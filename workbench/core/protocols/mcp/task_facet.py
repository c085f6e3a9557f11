"""``agent.tasks``: the ``TaskOperations`` facet of an MCP server's tasks (either shape): list, get, cancel, follow.

``MCPTaskOperations`` is ``MCPTasks`` (the task requests themselves: ``start``, ``run``, ``get``,
``result``, ``list_all``, ``cancel``) with the protocol-neutral view added. That view shows what the
connection has seen — tasks it started (a tool that requires task execution is run as a task by
``call_tool``), fetched or listed — as the protocol-neutral ``TaskSummary`` / ``TaskSnapshot`` the
inspector's Tasks tab draws, the same shapes A2A tasks have.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Any

import mcp.types as types

from workbench.core.errors import RemoteError, UnsupportedCapabilityError
from workbench.core.protocols.base import AgentEvent, StatusChanged
from workbench.core.protocols.mcp.tasks import SHAPE_2026, TERMINAL, WAITING, MCPTasks, TaskInfo, poll_seconds
from workbench.core.protocols.snapshot import NOT_GIVEN, Row, Section, TaskSnapshot, TaskSummary
from workbench.core.timefmt import duration_text


def _epoch(stamp: str | None) -> float | None:
    """An ISO 8601 timestamp from the server as epoch seconds (``None`` when missing or unreadable)."""
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return None


def summary(info: TaskInfo, tool: str | None) -> TaskSummary:
    """The table line of an MCP task."""
    return TaskSummary(
        task_id=info.task_id,
        context_id="",
        state=info.status,
        updated=_epoch(info.last_updated_at),
        terminal=info.terminal,
        tool=tool or "",
        created=_epoch(info.created_at),
    )


def snapshot(info: TaskInfo, tool: str | None) -> TaskSnapshot:
    """An MCP task in full: its status, times and limits as rows, and the task as the server sent it."""
    rows = (
        Row("Id", info.task_id),
        Row("Tool", tool or "not known (not started here)"),
        Row("Status", info.status),
        Row("Status message", info.status_message or NOT_GIVEN),
        Row("Created", info.created_at or NOT_GIVEN),
        Row("Last updated", info.last_updated_at or NOT_GIVEN),
        Row("Time to live", duration_text(info.ttl / 1000) if info.ttl is not None else NOT_GIVEN),
        Row("Poll interval", duration_text(info.poll_interval / 1000) if info.poll_interval is not None else NOT_GIVEN),
    )
    sections = [Section("Task", (*rows, Row("Shape", info.shape)))]
    if info.input_requests:
        sections.append(Section("Input requests", tuple(_input_row(k, v) for k, v in info.input_requests.items())))
    if info.outcome is not None:
        sections.append(Section("Result", _outcome_rows(info.outcome)))
    if info.error is not None:
        sections.append(Section("Error", tuple(Row(str(k), _text(v)) for k, v in info.error.items())))
    data: dict[str, Any] = {**info.to_dict(), "tool": tool}
    return TaskSnapshot(summary(info, tool), tuple(sections), json.dumps(data, indent=2, ensure_ascii=False))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _input_row(key: str, request: Any) -> Row:
    """One pending input request of a 2026 task: its method and what it asks."""
    method = request.get("method") if isinstance(request, dict) else None
    params = request.get("params") if isinstance(request, dict) else None
    message = params.get("message") if isinstance(params, dict) else None
    return Row(key, f"{method or 'request'}: {message}" if message else str(method or "request"))


def _outcome_rows(outcome: Any) -> tuple[Row, ...]:
    """A 2026 task's inline tool result: its text blocks and whether it is an error."""
    content = outcome.get("content") if isinstance(outcome, dict) else None
    texts = [b.get("text", "") for b in content or () if isinstance(b, dict) and b.get("type") == "text"]
    rows = [Row("Text", "\n".join(texts) or NOT_GIVEN)]
    rows.append(Row("Is error", "yes" if isinstance(outcome, dict) and outcome.get("isError") else "no"))
    return tuple(rows)


class MCPTaskOperations(MCPTasks):
    """Tasks of one MCP connection: its task requests, and the ``TaskOperations`` contract over them.

    Every operation raises ``UnsupportedCapabilityError`` when the server does not offer tasks
    (``agent.features.tasks`` says whether it does).

    Args:
        funnel: The connection's request funnel (every task request goes through it).
        sync: The connection's catalog (a tool's task support and output schema) and capabilities.
    """

    @property
    def listing_supported(self) -> bool:
        """MCP servers that offer tasks list them (``tasks/list``; a refusal is reported at run time)."""
        return True

    def known_tasks(self) -> list[TaskSummary]:
        """Every task seen on this connection, most recently updated first."""
        rows = [summary(info, tool) for info, tool in self.seen()]
        rows.reverse()  # seen order, newest last: newest first when the server gives no times
        return sorted(rows, key=lambda r: r.updated if r.updated is not None else float("-inf"), reverse=True)

    def known_task(self, task_id: str) -> TaskSnapshot | None:
        """One task as last seen (``None``: never seen)."""
        seen = self.seen_task(task_id)
        return snapshot(*seen) if seen is not None else None

    async def list_tasks(self) -> list[TaskSummary]:
        """Ask the server for its tasks (``tasks/list``, every page).

        Raises:
            UnsupportedCapabilityError: The server does not list tasks (method not found).
        """
        try:
            infos = await self.list_all()
        except RemoteError as exc:
            if exc.remote_code == types.METHOD_NOT_FOUND:
                raise UnsupportedCapabilityError(
                    f"{self.agent_name!r} does not list its tasks.", details=exc.details
                ) from exc
            raise
        return [summary(info, self._tool(info.task_id)) for info in infos]

    async def get_task(self, task_id: str) -> TaskSnapshot:
        """Fetch one task's status (``tasks/get``)."""
        info = await self.get(task_id)
        return snapshot(info, self._tool(task_id))

    async def cancel_task(self, task_id: str) -> TaskSnapshot:
        """Cancel a task (``tasks/cancel``); the task as the server reports it afterwards."""
        info = await self.cancel(task_id)
        return snapshot(info, self._tool(task_id))

    async def follow(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Poll the task (at its poll interval) and yield each status change until it ends or waits.

        A 2025-11-25 task waiting for input stops the following here: its requests reach the user
        through ``tasks/result``. A 2026-07-28 task's input requests are put to the agent's handlers
        here (each once per connection, whoever else follows the task) and the following goes on.
        """
        common: dict[str, Any] = {"agent": self.agent_name, "protocol": "mcp", "task_id": task_id}
        info = await self.get(task_id)
        yield StatusChanged(state=info.status, message=info.status_message, raw=info, **common)
        last = (info.status, info.status_message)
        while info.status not in TERMINAL and (info.status != WAITING or info.shape == SHAPE_2026):
            if not (info.status == WAITING and await self.answer(info)):
                await asyncio.sleep(poll_seconds(info))
            info = await self.get(task_id)
            if (info.status, info.status_message) != last:
                last = (info.status, info.status_message)
                yield StatusChanged(state=info.status, message=info.status_message, raw=info, **common)

    def _tool(self, task_id: str) -> str | None:
        seen = self.seen_task(task_id)
        return seen[1] if seen is not None else None
