"""Sampling scripts (rules from JSON/YAML) and saved model endpoints: what they answer, and bad files as ConfigError."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from pydantic import SecretStr

from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConfigError, NotFoundError, SamplingRejectedError, SamplingToolError
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
from workbench.core.sampling.script import SamplingScript

WEATHER = ToolSpec(name="get_weather", input_schema={"type": "object"})


def _ask(text: str, *, tools: list[ToolSpec] | None = None) -> SamplingRequest:
    return SamplingRequest(
        messages=[SamplingMessage("user", [ContentPart("text", text=text)])], max_tokens=5, tools=tools
    )


def _answer(script: SamplingScript, request: SamplingRequest):  # type: ignore[no-untyped-def]
    return asyncio.run(script(request))


def test_rules_match_in_order_on_the_last_user_message_with_regex_groups() -> None:
    script = SamplingScript.from_data(
        {
            "rules": [
                {"match": {"last_user": "ping"}, "reply": "pong"},
                {
                    "match": {"regex": r"weather in (?P<city>\w+)"},
                    "tool_use": {"name": "get_weather", "input": {"city": r"\g<city>"}},
                },
                {"reply": "fallback: \\0"},
            ]
        }
    )
    assert _answer(script, _ask(" ping ")).text == "pong"
    call = _answer(script, _ask("weather in Oslo?", tools=[WEATHER]))
    assert call.stop_reason == "toolUse" and call.tool_uses[0].data["input"] == {"city": "Oslo"}
    assert _answer(script, _ask("anything")).text == "fallback: anything"


def test_a_scripted_tool_call_for_a_tool_not_offered_and_no_match_are_refused() -> None:
    script = SamplingScript.from_data([{"match": {"regex": "x"}, "tool_use": {"name": "get_weather"}}])
    with pytest.raises(SamplingToolError):
        _answer(script, _ask("x"))
    with pytest.raises(SamplingRejectedError):
        _answer(script, _ask("y"))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("bad.json", "{not json"),
        ("bad.yaml", "rules: [unclosed"),
        ("noreply.json", json.dumps({"rules": [{"match": {"regex": "x"}}]})),
        ("both.json", json.dumps({"rules": [{"reply": "a", "tool_use": {"name": "t"}}]})),
        ("badkey.json", json.dumps({"rules": [{"match": {"colour": "red"}, "reply": "a"}]})),
        ("badregex.json", json.dumps({"rules": [{"match": {"regex": "("}, "reply": "a"}]})),
        ("norules.json", json.dumps({"model": "m"})),
    ],
)
def test_a_bad_script_file_is_a_config_error(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        SamplingScript.from_file(path)


def test_a_missing_script_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        SamplingScript.from_file(tmp_path / "absent.yaml")


def test_endpoints_are_saved_without_their_keys_which_live_in_the_credential_store(tmp_path: Path) -> None:
    credentials = MemoryCredentialStore()
    store = ModelEndpointStore(tmp_path, credentials)
    store.put(ModelEndpoint(name="local", api="openai", base_url="http://127.0.0.1:11434/v1", model="llama"))
    asyncio.run(store.set_key("local", SecretStr("sk-very-secret")))
    assert "sk-very-secret" not in store.path.read_text()
    assert asyncio.run(store.key(store.find("local"))) == SecretStr("sk-very-secret")
    asyncio.run(store.remove("local"))
    assert store.load() == [] and asyncio.run(credentials.get("model-endpoint:local")) is None
    with pytest.raises(NotFoundError):
        store.find("local")


@pytest.mark.parametrize(
    "text",
    ["{broken", json.dumps({"version": 9, "endpoints": []}), json.dumps({"version": 1, "endpoints": [{"name": "x"}]})],
)
def test_an_unreadable_endpoint_file_is_a_config_error(tmp_path: Path, text: str) -> None:
    (tmp_path / "models.json").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        ModelEndpointStore(tmp_path, MemoryCredentialStore()).load()


def test_an_endpoint_url_with_a_password_is_refused() -> None:
    with pytest.raises(ValueError):
        ModelEndpoint(name="x", api="openai", base_url="https://user:pw@example.com/v1", model="m")
    assert (
        ModelEndpoint(name="x", api="openai", base_url="http://h/v1", model="m", input_price=2).cost(1_000_000, None)
        == 2
    )
