"""The handoff registry on its own: lookups, and what each agent is offered as, decided by its features."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.support.agent_double import ContractDefaults
from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.handoff.events import USER
from workbench.core.handoff.registry import AgentRegistry
from workbench.core.protocols.base import AgentCapabilities, AgentEvent, AgentResult, Completed
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures

pytestmark = pytest.mark.asyncio

HANDOFF_PACKAGE = Path(__file__).parents[2] / "workbench" / "core" / "handoff"
NAMES = ("mcp", "a2a")


class Peer(ContractDefaults):
    """An agent whose protocol label, features and tool names a test chooses independently."""

    def __init__(
        self,
        name: str,
        *,
        protocol: str = "a2a",
        features: AgentFeatures | None = None,
        tools: tuple[str, ...] = (),
        connected: bool = True,
    ) -> None:
        self.name = name
        self.connection_id = f"conn-{name}"
        self.protocol = protocol
        self.features = features if features is not None else AgentFeatures()
        self._tools = tools
        self._connected = connected
        self.closed = 0

    @property
    def connected(self) -> bool:
        return self._connected

    async def connect(self) -> None:
        self._connected = True

    async def aclose(self) -> None:
        self.closed += 1

    @property
    def capabilities(self) -> AgentCapabilities:
        return AgentCapabilities(protocol=self.protocol, protocol_version="1", transport="memory")

    @property
    def tools(self) -> Mapping[str, Any]:
        return dict.fromkeys(self._tools)

    def stream_async(self, prompt: Any = None, **kwargs: Any) -> AsyncIterator[AgentEvent]:
        return self._answer(prompt)

    async def _answer(self, prompt: Any) -> AsyncIterator[AgentEvent]:
        yield Completed(result=AgentResult(text=str(prompt)), agent=self.name, protocol="a2a")


SERVES = AgentFeatures(tool_results=True)
CHATS = AgentFeatures(chat=True)


def names(specs: list[ToolSpec]) -> list[str]:
    return [s.name for s in specs]


async def test_an_agent_is_found_by_name_by_uri_without_its_trailing_slash_and_by_tool_name() -> None:
    registry = AgentRegistry()
    a = registry.register("a", Peer("a"), uri="http://127.0.0.1:1/")
    b = registry.register("b", Peer("b"), tool_name="ask_b")

    assert registry.find("a") is a
    assert registry.find("http://127.0.0.1:1") is a
    assert registry.find("ask_b") is b
    assert registry.find("nobody") is None
    assert registry.get("nobody") is None
    assert list(registry.agents) == ["a", "b"]
    with pytest.raises(NotFoundError):
        registry.agent("nobody")


async def test_a_name_is_taken_once_and_the_user_lane_is_never_an_agent() -> None:
    registry = AgentRegistry()
    registry.register("a", Peer("a"))
    with pytest.raises(ConfigError):
        registry.register("a", Peer("other"))
    with pytest.raises(ConfigError):
        registry.register(USER, Peer("someone"))
    registry.unregister("a")
    registry.register("a", Peer("a"))


async def test_tools_are_served_by_agents_whose_calls_end_with_full_results_whatever_their_protocol() -> None:
    registry = AgentRegistry()
    registry.register("asker", Peer("asker", features=CHATS))
    registry.register("labelled_a2a", Peer("labelled_a2a", protocol="a2a", features=SERVES, tools=("lookup",)))
    registry.register("labelled_mcp", Peer("labelled_mcp", protocol="mcp", tools=("hidden",)))

    offered = await registry.offered_tools("asker")

    assert names(offered) == ["lookup"]
    owner = await registry.tool_owner("lookup", "asker")
    assert owner is not None and owner.name == "labelled_a2a"
    assert await registry.tool_owner("hidden", "asker") is None
    assert await registry.tool_owner("lookup", "labelled_a2a") is None  # never its own tool


async def test_an_agent_that_takes_a_prompt_is_offered_as_an_agent_tool_whatever_its_protocol() -> None:
    registry = AgentRegistry()
    registry.register("chatty_mcp", Peer("chatty_mcp", protocol="mcp", features=CHATS))
    registry.register("mute_a2a", Peer("mute_a2a", protocol="a2a"))
    registry.register("chosen", Peer("chosen", protocol="a2a"), as_tool=True)
    registry.register("withheld", Peer("withheld", features=CHATS), as_tool=False)

    assert names(registry.agent_tools()) == ["chatty_mcp", "chosen"]
    assert names(registry.agent_tools(for_source="chatty_mcp")) == ["chosen"]
    entry = registry.agent_tool("chatty_mcp", "someone")
    assert entry is not None and entry.name == "chatty_mcp"
    assert registry.agent_tool("mute_a2a", "someone") is None


async def test_offer_tools_narrows_what_a_source_may_call_and_a_tool_name_is_the_first_servers() -> None:
    registry = AgentRegistry()
    registry.register("asker", Peer("asker"))
    first = Peer("first", features=SERVES, tools=("echo", "sum"), connected=False)
    registry.register("first", first)
    registry.register("second", Peer("second", features=SERVES, tools=("echo", "time")))
    registry.register("helper", Peer("helper", features=CHATS))

    assert names(await registry.offered_tools("asker")) == ["echo", "sum", "time", "helper"]
    assert first.connected  # asking for its tools connected it
    owner = await registry.tool_owner("echo", "asker")
    assert owner is not None and owner.name == "first"

    registry.offer_tools("asker", ["time", "helper"])
    assert names(await registry.offered_tools("asker")) == ["time", "helper"]
    assert registry.allows("asker", "time") and not registry.allows("asker", "echo")
    assert registry.allows("someone else", "echo")


async def test_connect_connects_every_agent_and_closing_closes_only_the_owned_ones() -> None:
    registry = AgentRegistry()
    owned, borrowed = Peer("owned", connected=False), Peer("borrowed", connected=False)
    registry.register("owned", owned, owned=True)
    registry.register("borrowed", borrowed)

    await registry.connect()
    await registry.close_owned()

    assert owned.connected and borrowed.connected
    assert (owned.closed, borrowed.closed) == (1, 0)


def protocol_name_comparisons(source: str) -> list[str]:
    """Every comparison with the string ``"mcp"`` or ``"a2a"`` (``==``, ``!=``, ``in``, ``match``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for operand in operands:
                values = operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
                if any(isinstance(v, ast.Constant) and v.value in NAMES for v in values):
                    found.append(ast.unparse(node))
        elif isinstance(node, ast.MatchValue) and isinstance(node.value, ast.Constant) and node.value.value in NAMES:
            found.append(ast.unparse(node))
    return found


async def test_the_scan_finds_a_comparison_with_a_protocol_name() -> None:
    assert protocol_name_comparisons('if entry.protocol != "mcp":\n    pass') == ["entry.protocol != 'mcp'"]
    assert protocol_name_comparisons('x = p in ("a2a", "grpc")') == ["p in ('a2a', 'grpc')"]
    assert protocol_name_comparisons('label = "mcp"') == []


async def test_no_handoff_module_decides_by_a_protocol_name() -> None:
    modules = sorted(HANDOFF_PACKAGE.glob("*.py"))
    assert modules, HANDOFF_PACKAGE
    found = {m.name: protocol_name_comparisons(m.read_text(encoding="utf-8")) for m in modules}
    assert {name: hits for name, hits in found.items() if hits} == {}
