"""``workbench send`` against a pydantic-ai agent served by fasta2a (zone-less timestamps), end to end."""

from __future__ import annotations

import pytest

from tests.support.a2a_agents import fasta2a_agent
from tests.support.cli_runner import json_lines, workbench

pytestmark = pytest.mark.asyncio


async def test_send_to_a_fasta2a_agent_prints_its_answer() -> None:
    async with fasta2a_agent() as url:
        code, out, err = await workbench("send", "--a2a", url, "hello")
        assert code == 0, err
        assert "echo: hello" in out
        code, out, err = await workbench("send", "--a2a", url, "--json", "hello")
    assert code == 0, err
    last = json_lines(out)[-1]
    assert last["kind"] == "completed" and last["result"]["state"] == "completed"
