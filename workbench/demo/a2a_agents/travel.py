"""Demo travel agent: streams text and a chunked artifact, asks for trip details with a form, resumes.

Deterministic, no LLM. One task goes:

1. ``working`` — status messages in chunks ("Planning ", "a trip ", "to Lisbon.").
2. Artifact ``destination-brief`` in three chunks (``append`` / ``last_chunk``).
3. ``input-required`` — the status message has a text question and a data part
   ``{"form": {"id", "title", "submit_label", "values"}, "schema": <JSON Schema>}``: the workbench
   convention is that a data part with a ``"schema"`` key carries the answer's JSON Schema
   (``InputRequest.schema``) and ``form.values`` holds defaults.
4. The answer (a data part, or text holding a JSON object) is validated; an invalid answer asks again
   with ``"errors"`` added. A valid one resumes: status text, artifact ``itinerary`` in chunks, then
   ``completed``.

Cancel works while working and while waiting for input.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from functools import partial
from typing import Any

import jsonschema
from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill, Message, Part, Role, Task, TaskState
from starlette.applications import Starlette

from workbench.demo.a2a_agents.common import make_app, make_card, message_payload, start_task, updater_for_cancel

CABIN_CLASSES = ["economy", "premium_economy", "business", "first"]

TRIP_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Trip details",
    "type": "object",
    "properties": {
        "departure_date": {"type": "string", "format": "date", "title": "Departure date"},
        "return_date": {"type": "string", "format": "date", "title": "Return date"},
        "travellers": {"type": "integer", "minimum": 1, "maximum": 9, "title": "Travellers", "default": 1},
        "cabin_class": {"type": "string", "enum": CABIN_CLASSES, "title": "Cabin class", "default": "economy"},
    },
    "required": ["departure_date", "return_date", "travellers", "cabin_class"],
    # Sent as a protobuf Struct, whose JSON keys come in no fixed order: say the form's order.
    "x-order": ["departure_date", "return_date", "travellers", "cabin_class"],
    "additionalProperties": False,
}
FORM: dict[str, Any] = {
    "id": "trip-details",
    "title": "Trip details",
    "submit_label": "Search flights",
    "values": {"travellers": 1, "cabin_class": "economy"},
}
QUESTION = "When do you travel, how many travellers, and which cabin class?"
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)

SKILL = AgentSkill(
    id="plan-trip",
    name="Plan a trip",
    description="Plans a trip to a destination: asks for dates, travellers and cabin class, then builds an itinerary.",
    tags=["travel", "demo", "input-required"],
    examples=["Plan a trip to Lisbon", "Plan a trip to Kyoto"],
    input_modes=["text/plain", "application/json"],
    output_modes=["text/plain", "text/markdown"],
)


_PLACE = re.compile(r"\b(?:to|in|visit|visiting)\s+((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)*)")


def destination_of(text: str) -> str:
    """The destination named in a request ("Plan a trip to Lisbon" → "Lisbon", "a weekend in Porto for two" → "Porto").

    The last capitalised place after "to" / "in" / "visit"; else the text after the last " to "; else
    the whole request.
    """
    text = text.strip().rstrip(".!?")
    places = _PLACE.findall(text)
    if places:
        return str(places[-1])
    idx = text.lower().rfind(" to ")
    name = text[idx + 4 :] if idx >= 0 else text
    return name.strip() or "somewhere nice"


def answer_of(message: Message | None) -> Any:
    """The answer a follow-up message carries: its first data part, else its text parsed as JSON."""
    return message_payload(message)


def validate_trip(answer: Any) -> list[str]:
    """Problems with a trip-details answer (empty when valid)."""
    if not isinstance(answer, dict):
        return ["please fill in the form (a JSON object with the trip details)"]
    validator = jsonschema.Draft202012Validator(TRIP_SCHEMA)
    errors = [e.message for e in sorted(validator.iter_errors(answer), key=lambda e: list(e.path))]
    if errors:
        return errors
    try:
        dep = dt.date.fromisoformat(answer["departure_date"])
        ret = dt.date.fromisoformat(answer["return_date"])
    except ValueError as exc:
        return [f"dates must look like 2026-05-01: {exc}"]
    if ret < dep:
        return ["the return date is before the departure date"]
    return []


def _first_user_text(task: Task) -> str:
    for msg in task.history:
        if msg.role == Role.ROLE_USER:
            return "".join(p.text for p in msg.parts if p.WhichOneof("content") == "text")
    return ""


class TravelExecutor(AgentExecutor):
    """The travel agent's logic (see the module docstring).

    Args:
        chunk_delay: Seconds between streamed chunks (0 = as fast as possible).
        brief_chunks: How many chunks the destination brief has.
        itinerary_chunks: How many chunks the itinerary has.
    """

    def __init__(self, chunk_delay: float = 0.05, *, brief_chunks: int = 3, itinerary_chunks: int = 4) -> None:
        self.chunk_delay = chunk_delay
        self.brief_chunks = brief_chunks
        self.itinerary_chunks = itinerary_chunks

    async def _pause(self) -> None:
        if self.chunk_delay:
            await asyncio.sleep(self.chunk_delay)

    async def _stream_artifact(
        self, up: TaskUpdater, lines: list[str], count: int, artifact_id: str, name: str
    ) -> None:
        """Send ``count`` markdown chunks (cycling through ``lines``) as one artifact, paced for the eye."""
        chunks = (lines * (count // len(lines) + 1))[:count]
        for i, chunk in enumerate(chunks):
            await up.add_artifact(
                [new_text_part(chunk, media_type="text/markdown")],
                artifact_id=artifact_id,
                name=name,
                append=i > 0,
                last_chunk=i == len(chunks) - 1,
            )
            await self._pause()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Start planning, or resume with the answer to the trip-details question."""
        task, up = await start_task(context, event_queue)
        destination = destination_of(_first_user_text(task) or context.get_user_input())
        if task.status.state in WAITING:
            await self._resume(context, up, destination)
        else:
            await self._start(up, destination)

    async def _start(self, up: TaskUpdater, destination: str) -> None:
        for i, chunk in enumerate(["Planning ", "a trip ", f"to {destination}."]):
            message = up.new_agent_message([new_text_part(chunk)])
            if i == 0:
                await up.start_work(message)
            else:
                await up.update_status(TaskState.TASK_STATE_WORKING, message=message)
            await self._pause()
        lines = [
            f"# {destination}\n",
            "## When to go\nSpring and autumn: mild, and fewer crowds.\n",
            "### Getting around\nPublic transport and on foot.\n",
            "Tip: book popular sights a week ahead.\n",
        ]
        await self._stream_artifact(up, lines, self.brief_chunks, "destination-brief", "Destination brief")
        await self._ask(up, errors=None)

    async def _ask(self, up: TaskUpdater, errors: list[str] | None) -> None:
        form: dict[str, Any] = {"form": FORM, "schema": TRIP_SCHEMA}
        text = QUESTION
        if errors:
            form["errors"] = errors
            text = "That did not work: " + "; ".join(errors) + ". " + QUESTION
        parts: list[Part] = [new_text_part(text), new_data_part(form)]
        await up.requires_input(up.new_agent_message(parts))

    async def _resume(self, context: RequestContext, up: TaskUpdater, destination: str) -> None:
        answer = answer_of(context.message)
        errors = validate_trip(answer)
        if errors:
            await self._ask(up, errors)
            return
        assert isinstance(answer, dict)
        n, cabin = answer["travellers"], answer["cabin_class"].replace("_", " ")
        who = "1 traveller" if n == 1 else f"{n} travellers"
        await up.start_work(up.new_agent_message([new_text_part(f"Searching {cabin} flights for {who}. ")]))
        await self._pause()
        days = [
            f"Day 1 ({answer['departure_date']}): fly to {destination} in {cabin}.\n",
            f"Day 2: walking tour of {destination}.\n",
            "Day 3: museums and local food.\n",
            f"Last day ({answer['return_date']}): fly home.\n",
        ]
        await self._stream_artifact(up, days, self.itinerary_chunks, "itinerary", "Itinerary")
        summary = {"destination": destination, **answer}
        await up.add_artifact([new_data_part(summary)], artifact_id="booking", name="Booking summary")
        await up.complete(up.new_agent_message([new_text_part(f"Your trip to {destination} is planned (demo).")]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Mark the task canceled."""
        up = updater_for_cancel(context, event_queue)
        await up.cancel(up.new_agent_message([new_text_part("Trip planning cancelled.")]))


def build_travel_app(
    base_url: str,
    *,
    chunk_delay: float = 0.05,
    brief_chunks: int = 3,
    itinerary_chunks: int = 4,
    protocol_version: str = "1.0",
    push: bool = True,
) -> Starlette:
    """The travel agent's app for ``base_url`` (JSON-RPC at ``/``, HTTP+JSON at ``/rest``).

    Args:
        base_url: Where it is served (named in the card).
        chunk_delay: Seconds between streamed chunks.
        brief_chunks: Chunks in the destination brief artifact.
        itinerary_chunks: Chunks in the itinerary artifact.
        protocol_version: ``1.0``, or ``0.3`` to serve the card and endpoints A2A 0.3 clients use.
        push: Offer push notifications.
    """
    legacy = protocol_version.startswith("0.")
    card = make_card(
        base_url,
        name="Travel Planner (demo)",
        description="Plans trips: streams progress, asks for trip details with a form, builds an itinerary.",
        skills=[SKILL],
        push=push,
        protocol_version=protocol_version,
    )
    executor = TravelExecutor(chunk_delay, brief_chunks=brief_chunks, itinerary_chunks=itinerary_chunks)
    return make_app(card, executor, push=push, compat_0_3=legacy)


def travel_app_factory(**options: Any) -> partial[Starlette]:
    """``build_travel_app`` with options bound, ready for ``serve_agent``."""
    return partial(build_travel_app, **options)
