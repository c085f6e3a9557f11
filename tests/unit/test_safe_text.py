"""Peer text made inert: terminal escapes shown, JSON lines clean, file names without paths."""

from __future__ import annotations

import json
import math
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.safe_text import (
    escape_json_text,
    hidden_kinds,
    json_line,
    neutralise,
    neutralise_line,
    safe_file_name,
)

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_escape_sequences_are_shown_not_interpreted() -> None:
    text = "a\x1b]0;pwned\x07b\x1b[2J\x9b31m\u202eexe"
    shown = neutralise(text)
    assert RAW_CONTROL.search(shown) is None
    assert shown == "a\\x1b]0;pwned\\x07b\\x1b[2J\\x9b31m\\u202eexe"


def test_newlines_and_tabs_stay_but_a_lone_carriage_return_is_shown() -> None:
    assert neutralise("one\r\ntwo\tthree\rover") == "one\ntwo\tthree\\x0dover"
    assert neutralise_line("one\ntwo\tx") == "one\\ntwo\\tx"


def test_json_lines_escape_what_a_terminal_would_act_on_and_stay_valid_json() -> None:
    value = {"name": "x\x1b[2J\x9b1m\u2028\u202e"}
    line = json_line(value)
    assert RAW_CONTROL.search(line) is None
    assert "\u2028" not in line
    assert json.loads(line) == value


def test_peer_file_names_lose_directories_dots_and_controls() -> None:
    assert safe_file_name("../../etc/passwd") == "_._etc_passwd"
    assert safe_file_name("..") == "download"
    assert safe_file_name(".bashrc") == "bashrc"
    assert safe_file_name("a/b\\c.txt") == "a_b_c.txt"
    assert safe_file_name("\x1b[31mred.md") == "[31mred.md"
    assert safe_file_name("", fallback="artifact") == "artifact"
    assert safe_file_name("report.tar.gz") == "report.tar.gz"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_neutralised_text_never_carries_a_raw_control_character(text: str) -> None:
    assert RAW_CONTROL.search(neutralise(text)) is None
    line = json_line(text)
    assert RAW_CONTROL.search(line) is None
    assert json.loads(line) == text


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_a_safe_file_name_is_one_harmless_path_component(name: str) -> None:
    safe = safe_file_name(name)
    assert safe
    assert "/" not in safe and "\\" not in safe
    assert ".." not in safe
    assert not safe.startswith(".")
    assert RAW_CONTROL.search(safe) is None
    assert len(safe) <= 140


def _format_characters() -> list[str]:
    return [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]


def test_every_format_character_and_the_whole_tag_block_is_shown_escaped() -> None:
    for char in [*_format_characters(), *map(chr, range(0xE0000, 0xE0080)), "\u3164", "\u115f"]:
        shown = neutralise(f"a{char}b")
        assert char not in shown, f"U+{ord(char):04X} passed raw"
        assert shown.startswith("a\\") and shown.endswith("b")


def test_tag_characters_show_as_full_escapes_and_are_named_by_kind() -> None:
    hidden = "send" + "".join(chr(0xE0000 + ord(c)) for c in "ok") + "\u200b\u202e"
    assert neutralise(hidden) == "send\\U000e006f\\U000e006b\\u200b\\u202e"
    assert hidden_kinds(hidden) == {"tag", "zero-width", "bidi"}
    assert hidden_kinds("plain text\n\twith a newline\r\n") == set()


def test_one_variation_selector_stays_but_a_run_of_them_is_shown() -> None:
    assert neutralise("\u2764\ufe0f") == "\u2764\ufe0f"  # a red heart, emoji presentation
    smuggled = "\U0001f600" + "\U000e0100\U000e0101\ufe01"
    assert neutralise(smuggled) == "\U0001f600\\U000e0100\\U000e0101\\ufe01"
    assert hidden_kinds(smuggled) == {"variation-selectors"}


def test_a_joiner_alone_in_an_emoji_or_a_script_that_needs_it_stays() -> None:
    for text in ("\U0001f469\u200d\U0001f4bb", "\U0001f3f3\ufe0f\u200d\U0001f308", "\u0645\u200c\u06cc"):
        assert neutralise(text) == text
        assert hidden_kinds(text) == set()
    assert neutralise("ig\u200dnore") == "ig\\u200dnore"  # between ASCII letters it hides a word break
    assert neutralise("\u0645\u200c\u200c\u06cc") == "\u0645\\u200c\\u200c\u06cc"  # a run encodes data
    assert neutralise("\u200d\U0001f4bb") == "\\u200d\U0001f4bb"


def test_json_lines_escape_hidden_characters_and_write_no_infinity() -> None:
    value = {"name": "x\u200b\U000e0041\u202e\ufe0f", "big": math.inf, "small": -math.inf, "odd": [math.nan]}
    line = json_line(value)
    assert re.search("[\u200b\u202e\ufe0f\U000e0041]", line) is None
    assert json.loads(line, parse_constant=_refuse) == {
        "name": value["name"],
        "big": "Infinity",
        "small": "-Infinity",
        "odd": ["NaN"],
    }


def _refuse(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


_TRICKY = "a\u200b\u200d\ufe0f\x1b\r\n\U000e0041\U0001f469"


@given(st.text() | st.text(alphabet=_TRICKY))
def test_the_narrow_patterns_for_ascii_and_bmp_text_find_what_the_full_one_finds(text: str) -> None:
    from workbench.core import safe_text

    flat = text.replace("\r\n", "\n")
    assert neutralise(text) == safe_text._UNSAFE.sub(safe_text._visible, flat)
    assert safe_text.escape_json_text(text) == safe_text.JSON_UNSAFE.sub(safe_text._json_escape, text)


def test_json_text_writes_a_no_break_space_as_an_escape_with_the_same_value() -> None:
    text = escape_json_text(json.dumps({"v": "a\xa0b"}, ensure_ascii=False))
    assert "\xa0" not in text and "\\u00a0" in text
    assert json.loads(text) == {"v": "a\xa0b"}
