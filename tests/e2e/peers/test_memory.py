"""``workbench call`` against server-memory: the knowledge graph persists across CLI runs in MEMORY_FILE_PATH."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio
ADA = {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}


async def test_inspect_shows_the_graph_tools_and_the_graph_resource(tmp_path: Path) -> None:
    memory = ["--env", f"MEMORY_FILE_PATH={tmp_path / 'memory.jsonl'}"]
    run = await run_cli("memory", "inspect", *memory, server=peer_command("memory"))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "tools (9)" in run.out and "  read_graph  Read the entire knowledge graph" in run.out
    # a resource line has its title and description, not only its URI
    assert "  memory://knowledge-graph  (application/json)  Knowledge Graph: The full knowledge graph" in run.out


async def test_entities_created_in_one_call_are_read_back_by_the_next(tmp_path: Path) -> None:
    store = tmp_path / "memory.jsonl"
    memory = ["--env", f"MEMORY_FILE_PATH={store}"]
    created = json.dumps({"entities": [ADA]})
    run = await run_cli("memory", "call", *memory, "create_entities", "--args", created, server=peer_command("memory"))
    assert run.code == 0, run.err
    assert run.err == ""
    assert json.loads(store.read_text(encoding="utf-8").splitlines()[0])["name"] == "Ada"  # the server wrote it

    run = await run_cli("memory", "call", *memory, "--json", "read_graph", server=peer_command("memory"))
    assert run.code == 0, run.err
    completed = run.json_lines()[-1]
    assert completed["kind"] == "completed"
    result = completed["result"]["tool_result"]
    assert result["structured_content"] == {"entities": [ADA], "relations": []}
    assert result["is_error"] is False
