"""``agent.server_features.skills``: the skills extension (SEP-2640, ``io.modelcontextprotocol/skills``) on MCP.

A server that declares the extension in its capabilities answers ``skills/list`` with the entries of
its skills and ``skills/get`` with the entry of one, listed or not. Listing reads no skill file.
``load`` reads one ``SKILL.md`` with ``resources/read`` and returns it only once it matches its entry
(``skills.verify_skill_md``); ``read_file`` reads a file of a skill only when the entry lists it, and
checks it the same way. Responses are bounded as every response of the connection is (its message
size limit), a listing by ``discovery.all_pages``'s guard, a skill by the SEP's limits
(``MAX_SKILL_FILES``, ``MAX_SKILL_BYTES``) checked from its entry before anything is read::

    skills = agent.server_features.skills
    entries = await skills.list()                 # no skill file read
    loaded = await skills.load("pdf-processing")  # a SkillVerificationError otherwise; nothing more read
    forms = await skills.read_file(loaded, "references/FORMS.md")  # only a file its entry lists, checked
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Literal

import mcp.types as types
from mcp import Client
from pydantic import Field

from workbench.core.errors import (
    NotFoundError,
    ProtocolError,
    SkillEntryError,
    SkillFileUnlistedError,
    UnsupportedCapabilityError,
)
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp.discovery import all_pages
from workbench.core.protocols.skills import (
    LoadedSkill,
    SkillSpec,
    check_loadable,
    skill_spec,
    verify_file,
    verify_skill_md,
)

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
"""The extension's identifier in ``capabilities.extensions``."""


