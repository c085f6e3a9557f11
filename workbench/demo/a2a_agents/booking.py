"""Demo hotel booking specialist (A2A): asks the user for traveller details with a form, then books.

Deterministic, no LLM. A task goes:

1. The request is text such as "Book a hotel in Lisbon for 2 guests from 2026-06-05 to 2026-06-07."
   A city without demo hotels (anything not in ``HOTELS``) fails the task at once.
2. ``input-required`` with a text question and a data part ``{"form": {...}, "schema": TRAVELLER_SCHEMA}``.
3. The answer (a data part, or text holding a JSON object) is validated; an invalid answer asks again
   with ``"errors"``; a valid one completes the task with the booking (text and a data part).
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from functools import partial
from typing import Any

import jsonschema
from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill, Role, Task, TaskState
from starlette.applications import Starlette

from workbench.demo.a2a_agents.common import make_app, make_card, message_payload, start_task, updater_for_cancel

HOTELS: dict[str, tuple[str, int]] = {
    "lisbon": ("Casa do Alfama", 95),
    "porto": ("Ribeira Guest House", 80),
    "paris": ("Hôtel du Marais", 140),
    "kyoto": ("Gion Ryokan", 160),
}
"""Demo hotels by city: name and price per room and night in EUR."""

TRAVELLER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Traveller details",
    "type": "object",
    "properties": {
        "lead_traveller": {"type": "string", "minLength": 1, "maxLength": 80, "title": "Lead traveller"},
        "email": {"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+$", "title": "Email"},
        "guests": {"type": "integer", "minimum": 1, "maximum": 9, "title": "Guests", "default": 2},
        "breakfast": {"type": "boolean", "title": "Breakfast", "default": True},
    },
    "required": ["lead_traveller", "email", "guests"],
    # Sent as a protobuf Struct, whose JSON keys come in no fixed order: say the form's order.
    "x-order": ["lead_traveller", "email", "guests", "breakfast"],
    "additionalProperties": False,
}
QUESTION = "Who is travelling? The hotel needs the lead traveller's name, an email and the number of guests."
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)
_CITY = re.compile(r"\bin\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_GUESTS = re.compile(r"\bfor\s+(\d+)\s+guests?\b", re.IGNORECASE)
_DATES = re.compile(r"(\d{4}-\d{2}-\d{2})\s+to\s+(\d{4}-\d{2}-\d{2})")

SKILL = AgentSkill(
    id="book-hotel",
    name="Book a hotel",
    description="Books a hotel room: asks for the traveller details with a form, then confirms the booking.",
    tags=["travel", "hotel", "demo", "input-required"],
    examples=["Book a hotel in Lisbon for 2 guests from 2026-06-05 to 2026-06-07."],
    input_modes=["text/plain", "application/json"],
    output_modes=["text/plain", "application/json"],
)


def parse_request(text: str) -> dict[str, Any]:
    """City, guests and dates named in a booking request (defaults where it says nothing)."""
    city = _CITY.search(text)
    guests = _GUESTS.search(text)
    dates = _DATES.search(text)
    return {
        "city": city.group(1) if city else "Lisbon",
        "guests": int(guests.group(1)) if guests else 2,
        "check_in": dates.group(1) if dates else None,
        "check_out": dates.group(2) if dates else None,
    }


def validate_travellers(answer: Any) -> list[str]:
    """Problems with a traveller-details answer (empty when valid)."""
    if not isinstance(answer, dict):
        return ["please fill in the form (a JSON object with the traveller details)"]
    validator = jsonschema.Draft202012Validator(TRAVELLER_SCHEMA)
    return [e.message for e in sorted(validator.iter_errors(answer), key=lambda e: list(e.path))]


def _first_user_text(task: Task) -> str:
    for msg in task.history:
        if msg.role == Role.ROLE_USER:
            return "".join(p.text for p in msg.parts if p.WhichOneof("content") == "text")
    return ""


def _nights(check_in: str | None, check_out: str | None) -> int:
    if not check_in or not check_out:
        return 2
    return max(1, (dt.date.fromisoformat(check_out) - dt.date.fromisoformat(check_in)).days)


class BookingExecutor(AgentExecutor):
    """The booking specialist's logic (see the module docstring)."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Start a booking, or finish it with the traveller details."""
        task, up = await start_task(context, event_queue)
        request = parse_request(_first_user_text(task) or context.get_user_input())
        if task.status.state in WAITING:
            await self._finish(context, up, request)
            return
        city = request["city"]
        if city.lower() not in HOTELS:
            known = ", ".join(sorted(c.title() for c in HOTELS))
            text = f"No demo hotels in {city}; I can book in {known}."
            error = {"error": {"code": "no-hotels", "city": city}}
            await up.failed(up.new_agent_message([new_text_part(text), new_data_part(error)]))
            return
        await up.start_work(up.new_agent_message([new_text_part(f"Looking for a hotel in {city}.")]))
        await self._ask(up, request, errors=None)

    async def _ask(self, up: TaskUpdater, request: dict[str, Any], errors: list[str] | None) -> None:
        form = {
            "id": "traveller-details",
            "title": "Traveller details",
            "submit_label": "Book",
            "values": {"guests": request["guests"], "breakfast": True},
        }
        data: dict[str, Any] = {"form": form, "schema": TRAVELLER_SCHEMA}
        text = QUESTION
        if errors:
            data["errors"] = errors
            text = "That did not work: " + "; ".join(errors) + ". " + QUESTION
        await up.requires_input(up.new_agent_message([new_text_part(text), new_data_part(data)]))

    async def _finish(self, context: RequestContext, up: TaskUpdater, request: dict[str, Any]) -> None:
        answer = message_payload(context.message)
        errors = validate_travellers(answer)
        if errors:
            await self._ask(up, request, errors)
            return
        assert isinstance(answer, dict)
        city = request["city"]
        hotel, nightly = HOTELS[city.lower()]
        nights = _nights(request["check_in"], request["check_out"])
        guests = int(answer["guests"])
        rooms = (guests + 1) // 2
        total = nights * rooms * nightly
        code = f"{city[:3].upper()}-{zlib.crc32(str(answer['lead_traveller']).encode()) % 10000:04d}"
        booking = {
            "hotel": hotel,
            "city": city,
            "lead_traveller": answer["lead_traveller"],
            "guests": guests,
            "rooms": rooms,
            "nights": nights,
            "breakfast": bool(answer.get("breakfast", True)),
            "total_eur": total,
            "confirmation": code,
        }
        text = (
            f"Booked {hotel} in {city} for {answer['lead_traveller']}: {guests} guests, {rooms} room(s), "
            f"{nights} nights, {total} EUR; confirmation {code}."
        )
        await up.complete(up.new_agent_message([new_text_part(text), new_data_part(booking)]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Mark the task canceled."""
        up = updater_for_cancel(context, event_queue)
        await up.cancel(up.new_agent_message([new_text_part("Booking cancelled.")]))


def build_booking_app(base_url: str) -> Starlette:
    """The booking specialist's app for ``base_url`` (JSON-RPC at ``/``, HTTP+JSON at ``/rest``)."""
    card = make_card(
        base_url,
        name="Hotel Booking (demo)",
        description="Books hotel rooms in a few cities; asks the user for the traveller details.",
        skills=[SKILL],
    )
    return make_app(card, BookingExecutor())


def booking_app_factory(**options: Any) -> partial[Starlette]:
    """``build_booking_app`` with options bound, ready for ``serve_agent``."""
    return partial(build_booking_app, **options)
