"""A connected agent's card as one JSON-ready dict: what ``inspect --json`` prints and the inspector's card reads."""

from __future__ import annotations

from typing import Any

from google.protobuf.json_format import MessageToDict

from workbench.core.protocols.a2a.card_fetch import Discovery
from workbench.core.protocols.a2a.security import needs_summary, required_credentials


def _scheme(scheme: Any) -> dict[str, Any]:
    kind = scheme.WhichOneof("scheme")
    body = MessageToDict(getattr(scheme, kind)) if kind else {}
    names = {
        "api_key_security_scheme": "apiKey",
        "http_auth_security_scheme": "http",
        "oauth2_security_scheme": "oauth2",
        "open_id_connect_security_scheme": "openIdConnect",
        "mtls_security_scheme": "mutualTLS",
    }
    return {"type": names.get(kind or "", kind or "unknown"), **body}


def describe_card(discovery: Discovery) -> dict[str, Any]:
    """Describe the card an agent connected with as a JSON-ready dict (``A2AAgent.discovery``).

    Keys: ``name``, ``description``, ``version``, ``protocol_versions``, ``protocol_version`` (in
    use), ``era``, ``binding``, ``url`` (in use), ``card_url``, ``extended_card``, ``interfaces``,
    ``capabilities``, ``skills`` (with examples, tags, modes), ``security_schemes``,
    ``security_requirements``, ``credential_needs`` (what the workbench would ask for, see
    ``security.required_credentials``), ``needs`` (the same as one line), ``provider``,
    ``documentation_url``, ``notes``, ``warnings`` (what the user should check, e.g. a URL whose path
    has no card) and ``raw_card`` (the JSON as published).
    """
    card, iface, fetch = discovery.card, discovery.interface, discovery.fetch
    caps = card.capabilities
    capabilities: dict[str, Any] = {
        "streaming": bool(caps.streaming),
        "push_notifications": bool(caps.push_notifications),
        "extended_agent_card": bool(caps.extended_agent_card),
        "extensions": [MessageToDict(e) for e in caps.extensions],
    }
    skills = [
        {
            "id": s.id,
            "name": s.name,
            "description": s.description,
            "tags": list(s.tags),
            "examples": list(s.examples),
            "input_modes": list(s.input_modes),
            "output_modes": list(s.output_modes),
            "security_requirements": [
                {name: list(scopes.list) for name, scopes in req.schemes.items()} for req in s.security_requirements
            ],
        }
        for s in card.skills
    ]
    out: dict[str, Any] = {
        "name": card.name,
        "description": card.description,
        "version": card.version,
        "protocol_versions": sorted({i.protocol_version for i in card.supported_interfaces if i.protocol_version}),
        "protocol_version": iface.protocol_version,
        "era": discovery.era,
        "binding": iface.protocol_binding,
        "url": iface.url,
        "card_url": fetch.url,
        "extended_card": discovery.extended,
        "interfaces": [
            {"url": i.url, "binding": i.protocol_binding, "protocol_version": i.protocol_version, "tenant": i.tenant}
            for i in card.supported_interfaces
        ],
        "capabilities": capabilities,
        "default_input_modes": list(card.default_input_modes),
        "default_output_modes": list(card.default_output_modes),
        "skills": skills,
        "security_schemes": {name: _scheme(s) for name, s in card.security_schemes.items()},
        "security_requirements": [
            {name: list(scopes.list) for name, scopes in req.schemes.items()} for req in card.security_requirements
        ],
        "credential_needs": [n.to_dict() for n in required_credentials(card)],
        "needs": needs_summary(card),
        "notes": list(fetch.notes),
        "warnings": list(fetch.warnings),
        "raw_card": fetch.raw,
    }
    if card.HasField("provider"):
        out["provider"] = {"organization": card.provider.organization, "url": card.provider.url}
    if card.documentation_url:
        out["documentation_url"] = card.documentation_url
    if discovery.extended_error is not None:
        out["extended_card_error"] = discovery.extended_error.to_dict()
    return out
