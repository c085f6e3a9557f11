"""Skills a server serves (SEP-2640): their entries, and the checks a skill file passes before it is used.

A skill's entry (``SkillSpec``) is its ``SKILL.md`` URI, its frontmatter and the manifest of its files,
each with a SHA-256 digest and a size. Listing reads no file. Loading reads ``SKILL.md`` and uses it only
when its length equals the entry's size, its digest equals the entry's and its YAML frontmatter equals
the entry's frontmatter field by field (``verify_skill_md``); a file it refers to is read only when the
entry lists it, and checked the same way (``verify_file``). Every failure is a typed error whose code
names it. Digests prove only that the entry and the content agree: both come from the same server,
and everything in them is untrusted text.

This is the one module that imports ``yaml`` (PyYAML, safe loading only), when a ``SKILL.md`` is checked.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.core.errors import (
    SkillDigestMismatchError,
    SkillEntryError,
    SkillFileUnlistedError,
    SkillFrontmatterMismatchError,
    SkillSizeMismatchError,
)

if TYPE_CHECKING:
    import yaml

SKILL_FILE = "SKILL.md"
"""The file at the root of every skill."""
MAX_SKILL_FILES = 512
"""Most files one skill may list (the SEP's limit: hosts must support up to it)."""
MAX_SKILL_BYTES = 16 * 1024 * 1024
"""Most bytes one skill's files may hold together (the SEP's 16 MiB limit), counted from its entry."""
DYNAMIC = "dynamic"
"""The ``resources`` value of a skill whose content is generated, so that it has no digests."""
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class SkillFile:
    """One file of a skill as its entry lists it.

    Attributes:
        uri: The file's resource URI.
        digest: ``sha256:`` and 64 lowercase hex digits: the SHA-256 of the file's bytes.
        size: The file's length in bytes.
    """

    uri: str
    digest: str
    size: int

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"uri": self.uri, "digest": self.digest, "size": self.size}


@dataclass(frozen=True, slots=True)
class SkillSpec:
    """A skill's entry as the server lists it (``skills/list``); nothing of the skill has been read.

    Attributes:
        uri: The resource URI of its ``SKILL.md``.
        name: ``frontmatter["name"]`` (a label, not unique: the URI identifies the skill).
        description: ``frontmatter["description"]`` (untrusted text).
        frontmatter: The entry's frontmatter, as sent.
        files: The files it lists, ``SKILL.md`` included; ``None`` when its content is dynamic.
        problem: Why the entry cannot be loaded (``None``: it can).
        raw: The entry as received.
    """

    uri: str
    name: str
    description: str
    frontmatter: dict[str, Any] = field(default_factory=dict)
    files: tuple[SkillFile, ...] | None = None
    problem: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    @property
    def dynamic(self) -> bool:
        """Whether the server generates its content, so that it lists no digests."""
        return self.files is None and self.problem is None

    @property
    def root(self) -> str:
        """The skill's directory URI (``uri`` without ``/SKILL.md``)."""
        return self.uri.removesuffix("/" + SKILL_FILE)

    def file(self, uri: str) -> SkillFile | None:
        """The listed file at ``uri`` (``None``: not listed)."""
        return next((f for f in self.files or () if f.uri == uri), None)

    def resolve(self, path: str) -> str:
        """The URI of ``path`` relative to the skill's root (``references/FORMS.md``), or ``path`` if it is a URI.

        Raises:
            SkillFileUnlistedError: ``path`` leaves the skill's directory.
        """
        if "://" in path:
            return path
        normal = posixpath.normpath("/" + path).lstrip("/")
        if normal in ("", ".") or path.startswith("/") or ".." in path.split("/"):
            raise SkillFileUnlistedError(
                f"{path!r} is not a file inside the skill {self.name!r}.",
                hint="give a path relative to the skill's root, as its SKILL.md writes it",
                details={"skill": self.uri, "path": path},
            )
        return f"{self.root}/{normal}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (without the raw entry)."""
        out: dict[str, Any] = {"uri": self.uri, "name": self.name, "description": self.description}
        out["frontmatter"] = self.frontmatter
        out["files"] = DYNAMIC if self.files is None else [f.to_dict() for f in self.files]
        if self.problem is not None:
            out["problem"] = self.problem
            out.pop("files")
        return out


