"""JSON Schema validators as the window's forms and the command line use them: the schema's dialect, formats checked.

jsonschema checks ``date-time``, ``time`` and ``uri`` only with optional packages (``rfc3339-validator``,
``rfc3987``) that are not installed, and its ``time`` is draft 3's; ``format_checker`` adds RFC 3339
``date-time``/``time`` and a basic ``uri`` check to its own copy of the standard checks, so a form that
asks for a date-time gets one wherever it is filled. jsonschema (~70 ms with its dependencies) is
imported when a validator is first made, not with this module.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import FormatChecker
    from jsonschema.protocols import Validator

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
