"""ConnectionManager with A2A profiles against in-process demo agents on 127.0.0.1, secrets by reference."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.support.a2a_agents import BEARER, bearer_app
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.errors import AuthRequiredError
from workbench.core.events import ConnectionState, EventBus
from workbench.core.profiles import A2AProfile, SecretRef
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import build_travel_app, serve_agent

S = ConnectionState
BOUND = 30.0
STORED = {"protected-echo": BEARER}


async def keyring(ref: SecretRef) -> str | None:
    return STORED.get(ref.key)


@pytest.fixture
def wire() -> WireRecorder:
    return WireRecorder()


@pytest_asyncio.fixture
async def manager(wire: WireRecorder) -> AsyncIterator[ConnectionManager]:
    mgr = ConnectionManager(EventBus(), wire=wire, factory=DefaultAgentFactory(resolve_secret=keyring))
    yield mgr
    await mgr.aclose()


@pytest.mark.asyncio
async def test_an_a2a_profile_connects_with_the_cards_protocol_version(manager: ConnectionManager) -> None:
    async with serve_agent(build_travel_app) as url:
        conn = await asyncio.wait_for(manager.connect(A2AProfile(id="travel", name="travel", url=url)), BOUND)
        assert conn.state is S.CONNECTED
        assert isinstance(conn.agent, A2AAgent)
        assert conn.capabilities is not None
        assert conn.capabilities.protocol == "a2a"
        assert conn.protocol_version == "1.0"
        await asyncio.wait_for(manager.disconnect("travel"), BOUND)
        assert conn.state is S.CLOSED


@pytest.mark.asyncio
async def test_a_bearer_secret_reference_is_resolved_sent_and_kept_out_of_the_wire_log(
    manager: ConnectionManager, wire: WireRecorder
) -> None:
    async with serve_agent(bearer_app) as url:
        profile = A2AProfile(id="echo", name="echo", url=url, secrets=[SecretRef(kind="bearer", key="protected-echo")])
        conn = await asyncio.wait_for(manager.connect(profile), BOUND)
        result = await asyncio.wait_for(conn.connected_agent().invoke_async("hello"), BOUND)
        assert result.artifacts["echo"][0].text == "hello"
        await manager.disconnect("echo")
    recorded = "\n".join(r.payload + str(r.http or "") for r in wire.records())
    assert "Authorization" in recorded or "authorization" in recorded
    assert BEARER not in recorded


@pytest.mark.asyncio
async def test_a_missing_secret_is_not_sent_and_the_agent_says_auth_is_required(manager: ConnectionManager) -> None:
    async with serve_agent(bearer_app) as url:
        profile = A2AProfile(id="echo", name="echo", url=url, secrets=[SecretRef(kind="bearer", key="never-stored")])
        conn = await asyncio.wait_for(manager.connect(profile), BOUND)  # the card itself is public
        with pytest.raises(AuthRequiredError):
            await asyncio.wait_for(conn.connected_agent().invoke_async("hello"), BOUND)
        await manager.disconnect("echo")