@dataclass(frozen=True, slots=True)
class LoadedSkill:
    """A skill whose ``SKILL.md`` was read and matched its entry (size, digest, frontmatter).

    Attributes:
        spec: The entry it was verified against.
        text: The whole ``SKILL.md`` (untrusted text).
        body: ``text`` after the frontmatter.
        verified: Whether size and digest were checked (``False`` only for a dynamic skill).
    """

    spec: SkillSpec
    text: str
    body: str
    verified: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"skill": self.spec.to_dict(), "verified": self.verified, "text": self.text}


def skill_spec(entry: Any) -> SkillSpec:
    """The ``SkillSpec`` of one listed entry; an entry that cannot be loaded says why in ``problem``."""
    if not isinstance(entry, dict):
        return SkillSpec(uri="", name="", description="", problem="it is not an object", raw=entry)
    uri = entry["uri"] if isinstance(entry.get("uri"), str) else ""
    front = entry.get("frontmatter")
    frontmatter: dict[str, Any] = front if isinstance(front, dict) else {}
    name, description = frontmatter.get("name"), frontmatter.get("description")
    problem = _entry_problem(uri, front, name, description)
    resources = entry.get("resources")
    files: tuple[SkillFile, ...] | None = None
    if problem is None and resources != DYNAMIC:
        files, problem = _files(uri, resources)
    return SkillSpec(
        uri=uri,
        name=name if isinstance(name, str) else "",
        description=description if isinstance(description, str) else "",
        frontmatter=frontmatter,
        files=files,
        problem=problem,
        raw=entry,
    )


def _entry_problem(uri: str, front: Any, name: Any, description: Any) -> str | None:
    if not uri:
        return "it has no URI"
    if not isinstance(front, dict):
        return "it has no frontmatter object"
    if not isinstance(name, str) or not isinstance(description, str):
        return "its frontmatter lacks a name or a description string"
    if not uri.endswith("/" + SKILL_FILE):
        return f"its URI does not name a {SKILL_FILE}"
    if uri.removesuffix("/" + SKILL_FILE).rsplit("/", 1)[-1] != name:
        return f"its URI's last segment is not its name {name!r}"
    return None


def _files(uri: str, resources: Any) -> tuple[tuple[SkillFile, ...] | None, str | None]:
    """The listed files, or why they cannot be used."""
    if not isinstance(resources, list):
        return None, 'its resources are neither a list of files nor "dynamic"'
    if len(resources) > MAX_SKILL_FILES:
        return None, f"it lists {len(resources):,} files, more than the {MAX_SKILL_FILES} a skill may have"
    files: list[SkillFile] = []
    for item in resources:
        if not isinstance(item, dict):
            return None, "one of its files is not an object"
        file_uri, digest, size = item.get("uri"), item.get("digest"), item.get("size")
        if not isinstance(file_uri, str) or not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            return None, "one of its files lacks a URI or a sha256:<64 hex digits> digest"
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return None, f"{file_uri} has no size in bytes"
        files.append(SkillFile(file_uri, digest, size))
    if not any(f.uri == uri for f in files):
        return None, f"its files do not include its {SKILL_FILE}"
    total = sum(f.size for f in files)
    if total > MAX_SKILL_BYTES:
        return None, f"its files hold {total:,} bytes, more than the {MAX_SKILL_BYTES:,} a skill may have"
    return tuple(files), None


def verify_file(entry: SkillFile, data: bytes) -> None:
    """Check a file's bytes against its entry: the size first, then the SHA-256.

    Raises:
        SkillSizeMismatchError: ``len(data)`` is not ``entry.size``.
        SkillDigestMismatchError: The SHA-256 of ``data`` is not ``entry.digest``.
    """
    details = {"uri": entry.uri, "expected_size": entry.size, "size": len(data)}
    if len(data) != entry.size:
        raise SkillSizeMismatchError(
            f"{entry.uri} is {len(data):,} bytes, but its skill entry says {entry.size:,}; it was not used.",
            hint="the skill changed since it was listed, or something altered it: list the skills again",
            details=details,
        )
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    if digest != entry.digest:
        raise SkillDigestMismatchError(
            f"{entry.uri} does not match the digest of its skill entry; it was not used.",
            hint="the skill changed since it was listed, or something altered it: list the skills again",
            details={"uri": entry.uri, "expected_digest": entry.digest, "digest": digest},
        )


