"""An A2A agent's card as the inspector shows it: ``CardInfo`` sections, skills and JSON (Qt-free)."""

from __future__ import annotations

import json
from typing import Any

from workbench.core.protocols.a2a.card_description import describe_card
from workbench.core.protocols.a2a.card_fetch import Discovery
from workbench.core.protocols.a2a.convert import message_to_dict
from workbench.core.protocols.snapshot import NOT_GIVEN, CardInfo, Row, Section, SkillInfo, flatten, yes_no


def requirement_text(requirement: dict[str, list[str]]) -> str:
    """One security requirement ("bearer", "oauth (read, write)", "a + b" when all are needed)."""
    parts = [f"{name} ({', '.join(scopes)})" if scopes else name for name, scopes in sorted(requirement.items())]
    return " + ".join(parts) or "(none)"


def _scheme_rows(name: str, scheme: dict[str, Any]) -> Row:
    kind = str(scheme.get("type", "unknown"))
    details = {k: v for k, v in scheme.items() if k != "type"}
    summary = kind
    if kind == "http" and details.get("scheme"):
        summary = f"http ({details['scheme']})"
    elif kind == "apiKey" and details.get("name"):
        summary = f"apiKey ({details.get('location', '?')}: {details['name']})"
    elif kind == "oauth2" and isinstance(details.get("flows"), dict):
        summary = "oauth2 (" + ", ".join(details["flows"]) + ")"
    elif kind == "openIdConnect" and details.get("openIdConnectUrl"):
        summary = f"openIdConnect ({details['openIdConnectUrl']})"
    return Row(name, summary, (Row("type", kind), *flatten(details)) if details else (Row("type", kind),))


def card_info(discovery: Discovery) -> CardInfo:
    """Build the inspector's view of the card an agent connected with (``A2AAgent.discovery``)."""
    d = describe_card(discovery)
    card = discovery.card
    raw = d["raw_card"]
    raw_caps = raw.get("capabilities") if isinstance(raw.get("capabilities"), dict) else {}
    provider = d.get("provider") or {}
    identity = (
        Row("Name", d["name"] or NOT_GIVEN),
        Row("Description", d["description"] or NOT_GIVEN),
        Row("Version", d["version"] or NOT_GIVEN),
        Row("Provider", provider.get("organization") or NOT_GIVEN),
        Row("Provider URL", provider.get("url") or NOT_GIVEN),
        Row("Documentation URL", d.get("documentation_url") or NOT_GIVEN),
        Row("Icon URL", card.icon_url or NOT_GIVEN),  # text only: never fetched
    )
    if d["extended_card"]:
        extended = "extended card shown (fetched with your credentials)"
    elif d.get("extended_card_error"):
        extended = f"extended card not available: {d['extended_card_error'].get('message', '')}"
    elif d["capabilities"]["extended_agent_card"]:
        extended = "offered, not fetched (needs a credential on the connection)"
    else:
        extended = "not offered"
    protocol = (
        Row("Protocol version", d["protocol_version"] or NOT_GIVEN),
        Row("Versions on the card", ", ".join(d["protocol_versions"]) or NOT_GIVEN),
        Row("Binding in use", d["binding"]),
        Row("Endpoint in use", d["url"]),
        Row("Card URL", d["card_url"]),
        Row("Extended card", extended),
        Row("Card notes", str(len(d["notes"])) if d["notes"] else "none", tuple(Row("note", n) for n in d["notes"])),
        *(Row("Card warning", w) for w in d["warnings"]),
    )
    caps = d["capabilities"]
    history = raw_caps.get("stateTransitionHistory")
    extensions = tuple(
        Row(
            str(ext.get("uri", "")),
            "required" if ext.get("required") else "optional",
            flatten({k: v for k, v in ext.items() if k not in ("uri", "required")}),
        )
        for ext in caps["extensions"]
    )
    capabilities = (
        Row("Streaming", yes_no(caps["streaming"])),
        Row("Push notifications", yes_no(caps["push_notifications"])),
        Row("Extended agent card", yes_no(caps["extended_agent_card"])),
        Row(
            "State transition history",
            yes_no(history) if isinstance(history, bool) else "not stated (no such field in A2A 1.0)",
        ),
        Row("Extensions", str(len(extensions)) if extensions else "none", extensions),
    )
    modes = (
        Row("Default input modes", ", ".join(d["default_input_modes"]) or NOT_GIVEN),
        Row("Default output modes", ", ".join(d["default_output_modes"]) or NOT_GIVEN),
    )
    schemes = tuple(_scheme_rows(name, s) for name, s in d["security_schemes"].items()) or (
        Row("(none)", "the card declares no security schemes"),
    )
    requirements = tuple(
        Row(f"Requirement {i + 1}", requirement_text(r)) for i, r in enumerate(d["security_requirements"])
    ) or (Row("(none)", "no requirement stated"),)
    interfaces = tuple(
        Row(
            i["url"],
            f"{i['binding']} {i['protocol_version']}".strip(),
            (
                Row("binding", i["binding"]),
                Row("protocol version", i["protocol_version"] or NOT_GIVEN),
                *((Row("tenant", i["tenant"]),) if i["tenant"] else ()),
            ),
        )
        for i in d["interfaces"]
    )
    skills = tuple(
        SkillInfo(
            id=s["id"],
            name=s["name"],
            description=s["description"],
            tags=tuple(s["tags"]),
            examples=tuple(s["examples"]),
            input_modes=tuple(s["input_modes"]),
            output_modes=tuple(s["output_modes"]),
            security=tuple(requirement_text(r) for r in s["security_requirements"]),
        )
        for s in d["skills"]
    )
    return CardInfo(
        name=d["name"],
        description=d["description"],
        sections=(
            Section("Identity", identity),
            Section("Protocol", protocol),
            Section("Capabilities", capabilities),
            Section("Modes", modes),
            Section("Security schemes", schemes),
            Section("Security requirements", requirements),
            Section("Interfaces", interfaces),
        ),
        skills=skills,
        raw_json=json.dumps(raw, indent=2, ensure_ascii=False),
        extended=bool(d["extended_card"]),
        extended_json=json.dumps(message_to_dict(card), indent=2, ensure_ascii=False) if d["extended_card"] else "",
        warnings=tuple(d["warnings"]),
    )
