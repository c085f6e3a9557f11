"""An idempotent read the agent's server resets before answering (a keep-alive it closed just then) is sent again.

uvicorn closes a keep-alive connection after 5 s of quiet, the Tasks tab's poll interval; a poll that
reuses the connection at that moment meets a reset. ``ResettingProxy`` plays that moment on demand in
front of the demo travel agent.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import anyio
import httpx
import pytest

from tests.support.reset_proxy import ResettingProxy
from workbench.core.errors import ConnectionLostError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

BOUND = 30.0


@contextlib.asynccontextmanager
async def travel_behind_proxy() -> AsyncIterator[ResettingProxy]:
    """The demo travel agent behind a ``ResettingProxy`` (its card names the proxy's URL)."""
    proxy = ResettingProxy()
    async with proxy.running():
        factory = travel_app_factory(chunk_delay=0)
        async with serve_agent(lambda _own_url: factory(proxy.url)) as url:
            proxy.target = url
            yield proxy


def failed_exchanges(wire: WireRecorder) -> list[str]:
    return [r.summary for r in wire.records() if r.kind is WireKind.ERROR and "ReadError" in r.summary]


@pytest.mark.asyncio
async def test_a_task_listing_reset_before_its_answer_is_sent_again_and_answers() -> None:
    wire = WireRecorder()
    with anyio.fail_after(BOUND):
        async with travel_behind_proxy() as proxy, A2AAgent(proxy.url, wire=wire) as agent:
            waiting = await agent.invoke_async("Plan a trip to Lisbon")
            await agent.tasks.list_tasks()  # the connection is now idle in the pool
            proxy.reset_next(1)
            listed = await agent.tasks.list_tasks()
            assert proxy.resets == 1
            assert waiting.task_id in [t.task_id for t in listed]
            assert len(failed_exchanges(wire)) == 1  # the wire log keeps the reset attempt
            proxy.reset_next(1)
            assert (await agent.tasks.get_task(waiting.task_id)).task_id == waiting.task_id
            assert proxy.resets == 2


@pytest.mark.asyncio
async def test_a_listing_reset_twice_fails_with_the_connection_lost_and_a_cancel_is_never_sent_twice() -> None:
    wire = WireRecorder()
    with anyio.fail_after(BOUND):
        async with travel_behind_proxy() as proxy, A2AAgent(proxy.url, wire=wire) as agent:
            waiting = await agent.invoke_async("Plan a trip to Lisbon")
            proxy.reset_next(2)
            with pytest.raises(ConnectionLostError) as lost:
                await agent.tasks.list_tasks()
            assert proxy.resets == 2
            assert isinstance(lost.value.__cause__.__cause__, httpx.ReadError)  # the SDK's error wraps httpx's
            assert len(failed_exchanges(wire)) == 2
            proxy.reset_next(1)
            with pytest.raises(ConnectionLostError):
                await agent.tasks.cancel_task(waiting.task_id)  # not a read: the agent may have acted on it
            assert proxy.resets == 3
            assert (await agent.tasks.get_view(waiting.task_id)).state == "input_required"
