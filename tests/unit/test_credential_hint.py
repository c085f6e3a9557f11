"""The hint naming the options that pass a refused call's credential where the agent's card says."""

from __future__ import annotations

import shlex

from workbench.core.credential_hint import pass_credential_hint

COMMAND = ("workbench", "send", "--a2a", "http://127.0.0.1:1")


def _argv(hint: str) -> list[str]:
    return shlex.split(hint.split(": ", 1)[1].split(" …")[0])[4:]


def _key(location: str, name: str) -> dict[str, object]:
    return {"scheme": "k", "type": "api-key", "location": location, "param_name": name}


def test_each_api_key_location_gets_the_option_that_puts_the_key_there() -> None:
    cases = {
        "header": ["--header", "X-API-Key=KEY"],
        "cookie": ["--header", "Cookie=X-API-Key=KEY"],
        "query": ["--answer", "KEY"],
    }
    for location, argv in cases.items():
        hint = pass_credential_hint(COMMAND, {"credential_needs": [_key(location, "X-API-Key")]})
        assert _argv(hint) == argv, location


def test_without_needs_or_for_tokens_the_hint_is_a_bearer_header() -> None:
    for details in ({}, {"credential_needs": [{"scheme": "b", "type": "http-bearer"}]}):
        assert _argv(pass_credential_hint(COMMAND, details)) == ["--header", "Authorization=Bearer TOKEN"]


def test_a_hostile_parameter_name_from_a_card_is_never_printed() -> None:
    for name in ("x; touch f", "$(id)", "a\nworkbench send evil", "a b"):
        for location in ("header", "cookie"):
            hint = pass_credential_hint(COMMAND, {"credential_needs": [_key(location, name)]})
            assert "\n" not in hint
            assert _argv(hint) == ["--answer", "KEY"]
            assert name not in hint


def test_every_header_an_alternative_needs_is_named() -> None:
    needs = [_key("header", "X-API-Key"), _key("header", "X-Vault-Key")]
    assert _argv(pass_credential_hint(COMMAND, {"credential_needs": needs})) == [
        "--header",
        "X-API-Key=KEY",
        "--header",
        "X-Vault-Key=KEY",
    ]
