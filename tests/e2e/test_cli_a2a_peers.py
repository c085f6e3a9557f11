"""``workbench inspect|send|call`` against real SDK agents: the JS SDK's (1.0 and 0.3) and the Python SDK's gRPC one.

Run as a careful user would: inspect (and ``--json``), send streaming, ``--answer``, continue a waiting
task with the command the CLI printed, call a skill, ``--wire`` as JSONL and HAR, ``--a2a-version``,
``--binding``. Skipped when node, the JS packages or grpcio are missing.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.servers.a2a_grpc_agent import grpc_agent
from tests.servers.a2a_js_agents import js_agent
from tests.support.cli_runner import workbench, workbench_process

pytestmark = pytest.mark.asyncio
STEPS = ("step 1", "step 2", "step 3")


def _continue_command(err: str) -> list[str]:
    """The ``workbench send …`` the CLI printed to continue a waiting task (without 'workbench')."""
    line = next(line for line in err.splitlines() if line.strip().startswith("workbench send "))
    return shlex.split(line)[1:]


@pytest.mark.parametrize("protocol", ["1.0", "0.3"])
async def test_inspect_shows_the_js_agents_card_once_per_interface(protocol: str) -> None:
    async with js_agent(protocol) as url:
        code, out, err = await workbench("inspect", "--a2a", url)
        assert code == 0, err
        assert "JS Steps Agent" in out and "steps" in out and "echo" in out
        code, out, err = await workbench("inspect", "--a2a", url, "--json")
    assert code == 0, err
    info = json.loads(out)
    pairs = [(i["url"], i["binding"], i["protocol_version"]) for i in info["interfaces"]]
    assert len(pairs) == len(set(pairs)) == 2
    assert info["era"] == protocol


@pytest.mark.parametrize("protocol", ["1.0", "0.3"])
async def test_send_then_the_printed_command_continues_the_js_agents_task_without_replaying_it(
    protocol: str, tmp_path: Path
) -> None:
    async with js_agent(protocol) as url:
        code, out, err = await workbench("send", "--a2a", url, "hi")
        assert code == 0, err
        assert all(step in out for step in STEPS) and "thinking…" in out
        command = _continue_command(err)
        assert command[:3] == ["send", "--a2a", url] and "--task-id" in command and "--context-id" in command
        command[-1] = "Ada"  # in place of 'YOUR ANSWER'
        wire = tmp_path / "continue.jsonl"
        code, out, err = await workbench(*command, "--wire", str(wire))
    assert code == 0, err
    assert "Nice to meet you, Ada." in out
    assert not any(step in out for step in STEPS) and "thinking…" not in out  # the first turn is not replayed
    assert "[artifact step" not in err and "[status submitted]" not in err
    assert "[status completed]" in err
    assert wire.stat().st_size > 0


@pytest.mark.parametrize("protocol", ["1.0", "0.3"])
async def test_send_with_answer_completes_in_one_run_and_har_keeps_the_bodies(protocol: str, tmp_path: Path) -> None:
    har = tmp_path / "run.har"
    async with js_agent(protocol) as url:
        code, out, err = await workbench("send", "--a2a", url, "hi", "--answer", "Ada", "--wire", str(har))
    assert code == 0, err
    assert out.count("Nice to meet you, Ada.") == 1 and "answered from --answer" in err
    entries = json.loads(har.read_text())["log"]["entries"]
    assert len(entries) == 3  # the card, the first turn, the answer
    assert all(e["response"]["content"].get("text") for e in entries)


async def test_call_of_a_skill_and_the_hint_of_a_skill_that_asks_names_the_agent() -> None:
    async with js_agent("1.0") as url:
        code, out, err = await workbench("call", "--a2a", url, "echo", "--args", '{"message": "hello there"}')
        assert code == 0, err
        assert "hello there" in out
        code, out, err = await workbench("call", "--a2a", url, "steps", "--args", '{"message": "hi"}')
    assert code == 0, err
    command = _continue_command(err)
    assert command[:3] == ["send", "--a2a", url]  # the command names its target, so it works as written


@pytest.mark.parametrize(
    ("version", "path"), [("1.0", "/a2a/rest/message:stream"), ("0.3", "/a2a/rest/v1/message:stream")]
)
async def test_a2a_version_chooses_the_interface_and_the_hint_keeps_it(version: str, path: str, tmp_path: Path) -> None:
    wire = tmp_path / "w.jsonl"
    async with js_agent("1.0", compat=True) as url:
        code, _out, err = await workbench(
            "send", "--a2a", url, "--a2a-version", version, "--binding", "http-json", "hi", "--wire", str(wire)
        )
    assert code == 0, err
    urls = {json.loads(line)["http"]["url"] for line in wire.read_text().splitlines() if '"http-request"' in line}
    assert {u.split("/", 3)[3] for u in urls} == {".well-known/agent-card.json", path.lstrip("/")}
    command = _continue_command(err)
    assert command[command.index("--a2a-version") + 1] == version
    assert command[command.index("--binding") + 1] == "http-json"


async def test_a2a_version_the_agent_does_not_offer_exits_1_naming_what_it_offers() -> None:
    async with js_agent("0.3") as url:
        code, out, _err = await workbench("send", "--a2a", url, "--a2a-version", "1.0", "hi", "--json")
    assert code == 1
    error = json.loads(out.splitlines()[-1])["error"]
    assert error["type"] == "UnsupportedCapabilityError"
    assert error["details"]["offered_versions"] == ["0.3"]


@pytest.mark.parametrize("option", [["--a2a-version", "0.3"], ["--binding", "grpc"]])
async def test_a2a_options_on_an_mcp_target_are_usage_errors(option: list[str]) -> None:
    code, _out, err = await workbench("inspect", "--mcp", "http://127.0.0.1:9/mcp", *option)
    assert code == 2
    assert option[0] in err


async def test_binding_grpc_talks_to_the_python_sdks_grpc_server_and_says_what_the_wire_log_keeps(
    tmp_path: Path,
) -> None:
    # Its own process, as a user's: grpc's asyncio completion queue is one per process and serves the
    # loop that made it, so a command run in the test process's thread (a loop of its own, closed at
    # the end) could leave grpc calling back into a closed loop.
    wire = tmp_path / "grpc.jsonl"
    async with grpc_agent() as url:
        code, out, err = await workbench_process(
            "send", "--a2a", url, "--binding", "grpc", "hello grpc", "--wire", str(wire)
        )
        assert code == 0, err
        assert "hello grpc" in out
        assert "gRPC binding: the wire log keeps each gRPC message" in err
        records = [json.loads(line) for line in wire.read_text().splitlines()]
        assert any(r["kind"] == "raw" and "hello grpc" in r["payload"] for r in records)
        code, out, err = await workbench_process("inspect", "--a2a", url, "--binding", "grpc", "--json")
    assert code == 0, err
    assert json.loads(out)["binding"] == "GRPC"
