"""A pydantic-ai agent served by fasta2a (a real third-party peer): its zone-less timestamps are read as
UTC, the wire log keeps them as sent, and a timestamp that cannot be repaired is a typed error naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from tests.support.a2a_agents import fasta2a_agent
from workbench.core.errors import ProtocolError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import Completed, Failed
from workbench.core.serving import serve_asgi
from workbench.core.wire.recorder import WireRecorder

pytestmark = pytest.mark.asyncio
NAIVE = re.compile(r'"timestamp":\s*"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?"')


@pytest.mark.parametrize("streaming", [True, False])
async def test_a_fasta2a_agent_answers_and_its_zoneless_timestamps_are_read_as_utc(streaming: bool) -> None:
    wire = WireRecorder()
    async with fasta2a_agent() as url, A2AAgent(url, wire=wire, streaming=streaming) as agent:
        first = await agent.invoke_async("hello")
        second = await agent.invoke_async("and again")
        views = list(agent.tasks.views.values())
    assert (first.state, first.text) == ("completed", "echo: hello")
    assert (second.state, second.text) == ("completed", "echo: and again")
    stamps = [s.timestamp for v in views for s in v.status_history if s.timestamp]  # updates may carry none
    assert stamps and all(s.endswith("Z") for s in stamps), stamps
    # The wire log keeps what the agent sent: the timestamps without a zone.
    assert any(NAIVE.search(r.payload or "") for r in wire.records())


def replay_app(timestamp: str, state: str = "TASK_STATE_COMPLETED") -> Callable[[str], Starlette]:
    """An agent replaying fasta2a's wire format for one message: the task in ``state`` stamped ``timestamp``."""

    def build(base_url: str) -> Starlette:
        card = {
            "name": "replay",
            "version": "1.0.0",
            "description": "fasta2a's wire format, replayed",
            "supportedInterfaces": [{"protocolBinding": "JSONRPC", "url": base_url, "protocolVersion": "1.0"}],
            "skills": [],
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "capabilities": {"streaming": True, "pushNotifications": False},
        }

        async def card_json(request: Request) -> JSONResponse:
            return JSONResponse(card)

        async def rpc(request: Request) -> StreamingResponse:
            body = await request.json()
            task = {
                "id": "t-1",
                "contextId": "c-1",
                "status": {"state": state, "timestamp": timestamp},
            }
            event = {"jsonrpc": "2.0", "id": body["id"], "result": {"task": task}}

            async def events() -> AsyncIterator[bytes]:
                yield f"data: {json.dumps(event)}\n\n".encode()

            return StreamingResponse(events(), media_type="text/event-stream")

        return Starlette(routes=[Route("/.well-known/agent-card.json", card_json), Route("/", rpc, methods=["POST"])])

    return build


async def test_a_timestamp_that_cannot_be_repaired_is_a_protocol_error_naming_the_field_and_the_value() -> None:
    async with serve_asgi(replay_app("yesterday\x1b[2J")) as url, A2AAgent(url) as agent:
        events = [ev async for ev in agent.stream_async("hello")]
    failed = events[-1]
    assert isinstance(failed, Failed) and isinstance(failed.error, ProtocolError)
    details = failed.error.details
    assert details["field"] == "StreamResponse.task.status.timestamp"
    assert details["value"] == "yesterday\\x1b[2J"  # neutralised: the escape is shown, not sent to a terminal
    assert "\x1b" not in failed.error.message and "yesterday" in failed.error.message


async def test_a_replayed_fasta2a_stream_with_a_zoneless_timestamp_reaches_its_state() -> None:
    async with serve_asgi(replay_app("2026-11-24T23:47:56.203316")) as url, A2AAgent(url) as agent:
        events = [ev async for ev in agent.stream_async("hello")]
        [view] = agent.tasks.views.values()
    assert not any(isinstance(ev, Failed) for ev in events), events
    assert view.status_history[0].timestamp == "2026-11-24T23:47:56.203316Z"
    assert isinstance(events[-1], Completed) and events[-1].result.state == "completed"
