"""A stdio server whose every string carries terminal escapes: the CLI shows them inert, in text and JSON."""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.e2e.test_cli import workbench
from tests.servers import script_path

pytestmark = pytest.mark.asyncio
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = ["--", sys.executable, script_path("escape_strings")]


def assert_inert(text: str) -> None:
    found = RAW_CONTROL.search(text)
    assert found is None, f"raw control character {found.group()!r} reached the terminal"


async def test_inspect_shows_the_servers_escape_sequences_as_text() -> None:
    code, out, err = await workbench("inspect", "--stdio", *HOSTILE)
    assert code == 0, err
    assert_inert(out)
    assert_inert(err)
    assert "evil\\x1b]0;pwned\\x07" in out
    assert "\\x1b]8;;https://attacker.example/" in out


async def test_call_shows_result_log_and_relayed_stderr_inert() -> None:
    code, out, err = await workbench("call", "--stdio", "--stderr", "shout", *HOSTILE)
    assert code == 0, err
    assert_inert(out)
    assert_inert(err)
    assert "\\x9b31m" in out
    assert "stderr line \\x1b[2J" in err
    assert "DeprecationWarning" not in err  # the SDK's notices go to the debug log, not the user


async def test_json_output_escapes_them_and_keeps_the_exact_strings() -> None:
    code, out, err = await workbench("call", "--stdio", "--json", "shout", *HOSTILE)
    assert code == 0, err
    assert_inert(out)
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    texts = [e["result"]["text"] for e in events if e.get("kind") == "completed"]
    assert texts == ["done\x1b[2J\x1b[H\x9b31mred\u202etxt.exe"]
