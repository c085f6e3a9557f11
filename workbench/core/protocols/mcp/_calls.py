"""Tool calls of an MCP connection: one result, or a stream of progress, logs and requests ending in the result.

A tool that declares ``execution.taskSupport: "required"`` cannot be called directly (the server
refuses); such a call is made task-augmented (SEP-1686) by itself: the task's status changes come
as ``StatusChanged`` events and the call ends with the task's result, as any other call does.
Also the agent face of a server (a prompt sent to its entry point tool).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable, Mapping
from typing import Any

import mcp.types as types
from mcp import Client

from workbench.core.errors import RemoteError, RequestTimeoutError, WorkbenchError
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    Completed,
    Failed,
    ProgressReported,
    StatusChanged,
    TextDelta,
    ToolResult,
)
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._catalog_sync import CatalogSync
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp._notifications import Notifications
from workbench.core.protocols.mcp.discovery import single_string_argument
from workbench.core.protocols.mcp.tasks import MCPTasks

ProgressFn = Callable[[float, float | None, str | None], Any]


class ToolCalls:
    """Calls the server's tools through the request funnel.

    Args:
        funnel: The connection's request funnel.
        sync: The catalog (output schemas, the agent entry point).
        notes: Where the events during a call come from.
        tasks: Runs the tools that require task execution.
    """

    def __init__(self, funnel: RequestFunnel, sync: CatalogSync, notes: Notifications, tasks: MCPTasks) -> None:
        self._funnel = funnel
        self._sync = sync
        self._notes = notes
        self._tasks = tasks

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressFn | None = None,
        meta: dict[str, Any] | None = None,
    ) -> ToolResult:
        """Call a tool and return its full result (see ``MCPAgent.call_tool``)."""
        if await self._requires_task(name):
            return await self._run_as_task(name, arguments, timeout=timeout)

        async def progress(progress: float, total: float | None, message: str | None) -> None:
            if on_progress is not None:
                outcome = on_progress(progress, total, message)
                if asyncio.iscoroutine(outcome):
                    await outcome

        async def call(client: Client) -> types.CallToolResult:
            return await client.call_tool(
                name,
                dict(arguments or {}),
                read_timeout_seconds=timeout,
                progress_callback=progress,
                meta=meta,  # type: ignore[arg-type]
            )

        raw = await self._funnel.request(f"calling tool {name!r}", call)
        return convert.tool_result(raw, self._sync.catalog.output_schemas.get(name))

    async def _requires_task(self, name: str) -> bool:
        await self._funnel.client()  # the catalog says, once connected
        # Tasks switched off: the call goes out plain, and the server's refusal shows how it degrades.
        return self._sync.config.client_capabilities.tasks and self._tasks.supported_for(name) == "required"

    async def _run_as_task(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        timeout: float | None,
        on_status: Callable[[StatusChanged], None] | None = None,
    ) -> ToolResult:
        """Run ``name`` as a task and return its result; leaving early cancels the task on the server.

        Raises:
            RemoteError: The task failed or was cancelled on the server.
            RequestTimeoutError: The task did not end within ``timeout`` (it is cancelled).
        """
        run = self._tasks.run(name, arguments)
        try:
            async with asyncio.timeout(timeout):
                async for event in run:
                    if isinstance(event, StatusChanged) and on_status is not None:
                        on_status(event)
                    elif isinstance(event, Failed):
                        raise event.error
                    elif isinstance(event, Completed):
                        if event.result.tool_result is not None:
                            return event.result.tool_result
                        raise RemoteError(
                            f"{self._sync.config.target_label} cancelled the task running tool {name!r}.",
                            details={"task_id": event.task_id, "state": event.result.state},
                        )
        except TimeoutError:
            raise RequestTimeoutError(
                f"Tool {name!r} (run as a task) did not finish within {timeout:g} s; the task was cancelled.",
                hint="raise the timeout for this call",
            ) from None
        finally:
            await run.aclose()  # cancels the task on the server unless it ended
        raise RemoteError(f"The task running tool {name!r} ended without a result.")

    async def stream(
        self, name: str, arguments: Mapping[str, Any] | None, *, timeout: float | None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Call a tool, yielding progress, logs, elicitation/sampling requests, then ``Completed`` or ``Failed``.

        Closing the iterator early (or cancelling its consumer) cancels the call on the server.
        """
        common: dict[str, Any] = {"agent": self._funnel.agent_name, "protocol": "mcp"}
        key, queue = self._notes.open_call()

        def progress(p: float, total: float | None, message: str | None) -> None:
            queue.put_nowait(ProgressReported(progress=p, total=total, message=message, **common))

        task_ids: list[str] = []

        def status(event: StatusChanged) -> None:
            if event.task_id and not task_ids:
                task_ids.append(event.task_id)
            queue.put_nowait(event)

        async def run() -> ToolResult:
            try:
                if await self._requires_task(name):
                    return await self._run_as_task(name, arguments, timeout=timeout, on_status=status)
                return await self.call(name, arguments, timeout=timeout, on_progress=progress)
            finally:
                self._notes.close_call(key)

        task = asyncio.create_task(run(), name=f"mcp-call-{name}")
        try:
            while (event := await queue.get()) is not None:
                yield event
            task_id = task_ids[0] if task_ids else None
            try:
                result = await task
            except WorkbenchError as exc:
                yield Failed(error=exc, message=exc.message, task_id=task_id, **common)
                return
            if result.text:
                yield TextDelta(text=result.text, raw=result.raw, task_id=task_id, **common)
            yield Completed(result=_agent_result(result, task_id), raw=result.raw, task_id=task_id, **common)
        finally:
            self._notes.close_call(key)
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WorkbenchError):
                    await task

    async def stream_as_agent(
        self, prompt: str | None, extra: dict[str, Any], timeout: float | None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Send ``prompt`` to the server's agent entry point tool and stream the call.

        Raises:
            UnsupportedCapabilityError: The server has no agent entry point.
        """
        await self._funnel.client()
        catalog = self._sync.catalog
        config = self._sync.config
        entry = catalog.entry_point(config.agent_tool)
        if entry is None:
            raise catalog.no_entry_point_error(self._sync.live.name, config.target_label, config.agent_tool)
        spec = next(t for t in catalog.tools if t.name == entry)
        arg = single_string_argument(spec) or "message"
        async for event in self.stream(entry, {arg: prompt or "", **extra}, timeout=timeout):
            yield event


def _agent_result(result: ToolResult, task_id: str | None = None) -> AgentResult:
    """A tool's result as the end of an agent stream."""
    return AgentResult(
        text=result.text,
        parts=result.content,
        state="failed" if result.is_error else "completed",
        structured=result.structured_content,
        is_error=result.is_error,
        task_id=task_id,
        tool_result=result,
        raw=result.raw,
    )