@functools.cache
def _frontmatter_loader() -> type[yaml.SafeLoader]:
    """Safe YAML that keeps dates as the strings a JSON rendering of the frontmatter holds."""
    import yaml

    class FrontmatterLoader(yaml.SafeLoader):
        pass

    FrontmatterLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return FrontmatterLoader


def split_frontmatter(text: str, uri: str = SKILL_FILE) -> tuple[dict[str, Any], str]:
    """The YAML frontmatter of a ``SKILL.md`` (between its first two ``---`` lines) and the body after it.

    Raises:
        SkillFrontmatterMismatchError: No frontmatter, unreadable YAML, or not a mapping.
    """
    lines = text.splitlines(keepends=True)
    end = next((i for i, line in enumerate(lines[1:], 1) if line.rstrip("\r\n") == "---"), None)
    if not lines or lines[0].rstrip("\r\n") != "---" or end is None:
        raise SkillFrontmatterMismatchError(
            f"{uri} does not begin with YAML frontmatter between '---' lines; it was not used.",
            details={"uri": uri, "problem": "no-frontmatter"},
        )
    import yaml

    try:
        front = yaml.load("".join(lines[1:end]), Loader=_frontmatter_loader())  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise SkillFrontmatterMismatchError(
            f"The frontmatter of {uri} is not valid YAML; it was not used.",
            details={"uri": uri, "problem": "invalid-yaml", "error": str(exc)[:300]},
        ) from None
    if not isinstance(front, dict):
        raise SkillFrontmatterMismatchError(
            f"The frontmatter of {uri} is not a mapping of fields; it was not used.",
            details={"uri": uri, "problem": "not-a-mapping"},
        )
    return front, "".join(lines[end + 1 :])


def verify_frontmatter(spec: SkillSpec, text: str) -> str:
    """Compare the frontmatter of ``SKILL.md`` text with the entry's, field by field; returns the body.

    Raises:
        SkillFrontmatterMismatchError: A field differs, is missing or is extra (the details name them).
    """
    front, body = split_frontmatter(text, spec.uri)
    differing = sorted(
        (
            key
            for key in front.keys() | spec.frontmatter.keys()
            if front.get(key, _ABSENT) != spec.frontmatter.get(key, _ABSENT)
        ),
        key=str,
    )
    if differing:
        raise SkillFrontmatterMismatchError(
            f"The frontmatter of {spec.uri} differs from its skill entry in {', '.join(map(str, differing))}; "
            "the skill was not loaded.",
            hint="what the listing showed is not what the skill says: list the skills again",
            details={"uri": spec.uri, "fields": [str(key) for key in differing]},
        )
    return body


_ABSENT = object()


def check_loadable(spec: SkillSpec) -> None:
    """Refuse an entry that cannot be loaded, before anything of the skill is read.

    Raises:
        SkillEntryError: ``spec.problem`` says why.
    """
    if spec.problem is not None:
        raise SkillEntryError(
            f"The skill {spec.uri or spec.name or '(no URI)'} cannot be loaded: {spec.problem}.",
            details={"uri": spec.uri, "problem": spec.problem},
        )


def verify_skill_md(spec: SkillSpec, data: bytes) -> LoadedSkill:
    """Check a ``SKILL.md`` read for ``spec``: size, digest (a listed skill), then frontmatter.

    Args:
        spec: The entry it must match.
        data: The bytes read.

    Raises:
        SkillEntryError: The entry cannot be loaded (``spec.problem``).
        SkillSizeMismatchError, SkillDigestMismatchError, SkillFrontmatterMismatchError: It does
            not match the entry.
    """
    check_loadable(spec)
    entry = spec.file(spec.uri)
    if entry is not None:
        verify_file(entry, data)
    elif len(data) > MAX_SKILL_BYTES:
        raise SkillSizeMismatchError(
            f"{spec.uri} is {len(data):,} bytes, more than a skill may hold; it was not used.",
            details={"uri": spec.uri, "size": len(data), "limit": MAX_SKILL_BYTES},
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SkillFrontmatterMismatchError(
            f"{spec.uri} is not UTF-8 text; it was not used.", details={"uri": spec.uri, "problem": "not-utf-8"}
        ) from None
    body = verify_frontmatter(spec, text)
    return LoadedSkill(spec=spec, text=text, body=body, verified=entry is not None)
