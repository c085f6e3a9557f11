"""``workbench send`` shows an agent's input-required schema with its fields in the form's order.

The order the agent's JSON has (a fasta2a agent: ten fields in no alphabetical order), or the one a
schema names with ``x-order`` (the demo travel agent, whose SDK writes its JSON in no fixed order):
in the note that asks for an answer and in ``--json``'s events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.servers.a2a_ordered_form import FIELDS, form_agent_app
from tests.support.cli_runner import run_workbench
from workbench.core.serving import serve_asgi
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

pytestmark = pytest.mark.asyncio
ASKS = "answer with JSON matching: "


def _printed_schema(err: str) -> dict[str, Any]:
    [line] = [line for line in err.splitlines() if ASKS in line]
    schema: dict[str, Any] = json.loads(line.split(ASKS, 1)[1])
    return schema


async def test_send_shows_the_agents_fields_in_the_order_its_json_has() -> None:
    pytest.importorskip("fasta2a", reason="fasta2a is not installed")
    async with serve_asgi(form_agent_app, lifespan="on") as url:
        code, _, err = await run_workbench("send", "--a2a", url, "book me a flight")
        assert code == 0, err
        assert list(_printed_schema(err)["properties"]) == FIELDS
        code, out, err = await run_workbench("send", "--a2a", url, "book me a flight", "--json")
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    [asked] = [e for e in events if e["kind"] == "input_required"]
    assert list(asked["request"]["schema"]["properties"]) == FIELDS
    assert list(asked["request"]["data"]["form"]["values"]) == FIELDS
    assert list(events[-1]["result"]["structured"]["schema"]["properties"]) == FIELDS


async def test_send_shows_a_schema_in_the_order_it_names() -> None:
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url:
        code, _, err = await run_workbench("send", "--a2a", url, "Plan a trip to Rome")
    assert code == 0, err
    assert list(_printed_schema(err)["properties"]) == ["departure_date", "return_date", "travellers", "cabin_class"]
