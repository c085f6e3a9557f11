"""What a connected A2A agent offers, read from its card: capabilities, skills as tools, contract features.

The card itself is fetched and checked by ``card_fetch``; this module turns what connecting found
(``Discovery``: the card in use, the extended one when it was fetched) into the contract's neutral shapes.
"""

from __future__ import annotations

from typing import Any

from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict

from workbench.core.protocols.a2a.card_fetch import Discovery
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures

SKILL_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"message": {"type": "string"}},
    "required": ["message"],
}
"""What calling a skill as a tool takes: the message to send."""

FEATURES = AgentFeatures(chat=True, message_data=True, conversations=True, tasks=True, cancel=True)
"""Chat, data parts, conversations, tasks and cancel: everything but MCP server features."""


def capabilities(discovery: Discovery) -> AgentCapabilities:
    """What the agent offers, in the neutral shape (``raw`` is the card in use)."""
    card, interface, fetch = discovery.card, discovery.interface, discovery.fetch
    caps = card.capabilities
    era = discovery.era
    return AgentCapabilities(
        protocol="a2a",
        protocol_version=interface.protocol_version or ("0.3" if era == "0.3" else "1.0"),
        transport=interface.protocol_binding,
        name=card.name or None,
        version=card.version or None,
        description=card.description or None,
        era=era,
        supports_streaming=bool(caps.streaming),
        supports_tasks=True,
        supports_tools=bool(card.skills),
        supports_push_notifications=bool(caps.push_notifications),
        supports_agent_invocation=True,
        agent_entry_point=interface.url,
        extra={
            "interfaces": [MessageToDict(i) for i in card.supported_interfaces],
            "extended_agent_card": bool(caps.extended_agent_card),
            "extended_card_fetched": discovery.extended,
            "security_schemes": sorted(card.security_schemes.keys()),
            "skills": [s.id for s in card.skills],
            "default_input_modes": list(card.default_input_modes),
            "default_output_modes": list(card.default_output_modes),
            "extensions": [e.uri for e in caps.extensions],
            "card_url": fetch.url,
            "notes": list(fetch.notes),
            "warnings": list(fetch.warnings),
        },
        raw=card,
    )


def skill_specs(card: AgentCard) -> list[ToolSpec]:
    """The card's skills as tool specs: calling one sends ``message`` with the skill id in metadata."""
    return [
        ToolSpec(
            name=s.id,
            title=s.name or None,
            description=s.description or None,
            input_schema=dict(SKILL_INPUT_SCHEMA),
            annotations={"tags": list(s.tags), "examples": list(s.examples)} if (s.tags or s.examples) else None,
            kind="skill",
            raw=s,
        )
        for s in card.skills
    ]
