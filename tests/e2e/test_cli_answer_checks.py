"""Answers the command line checks before it sends them, and the hints that say how to answer, against real peers.

server-everything's forms (``trigger-elicitation-request``: titled choices, an email field), its URL
elicitation and sampling; the demo travel agent's A2A form; the JS SDK's agents for the binding and
version hints (each hint is run as printed).
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.servers.a2a_js_agents import js_agent
from tests.support.cli_runner import wire_records, workbench
from tests.support.peers import peer_command, run_cli
from workbench.demo.a2a_agents import serve_agent, travel_app_factory

pytestmark = pytest.mark.asyncio
FORM_TOOL = "trigger-elicitation-request"


def _error(out: str) -> dict[str, Any]:
    """The error object ``--json`` printed last."""
    last: dict[str, Any] = json.loads(out.splitlines()[-1])
    return last


def _elicitation_replies(wire: Path) -> list[dict[str, Any]]:
    """What the workbench answered to the server's ``elicitation/create`` requests, from the wire log."""
    messages = [(r["direction"], json.loads(r["payload"])) for r in wire_records(wire) if r["kind"] == "jsonrpc"]
    asked = {m["id"] for d, m in messages if d == "in" and m.get("method") == "elicitation/create"}
    return [m["result"] for d, m in messages if d == "out" and m.get("id") in asked and "method" not in m]


@pytest.mark.everything
@pytest.mark.parametrize(
    ("answer", "field"),
    [
        ({"name": "Ada", "titledSingleSelectEnum": "Superman"}, "titledSingleSelectEnum"),  # a label, not the value
        ({"name": "Ada", "titledMultipleSelectEnum": ["Tuna"]}, "titledMultipleSelectEnum/0"),
        ({"name": "Ada", "emial": "ada@example.org"}, "emial"),  # a field the form does not have
        ({"name": "Ada", "email": "not an address"}, "email"),  # the field's format
    ],
)
async def test_a_form_answer_that_does_not_fit_server_everythings_form_is_not_accepted(
    everything_http_url: str, tmp_path: Path, answer: dict[str, Any], field: str
) -> None:
    wire = tmp_path / "wire.jsonl"
    code, out, _ = await workbench(
        "call", "--mcp", everything_http_url, FORM_TOOL, "--answer", json.dumps(answer), "--json", "--wire", str(wire)
    )  # fmt: skip
    assert code == 2, out
    error = _error(out)["error"]
    assert error["code"] == "config"
    [problem] = error["details"]["problems"]
    assert problem.startswith(f"{field}: "), error
    assert [reply["action"] for reply in _elicitation_replies(wire)] == ["cancel"]  # never "accept"


@pytest.mark.everything
async def test_a_choice_refused_names_the_values_that_fit_with_their_labels(everything_http_url: str) -> None:
    answer = {"name": "Ada", "titledSingleSelectEnum": "Superman"}
    code, out, _ = await workbench(
        "call", "--mcp", everything_http_url, FORM_TOOL, "--answer", json.dumps(answer), "--json"
    )
    assert code == 2, out
    [problem] = _error(out)["error"]["details"]["problems"]
    assert all(value in problem for value in ("hero-1", "hero-2", "hero-3", "Superman", "Green Lantern"))
    answer["titledSingleSelectEnum"] = "hero-1"  # the value the problem named
    code, out, err = await workbench("call", "--mcp", everything_http_url, FORM_TOOL, "--answer", json.dumps(answer))
    assert code == 0, err
    assert '"titledSingleSelectEnum": "hero-1"' in out


@pytest.mark.everything
async def test_a_url_elicitation_left_unanswered_shows_its_url_and_the_answer_that_accepts_it(
    everything_http_url: str,
) -> None:
    args = json.dumps({"url": "https://example.org/verify", "message": "verify it"})
    code, _, err = await workbench("call", "--mcp", everything_http_url, "trigger-url-elicitation", "--args", args)
    assert code == 0, err
    assert "https://example.org/verify" in err
    assert "--answer accept" in err and "JSON" not in err  # a URL is not answered with a form
    code, out, err = await workbench(
        "call", "--mcp", everything_http_url, "trigger-url-elicitation", "--args", args, "--answer", "accept"
    )
    assert code == 0, err
    assert '"action": "accept"' in out


@pytest.mark.everything
async def test_a_sampling_request_left_unanswered_says_how_to_answer_it(everything_http_url: str) -> None:
    args = json.dumps({"prompt": "hi"})
    code, _, err = await workbench("call", "--mcp", everything_http_url, "trigger-sampling-request", "--args", args)
    assert code == 1
    assert "--answer TEXT" in err
    code, out, err = await workbench(
        "call", "--mcp", everything_http_url, "trigger-sampling-request", "--args", args, "--answer", "a reply"
    )
    assert code == 0, err
    assert "a reply" in out


