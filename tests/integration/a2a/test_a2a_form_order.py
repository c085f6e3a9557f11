"""An agent's input-required form keeps the order of its JSON (a protobuf ``Struct`` keeps none).

The schema and the form values travel in an A2A data part; the SDK reads them into a ``Struct``,
whose keys the protobuf runtime iterates in an order that changes from one process to the next. The
question must come out in the order the agent wrote — over JSON-RPC (an SSE event), HTTP+JSON and
0.3 JSON-RPC (a JSON body, also gzipped) — and, where there is no JSON (gRPC), sorted: the same on every run.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.servers.a2a_ordered_form import FIELDS, QUESTION, form_agent_app, replayed_form_app
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import AgentEvent, Completed, InputRequest, InputRequired
from workbench.core.serving import serve_asgi
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

pytestmark = pytest.mark.asyncio


async def _asked(agent: A2AAgent) -> tuple[InputRequest, Completed]:
    events: list[AgentEvent] = [event async for event in agent.stream_async("book me a flight")]
    [asked] = [e for e in events if isinstance(e, InputRequired)]
    final = events[-1]
    assert isinstance(final, Completed) and final.result.state == "input_required"
    return asked.request, final


def _assert_in_the_agents_order(request: InputRequest, final: Completed) -> None:
    assert request.text == QUESTION
    assert request.schema is not None
    assert list(request.schema) == ["type", "title", "properties", "required"]
    assert list(request.schema["properties"]) == FIELDS
    assert list(request.schema["properties"][FIELDS[0]]) == ["type", "title", "default"]
    assert isinstance(request.data, dict) and list(request.data) == ["form", "schema"]
    assert list(request.data["form"]) == ["id", "title", "values"]
    assert list(request.data["form"]["values"]) == FIELDS
    [data] = [p.data for p in request.parts if p.type == "data"]
    assert list(data["schema"]["properties"]) == FIELDS
    # The turn's result (what --json prints last, and the chat) carries the same question, same order.
    assert isinstance(final.result.structured, dict)
    assert list(final.result.structured["schema"]["properties"]) == FIELDS


async def test_a_fasta2a_agents_streamed_form_keeps_the_order_its_json_has() -> None:
    pytest.importorskip("fasta2a", reason="fasta2a is not installed")
    async with serve_asgi(form_agent_app, lifespan="on") as url, A2AAgent(url) as agent:
        request, final = await _asked(agent)
    _assert_in_the_agents_order(request, final)


@pytest.mark.parametrize(("dialect", "gzip"), [("rest", False), ("0.3", False), ("rest", True)])
async def test_a_form_in_a_json_body_keeps_the_order_its_json_has(dialect: str, gzip: bool) -> None:
    wire = WireRecorder()
    app = replayed_form_app(dialect, gzip=gzip)
    async with serve_asgi(app) as url, A2AAgent(url, streaming=False, wire=wire) as agent:
        expected = ("HTTP+JSON", "1.0") if dialect == "rest" else ("JSONRPC", "0.3")
        assert (agent.capabilities.transport, agent.capabilities.era) == expected
        request, final = await _asked(agent)
    _assert_in_the_agents_order(request, final)
    headers = [(r.http or {}).get("headers") or {} for r in wire.records() if r.direction == "in"]
    encodings = {str(v).lower() for h in headers for k, v in h.items() if k.lower() == "content-encoding"}
    assert ("gzip" in encodings) is gzip  # it did travel compressed


async def test_over_grpc_without_json_the_schemas_keys_are_sorted_the_same_on_every_run() -> None:
    from tests.servers.a2a_grpc_agent import grpc_agent

    async with grpc_agent() as url, A2AAgent(url, binding="GRPC") as agent:
        events = [e async for e in agent.stream_async("ask-schema")]
    [asked] = [e for e in events if isinstance(e, InputRequired)]
    schema: dict[str, Any] | None = asked.request.schema
    assert schema is not None
    assert list(schema) == ["properties", "required", "type"]


async def test_a_schema_that_names_its_order_comes_in_that_order_whatever_order_its_json_has() -> None:
    # The demo travel agent is built on the A2A Python SDK: its JSON has no fixed order, its schema an x-order.
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url, A2AAgent(url) as agent:
        events = [e async for e in agent.stream_async("Plan a trip to Rome")]
    [asked] = [e for e in events if isinstance(e, InputRequired)]
    assert asked.request.schema is not None
    assert list(asked.request.schema["properties"]) == ["departure_date", "return_date", "travellers", "cabin_class"]
