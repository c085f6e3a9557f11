"""``--json`` lines: valid JSON always, the data exact, hidden characters and non-finite numbers flagged."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from workbench.core.flagged_json import HIDDEN_MEMBER, MAX_PATHS, NON_FINITE_MEMBER, flagged_json_line

TAG_A = "\U000e0041"


def _refuse(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


def read(line: str) -> dict[str, Any]:
    return json.loads(line, parse_constant=_refuse)


def test_a_line_without_hidden_characters_or_odd_numbers_is_written_as_is() -> None:
    value = {"kind": "completed", "text": "caf\u00e9 \U0001f600 \u2764\ufe0f line\nnext\ttab", "n": 1.5}
    line = flagged_json_line(value)
    assert read(line) == value
    assert HIDDEN_MEMBER not in line and NON_FINITE_MEMBER not in line


def test_hidden_characters_in_values_and_keys_are_flagged_by_json_pointer() -> None:
    value = {"tools": [{"name": "ok"}, {"name": f"x{TAG_A}", "a/b~": {"k\u200b": "v"}}], "log": "\x1b[2J"}
    data = read(flagged_json_line(value))
    assert data["tools"] == value["tools"]
    flag = data[HIDDEN_MEMBER]
    assert flag["kinds"] == ["control", "tag", "zero-width"]
    assert flag["paths"] == ["/tools/1/name", "/tools/1/a~1b~0/k\u200b", "/log"]
    assert flag["total"] == 3


def test_non_finite_numbers_become_named_strings_and_are_flagged() -> None:
    data = read(flagged_json_line({"x": math.inf, "y": [-math.inf, math.nan, 2.0]}))
    assert data["x"] == "Infinity" and data["y"] == ["-Infinity", "NaN", 2.0]
    assert data[NON_FINITE_MEMBER] == {"total": 3, "paths": ["/x", "/y/0", "/y/1"]}


def test_objects_turned_into_data_by_default_are_looked_into() -> None:
    @dataclass
    class Result:
        value: float

        def to_dict(self) -> dict[str, Any]:
            return {"value": self.value, "note": f"hi{TAG_A}"}

    data = read(flagged_json_line({"result": Result(math.inf)}, default=lambda o: o.to_dict()))
    assert data["result"] == {"value": "Infinity", "note": f"hi{TAG_A}"}
    assert data[NON_FINITE_MEMBER]["paths"] == ["/result/value"]
    assert data[HIDDEN_MEMBER]["paths"] == ["/result/note"]


def test_paths_are_listed_up_to_a_bound_and_counted_beyond_it() -> None:
    data = read(flagged_json_line({"items": [f"{n}\u200b" for n in range(1000)]}))
    assert len(data[HIDDEN_MEMBER]["paths"]) == MAX_PATHS
    assert data[HIDDEN_MEMBER]["total"] == 1000
