"""Card candidates, parsing and interface selection (no network)."""

from __future__ import annotations

import copy

import pytest
from a2a.types import AgentCard, AgentInterface

from workbench.core.errors import AgentCardError, UnsupportedCapabilityError
from workbench.core.protocols.a2a.card_fetch import card_candidates, parse_card, protocol_era, select_interface

LEGACY = {
    "name": "Old",
    "description": "d",
    "version": "1",
    "url": "http://a.test/",
    "preferredTransport": "JSONRPC",
    "protocolVersion": "0.3.0",
    "capabilities": {"streaming": True},
    "skills": [],
    "security": [{"bearer": []}],
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
}


def test_candidates_try_the_well_known_paths_then_the_origin() -> None:
    assert card_candidates("http://a.test") == [
        "http://a.test/.well-known/agent-card.json",
        "http://a.test/.well-known/agent.json",
    ]
    assert card_candidates("http://a.test/agents/x/") == [
        "http://a.test/agents/x/.well-known/agent-card.json",
        "http://a.test/agents/x/.well-known/agent.json",
        "http://a.test/.well-known/agent-card.json",
        "http://a.test/.well-known/agent.json",
    ]
    assert card_candidates("http://a.test/my-card.json") == ["http://a.test/my-card.json"]
    assert card_candidates("http://a.test", "http://b.test/c.json") == ["http://b.test/c.json"]


def test_legacy_card_is_parsed_without_touching_the_raw_json() -> None:
    raw = copy.deepcopy(LEGACY)
    card, notes = parse_card(raw, url="u")
    assert raw == LEGACY
    assert notes == []
    iface = card.supported_interfaces[0]
    assert (iface.url, iface.protocol_binding, iface.protocol_version) == ("http://a.test/", "JSONRPC", "0.3.0")
    assert card.security_schemes["bearer"].http_auth_security_scheme.scheme == "bearer"
    assert protocol_era(iface) == "0.3"


def test_a_02_card_is_spoken_as_03_with_a_note() -> None:
    card, notes = parse_card({**LEGACY, "protocolVersion": "0.2.5"}, url="u")
    assert card.supported_interfaces[0].protocol_version == "0.3"
    assert len(notes) == 1


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ([1, 2], "not-an-object"),
        ({"name": "x", "skills": "nope"}, "invalid"),
        ({"name": "", "url": "http://a.test/"}, "missing-fields"),
        ({"name": "x"}, "missing-fields"),
    ],
)
def test_bad_cards_are_card_errors_with_a_problem(raw: object, problem: str) -> None:
    with pytest.raises(AgentCardError) as info:
        parse_card(raw, url="http://a.test/card")
    assert info.value.details["problem"] == problem
    assert info.value.details["url"] == "http://a.test/card"


def card_with(*ifaces: tuple[str, str]) -> AgentCard:
    return AgentCard(
        name="x",
        supported_interfaces=[
            AgentInterface(url=f"http://a.test/{b}/{v}", protocol_binding=b, protocol_version=v) for b, v in ifaces
        ],
    )


def test_interface_selection_follows_card_order_then_prefers_version_1_0() -> None:
    card = card_with(("HTTP+JSON", "0.3"), ("JSONRPC", "1.0"), ("HTTP+JSON", "1.0"))
    chosen = select_interface(card)
    assert (chosen.protocol_binding, chosen.protocol_version) == ("HTTP+JSON", "1.0")
    assert select_interface(card, "JSONRPC").protocol_binding == "JSONRPC"
    legacy_only = card_with(("JSONRPC", "0.3"), ("JSONRPC", ""))
    assert select_interface(legacy_only).protocol_version == "0.3"


def test_grpc_only_and_missing_bindings_are_unsupported() -> None:
    with pytest.raises(UnsupportedCapabilityError) as info:
        select_interface(card_with(("GRPC", "1.0")))
    assert info.value.details["offered"] == ["GRPC"]
    with pytest.raises(UnsupportedCapabilityError):
        select_interface(card_with(("JSONRPC", "1.0")), "HTTP+JSON")
