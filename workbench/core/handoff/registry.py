"""Which agents take part in handoffs: registration, lookup by name, URI or tool name, and what each may call.

What an agent is offered as is decided by what it can do (``AgentFeatures``), never by its protocol's
name: an agent whose tool calls end with full results serves its tools to the others; an agent that
takes a prompt is offered whole, as an agent tool taking one ``message``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from workbench.core.errors import ConfigError, NotFoundError, WorkbenchError
from workbench.core.handoff.agent_tools import RegisteredAgent, agent_tool_spec
from workbench.core.handoff.events import USER
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent

log = logging.getLogger(__name__)


class AgentRegistry:
    """The agents a router knows, in registration order, and the tools offered to each."""

    def __init__(self) -> None:
        self._agents: dict[str, RegisteredAgent] = {}
        self._offers: dict[str, list[str]] = {}

    def register(
        self,
        name: str,
        agent: RemoteAgent,
        uri: str | None = None,
        description: str | None = None,
        *,
        as_tool: bool | None = None,
        tool_name: str | None = None,
        proxy_targets: Mapping[str, str] | None = None,
        owned: bool = False,
    ) -> RegisteredAgent:
        """Make ``agent`` reachable by ``name`` (and by ``uri``); see ``HandoffRouter.register``.

        Raises:
            ConfigError: The name is taken (``user`` always is).
        """
        if name in self._agents or name == USER:
            raise ConfigError(f"An agent named {name!r} is already registered.", details={"name": name})
        url = uri if uri is not None else agent.config.url
        entry = RegisteredAgent(
            name=name,
            agent=agent,
            uri=url if isinstance(url, str) else None,
            description=description,
            as_tool=as_tool,
            tool_name=tool_name,
            proxy_targets=dict(proxy_targets) if proxy_targets else None,
            owned=owned,
        )
        self._agents[name] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Forget an agent (it is not closed)."""
        self._agents.pop(name, None)

    @property
    def agents(self) -> dict[str, RegisteredAgent]:
        """Registered agents by name, in registration order."""
        return dict(self._agents)

    def get(self, name: str) -> RegisteredAgent | None:
        """The agent registered as ``name``, if any."""
        return self._agents.get(name)

    def agent(self, name: str) -> RegisteredAgent:
        """The registered agent called ``name``.

        Raises:
            NotFoundError: No such agent.
        """
        try:
            return self._agents[name]
        except KeyError:
            raise NotFoundError(
                f"No agent named {name!r} is registered for handoffs.",
                hint="registered: " + (", ".join(self._agents) or "none"),
                details={"agent": name, "registered": list(self._agents)},
            ) from None

    def find(self, ref: str) -> RegisteredAgent | None:
        """The agent a reference names: its registered name, its URI (trailing ``/`` ignored) or its tool name."""
        if ref in self._agents:
            return self._agents[ref]
        wanted = ref.rstrip("/")
        for entry in self._agents.values():
            if entry.uri and entry.uri.rstrip("/") == wanted:
                return entry
        for entry in self._agents.values():
            if entry.tool_name == ref:
                return entry
        return None

    # ------------------------------------------------------------------ what each agent may call

    def offer_tools(self, source: str, names: list[str]) -> None:
        """Offer only these tools (served tool names and agent tool names) to ``source``; others are refused."""
        self._offers[source] = list(names)

    def allows(self, source: str, tool: str) -> bool:
        """Whether ``source`` may call ``tool`` (everything, unless ``offer_tools`` narrowed it)."""
        allowed = self._offers.get(source)
        return allowed is None or tool in allowed

    def agent_tools(self, for_source: str | None = None) -> list[ToolSpec]:
        """Specs of the registered agents offered as tools (the asking agent itself left out)."""
        return [agent_tool_spec(e) for e in self._agents.values() if e.name != for_source and e.offered()]

    async def offered_tools(self, for_source: str) -> list[ToolSpec]:
        """Everything ``for_source`` may call: the tools the other agents serve, then agent tools.

        A tool name two agents serve is the first one's (the one a call runs on).
        """
        specs: list[ToolSpec] = []
        for entry in self._serving(for_source):
            await connected(entry)
            specs.extend(entry.agent.tool_specs())
        specs.extend(self.agent_tools(for_source))
        specs = [s for s in specs if self.allows(for_source, s.name)]
        unique: dict[str, ToolSpec] = {}
        for spec in specs:
            unique.setdefault(spec.name, spec)
        return list(unique.values())

    def agent_tool(self, name: str, source: str) -> RegisteredAgent | None:
        """The agent offered to ``source`` as the tool ``name``, if any."""
        for entry in self._agents.values():
            if entry.name != source and (entry.tool_name or entry.name) == name and entry.offered():
                return entry
        return None

    async def tool_owner(self, name: str, source: str) -> RegisteredAgent | None:
        """The first agent other than ``source`` that serves the tool ``name`` (connected first), if any."""
        for entry in self._serving(source):
            await connected(entry)
            if name in _tool_names(entry):
                return entry
        return None

    def _serving(self, source: str) -> list[RegisteredAgent]:
        return [e for e in self._agents.values() if e.name != source and e.serves_tools()]

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        """Connect every registered agent that is not connected yet."""
        await asyncio.gather(*(connected(e) for e in self._agents.values()))

    async def close_owned(self) -> None:
        """Close the agents registered with ``owned``; a failure to close is logged, not raised."""
        owned = [e.agent for e in self._agents.values() if e.owned]
        results = await asyncio.gather(*(a.aclose() for a in owned), return_exceptions=True)
        for agent, result in zip(owned, results, strict=True):
            if isinstance(result, Exception):
                log.info("closing %s failed: %s", agent.name, result)
            elif isinstance(result, BaseException):
                raise result


async def connected(entry: RegisteredAgent) -> None:
    """Connect ``entry``'s agent unless it is connected."""
    if not entry.agent.connected:
        await entry.agent.connect()


def _tool_names(entry: RegisteredAgent) -> set[str]:
    try:
        return set(entry.agent.tools)
    except WorkbenchError:
        return set()
