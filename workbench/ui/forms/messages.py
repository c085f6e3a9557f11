"""Validation problems in words a person acts on: no regular expressions, no Python reprs, one message per cause.

jsonschema's own messages quote the failing value and the raw keyword (``'x' does not match
'^[^@]+@[^@]+$'``, ``'2026-13-01' is not a 'date'``). ``human_message`` says what the field needs
instead; ``without_redundant`` drops a ``pattern`` complaint when the same field already fails its ``format``
(an e-mail address field would otherwise say the same thing twice). Qt-free.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import ValidationError


MAX_LISTED_CHOICES = 6

_FORMATS = {
    "date": "a date (YYYY-MM-DD)",
    "date-time": "a date and time (YYYY-MM-DDTHH:MM:SSZ)",
    "time": "a time (HH:MM:SS)",
    "email": "an e-mail address (name@example.com)",
    "idn-email": "an e-mail address (name@example.com)",
    "uri": "a URI with a scheme (https://…)",
    "url": "a URL (https://…)",
    "uri-reference": "a URI reference",
    "ipv4": "an IPv4 address (e.g. 192.0.2.1)",
    "ipv6": "an IPv6 address",
    "hostname": "a host name",
    "uuid": "a UUID",
    "regex": "a regular expression",
}

_TYPES = {
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "empty (null)",
}


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _type_words(kind: Any) -> str:
    if isinstance(kind, list):
        return " or ".join(_TYPES.get(str(k), str(k)) for k in kind)
    return _TYPES.get(str(kind), str(kind))


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pattern_text(schema: Mapping[str, Any]) -> str:
    examples = schema.get("examples")
    if isinstance(examples, list) and examples and isinstance(examples[0], str):
        return f"does not have the expected form (e.g. {_shown(examples[0])})"
    return "does not have the expected form"


def human_message(error: ValidationError) -> str:
    """What the value at ``error.path`` needs, in plain words (jsonschema's message for rare keywords)."""
    v, need = error.validator, error.validator_value
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    simple: dict[str, Callable[[], str]] = {
        "type": lambda: f"must be {_type_words(need)}",
        "minLength": lambda: (
            "required" if need == 1 and error.instance == "" else f"needs at least {_plural(need, 'character')}"
        ),
        "maxLength": lambda: f"is too long (at most {_plural(need, 'character')})",
        "minimum": lambda: f"must be at least {need}",
        "maximum": lambda: f"must be at most {need}",
        "exclusiveMinimum": lambda: f"must be more than {need}",
        "exclusiveMaximum": lambda: f"must be less than {need}",
        "multipleOf": lambda: f"must be a multiple of {need}",
        "minItems": lambda: f"needs at least {_plural(need, 'item')}",
        "maxItems": lambda: f"has too many items (at most {need})",
        "uniqueItems": lambda: "has the same item twice",
        "pattern": lambda: _pattern_text(schema),
        "format": lambda: f"is not {_FORMATS.get(str(need), f'a valid {need}')}",
        "const": lambda: f"must be {_shown(need)}",
        "minProperties": lambda: f"needs at least {_plural(need, 'field')}",
        "maxProperties": lambda: f"has too many fields (at most {need})",
    }
    if isinstance(v, str) and v in simple:
        return simple[v]()
    if v == "enum" and isinstance(need, list):
        shown = ", ".join(_shown(x) for x in need[:MAX_LISTED_CHOICES])
        more = ", …" if len(need) > MAX_LISTED_CHOICES else ""
        return f"must be one of: {shown}{more}"
    if v == "additionalProperties" and isinstance(error.instance, Mapping):
        props = schema.get("properties")
        known = set(props) if isinstance(props, Mapping) else set()
        extra = sorted(str(k) for k in error.instance if k not in known)
        return f"unexpected field{'s' if len(extra) != 1 else ''}: {', '.join(extra)}" if extra else str(error.message)
    if v in ("oneOf", "anyOf"):
        return "does not fit any of the allowed kinds" if v == "anyOf" else "does not fit exactly one allowed kind"
    return str(error.message)


def without_redundant(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """``errors`` less the ``pattern`` failures of values that also fail their ``format`` (one message is enough)."""
    errors = list(errors)
    bad_format = {tuple(e.absolute_path) for e in errors if e.validator == "format"}
    return [e for e in errors if not (e.validator == "pattern" and tuple(e.absolute_path) in bad_format)]
