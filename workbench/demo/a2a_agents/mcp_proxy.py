"""Demo MCP tool proxy agent: an A2A agent that calls tools on configured MCP servers for you.

The A2A proxy pattern: the request is a data part

    {"target_mcp_server_id": "demo", "tool_name": "add", "arguments": {"a": 1, "b": 2}}

The agent looks the id up in its configuration (id → MCP server: a Streamable HTTP URL, or a stdio
command as a list of strings), calls the tool with the MCP SDK ``Client``, and completes the task
with an artifact ``mcp-result`` holding one data part:

    {"target_mcp_server_id", "tool_name", "is_error", "result": <CallToolResult as JSON>}

A tool error (``isError``) is such a result with ``is_error: true``; a protocol error (unknown tool,
bad arguments, server down) fails the task with ``{"error": {"code", "message"}}``. An unknown
server id is rejected. A message without a valid request asks for one (input-required) with a
JSON Schema whose ``target_mcp_server_id`` lists the configured ids; ``tool_name`` absent lists
that server's tools instead of calling one.

By default the proxy reaches the demo MCP server over stdio (``python -m workbench.demo.mcp_server
--stdio``). One MCP connection is opened per request.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import mcp.types as mcp_types
from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill, Message, TaskState
from mcp import Client, MCPError, StdioServerParameters
from starlette.applications import Starlette

from workbench.demo.a2a_agents.common import make_app, make_card, message_payload, start_task, updater_for_cancel

Target = str | Sequence[str]
"""An MCP server: a Streamable HTTP URL, or a stdio command line."""

CLIENT_INFO = mcp_types.Implementation(name="workbench-a2a-mcp-proxy", version="0.1.0")
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)

SKILL = AgentSkill(
    id="call-mcp-tool",
    name="Call an MCP tool",
    description=(
        "Calls a tool on a configured MCP server. Send a data part "
        '{"target_mcp_server_id", "tool_name", "arguments"}; the MCP result comes back as a data part.'
    ),
    tags=["mcp", "proxy", "demo"],
    examples=['{"target_mcp_server_id": "demo", "tool_name": "add", "arguments": {"a": 1, "b": 2}}'],
    input_modes=["application/json"],
    output_modes=["application/json"],
)


def default_targets() -> dict[str, Target]:
    """The demo MCP server over stdio, started with this interpreter."""
    return {"demo": [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]}


def request_schema(server_ids: Sequence[str]) -> dict[str, Any]:
    """JSON Schema of a proxy request."""
    return {
        "type": "object",
        "properties": {
            "target_mcp_server_id": {"type": "string", "enum": list(server_ids), "title": "MCP server"},
            "tool_name": {"type": "string", "title": "Tool"},
            "arguments": {"type": "object", "title": "Arguments", "default": {}},
        },
        "required": ["target_mcp_server_id"],
        # Sent as a protobuf Struct, whose JSON keys come in no fixed order: say the form's order.
        "x-order": ["target_mcp_server_id", "tool_name", "arguments"],
    }


def request_of(message: Message | None) -> dict[str, Any] | None:
    """The proxy request a message carries (first data part, or text holding a JSON object)."""
    value = message_payload(message)
    return value if isinstance(value, dict) else None


def _client_target(target: Target) -> str | StdioServerParameters:
    if isinstance(target, str):
        return target
    command, *args = list(target)
    env = {k: v for k in ("PYTHONPATH", "VIRTUAL_ENV") if (v := os.environ.get(k))}
    # The child must import workbench like we do (an uninstalled checkout needs our sys.path).
    env["PYTHONPATH"] = os.pathsep.join(p for p in [*sys.path, env.get("PYTHONPATH", "")] if p)
    return StdioServerParameters(command=command, args=args, env=env, cwd=os.getcwd())


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


class MCPProxyExecutor(AgentExecutor):
    """Calls MCP tools for A2A callers (see the module docstring).

    Args:
        targets: MCP servers by id.
        timeout: Seconds to wait for each MCP request.
    """

    def __init__(self, targets: Mapping[str, Target] | None = None, *, timeout: float = 30.0) -> None:
        self.targets = dict(targets if targets is not None else default_targets())
        self.timeout = timeout

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Handle one request (or the answer to our question for one)."""
        _task, up = await start_task(context, event_queue)
        request = request_of(context.message)
        if request is None or not isinstance(request.get("target_mcp_server_id"), str):
            await self._ask(up)
            return
        server_id = request["target_mcp_server_id"]
        target = self.targets.get(server_id)
        if target is None:
            known = sorted(self.targets)
            await up.reject(
                up.new_agent_message(
                    [
                        new_text_part(
                            f"Unknown MCP server id {server_id!r}; configured: {', '.join(known) or 'none'}."
                        ),
                        new_data_part({"error": {"code": "unknown-server", "server_id": server_id, "known": known}}),
                    ]
                )
            )
            return
        tool = request.get("tool_name")
        arguments = request.get("arguments") or {}
        if tool is not None and (not isinstance(tool, str) or not isinstance(arguments, dict)):
            await self._ask(up, "tool_name must be a string and arguments an object")
            return
        what = f"tool {tool!r}" if tool else "the tool list"
        await up.start_work(up.new_agent_message([new_text_part(f"Asking MCP server {server_id!r} for {what}.")]))
        try:
            payload = await self._call(target, tool, arguments)
        except MCPError as exc:
            error = {"code": exc.code, "message": exc.message, "data": exc.data}
            await self._fail(up, server_id, tool, error)
            return
        except Exception as exc:  # top-level handler: any failure reaching the server is reported, not raised
            leaf = _leaf(exc)
            if isinstance(leaf, MCPError):
                error = {"code": leaf.code, "message": leaf.message, "data": leaf.data}
            else:
                error = {"code": "unreachable", "message": f"{type(leaf).__name__}: {leaf}"}
            await self._fail(up, server_id, tool, error)
            return
        data: dict[str, Any] = {"target_mcp_server_id": server_id, **payload}
        await up.add_artifact([new_data_part(data)], artifact_id="mcp-result", name="MCP result")
        if payload.get("is_error"):
            text = f"The tool {tool!r} reported an error."
        elif tool:
            text = f"Called {tool!r} on {server_id!r}."
        else:
            text = f"{server_id!r} offers {len(payload.get('tools', []))} tools."
        await up.complete(up.new_agent_message([new_text_part(text)]))

    async def _call(self, target: Target, tool: str | None, arguments: dict[str, Any]) -> dict[str, Any]:
        async with Client(_client_target(target), client_info=CLIENT_INFO, read_timeout_seconds=self.timeout) as c:
            if tool is None:
                listed = await c.list_tools()
                return {"tools": [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]}
            result = await c.session.send_request(
                mcp_types.CallToolRequest(params=mcp_types.CallToolRequestParams(name=tool, arguments=arguments)),
                mcp_types.CallToolResult,
            )
        dumped = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        return {"tool_name": tool, "is_error": bool(result.is_error), "result": dumped}

    async def _ask(self, up: TaskUpdater, problem: str | None = None) -> None:
        ids = sorted(self.targets)
        text = "Which MCP tool should I call? Send target_mcp_server_id, tool_name and arguments."
        if problem:
            text = f"{problem}. {text}"
        data = {"schema": request_schema(ids), "form": {"values": {"target_mcp_server_id": ids[0] if ids else ""}}}
        await up.requires_input(up.new_agent_message([new_text_part(text), new_data_part(data)]))

    async def _fail(self, up: TaskUpdater, server_id: str, tool: str | None, error: dict[str, Any]) -> None:
        data = {"target_mcp_server_id": server_id, "tool_name": tool, "error": error}
        text = f"MCP call failed: {error.get('message', error.get('code'))}"
        await up.failed(up.new_agent_message([new_text_part(text), new_data_part(data)]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Mark the task canceled (a running MCP call is abandoned with the execute task)."""
        up = updater_for_cancel(context, event_queue)
        await up.cancel()


def build_mcp_proxy_app(
    base_url: str, *, targets: Mapping[str, Target] | None = None, timeout: float = 30.0
) -> Starlette:
    """The proxy agent's app for ``base_url``.

    Args:
        base_url: Where it is served (named in the card).
        targets: MCP servers by id (default: the demo MCP server over stdio, id ``demo``).
        timeout: Seconds per MCP request.
    """
    card = make_card(
        base_url,
        name="MCP Tool Proxy (demo)",
        description="Calls tools on MCP servers it knows, for A2A callers (the A2A proxy pattern).",
        skills=[SKILL],
    )
    return make_app(card, MCPProxyExecutor(targets, timeout=timeout))


def mcp_proxy_app_factory(**options: Any) -> partial[Starlette]:
    """``build_mcp_proxy_app`` with options bound, ready for ``serve_agent``."""
    return partial(build_mcp_proxy_app, **options)
