r"""JSON lines for ``--json`` output: always valid JSON, the peer's data kept exact, and what hides in it flagged.

A string holding invisible or control characters (tag characters, zero-width, bidi controls …, see
``safe_text``) stays the same string (written with ``\\uXXXX`` escapes); a non-finite number
(``1e400`` reads as infinity) becomes the string ``"Infinity"``, ``"-Infinity"`` or ``"NaN"``. A
line that holds either gets a top-level member saying so, so a script need not scan every string:

``"hidden_characters": {"kinds": ["bidi", "tag"], "total": 2, "paths": ["/tools/0/name", …]}``
``"non_finite_numbers": {"total": 1, "paths": ["/result/structured_content/x"]}``

``paths`` are JSON Pointers (RFC 6901) into the line, at most ``MAX_PATHS`` of them; ``total`` counts
them all (a key holding such characters counts by the path of its member).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from workbench.core.safe_text import JSON_UNSAFE, NON_FINITE, escape_json_text, hidden_kinds, json_line

HIDDEN_MEMBER = "hidden_characters"
"""Top-level member naming the strings that hold hidden or control characters."""
NON_FINITE_MEMBER = "non_finite_numbers"
"""Top-level member naming the numbers written as strings because JSON has no infinity or NaN."""
MAX_PATHS = 20
"""Paths listed in a flag; ``total`` counts the rest."""
MAX_DEPTH = 500
"""Nesting followed when looking for what to flag (peers' JSON is refused far shallower)."""

# The escapes json.dumps writes for C0 controls (not newline and tab; the walk decides for a carriage
# return), or the hidden characters it leaves raw.
_SUSPECT = re.compile(r"\\u00[01][0-9a-f]|\\[bfr]|" + JSON_UNSAFE.pattern)


class _Findings:
    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.hidden: list[str] = []
        self.hidden_total = 0
        self.non_finite: list[str] = []
        self.non_finite_total = 0

    def text(self, text: str, path: str) -> None:
        kinds = hidden_kinds(text)
        if kinds:
            self.kinds |= kinds
            self.hidden_total += 1
            if len(self.hidden) < MAX_PATHS:
                self.hidden.append(path)

    def number(self, path: str) -> None:
        self.non_finite_total += 1
        if len(self.non_finite) < MAX_PATHS:
            self.non_finite.append(path)

    def members(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if self.hidden_total:
            found[HIDDEN_MEMBER] = {"kinds": sorted(self.kinds), "total": self.hidden_total, "paths": self.hidden}
        if self.non_finite_total:
            found[NON_FINITE_MEMBER] = {"total": self.non_finite_total, "paths": self.non_finite}
        return found


def _token(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _walk(value: Any, path: str, found: _Findings, default: Callable[[Any], Any] | None, depth: int = 0) -> Any:
    """``value`` as plain JSON data (non-finite numbers as strings), noting what is flagged and where."""
    if isinstance(value, str):
        found.text(value, path)
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        found.number(path)
        return NON_FINITE.get(value, "NaN")
    if isinstance(value, bool | int) or value is None or depth > MAX_DEPTH:
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            where = f"{path}/{_token(key)}"
            if isinstance(key, str):
                found.text(key, where)
            out[key] = _walk(item, where, found, default, depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [_walk(item, f"{path}/{n}", found, default, depth + 1) for n, item in enumerate(value)]
    if default is None:
        return value
    return _walk(default(value), path, found, default, depth + 1)


def flagged_json_line(value: Any, *, default: Callable[[Any], Any] | None = None) -> str:
    r"""``value`` as one JSON line that every parser reads and no terminal acts on, with flags added.

    Args:
        value: What to write; flags are added when it is an object (``dict``) — every ``--json``
            line is one.
        default: Turns objects JSON does not know into data (as ``json.dumps``'s ``default``).

    Returns:
        The line (no newline): hidden characters as ``\\uXXXX`` escapes, non-finite numbers as strings,
        and the ``hidden_characters`` / ``non_finite_numbers`` members when there are any.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=default, allow_nan=False)
    except ValueError:  # a non-finite number (or a value json cannot write: the walk finds out)
        text = None
    if text is not None and _SUSPECT.search(text) is None:
        return escape_json_text(text)  # nothing to flag (the common case: one C-speed pass)
    found = _Findings()
    data = _walk(value, "", found, default)
    if isinstance(data, dict):
        data = {**data, **found.members()}
    return json_line(data, default=default)
