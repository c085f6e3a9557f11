"""A stdio server whose every string carries terminal escapes: the CLI shows them inert, in text and JSON."""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.servers import script_path
from tests.support.cli_runner import workbench

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


# Invisible text: tag characters (U+E0000 block), zero-width and bidi characters
HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\U000e0000-\U000e007f]")
WHISPER = "whisper\u200b\U000e0078"
WHISPER_RESULT = "quiet\u200b" + "".join(chr(0xE0000 + ord(c)) for c in "exfiltrate") + " \u2067cba\u2069"


def refuse_constant(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


def strict_json(line: str) -> dict:
    return json.loads(line, parse_constant=refuse_constant)


async def test_inspect_shows_a_tools_hidden_characters_escaped_in_its_name_and_description() -> None:
    code, out, err = await workbench("inspect", "--stdio", *HOSTILE)
    assert code == 0, err
    assert HIDDEN.search(out) is None
    assert "whisper\\u200b\\U000e0078  Whispers.\\U000e0049\\U000e0067" in out
    assert "Opens \\u202efdp.exe\\u202c" in out


async def test_call_shows_the_hidden_characters_of_a_result_escaped() -> None:
    code, out, err = await workbench("call", "--stdio", WHISPER, *HOSTILE)
    assert code == 0, err
    assert HIDDEN.search(out) is None and HIDDEN.search(err) is None
    assert out.startswith("quiet\\u200b\\U000e0065\\U000e0078")
    assert "\\u2067cba\\u2069" in out


async def test_json_output_keeps_hidden_characters_exact_and_flags_where_they_are() -> None:
    code, out, err = await workbench("inspect", "--json", "--stdio", *HOSTILE)
    assert code == 0, err
    assert HIDDEN.search(out) is None
    [listing] = [strict_json(line) for line in out.splitlines()]
    assert listing["tools"][1]["name"] == WHISPER
    flag = listing["hidden_characters"]
    assert {"tag", "zero-width", "bidi"} <= set(flag["kinds"])
    assert {"/tools/1/name", "/tools/1/description"} <= set(flag["paths"])

    code, out, err = await workbench("call", "--json", "--stdio", WHISPER, *HOSTILE)
    assert code == 0, err
    assert HIDDEN.search(out) is None
    [completed] = [e for e in map(strict_json, out.splitlines()) if e["kind"] == "completed"]
    assert completed["result"]["text"] == WHISPER_RESULT
    assert "/result/text" in completed["hidden_characters"]["paths"]


async def test_a_result_holding_1e400_is_written_as_valid_json_and_flagged() -> None:
    code, out, err = await workbench("call", "--json", "--stdio", "infinite", *HOSTILE)
    assert code == 0, err
    [completed] = [e for e in map(strict_json, out.splitlines()) if e["kind"] == "completed"]
    assert completed["result"]["structured"] == {"x": "Infinity", "y": "-Infinity", "n": ["Infinity"]}
    flag = completed["non_finite_numbers"]
    assert {"/result/structured/x", "/result/structured/y", "/result/structured/n/0"} <= set(flag["paths"])
    assert flag["total"] == len(flag["paths"])
