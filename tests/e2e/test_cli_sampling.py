"""``workbench call --sampling person|script:FILE|model:NAME --sampling-policy auto|ask|deny`` and
``workbench model add|list|key|remove``, in this process, against a server whose tool samples with tools
(over Streamable HTTP, legacy era) and the loopback model endpoint."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.servers.model_api import ModelAPI, serve_model_api
from tests.servers.sampling_tools import FORECAST_RULES, serve_sampling_tools
from tests.support.cli_profiles import cli_env, workbench

pytestmark = pytest.mark.asyncio
KEY = "sk-cli-0123456789abcdef-SECRET"
SCRIPT = FORECAST_RULES


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[tuple[str, ModelAPI]]:
    async with serve_sampling_tools() as url, serve_model_api() as api:
        yield url, api


def forecast(url: str, *extra: str) -> list[str]:
    return ["call", "forecast", "--args", '{"city": "Oslo"}', "--mcp", url, "--mode", "legacy", *extra]


async def test_a_saved_model_endpoint_answers_a_tool_loop_and_its_key_stays_in_the_keyring(
    servers: tuple[str, ModelAPI], tmp_path: Path
) -> None:
    url, api = servers
    env = cli_env(tmp_path)
    add = ["model", "add", "local", "--api", "openai", "--url", api.openai_url, "--model", "weather"]
    assert (await workbench(env, *add, "--input-price", "1", "--output-price", "2"))[0] == 0
    assert (await workbench(env, "model", "key", "local", stdin=KEY.encode()))[0] == 0
    code, out, _ = await workbench(env, "model", "list", "--json")
    assert code == 0 and json.loads(out)["has_key"] is True
    code, out, err = await workbench(env, *forecast(url, "--sampling", "model:local"))
    assert code == 0, err
    assert "It is sunny in Oslo (rounds: 2, model: weather)" in out
    log = [line for line in err.splitlines() if line.startswith("[sampling]")]
    assert len(log) == 2 and "tool call: get_weather" in log[0] and "tokens in 11 / out 7" in log[0]
    assert api.seen[0].key == KEY
    files = "".join(p.read_text() for p in (tmp_path / "config").rglob("*") if p.is_file())
    assert KEY not in out + err + files
    assert (await workbench(env, "model", "remove", "local"))[0] == 0
    assert KEY not in (tmp_path / "keyring.json").read_text()


async def test_a_script_answers_and_deny_refuses(servers: tuple[str, ModelAPI], tmp_path: Path) -> None:
    url, _ = servers
    script = tmp_path / "demo.yaml"
    script.write_text(SCRIPT, encoding="utf-8")
    env = cli_env(tmp_path)
    code, out, err = await workbench(env, *forecast(url, "--sampling", f"script:{script}"))
    assert code == 0, err
    assert "Forecast: sunny in Oslo (rounds: 2, model: workbench-script)" in out
    code, out, err = await workbench(env, *forecast(url, "--sampling", f"script:{script}", "--sampling-policy", "deny"))
    assert code == 1
    assert "[sampling-rejected]" in err


async def test_ask_sends_an_approved_draft_and_a_person_answers_with_a_tool_call(
    servers: tuple[str, ModelAPI], tmp_path: Path
) -> None:
    url, _ = servers
    script = tmp_path / "demo.json"
    rules = [
        {"match": {"after_tool_result": True}, "reply": "approved: \\0"},
        {"tool_use": {"name": "get_weather", "input": {"city": "Oslo"}}},
    ]
    script.write_text(json.dumps({"rules": rules}))
    env = cli_env(tmp_path)
    ask = ["--sampling", f"script:{script}", "--sampling-policy", "ask", "--answer", "y", "--answer", "y"]
    code, out, err = await workbench(env, *forecast(url, *ask))
    assert code == 0, err
    assert "approved: sunny in Oslo" in out and "drafted" in err
    use = json.dumps({"tool_use": {"name": "get_weather", "input": {"city": "Bergen"}}})
    code, out, err = await workbench(env, *forecast(url, "--answer", use, "--answer", "Rain, as ever"))
    assert code == 0, err
    assert "Rain, as ever (rounds: 2, model: workbench-human)" in out


async def test_bad_endpoints_and_unknown_responders_are_typed_errors(
    servers: tuple[str, ModelAPI], tmp_path: Path
) -> None:
    url, api = servers
    env = cli_env(tmp_path)
    for name, model in (("junk", "garbage"), ("ghost", "ghost-tool")):
        add = ["model", "add", name, "--api", "anthropic", "--url", api.url, "--model", model]
        assert (await workbench(env, *add))[0] == 0
    code, _, err = await workbench(env, *forecast(url, "--sampling", "model:junk"))
    assert code == 1 and "[model-response]" in err
    code, _, err = await workbench(env, *forecast(url, "--sampling", "model:ghost"))
    assert code == 1 and "[sampling-unknown-tool]" in err
    code, _, err = await workbench(env, *forecast(url, "--sampling", "model:missing"))
    assert code == 2
    code, _, err = await workbench(env, *forecast(url, "--sampling", "oracle"))
    assert code == 2
