"""``workbench skills list`` and ``skills show NAME`` against a stdio server serving skills (SEP-2640)."""

from __future__ import annotations

import json
import sys

import pytest

from tests.servers import script_path
from tests.support.cli_runner import run_workbench

pytestmark = pytest.mark.asyncio


def server(*flags: str) -> list[str]:
    return ["--stdio", "--", sys.executable, script_path("skills_server"), *flags]


async def test_skills_list_prints_each_skill_with_its_description_escapes_shown() -> None:
    code, out, err = await run_workbench("skills", "list", *server("--hostile"), timeout=30)
    assert code == 0, err
    assert out.splitlines()[0] == "pdf-forms  skill://pdf-forms/SKILL.md"
    assert "    Title \\x1b]0;pwned\\x07 set" in out.splitlines()
    assert "\x1b" not in out


async def test_skills_show_prints_the_verified_skill_md_and_says_so_on_stderr() -> None:
    code, out, err = await run_workbench("skills", "show", "pdf-forms", *server(), timeout=30)
    assert code == 0, err
    assert out.startswith("---\nname: pdf-forms\ndescription: Fill in PDF forms\n---\n")
    assert out.endswith("Read `references/FIELDS.md` for the field names.\n")
    assert "size, sha256 and frontmatter match" in err


async def test_skills_show_of_a_hostile_skill_prints_its_escapes_inert() -> None:
    code, out, err = await run_workbench("skills", "show", "hostile", *server("--hostile"), timeout=30)
    assert code == 0, err
    assert "Clear \\x1b[2J the screen." in out and "\x1b" not in out


@pytest.mark.parametrize("tamper", ["digest", "size", "frontmatter"])
async def test_skills_show_refuses_a_tampered_skill_md_and_prints_none_of_it(tamper: str) -> None:
    code, out, _ = await run_workbench("skills", "show", "pdf-forms", "--json", *server("--tamper", tamper), timeout=30)
    assert code == 1
    [failed] = [json.loads(line) for line in out.splitlines()]
    assert failed["kind"] == "failed" and failed["error"]["code"] == f"skill-{tamper}-mismatch"
    assert "Filling PDF forms" not in out


async def test_skills_show_of_an_unlisted_name_is_a_usage_error() -> None:
    code, out, err = await run_workbench("skills", "show", "nope", "--json", *server(), timeout=30)
    assert code == 2, err
    assert json.loads(out)["error"]["code"] == "not-found"


async def test_skills_of_an_a2a_target_is_refused_before_connecting() -> None:
    code, out, err = await run_workbench("skills", "list", "--json", "--a2a", "http://127.0.0.1:9/", timeout=30)
    assert code == 2, err
    assert json.loads(out)["error"]["code"] == "config"
