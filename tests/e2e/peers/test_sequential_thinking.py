"""``workbench call`` against server-sequential-thinking: one thought, and arguments of the wrong type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio
THOUGHT = {"thought": "Split the problem in two", "thoughtNumber": 1, "totalThoughts": 2, "nextThoughtNeeded": True}


async def test_inspect_shows_the_one_tool() -> None:
    run = await run_cli("sequential-thinking", "inspect", server=peer_command("sequential-thinking"))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "tools (1)\n  sequentialthinking  " in run.out


async def test_one_thought_is_counted_and_its_box_stays_on_the_servers_stderr() -> None:
    args = json.dumps(THOUGHT)
    run = await run_cli(
        "sequential-thinking", "call", "sequentialthinking", "--args", args, server=peer_command("sequential-thinking")
    )
    assert run.code == 0, run.err
    assert run.err == ""  # the server draws each thought on its stderr: shown only with --stderr
    assert '"thoughtHistoryLength": 1' in run.out and '"nextThoughtNeeded": true' in run.out

    run = await run_cli(
        "sequential-thinking",
        "call",
        "--stderr",
        "sequentialthinking",
        "--args",
        args,
        server=peer_command("sequential-thinking"),
    )
    assert run.code == 0, run.err
    assert "[server stderr] │ Split the problem in two" in run.err


async def test_a_thought_number_in_words_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    wire = tmp_path / "session.jsonl"
    args = json.dumps({**THOUGHT, "thoughtNumber": "one"})
    run = await run_cli(
        "sequential-thinking",
        "call",
        "--wire",
        str(wire),
        "sequentialthinking",
        "--args",
        args,
        server=peer_command("sequential-thinking"),
    )
    assert run.code == 2, (run.out, run.err)
    assert run.out == ""
    # the server would have said "expected number, received NaN"; the CLI names the field and the type
    assert run.err.startswith("error: --args do not fit sequentialthinking's input schema: thoughtNumber: 'one'")
    assert "hint: sequentialthinking takes: thought* (string)" in run.err
    methods = [json.loads(line)["method"] for line in wire.read_text(encoding="utf-8").splitlines()]
    assert "tools/list" in methods and "tools/call" not in methods
