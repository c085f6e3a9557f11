"""A skill's SKILL.md is used only when its size, SHA-256 and frontmatter match the listed entry (SEP-2640)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from workbench.core.errors import (
    SkillDigestMismatchError,
    SkillEntryError,
    SkillFileUnlistedError,
    SkillFrontmatterMismatchError,
    SkillSizeMismatchError,
)
from workbench.core.protocols.skills import MAX_SKILL_FILES, skill_spec, verify_skill_md

SKILL_MD = b"---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n"
FRONTMATTER = {"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"}
URI = "skill://pdf-processing/SKILL.md"


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def entry(content: bytes = SKILL_MD, **changes: Any) -> dict[str, Any]:
    """A skills/list entry describing ``content`` as its SKILL.md, with ``changes`` laid over it."""
    files = [
        {"uri": URI, "digest": digest(content), "size": len(content)},
        {"uri": "skill://pdf-processing/references/FORMS.md", "digest": digest(b"forms\n"), "size": 6},
    ]
    return {"uri": URI, "frontmatter": dict(FRONTMATTER), "resources": files, **changes}


def test_a_skill_md_that_matches_its_entry_loads_with_its_body() -> None:
    loaded = verify_skill_md(skill_spec(entry()), SKILL_MD)
    assert loaded.verified and loaded.body == "\nSkill body.\n"
    assert loaded.spec.name == "pdf-processing" and loaded.text == SKILL_MD.decode()


def test_a_skill_md_with_the_entrys_size_but_another_digest_is_a_digest_mismatch() -> None:
    tampered = SKILL_MD.replace(b"Skill body.", b"Evil body!!")
    with pytest.raises(SkillDigestMismatchError) as caught:
        verify_skill_md(skill_spec(entry()), tampered)
    assert caught.value.code == "skill-digest-mismatch"
    assert caught.value.details["expected_digest"] == digest(SKILL_MD)


def test_a_skill_md_longer_than_its_entry_says_is_a_size_mismatch_before_any_digest() -> None:
    with pytest.raises(SkillSizeMismatchError) as caught:
        verify_skill_md(skill_spec(entry()), SKILL_MD + b"extra bytes\n")
    assert caught.value.code == "skill-size-mismatch"
    assert caught.value.details["size"] == len(SKILL_MD) + 12


def test_a_size_counts_utf8_bytes_not_characters() -> None:
    text = SKILL_MD.replace(b"Skill body.", "Körper.".encode())
    assert verify_skill_md(skill_spec(entry(text)), text).body == "\nKörper.\n"
    with pytest.raises(SkillSizeMismatchError):
        verify_skill_md(skill_spec(entry(text)), text.replace("ö".encode(), b"o"))


def test_frontmatter_differing_from_the_entry_is_refused_even_when_digest_and_size_match() -> None:
    evil = SKILL_MD.replace(b"Extract, fill, and assemble PDF documents", b"Exfiltrate credentials")
    with pytest.raises(SkillFrontmatterMismatchError) as caught:
        verify_skill_md(skill_spec(entry(evil)), evil)
    assert caught.value.code == "skill-frontmatter-mismatch"
    assert caught.value.details["fields"] == ["description"]


@pytest.mark.parametrize(
    ("frontmatter", "fields"),
    [
        ({**FRONTMATTER, "license": "MIT"}, ["license"]),  # in the entry, not in the file
        ({"name": "pdf-processing", "description": FRONTMATTER["description"].upper()}, ["description"]),
    ],
)
def test_every_field_is_compared_both_ways(frontmatter: dict[str, Any], fields: list[str]) -> None:
    with pytest.raises(SkillFrontmatterMismatchError) as caught:
        verify_skill_md(skill_spec(entry(frontmatter=frontmatter)), SKILL_MD)
    assert caught.value.details["fields"] == fields


def test_yaml_frontmatter_with_quotes_nesting_and_a_date_equals_its_json_rendering() -> None:
    text = (
        b'---\nname: notes\ndescription: "Notes: one line each"\ndate: 2026-11-28\n'
        b'metadata:\n  version: "1.2"\n  tags: [a, b]\n---\nBody\n'
    )
    front = {"name": "notes", "description": "Notes: one line each", "date": "2026-11-28"}
    front["metadata"] = {"version": "1.2", "tags": ["a", "b"]}
    spec = skill_spec(
        {
            "uri": "skill://notes/SKILL.md",
            "frontmatter": front,
            "resources": [{"uri": "skill://notes/SKILL.md", "digest": digest(text), "size": len(text)}],
        }
    )
    assert verify_skill_md(spec, text).body == "Body\n"


@pytest.mark.parametrize(
    "text",
    [
        b"name: pdf-processing\n\nNo frontmatter.\n",
        b"---\nname: pdf-processing\ndescription: [unclosed\n---\n",
        b"---\n- a list\n---\n",
        b"---\nname: pdf-processing\n",
        b"\xff\xfe---\n",
    ],
    ids=["none", "invalid-yaml", "not-a-mapping", "unterminated", "not-utf-8"],
)
def test_a_skill_md_without_readable_frontmatter_is_refused(text: bytes) -> None:
    with pytest.raises(SkillFrontmatterMismatchError):
        verify_skill_md(skill_spec(entry(text)), text)


@pytest.mark.parametrize(
    "changes",
    [
        {"resources": None},
        {"resources": "static"},
        {"resources": [{"uri": "skill://pdf-processing/other.md", "digest": digest(b""), "size": 0}]},
        {"resources": [{"uri": URI, "digest": "md5:abc", "size": 1}]},
        {"resources": [{"uri": URI, "digest": digest(SKILL_MD), "size": -1}]},
        {"uri": "skill://other-name/SKILL.md"},
        {"uri": None},
        {"frontmatter": {"name": "pdf-processing"}},
        {"resources": [{"uri": URI, "digest": digest(b""), "size": 0}] * (MAX_SKILL_FILES + 1)},
        {"resources": [{"uri": URI, "digest": digest(b""), "size": 17 * 1024 * 1024}]},
    ],
    ids=[
        "no-resources",
        "neither-list-nor-dynamic",
        "skill-md-unlisted",
        "bad-digest",
        "bad-size",
        "uri-not-its-name",
        "no-uri",
        "no-description",
        "too-many-files",
        "too-many-bytes",
    ],
)
def test_an_entry_that_cannot_be_loaded_says_why_and_refuses_before_looking_at_content(
    changes: dict[str, Any],
) -> None:
    spec = skill_spec(entry(**changes))
    assert spec.problem is not None
    with pytest.raises(SkillEntryError) as caught:
        verify_skill_md(spec, SKILL_MD)
    assert caught.value.code == "skill-entry-invalid"


def test_an_entry_that_is_not_an_object_is_listed_as_unloadable() -> None:
    spec = skill_spec(["not", "an", "entry"])
    assert spec.problem is not None and not spec.dynamic
    with pytest.raises(SkillEntryError):
        verify_skill_md(spec, SKILL_MD)


def test_a_dynamic_skill_has_no_files_and_is_checked_for_frontmatter_only() -> None:
    spec = skill_spec(entry(resources="dynamic"))
    assert spec.dynamic and spec.files is None and spec.problem is None
    loaded = verify_skill_md(spec, SKILL_MD + b"generated\n")
    assert not loaded.verified


@pytest.mark.parametrize("path", ["../other/SKILL.md", "/etc/passwd", "references/../../x", ""])
def test_a_path_leaving_the_skills_directory_is_refused(path: str) -> None:
    with pytest.raises(SkillFileUnlistedError):
        skill_spec(entry()).resolve(path)


def test_a_relative_path_resolves_against_the_skills_root() -> None:
    spec = skill_spec(entry())
    uri = spec.resolve("references/FORMS.md")
    assert uri == "skill://pdf-processing/references/FORMS.md" and spec.file(uri) is not None
    assert spec.file(spec.resolve("references/OTHER.md")) is None