class _ListSkillsRequest(types.PaginatedRequest[Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"


class _ListSkillsResult(types.PaginatedResult):
    skills: list[Any] = Field(default_factory=list)


class _GetSkillParams(types.RequestParams):
    uri: str


class _GetSkillRequest(types.Request[_GetSkillParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: _GetSkillParams


class _GetSkillResult(types.Result):
    skill: Any = None


def declares_skills(client: Client) -> bool:
    """Whether the server declared the skills extension in its capabilities."""
    return SKILLS_EXTENSION in (client.server_capabilities.extensions or {})


class MCPSkills:
    """The skills a server serves (``agent.server_features.skills``).

    Args:
        funnel: The connection's request funnel.
    """

    def __init__(self, funnel: RequestFunnel) -> None:
        self._funnel = funnel

    async def available(self) -> bool:
        """Whether the server declared the skills extension (connects first if needed)."""
        return declares_skills(await self._funnel.client())

    async def _require(self) -> None:
        """Refuse when the server did not declare the extension (connects first if needed)."""
        if not declares_skills(await self._funnel.client()):
            raise UnsupportedCapabilityError(
                f"{self._funnel.agent_name!r} does not serve skills (no {SKILLS_EXTENSION} in its capabilities).",
                details={"extension": SKILLS_EXTENSION},
            )

    async def list(self) -> list[SkillSpec]:
        """The entries of the skills the server lists (every page); no skill file is read.

        Raises:
            UnsupportedCapabilityError: The server did not declare the skills extension.
            ProtocolError: The listing does not end or is too large.
        """
        await self._require()

        async def fetch(cursor: str | None) -> _ListSkillsResult:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            request = _ListSkillsRequest(params=params)
            return await self._funnel.request(
                "listing skills", lambda c: c.session.send_request(request, _ListSkillsResult)
            )

        entries: list[Any] = await all_pages(fetch, "skills")
        return [skill_spec(entry) for entry in entries]

    async def get(self, uri: str) -> SkillSpec:
        """The entry of the skill whose ``SKILL.md`` is at ``uri`` (``skills/get``), listed or not.

        Raises:
            UnsupportedCapabilityError: The server did not declare the skills extension.
            RemoteError: The server serves no skill there (it answers -32602).
            ProtocolError: It answered without an entry.
        """
        await self._require()
        request = _GetSkillRequest(params=_GetSkillParams(uri=uri))
        result: _GetSkillResult = await self._funnel.request(
            f"getting skill {uri!r}", lambda c: c.session.send_request(request, _GetSkillResult)
        )
        if not isinstance(result.skill, dict):
            raise ProtocolError(
                f"The server answered skills/get for {uri} without a skill entry.", details={"uri": uri}
            )
        return skill_spec(result.skill)

    async def find(self, skill: str) -> SkillSpec:
        """The skill whose ``SKILL.md`` URI or name is ``skill``: a listed one, or by URI ``skills/get``.

        A listing may be partial, so a URI it lacks is asked for with ``get``.

        Raises:
            NotFoundError: No listed skill has that name, or several have it (the details list
                their URIs: give one of them).
        """
        skills = await self.list()
        by_uri = [s for s in skills if s.uri == skill]
        if not by_uri and "://" in skill:
            return await self.get(skill)
        matches = by_uri or [s for s in skills if s.name == skill]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NotFoundError(
                f"{len(matches)} skills of {self._funnel.agent_name!r} are named {skill!r}.",
                hint="name the one you mean by its URI: " + ", ".join(s.uri for s in matches),
                details={"skill": skill, "uris": [s.uri for s in matches]},
            )
        raise NotFoundError(
            f"{self._funnel.agent_name!r} lists no skill {skill!r}.",
            hint="list them with: workbench skills list",
            details={"skill": skill, "listed": [s.name for s in skills][:50]},
        )

    async def load(self, skill: SkillSpec | str, *, allow_dynamic: bool = False) -> LoadedSkill:
        """Read a skill's ``SKILL.md`` and return it once it matches the entry; nothing else is read.

        Args:
            skill: The entry (from ``list`` or ``get``), a listed skill's name, or a ``SKILL.md`` URI
                (listed or not).
            allow_dynamic: Load a skill whose content is generated (no digests to check, only the
                frontmatter); refused by default.

        Raises:
            NotFoundError: No such skill (``find``).
            SkillEntryError: The entry cannot be loaded (invalid, past the limits, or dynamic
                without ``allow_dynamic``).
            SkillSizeMismatchError: ``SKILL.md``'s length differs from its entry's size.
            SkillDigestMismatchError: Its SHA-256 differs from its entry's digest.
            SkillFrontmatterMismatchError: Its frontmatter differs from the entry's.
        """
        spec = skill if isinstance(skill, SkillSpec) else await self.find(skill)
        if spec.dynamic and not allow_dynamic:
            raise SkillEntryError(
                f"The skill {spec.uri} is generated by the server, so its content cannot be verified.",
                hint="load it with allow_dynamic=True to accept it unverified",
                details={"uri": spec.uri, "problem": "dynamic"},
            )
        check_loadable(spec)
        return verify_skill_md(spec, await self._read(spec.uri))

    async def read_file(self, skill: LoadedSkill, path: str) -> bytes:
        """Read a file of a loaded skill (a path relative to its root, or its URI) and check it against the entry.

        Raises:
            SkillFileUnlistedError: The entry does not list it (nothing is read).
            SkillSizeMismatchError, SkillDigestMismatchError: It is not what the entry says.
        """
        spec = skill.spec
        uri = spec.resolve(path)
        entry = spec.file(uri)
        if entry is None:
            raise SkillFileUnlistedError(
                f"{uri} is not one of the files of the skill {spec.name!r}; it was not read.",
                hint="a file the skill's entry does not list is a change to the skill: list the skills again",
                details={"skill": spec.uri, "uri": uri},
            )
        data = await self._read(uri)
        verify_file(entry, data)
        return data

    async def _read(self, uri: str) -> bytes:
        """The bytes of the one content item of ``resources/read`` for ``uri``."""
        raw: types.ReadResourceResult = await self._funnel.request(
            f"reading {uri!r}", lambda c: c.read_resource(uri, cache_mode="bypass")
        )
        contents = [c for c in raw.contents if c.uri == uri] or list(raw.contents)
        if len(contents) != 1:
            raise ProtocolError(
                f"Reading {uri} returned {len(contents)} contents instead of one file.",
                details={"uri": uri, "contents": len(contents)},
            )
        item = contents[0]
        if isinstance(item, types.TextResourceContents):
            return item.text.encode("utf-8")
        assert isinstance(item, types.BlobResourceContents)
        try:
            return base64.b64decode(item.blob, validate=True)
        except (binascii.Error, ValueError):
            raise ProtocolError(f"Reading {uri} returned a blob that is not base64.", details={"uri": uri}) from None
