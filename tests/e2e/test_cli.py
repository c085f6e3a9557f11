"""The ``workbench`` command line as a user runs it: real processes, real MCP and A2A agents, JSON checked."""

from __future__ import annotations

import json
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.cli_runner import json_lines, workbench
from tests.support.demo_mcp import demo_stdio_command
from tests.support.everything import StdioCommand

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def demo() -> Iterator[dict[str, dict[str, str]]]:
    """``workbench demo --headless --json`` running (one per module: its agents keep no state a test
    depends on, every test starts its own session or task); yields its agents by name."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "demo", "--headless", "--json", "--base-port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    agents: dict[str, dict[str, str]] = {}
    try:
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()], daemon=True).start()
        deadline = time.monotonic() + 30
        while len(agents) < 5:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))  # queue.Empty: listed none in 30 s
            entry = json.loads(line)
            agents[entry["name"]] = entry
        yield agents
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(15)
        proc.stdout.close()
        assert code == 0, "workbench demo must stop cleanly on SIGTERM"


def target_args(agents: dict[str, dict[str, str]], transport: str) -> tuple[list[str], list[str]]:
    """(options before '--', command after '--') for the demo MCP server on ``transport``."""
    if transport == "stdio":
        return ["--stdio"], ["--", *demo_stdio_command()]
    if transport == "sse":
        return ["--mcp-sse", agents["demo-mcp-sse"]["target"]], []
    return ["--mcp", agents["demo-mcp"]["target"]], []


async def test_demo_headless_lists_every_agent_on_loopback(demo: dict[str, dict[str, str]]) -> None:
    assert {a["protocol"] for a in demo.values()} == {"mcp-http", "mcp-sse", "mcp-stdio", "a2a"}
    for agent in demo.values():
        if agent["protocol"] != "mcp-stdio":
            assert agent["target"].startswith("http://127.0.0.1:")


@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28", "auto"])
async def test_inspect_json_prints_one_object_describing_the_server(
    demo: dict[str, dict[str, str]], transport: str, mode: str
) -> None:
    before, after = target_args(demo, transport)
    code, out, err = await workbench("inspect", *before, "--json", "--mode", mode, *after)
    assert code == 0, err
    [info] = json_lines(out)
    assert info["protocol"] == "mcp"
    assert info["protocol_version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    for key in ("capabilities", "tools", "resources", "resource_templates", "prompts"):
        assert key in info
    assert "plan_trip" in [t["name"] for t in info["tools"]]


@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
async def test_call_json_prints_events_then_the_result(demo: dict[str, dict[str, str]], transport: str) -> None:
    before, after = target_args(demo, transport)
    code, out, err = await workbench(
        "call", *before, "slow_count", "--args", '{"n": 3, "delay": 0.01}', "--json", *after
    )
    assert code == 0, err
    events = json_lines(out)
    assert [e["kind"] for e in events].count("progress") == 3
    assert events[-1]["kind"] == "completed"
    assert events[-1]["result"]["tool_result"]["is_error"] is False


async def test_call_answers_a_form_elicitation_from_answer(demo: dict[str, dict[str, str]]) -> None:
    before, after = target_args(demo, "http")
    answer = {"name": "Ada", "email": "ada@example.org", "party_size": 2, "outdoor": False, "time": "21:00"}
    code, out, _ = await workbench("call", *before, "book_table", "--answer", json.dumps(answer), "--json", *after)
    assert code == 0
    events = json_lines(out)
    assert "elicitation_requested" in [e["kind"] for e in events]
    assert "Ada" in events[-1]["result"]["text"]


@pytest.mark.parametrize(
    "answer",
    [
        '{"email": "ada@example.org", "party_size": 2}',  # the required name is missing
        '{"name": "Ada", "email": "ada@example.org", "party_size": 40}',  # above the maximum of 12
        '{"name": "Ada", "email": "ada@example.org", "party_size": "two"}',  # not an integer
        '{"name": "Ada", "email": "ada@example.org", "party_size": 2, "time": "03:00"}',  # not a choice
        "not json at all",
    ],
)
async def test_a_form_answer_the_schema_refuses_is_never_sent_as_accept(
    demo: dict[str, dict[str, str]], answer: str
) -> None:
    before, after = target_args(demo, "http")
    code, out, _ = await workbench("call", *before, "book_table", "--answer", answer, "--json", *after)
    assert code == 2
    events = json_lines(out)
    assert events[-1]["kind"] == "failed"
    assert events[-1]["error"]["code"] == "config"
    assert not any("Ada" in json.dumps(e.get("result", {})) for e in events)  # nothing was booked


async def test_call_without_answers_declines_with_a_clear_note(demo: dict[str, dict[str, str]]) -> None:
    before, after = target_args(demo, "http")
    code, out, err = await workbench("call", *before, "book_table", *after)
    assert code == 0
    assert "declined" in out
    assert "--answer" in err


async def test_send_streams_from_the_agent_entry_point_and_writes_the_wire_log(
    demo: dict[str, dict[str, str]], tmp_path: Any
) -> None:
    wire = tmp_path / "wire.jsonl"
    before, after = target_args(demo, "stdio")
    code, out, err = await workbench("send", *before, "weather in Paris", "--json", "--wire", str(wire), *after)
    assert code == 0, err
    events = json_lines(out)
    assert events[-1]["kind"] == "completed"
    assert "Paris" in events[-1]["result"]["text"]
    records = json_lines(wire.read_text())
    assert {"out", "in"} <= {r["direction"] for r in records}
    assert any(r["method"] == "tools/call" for r in records)


async def test_call_reports_a_schema_mismatch_and_tool_errors_with_exit_codes(demo: dict[str, dict[str, str]]) -> None:
    before, after = target_args(demo, "http")
    code, out, _ = await workbench("call", *before, "broken_output", *after)
    assert code == 0
    assert "outputSchema mismatch" in out
    code, out, _ = await workbench("call", *before, "fail", "--args", '{"message": "nope"}', *after)
    assert code == 1
    assert "nope" in out


async def test_send_naming_an_agent_tool_the_server_lacks_is_bad_usage_with_the_unsupported_code() -> None:
    # like `call missing`: the command named a tool that is not there (exit 2), the server did not fail
    code, out, _ = await workbench(
        "send", "--stdio", "hello", "--json", "--agent-tool", "missing", "--", *demo_stdio_command()
    )
    assert code == 2
    assert json_lines(out)[-1]["error"]["code"] == "unsupported"


async def test_unreachable_target_and_bad_arguments_are_clear_errors() -> None:
    code, out, _ = await workbench("inspect", "--mcp", "http://127.0.0.1:9/mcp", "--json")
    assert code == 1
    assert json_lines(out)[-1]["error"]["code"] == "unreachable"
    code, _, err = await workbench("inspect", "--stdio")
    assert code == 2
    assert "--" in err


@pytest.fixture(params=["stdio", "http", "sse"])
def everything_cli_target(request: Any) -> tuple[list[str], list[str]]:
    """CLI options (before '--', after '--') reaching server-everything on one transport."""
    if request.param == "stdio":
        cmd: StdioCommand = request.getfixturevalue("everything_stdio")
        env = [f"--env={k}={v}" for k, v in (cmd.env or {}).items()]
        return ["--stdio", *env], ["--", cmd.command, *cmd.args]
    if request.param == "http":
        return ["--mcp", request.getfixturevalue("everything_http_url")], []
    return ["--mcp-sse", request.getfixturevalue("everything_sse_url")], []


@pytest.mark.everything
async def test_cli_against_server_everything(everything_cli_target: tuple[list[str], list[str]]) -> None:
    before, after = everything_cli_target
    code, out, err = await workbench("inspect", *before, "--json", *after)
    assert code == 0, err
    [info] = json_lines(out)
    assert info["protocol_version"] == "2025-11-25"
    code, out, err = await workbench(
        "call", *before, "trigger-long-running-operation", "--args", '{"duration": 0.2, "steps": 2}', "--json", *after
    )
    assert code == 0, err
    kinds = [e["kind"] for e in json_lines(out)]
    assert kinds.count("progress") == 2
    code, out, err = await workbench(
        "call", *before, "trigger-sampling-request", "--args", '{"prompt": "hi"}', "--answer", "a reply", *after
    )
    assert code == 0, err
    assert "a reply" in out


async def test_a2a_inspect_json_prints_the_card(demo: dict[str, dict[str, str]]) -> None:
    code, out, err = await workbench("inspect", "--a2a", demo["travel"]["target"], "--json")
    assert code == 0, err
    [card] = json_lines(out)
    assert card["protocol"] == "a2a"
    assert card["skills"][0]["id"] == "plan-trip"
    for key in ("capabilities", "interfaces", "security_schemes", "protocol_version", "raw_card"):
        assert key in card


async def test_a2a_send_completes_a_multi_turn_task_with_input_required(demo: dict[str, dict[str, str]]) -> None:
    trip = {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
    code, out, err = await workbench(
        "send", "--a2a", demo["travel"]["target"], "Plan a trip to Lisbon", "--answer", json.dumps(trip), "--json"
    )
    assert code == 0, err
    events = json_lines(out)
    kinds = [e["kind"] for e in events]
    asked = events[kinds.index("input_required")]["request"]
    assert asked["schema"]["type"] == "object"
    assert kinds.count("artifact") >= 4
    final = events[-1]
    assert final["kind"] == "completed"
    assert final["result"]["state"] == "completed"
    assert final["task_id"] == asked["task_id"]


async def test_a2a_send_without_answer_leaves_the_task_waiting_and_it_can_be_continued(
    demo: dict[str, dict[str, str]],
) -> None:
    url = demo["travel"]["target"]
    code, out, err = await workbench("send", "--a2a", url, "Plan a trip to Rome", "--json")
    assert code == 0, err
    final = json_lines(out)[-1]
    assert final["result"]["state"] == "input_required"
    assert "--answer" in err
    trip = {"departure_date": "2026-05-01", "return_date": "2026-05-04", "travellers": 1, "cabin_class": "economy"}
    code, out, err = await workbench(
        "send", "--a2a", url, "here you go", "--task-id", final["result"]["task_id"],
        "--context-id", final["result"]["context_id"], "--data", json.dumps(trip), "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json_lines(out)[-1]["result"]["state"] == "completed"


async def test_the_printed_continuation_command_works_as_written(demo: dict[str, dict[str, str]]) -> None:
    url = demo["travel"]["target"]
    code, _, err = await workbench("send", "--a2a", url, "Plan a trip to Rome")
    assert code == 0, err
    [hint] = [line.strip() for line in err.splitlines() if line.strip().startswith("workbench send ")]
    argv = shlex.split(hint)[1:]
    assert argv[-1] == "YOUR ANSWER"
    trip = {"departure_date": "2026-05-01", "return_date": "2026-05-04", "travellers": 1, "cabin_class": "economy"}
    code, out, err = await workbench(*argv[:-1], json.dumps(trip), "--json")
    assert code == 0, err
    assert json_lines(out)[-1]["result"]["state"] == "completed"


async def test_a_401_names_the_options_that_pass_a_credential_and_they_work_as_written() -> None:
    from tests.support.a2a_agents import BEARER, bearer_app
    from workbench.demo.a2a_agents import serve_agent

    async with serve_agent(bearer_app) as url:
        code, _, err = await workbench("send", "--a2a", url, "hello")
        assert code == 1
        assert "stays waiting" not in err  # a 401 is not a waiting task
        [hint] = [line.strip() for line in err.splitlines() if "workbench send " in line]
        argv = shlex.split(hint.split(": ", 1)[1].split(" …")[0])[1:]
        assert argv[-1] == "Authorization=Bearer TOKEN"
        code, out, err = await workbench(*argv[:-1], f"Authorization=Bearer {BEARER}", "hello", "--json")
        assert code == 0, err
        assert json_lines(out)[-1]["result"]["state"] == "completed"
        code, out, err = await workbench("send", "--a2a", url, "hello", "--answer", BEARER, "--json")
        assert code == 0, err


async def test_a_header_credential_does_not_follow_a_card_to_another_origin_unless_allowed() -> None:
    from tests.support.a2a_agents import BEARER, bearer_app
    from workbench.demo.a2a_agents import serve_agent

    async with serve_agent(bearer_app) as url:  # its card names 127.0.0.1; we call it localhost
        local = url.replace("127.0.0.1", "localhost")
        header = f"Authorization=Bearer {BEARER}"
        code, _, err = await workbench("send", "--a2a", local, "--header", header, "hello")
        assert code == 1
        assert BEARER not in err
        [hint] = [line.strip() for line in err.splitlines() if "--allow-origin" in line]
        origin = hint.rsplit(" ", 1)[1]
        assert origin == url.rstrip("/")  # the card's origin, as an --allow-origin value
        code, out, err = await workbench(
            "send", "--a2a", local, "--header", header, "--allow-origin", origin, "hello", "--json"
        )
        assert code == 0, err
        assert json_lines(out)[-1]["result"]["state"] == "completed"


async def test_a2a_proxy_agent_returns_a_real_mcp_tool_result(demo: dict[str, dict[str, str]]) -> None:
    request = {"target_mcp_server_id": "demo", "tool_name": "add", "arguments": {"a": 2, "b": 3}}
    code, out, err = await workbench(
        "call", "--a2a", demo["mcp-proxy"]["target"], "call-mcp-tool", "--args", json.dumps(request), "--json"
    )
    assert code == 0, err
    final = json_lines(out)[-1]
    data = [p["data"] for p in final["result"]["parts"] if p["type"] == "data"]
    assert data[0]["result"]["structuredContent"] == {"result": 5}
    assert data[0]["is_error"] is False


async def test_timeout_option_bounds_a_request_and_reports_the_timeout_code() -> None:
    from tests.servers import script_path

    code, out, _ = await workbench(
        "call",
        "--stdio",
        "--timeout",
        "1",
        "--json",
        "wait_forever",
        "--",
        sys.executable,
        script_path("never_answers"),
    )
    assert code == 1
    assert json_lines(out)[-1]["error"]["code"] == "timeout"


async def test_wire_option_writes_har_for_http_exchanges(demo: dict[str, dict[str, str]], tmp_path: Any) -> None:
    har_path = tmp_path / "session.har"
    before, after = target_args(demo, "http")
    code, _, err = await workbench("call", *before, "echo", "--args", '{"text": "hi"}', "--wire", str(har_path), *after)
    assert code == 0, err
    har = json.loads(har_path.read_text())
    assert har["log"]["version"] == "1.2"
    methods = {e["request"]["method"] for e in har["log"]["entries"]}
    assert "POST" in methods
    assert all(e["response"]["status"] for e in har["log"]["entries"] if e["request"]["method"] == "POST")
