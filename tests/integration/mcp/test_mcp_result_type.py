"""A 2026-07-28 result without ``resultType`` is a complete result (SEP-2322), in the library and the CLI."""

from __future__ import annotations

import json
import sys

import anyio
import pytest

from tests.servers import script_path
from tests.support.cli_runner import run_workbench
from workbench.core.protocols.mcp import MCPAgent

pytestmark = pytest.mark.asyncio

SERVER = [script_path("no_result_type")]


async def test_a_2026_server_whose_results_omit_result_type_lists_and_answers_tools() -> None:
    with anyio.fail_after(30):
        async with MCPAgent.stdio(sys.executable, SERVER) as agent:
            assert agent.capabilities.protocol_version == "2026-07-28"
            assert list(agent.tools) == ["echo"]
            result = await agent.call_tool("echo", {"text": "complete"})
    assert result.text == "complete" and not result.is_error


async def test_workbench_call_shows_a_result_without_result_type_as_the_tools_answer() -> None:
    args = json.dumps({"text": "complete"})
    code, out, err = await run_workbench(
        "call", "echo", "--args", args, "--json", "--stdio", "--", sys.executable, *SERVER, timeout=30
    )
    assert code == 0, err
    [completed] = [m for m in map(json.loads, out.splitlines()) if m.get("kind") == "completed"]
    assert completed["result"]["is_error"] is False
    assert [block["text"] for block in completed["result"]["tool_result"]["content"]] == ["complete"]
