"""``A2AAgent``'s facets: small façade, config / discovery / tasks as objects of their own, old names deprecated."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import types
from typing import Any

import httpx
import pytest

from workbench.core.protocols.a2a import A2AAgent, A2AConfig, A2ATaskOperations, Discovery, PushConfigs
from workbench.core.protocols.a2a.security_auth import SecurityAuth
from workbench.core.protocols.contract import AgentConfig, RemoteAgent, TaskOperations
from workbench.demo.a2a_agents.travel import build_travel_app

MAX_PUBLIC_MEMBERS = 25


def public_members(cls: type) -> list[str]:
    """The public names of ``cls``, inherited ones included, without what ``object`` has."""
    return [name for name in dir(cls) if not name.startswith("_") and name not in dir(object)]


def reaches(start: object, target: object) -> bool:
    """Whether ``target`` is reachable from ``start`` by references (through classes, modules, functions: not)."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
    seen = {id(start)}
    todo = [start]
    while todo:
        for ref in gc.get_referents(todo.pop()):
            if ref is target:
                return True
            if id(ref) not in seen and not isinstance(ref, skip):
                seen.add(id(ref))
                todo.append(ref)
    return False


def travel_agent() -> A2AAgent:
    app = build_travel_app("http://travel.test", chunk_delay=0)
    return A2AAgent("http://travel.test", http_transport=httpx.ASGITransport(app))


def test_the_facade_has_at_most_25_public_members() -> None:
    members = public_members(A2AAgent)
    assert len(members) <= MAX_PUBLIC_MEMBERS, members


def test_the_facets_are_distinct_objects_typed_by_their_protocols() -> None:
    agent = travel_agent()
    assert isinstance(agent, RemoteAgent)
    assert isinstance(agent.config, A2AConfig) and isinstance(agent.config, AgentConfig)
    assert isinstance(agent.tasks, A2ATaskOperations) and isinstance(agent.tasks, TaskOperations)
    assert isinstance(agent.tasks.push, PushConfigs)
    assert isinstance(agent.security, SecurityAuth)
    assert agent.server_features is None and not agent.features.server_features
    facets = [agent.config, agent.tasks, agent.tasks.push, agent.security]
    assert len({id(f) for f in facets}) == len(facets) and all(f is not agent for f in facets)
    assert agent.tasks is agent.tasks  # one collaborator, not a new wrapper per access


def test_the_config_is_one_frozen_value() -> None:
    headers = {"X-Trace": "1"}
    agent = A2AAgent("http://travel.test", headers=headers, bearer_token="SECRET-token-5555")
    headers["X-Trace"] = "2"
    assert agent.config.headers == {"X-Trace": "1"}  # a copy: the caller's dict does not reach the agent
    with pytest.raises(dataclasses.FrozenInstanceError):
        agent.config.binding = "GRPC"  # type: ignore[misc]
    assert "SECRET-token-5555" not in repr(agent.config)


def test_the_task_operations_hold_no_reference_to_the_agent() -> None:
    agent = travel_agent()
    assert not reaches(agent.tasks, agent)
    assert "agent" not in inspect.signature(A2ATaskOperations).parameters


@pytest.mark.asyncio
async def test_discovery_is_what_connecting_found_and_the_card_helpers_take_it() -> None:
    async with travel_agent() as agent:
        discovery = agent.discovery
        assert isinstance(discovery, Discovery)
        assert discovery.card.name == agent.name
        assert discovery.fetch.url == "http://travel.test/.well-known/agent-card.json"
        assert agent.describe().details["card_url"] == discovery.fetch.url
        with pytest.raises(dataclasses.FrozenInstanceError):
            discovery.extended = True  # type: ignore[misc]


@pytest.mark.asyncio
async def test_an_old_name_still_answers_from_its_new_place_with_a_deprecation_warning() -> None:
    async with travel_agent() as agent:
        result = await agent.invoke_async("Plan a trip to Lisbon")
        assert result.task_id is not None
        with pytest.warns(DeprecationWarning, match=r"A2AAgent\.tasks\.get_view"):
            get_task: Any = agent.get_task  # type: ignore[attr-defined]
        view = await get_task(result.task_id)
        assert view.task_id == result.task_id and view.state == "input_required"
        with pytest.warns(DeprecationWarning, match=r"A2AAgent\.config\.binding"):
            assert agent.binding == "auto"  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        agent.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError):  # setting an old name would hide the frozen config's value
        agent.input_handler = None  # type: ignore[attr-defined]
