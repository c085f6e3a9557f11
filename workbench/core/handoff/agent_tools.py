"""Agents as tools: a registered agent offered to another agent as a tool taking one ``message`` string.

The spec's description comes from the agent's card (A2A) or server info / instructions (MCP); its
annotations say which agent it reaches (``agent``, ``agent_uri``, ``protocol``). A tool call naming
an agent tool goes through the router as an ``AGENT_TOOL`` hop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent

MESSAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"message": {"type": "string", "description": "What to ask the agent"}},
    "required": ["message"],
    "additionalProperties": False,
}
"""Input schema of every agent tool."""


@dataclass(slots=True)
class RegisteredAgent:
    """An agent the router knows.

    Attributes:
        name: The name hops and policies use.
        agent: The agent.
        uri: Where it lives (A2A base URL, MCP URL), matched against ``metadata.agent_uri``.
        description: What it does (default: from its card or server info).
        as_tool: Offer it to other agents as a tool (``None``: when it can be invoked as an agent).
        tool_name: The tool name it is offered under (default: ``name``).
        proxy_targets: For an A2A → MCP proxy agent: proxy server id → registered MCP agent name.
        owned: The router closes the agent when it closes.
    """

    name: str
    agent: RemoteAgent
    uri: str | None = None
    description: str | None = None
    as_tool: bool | None = None
    tool_name: str | None = None
    proxy_targets: dict[str, str] | None = None
    owned: bool = False

    @property
    def protocol(self) -> str:
        """``mcp`` or ``a2a``: a label for events and approval requests, never a reason to act differently."""
        return self.agent.protocol

    @property
    def connection_id(self) -> str | None:
        """The agent's connection id in the wire log."""
        return self.agent.connection_id

    def offered(self) -> bool:
        """Whether it is offered as a tool: an explicit choice, else whether it takes a prompt (``features.chat``)."""
        if self.as_tool is not None:
            return self.as_tool
        return self.agent.features.chat

    def serves_tools(self) -> bool:
        """Whether its tools answer other agents' tool calls (``features.tool_results``: calls end with full results).

        An agent whose tools only stream text (skills that take a message) is offered whole, as an
        agent tool, instead.
        """
        return self.agent.features.tool_results

    def describe(self) -> str:
        """What it does, in one paragraph (untrusted when it comes from the peer)."""
        if self.description:
            return self.description
        try:
            caps = self.agent.capabilities
        except WorkbenchError:
            caps = None
        if caps is not None and (caps.description or caps.instructions):
            return str(caps.description or caps.instructions)
        return f"Ask the agent {self.name!r}."


def agent_tool_spec(entry: RegisteredAgent) -> ToolSpec:
    """The tool spec under which ``entry`` is offered to other agents."""
    annotations: dict[str, Any] = {"agent": entry.name, "protocol": entry.protocol}
    if entry.uri:
        annotations["agent_uri"] = entry.uri
    return ToolSpec(
        name=entry.tool_name or entry.name,
        title=f"Ask {entry.name}",
        description=entry.describe(),
        input_schema=dict(MESSAGE_SCHEMA),
        annotations=annotations,
        kind="agent",
    )


def message_argument(arguments: dict[str, Any]) -> str | None:
    """The ``message`` an agent tool call carries (a non-string is sent as JSON text)."""
    value = arguments.get("message")
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value)
