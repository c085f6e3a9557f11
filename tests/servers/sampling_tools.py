"""An MCP server whose tool asks the client to sample with tools (SEP-1577) and runs the tool loop itself.

``forecast(city)`` sends ``sampling/createMessage`` offering ``get_weather``; when the reply is a
``tool_use`` it runs the tool and samples again with the ``tool_result``, up to three rounds, and returns
the final text with the rounds it took. Push-style sampling: connect with ``mode="legacy"``. In process
(``build_server``) or over Streamable HTTP (``serve_sampling_tools``), for the command line.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator

import mcp.types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPDeprecationWarning

WEATHER_TOOL = types.Tool(
    name="get_weather",
    description="The weather in a city",
    input_schema={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)

FORECAST_RULES = """
rules:
  - match: {after_tool_result: true}
    reply: "Forecast: \\\\0"
  - match: {regex: "weather in (\\\\w+)"}
    tool_use: {name: get_weather, input: {city: "\\\\1"}}
"""
"""A sampling script's rules that answer ``forecast``'s loop: call ``get_weather`` for the city asked about, then
reply with the tool's result after "Forecast: "."""


def build_server() -> MCPServer:
    """The server, for ``MCPAgent.in_process``."""
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)
    server = MCPServer("sampling-tools", version="1.0.0", log_level="WARNING")

    @server.tool(structured_output=False)
    async def forecast(city: str, ctx: Context) -> str:
        """Ask the client's model about the weather in ``city``, with a weather tool to call."""
        messages = [types.SamplingMessage(role="user", content=types.TextContent(text=f"weather in {city}?"))]
        for round_ in range(1, 4):
            result = await ctx.session.create_message(
                messages, max_tokens=200, tools=[WEATHER_TOOL], related_request_id=ctx.request_id
            )
            blocks = result.content if isinstance(result.content, list) else [result.content]
            uses = [b for b in blocks if isinstance(b, types.ToolUseContent)]
            if not uses:
                text = "".join(b.text for b in blocks if isinstance(b, types.TextContent))
                return f"{text} (rounds: {round_}, model: {result.model})"
            messages.append(types.SamplingMessage(role="assistant", content=blocks))
            answers: list[types.ToolResultContent] = []
            for use in uses:
                weather = f"sunny in {use.input.get('city')}" if use.name == "get_weather" else "no such tool"
                answers.append(types.ToolResultContent(tool_use_id=use.id, content=[types.TextContent(text=weather)]))
            messages.append(types.SamplingMessage(role="user", content=answers))
        return "no answer after 3 rounds"

    return server


@contextlib.asynccontextmanager
async def serve_sampling_tools() -> AsyncIterator[str]:
    """Serve the server over Streamable HTTP on 127.0.0.1 while the context is open; yields its /mcp URL."""
    from workbench.core.serving import serve_asgi

    async with serve_asgi(lambda base: build_server().streamable_http_app(), lifespan="on") as url:
        yield url + "/mcp"
