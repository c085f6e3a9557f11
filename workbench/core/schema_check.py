"""JSON Schema validators as the window's forms and the command line use them: the schema's dialect, formats checked.

A peer's schema can be as large as it likes (50,000 fields, choices or required names); what is said
about it stays small: ``first_errors`` keeps the first problems in path order and counts the rest
(memory bounded, whatever the number), ``listed`` names the first items and counts the others,
``clipped`` cuts one long name or message.

jsonschema checks ``date-time``, ``time`` and ``uri`` only with optional packages (``rfc3339-validator``,
``rfc3987``) that are not installed, and its ``time`` is draft 3's; ``format_checker`` adds RFC 3339
``date-time``/``time`` and a basic ``uri`` check to its own copy of the standard checks, so a form that
asks for a date-time gets one wherever it is filled. jsonschema (~70 ms with its dependencies) is
imported when a validator is first made, not with this module.
"""

from __future__ import annotations

import datetime as dt
import heapq
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import FormatChecker
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

MAX_LISTED = 10
"""Problems, fields or choices a message names; the rest are counted."""
MAX_ITEM_CHARS = 200
"""Characters of one listed name, value or problem kept (the rest is cut with ``…``)."""

_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$")
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]*$")


def _check_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not _DATE_TIME.match(value):
        return False
    try:
        dt.datetime.fromisoformat(value.replace("z", "Z").replace("t", "T"))
    except ValueError:
        return False
    return True


def _check_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    m = _TIME.match(value)
    if m is None:
        return False
    return int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3)) < 61


def _check_uri(value: object) -> bool:
    return not isinstance(value, str) or bool(_URI.match(value))


def format_checker() -> FormatChecker:
    """The format checks of jsonschema, with RFC 3339 ``date-time``/``time`` and a basic ``uri`` check."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=list(FormatChecker.checkers))  # own dict: never touch the global one
    # RFC 3339 forms; the global "time" is draft 3's HH:MM:SS and the others need optional packages
    for name, fn in (("date-time", _check_date_time), ("time", _check_time), ("uri", _check_uri)):
        checker.checks(name)(fn)
    return checker


def dialect(schema: Mapping[str, Any]) -> Any:
    """The validator class for the schema's ``$schema``; Draft 2020-12 when absent or unknown."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    if not isinstance(schema.get("$schema", ""), str):
        return Draft202012Validator
    try:
        return validator_for(schema, default=Draft202012Validator)
    except Exception:  # an odd $schema URI: use the default dialect
        return Draft202012Validator


def make_validator(schema: Mapping[str, Any]) -> Validator:
    """A validator for ``schema``: its ``$schema`` dialect, else Draft 2020-12, with format checking."""
    validator: Validator = dialect(schema)(schema, format_checker=format_checker())
    return validator


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why ``schema`` is not a valid JSON Schema, or None."""
    try:
        dialect(schema).check_schema(schema)
    except Exception as exc:  # any failure means "cannot trust this schema"
        return getattr(exc, "message", str(exc))
    return None


def clipped(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """``text`` cut to ``limit`` characters, ``…`` marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def listed(
    items: Iterable[str], *, total: int | None = None, limit: int = MAX_LISTED, sep: str = ", ", what: str = "more"
) -> str:
    """The first ``limit`` of ``items`` (each ``clipped``) joined by ``sep``, then ``… and N more`` when there are more.

    Args:
        items: What to list; only as many are read as are shown, plus one.
        total: How many there are in all, when ``items`` stops early or is an iterator.
        limit: Most items named.
        sep: Between two items.
        what: The words after the count (``more``, ``more fields`` …).
    """
    shown: list[str] = []
    seen = 0
    for item in items:
        seen += 1
        if len(shown) < limit:
            shown.append(clipped(item))
        elif total is not None:
            break
    count = max(total if total is not None else 0, seen)
    rest = count - len(shown)
    return sep.join(shown) + (f"{sep}… and {rest:,} {what}" if rest > 0 else "")


def first_errors(errors: Iterable[ValidationError], limit: int = MAX_LISTED) -> tuple[list[ValidationError], int]:
    """The first ``limit`` validation errors in path order, and how many there are in all.

    Only ``limit`` errors are kept at a time however many the validator finds (a form of 50,000
    required fields left empty yields 50,000).
    """
    count = 0

    def counted() -> Iterator[ValidationError]:
        nonlocal count
        for error in errors:
            count += 1
            yield error

    first = heapq.nsmallest(limit, counted(), key=lambda e: ([str(p) for p in e.absolute_path], e.message[:200]))
    return first, count
