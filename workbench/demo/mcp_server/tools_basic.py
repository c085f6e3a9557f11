"""Plain demo tools: echo, add, plan_trip (rich schema), weather, fail, big_result, html_description, broken_output."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import AnyUrl, Field

from workbench.demo.mcp_server.agent import lookup_weather
from workbench.demo.mcp_server.schemas import Cabin, Pickup, Shipping, Traveller, TripDates, TripPlan, Weather
from workbench.demo.mcp_server.support import log

_NIGHTLY_EUR: dict[str, float] = {"economy": 80.0, "premium": 120.0, "business": 200.0}
_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
_BIG_LINE = "".join(chr(ord("a") + i % 26) for i in range(63)) + "\n"  # 64 bytes per line
HTML_DESCRIPTION = 'Returns a fixed string. <b>bold</b> <img src="file:///etc/passwd"> (must render as plain text)'


def register(server: MCPServer) -> None:
    """Register the plain tools on `server`."""

    @server.tool(description="Return the text unchanged.", annotations=_READ_ONLY, structured_output=False)
    def echo(text: Annotated[str, Field(description="Any text")]) -> str:
        return text

    @server.tool(description="Add two numbers.", annotations=_READ_ONLY)
    def add(
        a: Annotated[float, Field(description="First addend")], b: Annotated[float, Field(description="Second addend")]
    ) -> float:
        return a + b

    @server.tool(title="Plan a trip", description="Plan a trip and return a priced, structured plan.")
    def plan_trip(
        destination: Annotated[str, Field(min_length=1, max_length=80, description="City or region")],
        dates: TripDates,
        travellers: Annotated[list[Traveller], Field(min_length=1, max_length=9, description="Who travels")],
        cabin: Cabin = "economy",
        shipping: Shipping = Pickup(desk="central-station"),  # noqa: B008 - an immutable default model
        budget_eur: Annotated[float, Field(ge=0, le=100_000, description="Upper limit in EUR")] = 2000.0,
        website: Annotated[AnyUrl | None, Field(description="Optional page about the destination")] = None,
        notes: Annotated[str | None, Field(max_length=500, description="Anything else")] = None,
    ) -> TripPlan:
        nights = (dates.end - dates.start).days
        if nights < 0:
            raise ToolError("dates.end is before dates.start")
        total = nights * len(travellers) * _NIGHTLY_EUR[cabin]
        if shipping.kind == "delivery":
            total += 15.0 if shipping.express else 5.0
            how = f"delivered to {shipping.postcode}{' (express)' if shipping.express else ''}"
        else:
            how = f"pickup at {shipping.desk}"
        verdict = "within" if total <= budget_eur else "over"
        summary = (
            f"{nights} nights in {destination} for {len(travellers)} in {cabin}: {total:.2f} EUR "
            f"({verdict} the budget of {budget_eur:.2f} EUR); tickets {how}."
        )
        if notes:
            summary += f" Notes: {notes}"
        return TripPlan(
            destination=destination,
            nights=nights,
            travellers=len(travellers),
            cabin=cabin,
            total_eur=round(total, 2),
            shipping=how,
            website=str(website) if website is not None else None,
            summary=summary,
        )

    @server.tool(description="Current weather for a city (fixed table; other cities get stable made-up values).")
    async def weather(city: Annotated[str, Field(min_length=1, max_length=60)], ctx: Context) -> Weather:
        report, known = lookup_weather(city)
        if not known:
            await log(ctx, "warning", f"weather: {city!r} is not in the table; making it up")
        await log(ctx, "debug", f"weather: {report.city} -> {report.condition}")
        return report

    @server.tool(
        description="Always fails with the given message (a tool error, isError=true).", structured_output=False
    )
    async def fail(message: Annotated[str, Field(description="The error text")], ctx: Context) -> str:
        await log(ctx, "warning", f"fail: about to fail with {message!r}")
        raise ToolError(message)

    @server.tool(description="Return one text block of the given size in MiB (deterministic).", structured_output=False)
    def big_result(megabytes: Annotated[float, Field(ge=0, le=64, description="Size in MiB")] = 20.0) -> str:
        size = int(megabytes * 1024 * 1024)
        return (_BIG_LINE * (size // len(_BIG_LINE) + 1))[:size]

    @server.tool(description=HTML_DESCRIPTION, annotations=_READ_ONLY, structured_output=False)
    def html_description() -> str:
        return "<b>not bold</b> — this text is plain, whatever it looks like."


def _broken_output() -> CallToolResult:
    """Return structured content that contradicts the advertised output schema."""
    bad: dict[str, Any] = {"city": 42, "condition": "volcanic", "temp_c": "warm"}
    return CallToolResult(
        content=[TextContent(text='{"city": 42, "condition": "volcanic", "temp_c": "warm"}')], structured_content=bad
    )


def broken_output_tool() -> Tool:
    """Build the `broken_output` tool: it advertises the `Weather` output schema but violates it.

    MCPServer validates a tool's result against its output *model*. A tool annotated to return
    `CallToolResult` has no model, and a schema set on its metadata by hand is "advertised but not
    validated" (see `FuncMetadata.convert_result`). So the schema is attached after building the tool,
    and the server sends the invalid structured content as is. Pass the result to
    `MCPServer(tools=[...])`.
    """
    tool = Tool.from_function(
        _broken_output,
        name="broken_output",
        description="Declares an output schema (Weather) and returns structured content that violates it.",
    )
    tool.fn_metadata.output_schema = Weather.model_json_schema()
    return tool
