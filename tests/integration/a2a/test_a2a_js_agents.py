"""The adapter against the JS SDK's own A2A agents (@a2a-js/sdk 1.3.0 speaking 1.0, 0.3.14 speaking 0.3).

Each agent streams "thinking…", three artifacts, asks for a name and completes once answered; on the
follow-up turn it re-publishes the whole task first (as every JS-SDK agent must). Skipped when node
or the packages (``make test`` installs them) are missing.
"""

from __future__ import annotations

import pytest

from tests.servers.a2a_js_agents import js_agent
from workbench.core.errors import ConfigError, UnsupportedCapabilityError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    Completed,
    InputRequired,
    StatusChanged,
    TextDelta,
)
from workbench.core.wire.recorder import WireRecorder

pytestmark = pytest.mark.asyncio


async def _events(agent: A2AAgent, text: str, **kwargs: str) -> list[AgentEvent]:
    return [event async for event in agent.stream_async(text, **kwargs)]


def _methods(wire: WireRecorder) -> set[str]:
    return {r.method for r in wire.records() if r.kind == "jsonrpc" and r.method}


@pytest.mark.parametrize("protocol", ["1.0", "0.3"])
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_a_js_sdk_agent_streams_asks_and_a_new_agent_continues_without_replaying(
    protocol: str, binding: str
) -> None:
    async with js_agent(protocol) as url:
        async with A2AAgent(url, binding=binding) as first:  # type: ignore[arg-type]
            assert (first.capabilities.transport, first.capabilities.era) == (binding, protocol)
            events = await _events(first, "hi")
        artifacts = [e.name for e in events if isinstance(e, ArtifactUpdated)]
        assert artifacts == ["step-1", "step-2", "step-3"]
        assert any(isinstance(e, TextDelta) and e.text == "thinking…" for e in events)
        asked = [e for e in events if isinstance(e, InputRequired)]
        assert len(asked) == 1 and "What is your name?" in (asked[0].request.text or "")
        done = events[-1]
        assert isinstance(done, Completed) and done.result.state == "input_required"
        task_id, context_id = done.result.task_id, done.result.context_id
        assert task_id and context_id
        # 'workbench send --task-id … --context-id …' is a new process: a new agent object continues.
        async with A2AAgent(url, binding=binding) as second:  # type: ignore[arg-type]
            again = await _events(second, "Ada", task_id=task_id, context_id=context_id)
    names = [e.name for e in again if isinstance(e, ArtifactUpdated)]
    texts = [e.text for e in again if isinstance(e, TextDelta)]
    assert names == ["reply"], names  # step-1..3 are not emitted again
    assert "thinking…" not in texts and "done" in texts
    states = [e.state for e in again if isinstance(e, StatusChanged)]
    assert "submitted" not in states and states[-1] == "completed"
    last = again[-1]
    assert isinstance(last, Completed) and last.result.state == "completed" and last.result.task_id == task_id


async def test_a_js_sdk_agent_runs_a_skill_called_as_a_tool() -> None:
    async with js_agent("1.0") as url, A2AAgent(url) as agent:
        assert {t.name for t in agent.tool_specs()} == {"steps", "echo"}
        result = await agent.call_tool("echo", {"message": "hello there"})
    assert not result.is_error and "hello there" in result.text


@pytest.mark.parametrize(("version", "method"), [("1.0", "SendStreamingMessage"), ("0.3", "message/stream")])
async def test_protocol_version_picks_the_card_interface_of_that_version(version: str, method: str) -> None:
    wire = WireRecorder()
    async with js_agent("1.0", compat=True) as url, A2AAgent(url, protocol_version=version, wire=wire) as agent:  # type: ignore[arg-type]
        assert agent.capabilities.era == version
        result = await agent.invoke_async("echo me", skill="echo")
    assert result.state == "completed" and "echo me" in result.text
    assert method in _methods(wire)
    other = {"SendStreamingMessage": "message/stream", "message/stream": "SendStreamingMessage"}[method]
    assert other not in _methods(wire)


async def test_a_version_the_card_does_not_offer_is_refused_naming_the_versions_it_does() -> None:
    async with js_agent("0.3") as url:
        agent = A2AAgent(url, protocol_version="1.0")
        with pytest.raises(UnsupportedCapabilityError) as caught:
            await agent.connect()
        await agent.aclose()
    assert caught.value.details["offered_versions"] == ["0.3"]
    assert caught.value.details["wanted_version"] == "1.0"


async def test_the_card_is_asked_for_as_1_0_so_a_compat_server_offers_both_versions() -> None:
    async with js_agent("1.0", compat=True) as url, A2AAgent(url) as agent:
        versions = {i["protocolVersion"] for i in agent.capabilities.extra["interfaces"]}
        assert agent.capabilities.era == "1.0"
    assert versions == {"1.0", "0.3"}


async def test_a_0_3_card_naming_its_url_twice_lists_each_interface_once() -> None:
    async with js_agent("0.3") as url, A2AAgent(url) as agent:
        interfaces = [(i["url"], i["protocolBinding"]) for i in agent.capabilities.extra["interfaces"]]
    assert len(interfaces) == len(set(interfaces)) == 2


@pytest.mark.parametrize("value", ["2.0", "", "1", None])
async def test_an_unknown_protocol_version_is_a_config_error_at_construction(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        A2AAgent("http://127.0.0.1:9", protocol_version=value)  # type: ignore[arg-type]
    assert caught.value.details["option"] == "protocol_version"
