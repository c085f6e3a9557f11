"""Peer text made inert: terminal escapes shown, JSON lines clean, file names without paths."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.safe_text import json_line, neutralise, neutralise_line, safe_file_name

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
