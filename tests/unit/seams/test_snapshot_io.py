"""A session's snapshot saved as JSON and reopened with no agent behind it, from real (in-process) agents."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from workbench.core.errors import ConfigError
from workbench.core.protocols.a2a.agent import A2AAgent
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.protocols.snapshot import AgentSnapshot
from workbench.core.protocols.snapshot_io import (
    read_snapshot,
    save_snapshot,
    snapshot_from_json,
    snapshot_to_json,
)
from workbench.demo.a2a_agents.travel import build_travel_app
from workbench.demo.mcp_server.app import build_server


async def _mcp_snapshot() -> AgentSnapshot:
    async with MCPAgent.in_process(build_server()) as agent:
        return agent.describe()


async def _a2a_snapshot() -> AgentSnapshot:
    app = build_travel_app("http://travel.test", chunk_delay=0)
    async with A2AAgent("http://travel.test", http_transport=httpx.ASGITransport(app)) as agent:
        async for _ in agent.stream_async("Plan a trip to Oslo"):
            pass  # a task, so the snapshot has one
        return agent.describe()


@pytest.mark.asyncio
@pytest.mark.parametrize("take", [_mcp_snapshot, _a2a_snapshot], ids=["mcp", "a2a"])
async def test_a_snapshot_survives_a_trip_through_a_json_file(take, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    snapshot = await take()
    assert snapshot.tools  # something worth saving was discovered
    assert snapshot.resources if snapshot.protocol == "mcp" else (snapshot.tasks and snapshot.card)
    path = tmp_path / "session.json"
    save_snapshot(path, snapshot)
    reopened = read_snapshot(path)
    assert reopened == snapshot
    assert reopened.to_dict() == snapshot.to_dict()  # what `inspect --json` printed, unchanged
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "agent-workbench/snapshot"


@pytest.mark.asyncio
async def test_a_document_of_the_wrong_shape_names_the_field_and_builds_nothing() -> None:
    document = snapshot_to_json(await _mcp_snapshot())
    document["snapshot"]["tools"][0]["input_schema"] = "not an object"
    with pytest.raises(ConfigError) as refused:
        snapshot_from_json(document)
    assert "snapshot.tools[0].input_schema" in refused.value.message


@pytest.mark.parametrize(
    "document",
    [[], {"format": "something-else"}, {"format": "agent-workbench/snapshot", "version": 99, "snapshot": {}}],
)
def test_other_documents_and_versions_are_refused(document: object) -> None:
    with pytest.raises(ConfigError):
        snapshot_from_json(document)


def test_a_file_over_the_limit_or_not_json_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 1000 + "1]", encoding="utf-8")
    with pytest.raises(ConfigError):
        read_snapshot(big, max_bytes=100)
    broken = tmp_path / "broken.json"
    broken.write_bytes(b"\xff\xfe{")
    with pytest.raises(ConfigError):
        read_snapshot(broken)
