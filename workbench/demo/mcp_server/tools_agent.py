"""Agent-style demo tools: `ask` (agent entry point), `slow_count` (progress, cancellation), `handoff` (sampling)."""

from __future__ import annotations

from typing import Annotated

import anyio
from mcp.server.mcpserver import Context, MCPServer, Resolve, Sample
from mcp_types import CreateMessageResult, SamplingMessage, TextContent
from pydantic import Field

from workbench.demo.mcp_server.agent import reply_to
from workbench.demo.mcp_server.state import DemoState
from workbench.demo.mcp_server.support import log

AGENT_ENTRY_META = {"io.workbench/agent-entry": True}
"""Tool `_meta` marking the server's agent entry point (the tool a chat UI should talk to)."""


def _handoff_request(agent_uri: str, message: str) -> Sample:
    """Ask the client to sample; the workbench routes `metadata.agent_uri` to another agent."""
    return Sample(
        [SamplingMessage(role="user", content=TextContent(text=message))],
        max_tokens=1024,
        system_prompt=f"Relay this message to the agent at {agent_uri} and return its reply.",
        metadata={"agent_uri": agent_uri},
    )


def register(server: MCPServer, state: DemoState) -> None:
    """Register the agent-style tools on `server`."""

    @server.tool(
        title="Ask the demo agent",
        description=(
            "AGENT ENTRY POINT. Send a message to the demo agent and get a reply "
            "(knows the weather in a few cities and simple sums; otherwise echoes)."
        ),
        meta=AGENT_ENTRY_META,
        structured_output=False,
    )
    async def ask(
        message: Annotated[str, Field(min_length=1, max_length=4000, description="Your message")], ctx: Context
    ) -> str:
        await log(ctx, "info", f"ask: received {len(message.split())} words")
        await ctx.report_progress(1, 3, "reading")
        rule, reply = reply_to(message)
        await ctx.report_progress(2, 3, f"applying rule {rule}")
        await log(ctx, "debug", f"ask: rule {rule!r} fired")
        await ctx.report_progress(3, 3, "done")
        return reply

    @server.tool(
        description="Count to n, one step every `delay` seconds, reporting progress and logs. Cancellable.",
        structured_output=False,
    )
    async def slow_count(
        ctx: Context,
        n: Annotated[int, Field(ge=1, le=10_000, description="How far to count")] = 10,
        delay: Annotated[float, Field(ge=0, le=10, description="Seconds per step")] = 0.2,
    ) -> str:
        done = 0
        try:
            for step in range(1, n + 1):
                await anyio.sleep(delay)
                done = step
                await ctx.report_progress(step, n, f"step {step}/{n}")
                await log(ctx, "info", f"slow_count: {step}")
        except anyio.get_cancelled_exc_class():
            state.record_cancellation(f"slow_count cancelled at step {done}")
            raise
        return f"counted to {n}"

    @server.tool(
        description="Hand a message to another agent: asks the client to sample with metadata.agent_uri.",
        structured_output=False,
    )
    async def handoff(
        agent_uri: Annotated[
            str, Field(min_length=1, description="Where to send it", json_schema_extra={"format": "uri"})
        ],
        message: Annotated[str, Field(min_length=1, description="What to send")],
        reply: Annotated[CreateMessageResult, Resolve(_handoff_request)],
    ) -> str:
        content = reply.content
        if isinstance(content, TextContent):
            return content.text
        return f"[{content.type} reply from {reply.model}]"
