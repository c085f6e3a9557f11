"""A URL whose path has no card: the server root's card is used, and the connection says so.

The demo travel agent (127.0.0.1, ephemeral port) publishes its card at the root and its endpoints at
``/`` (JSON-RPC) and ``/rest`` (HTTP+JSON).
"""

from __future__ import annotations

import json

import pytest

from tests.support.cli_runner import workbench
from workbench.core.protocols.a2a import A2AAgent, describe_card
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

pytestmark = pytest.mark.asyncio


async def test_a_url_with_a_wrong_path_connects_to_the_root_card_with_a_warning_naming_both_urls() -> None:
    async with serve_agent(travel_app_factory()) as url:
        wrong = f"{url}/agents/hotel"
        async with A2AAgent(wrong) as agent:
            root_card = f"{url}/.well-known/agent-card.json"
            assert agent.discovery.fetch.url == root_card
            [warning] = agent.capabilities.extra["warnings"]
            assert wrong in warning and root_card in warning
            assert describe_card(agent.discovery)["warnings"] == [warning]
            assert agent.describe().card is not None and agent.describe().card.warnings == (warning,)


async def test_an_endpoint_url_of_the_agent_is_no_wrong_path_only_a_note() -> None:
    async with serve_agent(travel_app_factory()) as url, A2AAgent(f"{url}/rest") as agent:
        assert agent.capabilities.extra["warnings"] == []
        assert any(f"{url}/rest" in note for note in agent.discovery.fetch.notes)


async def test_a_url_without_a_path_or_with_the_cards_own_path_has_no_warning() -> None:
    async with serve_agent(travel_app_factory()) as url:
        for given in (url, f"{url}/", f"{url}/.well-known/agent-card.json"):
            async with A2AAgent(given) as agent:
                assert agent.capabilities.extra["warnings"] == [], given


async def test_the_command_line_warns_on_stderr_and_inspect_json_lists_the_warning() -> None:
    async with serve_agent(travel_app_factory()) as url:
        wrong = f"{url}/agents/hotel"
        code, out, err = await workbench("inspect", "--a2a", wrong)
        assert code == 0, err
        [line] = [line for line in err.splitlines() if line.startswith("[workbench] warning:")]
        assert wrong in line and f"{url}/.well-known/agent-card.json" in line
        code, out, err = await workbench("inspect", "--a2a", wrong, "--json")
    assert code == 0, err
    [warning] = json.loads(out)["warnings"]
    assert wrong in warning
