"""Demo travel orchestrator (A2A): plans a weekend by asking for tool calls, then combines the answers.

Deterministic, no LLM. For "Plan a weekend in Lisbon for two" one task goes:

1. ``working``, then ``input-required`` with a data part ``{"tool_calls": [...]}`` (OpenAI's shape,
   arguments as JSON text), in this order:

   - ``weather`` ``{"city"}`` — an MCP tool of the demo MCP server;
   - ``handoff`` ``{"agent_uri", "message"}`` — the MCP tool whose sampling the client routes to the
     hotel booking specialist (``booking_uri``);
   - the proxy agent tool (``proxy_tool``, one ``message`` argument) with an A2A → MCP proxy request
     for the demo MCP server's ``plan_trip`` (the travel price).

   When the question came with ``{"tools": [spec, ...]}`` only offered tools are asked for; the
   answer says which were missing.
2. The caller answers on the same task with ``{"tool_results": [{"id", "content", "structured",
   "is_error", "error"}]}``; the task completes with a text answer combining them and a data part
   ``{"city", "travellers", "weather", "hotel", "price", "errors": {part: {"code", "message"}}}``.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill, Message, Role, Task, TaskState
from starlette.applications import Starlette

from workbench.core.protocols.a2a.convert import value_to_python
from workbench.demo.a2a_agents.common import make_app, make_card, message_payload, start_task, updater_for_cancel

WEEKEND = ("2026-06-05", "2026-06-07")
"""The weekend every demo plan is for (fixed, so the demo is deterministic)."""
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)
PARTS = {"call-weather": "weather", "call-hotel": "hotel", "call-price": "price"}
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_CITY = re.compile(r"\bin\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_PEOPLE = re.compile(r"\bfor\s+(\d+|one|two|three|four|five|six|seven|eight|nine)\b", re.IGNORECASE)

SKILL = AgentSkill(
    id="plan-weekend",
    name="Plan a weekend",
    description="Plans a weekend trip: weather, a hotel (via a booking specialist) and the travel price.",
    tags=["travel", "orchestrator", "demo", "tool-calls"],
    examples=["Plan a weekend in Lisbon for two"],
    input_modes=["text/plain", "application/json"],
    output_modes=["text/plain", "application/json"],
)


def parse_question(text: str) -> tuple[str, int]:
    """The city and the number of travellers a question names (Lisbon and 2 by default)."""
    city = _CITY.search(text)
    people = _PEOPLE.search(text)
    count = 2
    if people:
        word = people.group(1).lower()
        count = int(word) if word.isdigit() else _NUMBERS[word]
    return (city.group(1) if city else "Lisbon"), max(1, min(count, 9))


def _first_user_message(task: Task) -> Message | None:
    return next((m for m in task.history if m.role == Role.ROLE_USER), None)


def _offered(message: Message | None) -> set[str] | None:
    """Names of the tools the question came with (``None``: no list, so assume all)."""
    if message is None:
        return None
    for part in message.parts:
        if part.WhichOneof("content") == "data":
            value = value_to_python(part.data)
            if isinstance(value, dict) and isinstance(value.get("tools"), list):
                return {str(t.get("name")) for t in value["tools"] if isinstance(t, dict)}
    return None


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


class OrchestratorExecutor(AgentExecutor):
    """The orchestrator's logic (see the module docstring).

    Args:
        booking_uri: Where the hotel booking specialist lives (the ``handoff`` tool's ``agent_uri``).
        proxy_tool: Name of the agent tool reaching the A2A → MCP proxy.
        proxy_server_id: The proxy's id of the demo MCP server.
    """

    def __init__(self, booking_uri: str, *, proxy_tool: str = "mcp-proxy", proxy_server_id: str = "demo") -> None:
        self.booking_uri = booking_uri
        self.proxy_tool = proxy_tool
        self.proxy_server_id = proxy_server_id

    def plan(self, city: str, travellers: int) -> list[dict[str, Any]]:
        """The tool calls for a weekend in ``city`` for ``travellers`` people."""
        start, end = WEEKEND
        price_request = {
            "target_mcp_server_id": self.proxy_server_id,
            "tool_name": "plan_trip",
            "arguments": {
                "destination": city,
                "dates": {"start": start, "end": end},
                "travellers": [
                    {"name": f"Traveller {i}", "age": 30, "email": f"traveller{i}@example.com"}
                    for i in range(1, travellers + 1)
                ],
                "cabin": "economy",
            },
        }
        booking = f"Book a hotel in {city} for {travellers} guests from {start} to {end}."
        return [
            _call("call-weather", "weather", {"city": city}),
            _call("call-hotel", "handoff", {"agent_uri": self.booking_uri, "message": booking}),
            _call("call-price", self.proxy_tool, {"message": json.dumps(price_request)}),
        ]

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Ask for the tools, or combine their results."""
        task, up = await start_task(context, event_queue)
        first = _first_user_message(task)
        question = "".join(p.text for p in first.parts if p.WhichOneof("content") == "text") if first else ""
        city, travellers = parse_question(question or context.get_user_input())
        offered = _offered(first)
        calls = [c for c in self.plan(city, travellers) if offered is None or c["function"]["name"] in offered]
        missing = [PARTS[c["id"]] for c in self.plan(city, travellers) if c not in calls]
        if task.status.state in WAITING:
            answer = message_payload(context.message)
            results = answer.get("tool_results") if isinstance(answer, dict) else None
            if isinstance(results, list):
                await self._answer(up, city, travellers, results, missing)
                return
        if task.status.state not in WAITING:
            who = f"{travellers} traveller" + ("s" if travellers != 1 else "")
            await up.start_work(up.new_agent_message([new_text_part(f"Planning a weekend in {city} for {who}.")]))
        if not calls:
            await self._answer(up, city, travellers, [], missing)
            return
        names = ", ".join(c["function"]["name"] for c in calls)
        text = f"I need these tools: {names}."
        await up.requires_input(up.new_agent_message([new_text_part(text), new_data_part({"tool_calls": calls})]))

    async def _answer(
        self, up: TaskUpdater, city: str, travellers: int, results: list[Any], missing: list[str]
    ) -> None:
        by_part = {PARTS.get(str(r.get("id")), ""): r for r in results if isinstance(r, dict)}
        summary: dict[str, Any] = {"city": city, "travellers": travellers, "weekend": list(WEEKEND), "errors": {}}
        lines = [f"Weekend in {city} for {travellers} ({WEEKEND[0]} to {WEEKEND[1]}):"]
        for part, label, describe in (
            ("weather", "Weather", _weather_text),
            ("hotel", "Hotel", _hotel_text),
            ("price", "Travel", _price_text),
        ):
            result = by_part.get(part)
            if part in missing or result is None:
                summary["errors"][part] = {"code": "not-offered", "message": "no tool for it was offered"}
                lines.append(f"- {label}: not available (no tool for it was offered).")
            elif result.get("is_error"):
                raw_error = result.get("error")
                error: dict[str, Any] = raw_error if isinstance(raw_error, dict) else {}
                code = str(error.get("code", "error"))
                causes = [c.get("code") for c in error.get("caused_by", []) if isinstance(c, dict)]
                why = f"{code}" + (f" caused by {', '.join(str(c) for c in causes)}" if causes else "")
                summary["errors"][part] = {
                    "code": code,
                    "message": str(error.get("message", result.get("content", ""))),
                    "caused_by": causes,
                }
                lines.append(f"- {label}: failed ({why}): {error.get('message', result.get('content', ''))}")
            else:
                summary[part] = result.get("structured", result.get("content"))
                lines.append(f"- {label}: {describe(result)}")
        await up.complete(up.new_agent_message([new_text_part("\n".join(lines)), new_data_part(summary)]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Mark the task canceled."""
        up = updater_for_cancel(context, event_queue)
        await up.cancel(up.new_agent_message([new_text_part("Planning cancelled.")]))


def _weather_text(result: dict[str, Any]) -> str:
    data = result.get("structured")
    if isinstance(data, dict) and "condition" in data:
        return f"{data['condition']}, {data.get('temp_c')} °C"
    return str(result.get("content", ""))


def _hotel_text(result: dict[str, Any]) -> str:
    return str(result.get("content", ""))


def _price_text(result: dict[str, Any]) -> str:
    data = result.get("structured")
    if isinstance(data, dict):
        mcp_result = data.get("result") if isinstance(data.get("result"), dict) else {}
        plan = mcp_result.get("structuredContent") if isinstance(mcp_result, dict) else None
        if isinstance(plan, dict) and "total_eur" in plan:
            return (
                f"{plan.get('nights')} nights, {plan.get('travellers')} travellers in economy: {plan['total_eur']} EUR"
            )
    return str(result.get("content", ""))


def build_orchestrator_app(
    base_url: str, *, booking_uri: str, proxy_tool: str = "mcp-proxy", proxy_server_id: str = "demo"
) -> Starlette:
    """The orchestrator's app for ``base_url``.

    Args:
        base_url: Where it is served (named in the card).
        booking_uri: The booking specialist's URL; ``"self"`` hands the hotel to the orchestrator itself
            (a handoff loop, to show loop detection).
        proxy_tool: The agent tool name of the A2A → MCP proxy.
        proxy_server_id: The proxy's id of the demo MCP server.
    """
    card = make_card(
        base_url,
        name="Weekend Planner (demo)",
        description="Plans a weekend: asks its client to run tools (weather, a hotel handoff, a proxied price).",
        skills=[SKILL],
    )
    uri = base_url if booking_uri == "self" else booking_uri
    return make_app(card, OrchestratorExecutor(uri, proxy_tool=proxy_tool, proxy_server_id=proxy_server_id))


def orchestrator_app_factory(**options: Any) -> partial[Starlette]:
    """``build_orchestrator_app`` with options bound, ready for ``serve_agent``."""
    return partial(build_orchestrator_app, **options)