async def test_an_a2a_answer_that_does_not_fit_the_agents_form_is_not_sent(tmp_path: Path) -> None:
    wire = tmp_path / "wire.jsonl"
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url:
        code, out, err = await workbench(
            "send", "--a2a", url, "Plan a trip to Lisbon", "--answer", '{"travellers": 50}', "--wire", str(wire)
        )
        assert code == 2, err
        sends = [r for r in wire_records(wire) if r["kind"] == "http-request" and r["method"] == "POST"]
        assert len(sends) == 1  # the first message only: the answer that does not fit stayed here
        # the task waits; the printed command continues it with an answer that fits
        line = next(line for line in err.splitlines() if line.strip().startswith("workbench send "))
        command = shlex.split(line)[1:]
        command[-1] = json.dumps(
            {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
        )
        code, out, err = await workbench(*command)
    assert code == 0, err
    assert "planned" in out


def _hint_options(err: str) -> list[list[str]]:
    """Each ``--option value`` the ``hint:`` line offers, as argv."""
    [hint] = [line for line in err.splitlines() if line.startswith("hint: ")]
    return [shlex.split(part)[:2] for part in hint.split(": ", 2)[-1].split(" or ")]


async def test_the_binding_hint_names_options_that_work_as_printed() -> None:
    async with js_agent("1.0") as url:
        code, _, err = await workbench("send", "--a2a", url, "hi", "--binding", "grpc")
        assert code == 1
        options = _hint_options(err)
        assert sorted(options) == [["--binding", "http-json"], ["--binding", "jsonrpc"]]
        for option in options:
            code, out, err = await workbench("send", "--a2a", url, "hi", *option, "--answer", "Ada")
            assert code == 0, err
            assert "Nice to meet you, Ada." in out


async def test_the_version_hint_names_an_option_that_works_as_printed() -> None:
    async with js_agent("0.3") as url:
        code, _, err = await workbench("send", "--a2a", url, "hi", "--a2a-version", "1.0")
        assert code == 1
        [option] = _hint_options(err)
        assert option == ["--a2a-version", "0.3"]
        code, out, err = await workbench("send", "--a2a", url, "hi", *option, "--answer", "Ada")
    assert code == 0, err
    assert "Nice to meet you, Ada." in out


@pytest.mark.everything
async def test_a_missing_agent_card_is_not_answered_with_an_option_that_does_not_exist(
    everything_http_url: str,
) -> None:
    code, _, err = await workbench("inspect", "--a2a", everything_http_url)  # an MCP server: no card
    assert code == 1
    assert "hint: " in err
    assert "--card-url" not in err


async def test_a_question_left_unanswered_adds_no_blank_line_to_the_piped_reply() -> None:
    async with js_agent("1.0") as url:
        code, out, err = await workbench("send", "--a2a", url, "hi")
    assert code == 0, err
    assert out == "thinking…\nstep 1\nstep 2\nstep 3\n"  # the question ended the line once, the result not again


@pytest.mark.everything
async def test_send_to_a_server_without_an_agent_tool_hints_with_options_that_work(everything_http_url: str) -> None:
    code, _, err = await workbench("send", "--mcp", everything_http_url, "hello")
    assert code == 1
    [hint] = [line for line in err.splitlines() if line.startswith("hint: ")]
    assert "agent.tools" not in hint and "MCPAgent" not in hint  # library code is not a command line
    assert "--agent-tool TOOL" in hint and "call" in hint
    code, out, err = await workbench("send", "--mcp", everything_http_url, "hello", "--agent-tool", "echo")
    assert code == 0, err
    assert out == "Echo: hello\n"


@pytest.mark.everything
async def test_args_outside_a_tools_choices_name_the_choices_that_fit(everything_http_url: str) -> None:
    call = ("call", "--mcp", everything_http_url, "get-annotated-message", "--args")
    code, out, _ = await workbench(*call, '{"messageType": "warn"}', "--json")
    assert code == 2, out
    error = _error(out)["error"]
    assert error["code"] == "config"
    [problem] = error["details"]["problems"]
    assert all(choice in problem for choice in ('"warn"', "error", "success", "debug")), problem
    code, _, err = await workbench(*call, '{"messageType": "debug"}')
    assert code == 0, err


@pytest.fixture
def empty_repo(tmp_path: Path) -> Path:
    """An empty git repository for mcp-server-git."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, capture_output=True, timeout=30)
    return tmp_path


async def test_a_tools_optional_parameters_are_listed_with_the_types_they_take(empty_repo: Path) -> None:
    run = await run_cli("git", "call", "git_log", "--args", "{}", server=[*peer_command("git"), "-r", str(empty_repo)])
    assert run.code == 2, run.err
    [hint] = [line for line in run.err.splitlines() if line.startswith("hint: ")]
    assert "start_timestamp (string|null)" in hint  # an anyOf of string and null, not "any"


async def test_the_command_that_continues_a_task_repeats_the_headers_but_never_their_values() -> None:
    async with js_agent("1.0") as url:
        headers = ("--header", "X-Trace=run-1", "--header", "Authorization=Bearer s3cret")
        code, _, err = await workbench("send", "--a2a", url, "hi", *headers)
        assert code == 0, err
        assert "s3cret" not in err and "run-1" not in err  # every --header value may be a credential
        line = next(line for line in err.splitlines() if line.strip().startswith("workbench send "))
        command = shlex.split(line)[1:]
        assert "X-Trace=…" in command and "Authorization=…" in command
        values = {"X-Trace=…": "X-Trace=run-1", "Authorization=…": "Authorization=Bearer s3cret"}
        command = [values.get(part, part) for part in command]
        command[-1] = "Ada"
        code, out, err = await workbench(*command)
    assert code == 0, err
    assert "Nice to meet you, Ada." in out


@pytest.mark.everything
async def test_a_form_left_unanswered_names_its_fields_and_an_answer_built_from_them_is_accepted(
    everything_http_url: str,
) -> None:
    call = ("call", "--mcp", everything_http_url, "simulate-research-query", "--args")
    args = json.dumps({"topic": "cats", "ambiguous": True})  # server-everything's task asks to clarify
    code, out, err = await workbench(*call, args)
    assert code == 0, err
    [fields] = [line for line in err.splitlines() if line.startswith("  its fields")]
    assert "interpretation*" in fields and all(v in fields for v in ("technical", "historical", "current"))
    code, out, err = await workbench(*call, args, "--answer", '{"interpretation": "historical"}')
    assert code == 0, err
    assert "historical" in out.lower() and "declined" not in out and "cancelled" not in out
