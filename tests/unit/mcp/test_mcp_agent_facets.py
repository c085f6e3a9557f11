"""``MCPAgent`` keeps to the contract: its facets are objects of their own, and the names that moved still answer."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.core.protocols.contract import AgentConfig, RemoteAgent, ServerFeatures, TaskOperations
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server

MAX_PUBLIC_MEMBERS = 25


def public_members(obj: object) -> list[str]:
    """Public attributes, properties and methods of ``obj``, inherited ones included (no dunders)."""
    return sorted(name for name in dir(obj) if not name.startswith("_"))


def test_the_agent_has_at_most_25_public_members_counting_inherited_ones() -> None:
    agent = MCPAgent.in_process(build_server())  # an instance: instance attributes count too
    members = public_members(agent)
    assert len(members) <= MAX_PUBLIC_MEMBERS, members


@pytest.mark.asyncio
async def test_the_facets_are_objects_of_their_own_typed_by_their_protocols() -> None:
    async with MCPAgent.in_process(build_server(), mode="legacy") as agent:
        assert isinstance(agent, RemoteAgent)
        server, tasks = agent.server_features, agent.tasks
        assert isinstance(server, ServerFeatures) and isinstance(tasks, TaskOperations)
        assert isinstance(agent.config, AgentConfig)
        assert len({id(agent), id(server), id(tasks), id(agent.config)}) == 4
        assert agent.server_features is server and agent.tasks is tasks  # one each, not made per access
        assert "demo://readme" in {r.uri for r in server.resources}
        assert (await server.read_resource("demo://readme")).parts


def test_the_config_is_one_frozen_value_that_callers_cannot_change_afterwards() -> None:
    headers = {"X-Team": "blue"}
    agent = MCPAgent("http://127.0.0.1:9/mcp", headers=headers, roots=[("file:///a", "a")])
    headers["X-Team"] = "red"
    config = agent.config
    assert config.headers == {"X-Team": "blue"} and config.roots == (("file:///a", "a"),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.request_timeout = 5.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.headers["X-Team"] = "red"  # type: ignore[index]


@pytest.mark.asyncio
async def test_what_changes_later_is_read_from_the_facet_while_the_config_keeps_what_was_given() -> None:
    async with MCPAgent.in_process(build_server(), mode="legacy", roots=[], log_level="info") as agent:
        server = agent.server_features
        await server.set_logging_level("debug")
        await server.set_roots([("file:///b", "b")])
        assert (server.log_level, server.roots) == ("debug", [("file:///b", "b")])
        assert (agent.config.log_level, agent.config.roots) == ("info", ())
        assert agent.config.name is None and agent.name != agent.config.target_label  # the server's own name


@pytest.mark.asyncio
async def test_an_old_name_still_answers_from_its_new_place_with_a_deprecation_warning() -> None:
    async with MCPAgent.in_process(build_server(), mode="legacy") as agent:
        with pytest.warns(DeprecationWarning, match=r"server_features\.read_resource"):
            read_resource = agent.read_resource  # type: ignore[attr-defined]
        assert (await read_resource("demo://readme")).parts
        with pytest.warns(DeprecationWarning, match=r"config\.transport"):
            assert agent.transport == "in-process"  # type: ignore[attr-defined]


def test_a_name_that_never_existed_is_an_attribute_error_without_a_warning() -> None:
    agent = MCPAgent.in_process(build_server())
    with pytest.raises(AttributeError):
        agent.no_such_member  # type: ignore[attr-defined]  # noqa: B018
