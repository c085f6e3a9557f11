"""``--profile NAME`` with target options: this run's options override the saved ones, or exit 2 naming why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support.cli_profiles import TOKEN, cli_env, json_error_code, workbench
from tests.support.demo_mcp import demo_stdio_command
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


def last(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


async def test_mode_and_agent_tool_override_a_saved_stdio_profile(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    code, _, err = await workbench(
        env, "profile", "add", "demo", "--stdio", "--mode", "2026-07-28", "--", *demo_stdio_command()
    )
    assert code == 0, err
    code, out, err = await workbench(env, "inspect", "--profile", "demo", "--json")
    assert code == 0, err
    assert last(out)["protocol_version"] == "2026-07-28"
    code, out, err = await workbench(env, "inspect", "--profile", "demo", "--mode", "legacy", "--json")
    assert code == 0, err
    assert last(out)["protocol_version"] == "2025-11-25"
    code, out, _ = await workbench(env, "send", "--profile", "demo", "--agent-tool", "missing", "hi", "--json")
    assert code == 2  # a tool the server lacks, named on the command line: bad usage, as for `call`
    assert json_error_code(out) == "unsupported"
    code, out, err = await workbench(env, "send", "--profile", "demo", "weather in Paris", "--json")
    assert code == 0, err  # the saved entry point still works: nothing was saved by the override


async def test_env_overrides_and_timeout_bounds_a_saved_stdio_profile(tmp_path: Path) -> None:
    from tests.servers import script_path

    env = cli_env(tmp_path)
    gated = [
        "sh",
        "-c",
        'test "$WB_GATE" = open && exec "$0" "$@"',
        *demo_stdio_command(),
    ]  # the demo, only with WB_GATE=open
    code, _, err = await workbench(env, "profile", "add", "gated", "--stdio", "--", *gated)
    assert code == 0, err
    code, out, _ = await workbench(env, "inspect", "--profile", "gated", "--json", "--connect-timeout", "20")
    assert code == 1
    code, out, err = await workbench(env, "inspect", "--profile", "gated", "--env", "WB_GATE=open", "--json")
    assert code == 0, err
    assert "plan_trip" in [t["name"] for t in last(out)["tools"]]
    code, _, err = await workbench(
        env, "profile", "add", "silent", "--stdio", "--", sys.executable, script_path("never_answers")
    )
    assert code == 0, err
    code, out, _ = await workbench(env, "call", "--profile", "silent", "wait_forever", "--timeout", "1", "--json")
    assert code == 1
    assert json_error_code(out) == "timeout"


async def test_a_header_passes_a_credential_to_a_saved_http_profile_for_this_run_only(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with serve_http(transport="streamable-http", require_bearer=TOKEN) as url:
        code, _, err = await workbench(env, "profile", "add", "protected", "--mcp", url)
        assert code == 0, err
        wire = tmp_path / "wire.jsonl"
        code, out, err = await workbench(
            env, "call", "--profile", "protected", "add", "--args", '{"a": 2, "b": 3}', "--json",
            "--header", f"Authorization=Bearer {TOKEN}", "--wire", str(wire),
        )  # fmt: skip
        assert code == 0, err
        assert last(out)["result"]["structured"] == {"result": 5}
        assert TOKEN not in wire.read_text()
        code, out, _ = await workbench(
            env, "call", "--profile", "protected", "add", "--args", '{"a":1,"b":1}', "--json"
        )
        assert code == 1
        assert json_error_code(out) == "auth-required"
    for path in (tmp_path / "config").rglob("*"):
        if path.is_file():
            assert TOKEN not in path.read_text(errors="replace")


@pytest.mark.parametrize(
    ("kind", "argv", "option"),
    [
        ("a2a", ["--mode", "legacy"], "--mode"),
        ("a2a", ["--agent-tool", "x"], "--agent-tool"),
        ("a2a", ["--env", "A=1"], "--env"),
        ("mcp", ["--env", "A=1"], "--env"),
        ("mcp", ["--binding", "jsonrpc"], "--binding"),
        ("stdio", ["--header", "X-A=1"], "--header"),
        ("stdio", ["--allow-origin", "https://a.example"], "--allow-origin"),
        ("stdio", ["--wire", "session.har"], "--wire"),
    ],
)
async def test_an_option_the_profile_cannot_use_exits_2_naming_the_conflict(
    tmp_path: Path, kind: str, argv: list[str], option: str
) -> None:
    env = cli_env(tmp_path)
    target = {
        "a2a": ["--a2a", "http://127.0.0.1:9/"],
        "mcp": ["--mcp", "http://127.0.0.1:9/mcp"],
        "stdio": ["--stdio", "--", "/nonexistent/never-started"],
    }[kind]
    code, _, err = await workbench(env, "profile", "add", "p", *target)
    assert code == 0, err
    code, out, err = await workbench(env, "inspect", "--profile", "p", *argv, "--json")
    assert code == 2, (out, err)
    error = last(out)["error"]
    assert error["code"] == "config"
    if option != "--wire":
        assert error["details"]["option"] == option
        assert option in error["message"]


async def test_a_bearer_agent_profile_without_a_keyring_uses_the_answer_for_this_run(tmp_path: Path) -> None:
    from tests.support.a2a_agents import BEARER, bearer_app
    from workbench.demo.a2a_agents import serve_agent

    env = cli_env(tmp_path, keyring_backend=False)
    async with serve_agent(bearer_app) as url:
        code, _, err = await workbench(env, "profile", "add", "agent", "--a2a", url)
        assert code == 0, err
        code, out, err = await workbench(env, "send", "--profile", "agent", "hello", "--answer", BEARER)
        assert code == 0, (out, err)
        assert "hello" in out + err  # the echo agent's artifact
        assert "not stored" in err
        code, out, err = await workbench(env, "send", "--profile", "agent", "hello", "--json")
        assert code == 1  # nothing was stored: the next run has no credential
        assert json_error_code(out) == "auth-required"
