"""Skills over MCP (SEP-2640), a stdio SDK server: listed unread, loaded only when verified, nothing more read."""

from __future__ import annotations

import sys

import anyio
import pytest

from tests.servers import script_path
from workbench.agents import (
    MCPAgent,
    RemoteError,
    SkillDigestMismatchError,
    SkillFileUnlistedError,
    SkillFrontmatterMismatchError,
    SkillSizeMismatchError,
    SkillVerificationError,
    UnsupportedCapabilityError,
)
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

pytestmark = pytest.mark.asyncio

SERVER = script_path("skills_server")


def reads(wire: WireRecorder) -> int:
    """How many ``resources/read`` requests the client sent."""
    records = wire.records()
    return sum(
        1
        for r in records
        if r.kind is WireKind.JSONRPC and r.direction is Direction.OUT and r.method == "resources/read"
    )


def skills_agent(tamper: str = "none") -> tuple[MCPAgent, WireRecorder]:
    wire = WireRecorder()
    return MCPAgent.stdio(sys.executable, [SERVER, "--tamper", tamper], wire=wire), wire


async def test_listing_skills_gives_their_entries_and_reads_no_skill_file() -> None:
    agent, wire = skills_agent()
    with anyio.fail_after(30):
        async with agent:
            skills = await agent.server_features.skills.list()
    assert {s.name: len(s.files or ()) for s in skills} == {"pdf-forms": 2, "release-notes": 1}
    notes = next(s for s in skills if s.name == "release-notes")
    assert notes.frontmatter["metadata"] == {"version": "1.2", "audience": "users"}
    assert reads(wire) == 0


async def test_a_verified_skill_loads_and_its_listed_reference_reads_checked() -> None:
    agent, wire = skills_agent()
    with anyio.fail_after(30):
        async with agent:
            skills = agent.server_features.skills
            loaded = await skills.load("pdf-forms")
            notes = await skills.load("skill://release-notes/SKILL.md")  # by URI; YAML date and nesting
            reference = await skills.read_file(loaded, "references/FIELDS.md")
            with pytest.raises(SkillFileUnlistedError):
                await skills.read_file(loaded, "references/SECRET.md")
    assert loaded.verified and "Read `references/FIELDS.md`" in loaded.body
    assert notes.body == "Group changes by kind.\n"
    assert reference == b"Fields: name, date, signature.\n"
    assert reads(wire) == 3  # two SKILL.md and the listed reference; the unlisted file was not asked for


async def test_a_skill_left_out_of_the_listing_loads_by_uri_through_skills_get() -> None:
    agent, wire = skills_agent()
    with anyio.fail_after(30):
        async with agent:
            skills = agent.server_features.skills
            assert "unlisted" not in {s.name for s in await skills.list()}
            loaded = await skills.load("skill://unlisted/SKILL.md")
            with pytest.raises(RemoteError) as unknown:
                await skills.get("skill://nowhere/SKILL.md")
    assert loaded.verified and loaded.body == "Found by URI.\n"
    assert unknown.value.details["remote_code"] == -32602  # the SEP's answer for a URI that is no skill
    assert reads(wire) == 1


@pytest.mark.parametrize(
    ("tamper", "error"),
    [
        ("digest", SkillDigestMismatchError),
        ("size", SkillSizeMismatchError),
        ("frontmatter", SkillFrontmatterMismatchError),
    ],
)
async def test_a_tampered_skill_md_is_refused_and_nothing_else_of_it_is_read(
    tamper: str, error: type[SkillVerificationError]
) -> None:
    agent, wire = skills_agent(tamper)
    with anyio.fail_after(30):
        async with agent:
            with pytest.raises(error) as caught:
                await agent.server_features.skills.load("pdf-forms")
    assert caught.value.code == f"skill-{tamper}-mismatch"
    assert reads(wire) == 1  # SKILL.md only


async def test_a_server_without_the_skills_extension_is_told_apart() -> None:
    async with MCPAgent.stdio(sys.executable, [script_path("no_result_type")]) as agent:
        with anyio.fail_after(30):
            assert not await agent.server_features.skills.available()
            with pytest.raises(UnsupportedCapabilityError):
                await agent.server_features.skills.list()
