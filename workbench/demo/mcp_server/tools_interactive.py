"""Tools that need the client: `book_table` (form elicitation), `connect_account` (URL elicitation), `show_roots`."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    ListRoots,
    MCPServer,
    Resolve,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ElicitRequest, ElicitRequestURLParams, ElicitResult, InputRequiredResult, ListRootsResult

from workbench.demo.mcp_server.schemas import BookingForm
from workbench.demo.mcp_server.support import is_modern, log

CONNECT_URL = "https://example.com/agent-workbench/connect-account?demo=1"
_CONNECT_KEY = "connect_account"
_CONNECT_MESSAGE = "Open this page to connect your (pretend) demo account."


def _ask_booking() -> Elicit[BookingForm]:
    return Elicit("Book a table at Chez Demo: who, when and how many?", BookingForm)


def _ask_roots() -> ListRoots:
    return ListRoots()


def register(server: MCPServer) -> None:
    """Register the interactive tools on `server`."""

    @server.tool(description="Book a restaurant table; asks you for the details with a form.", structured_output=False)
    async def book_table(
        ctx: Context,
        booking: Annotated[ElicitationResult[BookingForm], Resolve(_ask_booking)],
    ) -> str:
        if not isinstance(booking, AcceptedElicitation):
            await log(ctx, "info", f"book_table: user chose {booking.action}")
            return "declined" if booking.action == "decline" else "cancelled"
        form = booking.data
        where = ("outside" if form.outdoor else "inside") + f", {form.area}"
        await log(ctx, "info", f"book_table: booked for {form.party_size}")
        return (
            f"Booked a table for {form.party_size} at {form.time}, {where}, for {form.name}; "
            f"budget {form.budget_eur:g} EUR per person; confirmation goes to {form.email}."
        )

    @server.tool(
        description="Connect a (pretend) account: asks you to open a URL (URL-mode elicitation).",
        structured_output=False,
    )
    async def connect_account(ctx: Context) -> str | InputRequiredResult:
        """Ask the user to open a page out of band.

        Both eras work, by different means. Legacy: a mid-call `elicitation/create` in URL mode
        (`ctx.elicit_url`) and, once accepted, `notifications/elicitation/complete`. Modern
        (2026-07-28): MCPServer's `Elicit` marker is form-only, so the tool returns a hand-rolled
        `InputRequiredResult` holding a URL-mode `ElicitRequest` and reads the answer from
        `ctx.input_responses` on the client's retry. 2026-07-28 URL elicitation has no
        elicitation id, hence no completion notification in that era.
        """
        caps = ctx.client_capabilities
        if caps is None or caps.elicitation is None or caps.elicitation.url is None:
            raise ToolError("This tool needs a client that supports URL-mode elicitation.")
        if not is_modern(ctx):
            elicitation_id = f"connect-{ctx.request_id}"
            outcome = await ctx.elicit_url(_CONNECT_MESSAGE, CONNECT_URL, elicitation_id)
            if outcome.action != "accept":
                return "declined" if outcome.action == "decline" else "cancelled"
            await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_id)
            await log(ctx, "info", "connect_account: connected")
            return "connected"
        answer = (ctx.input_responses or {}).get(_CONNECT_KEY)
        if answer is None:
            request = ElicitRequest(params=ElicitRequestURLParams(message=_CONNECT_MESSAGE, url=CONNECT_URL))
            return InputRequiredResult(input_requests={_CONNECT_KEY: request}, request_state="connect_account:asked")
        if not isinstance(answer, ElicitResult):
            raise ToolError("Expected an elicitation result for connect_account.")
        if answer.action != "accept":
            return "declined" if answer.action == "decline" else "cancelled"
        await log(ctx, "info", "connect_account: connected")
        return "connected"

    @server.tool(description="List the client's roots (asks the client with roots/list).")
    async def show_roots(roots: Annotated[ListRootsResult, Resolve(_ask_roots)]) -> list[str]:
        return [str(root.uri) for root in roots.roots]
