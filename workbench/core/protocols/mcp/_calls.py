"""Tool calls of an MCP connection: one result, or a stream of progress, logs and requests ending in the result.

Also the agent face of a server (a prompt sent to its entry point tool).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable, Mapping
from typing import Any

import mcp.types as types
from mcp import Client

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    Completed,
    Failed,
    ProgressReported,
    TextDelta,
    ToolResult,
)
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._catalog_sync import CatalogSync
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp._notifications import Notifications
from workbench.core.protocols.mcp.discovery import single_string_argument

ProgressFn = Callable[[float, float | None, str | None], Any]


class ToolCalls:
    """Calls the server's tools through the request funnel.

    Args:
        funnel: The connection's request funnel.
        sync: The catalog (output schemas, the agent entry point).
        notes: Where the events during a call come from.
    """

    def __init__(self, funnel: RequestFunnel, sync: CatalogSync, notes: Notifications) -> None:
        self._funnel = funnel
        self._sync = sync
        self._notes = notes

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

        async def run() -> ToolResult:
            try:
                return await self.call(name, arguments, timeout=timeout, on_progress=progress)
            finally:
                self._notes.close_call(key)

        task = asyncio.create_task(run(), name=f"mcp-call-{name}")
        try:
            while (event := await queue.get()) is not None:
                yield event
            try:
                result = await task
            except WorkbenchError as exc:
                yield Failed(error=exc, message=exc.message, **common)
                return
            if result.text:
                yield TextDelta(text=result.text, raw=result.raw, **common)
            yield Completed(result=_agent_result(result), raw=result.raw, **common)
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
            raise catalog.no_entry_point_error(config.name, config.target_label, config.agent_tool)
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
