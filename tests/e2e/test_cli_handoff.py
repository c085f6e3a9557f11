"""``workbench demo --scenario handoff --headless`` as a user runs it: a real process, real agents, JSON checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runner import run_workbench
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.handoff.recording import ChainReplay, load_jsonl

pytestmark = pytest.mark.asyncio


async def workbench(*argv: str, timeout: float = 90) -> tuple[int, str, str]:
    """Run ``workbench ARGV`` (in this process: tests/support/cli_runner.py); (exit code, stdout, stderr)."""
    return await run_workbench(*argv, timeout=timeout)


async def test_headless_json_prints_a_complete_nested_chain_ending_with_the_final_answer(tmp_path: Path) -> None:
    code, out, err = await workbench("demo", "--scenario", "handoff", "--headless", "--json")
    assert code == 0, err
    lines: list[dict[str, Any]] = [json.loads(line) for line in out.splitlines() if line.strip()]
    *events, final = lines
    assert final["type"] == "final"
    assert final["state"] == "completed"
    assert "Lisbon" in final["answer"] and final["data"]["errors"] == {}
    assert {e["type"] for e in events} == {"handoff"}
    assert {e["chain_id"] for e in events} == {final["chain_id"]}

    started: dict[str, int] = {}
    ends: dict[str, str] = {}
    order: list[tuple[str, str, str]] = []
    for index, event in enumerate(events):
        hop = event["handoff_id"]
        if hop not in started:
            started[hop] = index
            order.append((event["kind"], event["source"], event["target"]))
        if event["parent_id"] is not None:
            assert started.get(event["parent_id"], len(events)) < started[hop]
        if HopState(event["state"]).finished:
            assert hop not in ends
            ends[hop] = event["state"]
    assert set(ends) == set(started) and set(ends.values()) == {"done"}
    assert order == [
        (HopKind.QUESTION, USER, "orchestrator"),
        (HopKind.TOOL_CALL, "orchestrator", "demo-mcp"),
        (HopKind.TOOL_CALL, "orchestrator", "demo-mcp"),
        (HopKind.SAMPLING, "demo-mcp", "booking"),
        (HopKind.USER_INPUT, "booking", USER),
        (HopKind.AGENT_TOOL, "orchestrator", "mcp-proxy"),
        (HopKind.PROXY, "mcp-proxy", "demo-mcp"),
    ]
    root = events[0]
    assert root["parent_id"] is None and events[-1]["handoff_id"] == root["handoff_id"]

    saved = tmp_path / "chain.jsonl"
    saved.write_text(out, encoding="utf-8")
    recording = load_jsonl(saved)
    assert [e.to_dict() for e in ChainReplay(recording).all()] == events
    assert recording.final == final


async def test_headless_text_prints_the_chain_indented_and_the_answer() -> None:
    code, out, err = await workbench("demo", "--scenario", "handoff", "--headless")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("user → orchestrator")
    assert any(line.startswith("      booking → user") for line in lines)
    assert "Answer (completed):" in lines


@pytest.mark.parametrize("extra", [[], ["--headless"]])
async def test_an_unknown_scenario_is_a_clear_error_with_exit_code_2(extra: list[str]) -> None:
    code, out, err = await workbench("demo", "--scenario", "no-such-scenario", *extra)
    assert code == 2
    assert "no-such-scenario" in err and "handoff" in err
    assert out == ""
