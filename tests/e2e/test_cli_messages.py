"""What the command line says and sends, against real peers: capabilities as negotiated, a URL the
server requires before a retry, declined sampling, unused answers, A2A options and artifacts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runner import json_lines, wire_records, workbench, workbench_process
from tests.support.demo_mcp import demo_stdio_command
from workbench.demo.a2a_agents.common import serve_agent
from workbench.demo.a2a_agents.travel import build_travel_app

pytestmark = pytest.mark.asyncio
URL_TOOL = "trigger-url-elicitation"
URL_ARGS = json.dumps({"url": "https://example.org/finish", "errorPath": True})


def tool_calls(path: Path) -> list[dict[str, Any]]:
    return [
        r
        for r in wire_records(path)
        if r["kind"] == "jsonrpc" and r["direction"] == "out" and r["method"] == "tools/call"
    ]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_inspect_says_what_the_server_declared_and_what_the_client_declared(mode: str) -> None:
    code, out, err = await workbench("inspect", "--stdio", "--mode", mode, "--", *demo_stdio_command())
    assert code == 0, err
    lines = {line.split(None, 1)[0]: line for line in out.splitlines() if line.strip()}
    assert "offers" not in lines
    assert "tools" in lines["server"] and "completions" in lines["server"]
    assert "sampling" not in lines["server"] and "elicitation" not in lines["server"]  # the server asks, not offers
    assert "sampling" in lines["client"] and "elicitation (form, url)" in lines["client"]
    code, out, err = await workbench("inspect", "--stdio", "--mode", mode, "--json", "--", *demo_stdio_command())
    assert code == 0, err
    [info] = json_lines(out)
    declared = info["client_capabilities"]
    tasks_ext = {"io.modelcontextprotocol/tasks": {}}  # the Tasks extension: 2026-07-28 wires only
    assert declared.pop("extensions", None) == (tasks_ext if mode == "2026-07-28" else None)
    # 2025-11-25: the client runs a server's task-augmented sampling and elicitation as tasks of its own
    client_tasks = {
        "cancel": {},
        "list": {},
        "requests": {"elicitation": {"create": {}}, "sampling": {"createMessage": {}}},
    }
    assert declared.pop("tasks", None) == (client_tasks if mode == "legacy" else None)
    assert declared == {
        "sampling": {"tools": {}},
        "elicitation": {"form": {}, "url": {}},
    }  # sampling with tools (SEP-1577)


@pytest.mark.everything
async def test_a_url_the_server_requires_is_shown_and_the_call_is_not_retried_without_consent(
    everything_http_url: str, tmp_path: Path
) -> None:
    wire = tmp_path / "wire.jsonl"
    code, _out, err = await workbench(
        "call", "--mcp", everything_http_url, URL_TOOL, "--args", URL_ARGS, "--wire", str(wire)
    )
    assert code == 1
    assert "open: https://modelcontextprotocol.io" in err  # the prerequisite's URL, in text mode
    assert "--answer accept" in err
    assert len(tool_calls(wire)) == 1


@pytest.mark.everything
async def test_after_consent_the_call_a_url_blocked_is_retried_and_completes(
    everything_http_url: str, tmp_path: Path
) -> None:
    wire = tmp_path / "wire.jsonl"
    code, out, err = await workbench(
        "call", "--mcp", everything_http_url, URL_TOOL, "--args", URL_ARGS, "--wire", str(wire),
        "--answer", "accept",  # consent: the prerequisite URL was visited
        "--answer", "accept",  # the retried call's own URL elicitation
    )  # fmt: skip
    assert code == 0, (out, err)
    assert "https://modelcontextprotocol.io" in err
    assert "completed the URL elicitation" in out
    assert len(tool_calls(wire)) == 2  # the call, and the same call again after consent
    assert "not used" not in err


@pytest.mark.everything
async def test_sampling_declined_from_answer_is_sent_as_the_specs_rejection(
    everything_stdio: Any, tmp_path: Path
) -> None:
    wire = tmp_path / "wire.jsonl"
    env = [f"--env={k}={v}" for k, v in (everything_stdio.env or {}).items()]
    _code, _out, err = await workbench(
        "call", "--stdio", *env, "trigger-sampling-request", "--args", '{"prompt": "hi"}', "--answer", "decline",
        "--wire", str(wire), "--", everything_stdio.command, *everything_stdio.args,
    )  # fmt: skip
    messages = [(r["direction"], json.loads(r["payload"])) for r in wire_records(wire) if r["kind"] == "jsonrpc"]
    [asked] = [m for d, m in messages if d == "in" and m.get("method") == "sampling/createMessage"]
    [reply] = [m for d, m in messages if d == "out" and m.get("id") == asked["id"] and "method" not in m]
    assert reply["error"]["code"] == -1  # the spec's "user rejected", never a completion reading "decline"
    assert "result" not in reply
    assert "declined" in err


async def test_unused_answers_are_counted_in_a_warning() -> None:
    code, out, err = await workbench(
        "call",
        "--stdio",
        "echo",
        "--args",
        '{"text": "hi"}',
        "--answer",
        "a",
        "--answer",
        "b",
        "--",
        *demo_stdio_command(),
    )
    assert code == 0, err
    assert "2 --answer values were not used" in err
    assert "not used" not in out


async def test_mode_with_a2a_is_refused_and_binding_chooses_the_interface() -> None:
    async with serve_agent(build_travel_app) as url:
        await _mode_and_binding(url)


async def _mode_and_binding(url: str) -> None:
    code, out, err = await workbench("inspect", "--a2a", url, "--mode", "legacy")
    assert code == 2
    assert "--mode" in err and "--binding" in err
    code, out, err = await workbench("inspect", "--mcp", "http://127.0.0.1:9/mcp", "--binding", "jsonrpc")
    assert code == 2
    for option, binding in (("jsonrpc", "JSONRPC"), ("http-json", "HTTP+JSON")):
        code, out, err = await workbench("inspect", "--a2a", url, "--binding", option, "--json")
        assert code == 0, err
        assert json_lines(out)[0]["binding"] == binding


async def test_an_a2a_artifacts_text_goes_to_stdout_and_its_name_to_stderr() -> None:
    trip = {"departure_date": "2026-12-01", "return_date": "2026-12-03", "travellers": 1, "cabin_class": "economy"}
    async with serve_agent(build_travel_app) as url:
        code, out, err = await workbench("send", "--a2a", url, "Plan a trip to Porto", "--answer", json.dumps(trip))
    assert code == 0, err
    assert "Day 1 (2026-12-01): fly to Porto" in out
    assert "Day 1" not in err
    assert "[artifact Itinerary]" in err
    assert err.count("which cabin class?") == 1  # the question, once: answered from --answer


@pytest.mark.everything
async def test_a_pinned_2026_mode_against_an_older_server_fails_naming_the_mode(everything_http_url: str) -> None:
    code, out, err = await workbench("inspect", "--mcp", everything_http_url, "--mode", "2026-07-28")
    assert code == 1, (out, err)
    assert out == ""  # no "MCP server ?" with 0 tools
    assert "2026-07-28" in err.splitlines()[0]
    code, out, _ = await workbench("inspect", "--mcp", everything_http_url, "--mode", "2026-07-28", "--json")
    assert code == 1
    [line] = json_lines(out)
    assert line["kind"] == "failed"
    assert line["error"]["details"]["mode"] == "2026-07-28"


@pytest.fixture(params=["stdio", "http"])
def everything_target(request: pytest.FixtureRequest) -> tuple[list[str], list[str]]:
    """CLI options (before '--', after '--') reaching server-everything over stdio or Streamable HTTP."""
    if request.param == "stdio":
        cmd = request.getfixturevalue("everything_stdio")
        return ["--stdio", *[f"--env={k}={v}" for k, v in (cmd.env or {}).items()]], ["--", cmd.command, *cmd.args]
    return ["--mcp", request.getfixturevalue("everything_http_url")], []


@pytest.mark.everything
async def test_successful_calls_against_server_everything_print_no_log_noise(
    everything_target: tuple[list[str], list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # asyncio's debug mode logs every slow step (a WARNING): without routing, those reach stderr.
    # (Its own process: the interpreter reads PYTHONASYNCIODEBUG and PYTHONWARNINGS at start-up.)
    monkeypatch.setenv("PYTHONASYNCIODEBUG", "1")
    monkeypatch.setenv("PYTHONWARNINGS", "always")
    monkeypatch.setenv("WORKBENCH_CONFIG_DIR", str(tmp_path))
    before, after = everything_target
    for argv in (["inspect"], ["call", "echo", "--args", '{"message": "hi"}']):  # a process each: asyncio's
        # debug mode makes them slow (~7 s), and a second tool call would take the same path again
        code, _, err = await workbench_process(argv[0], *before, *argv[1:], *after)
        assert code == 0, err
        assert err == "", err
    assert "asyncio" in (tmp_path / "logs" / "cli.log").read_text(encoding="utf-8")  # they went here
