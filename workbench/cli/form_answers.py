"""Answers to an MCP elicitation form on the command line: checked against ``requestedSchema`` first.

Nothing the schema refuses is sent as ``accept``: a scripted ``--answer`` that does not fit is
reported (the request is cancelled and the command exits 2), and a person at a terminal is asked
again, field by field, with the schema's titles, descriptions and choice labels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of a field and the label a person reads."""

    value: Any
    label: str


def schema_problems(schema: dict[str, Any] | None, content: Any) -> list[str]:
    """What is wrong with ``content`` for ``schema``, one readable line per problem (empty: it fits)."""
    if not schema:
        return []
    from jsonschema import Draft202012Validator  # lazy: ~70 ms, only when a form is answered
    from jsonschema.exceptions import SchemaError

    try:
        validator = Draft202012Validator(schema)
        errors = sorted(validator.iter_errors(content), key=lambda e: list(e.absolute_path))
    except SchemaError as exc:
        return [f"the server's schema is invalid: {exc.message}"]
    problems = []
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path)
        if error.validator == "pattern":
            message = f"does not have the required form (pattern {error.validator_value})"
        elif error.validator in ("enum", "const", "oneOf", "anyOf"):
            message = "is not one of the allowed values"
        else:
            message = error.message
        problems.append(f"{where}: {message}" if where else message)
    return problems


def choices(prop: dict[str, Any]) -> list[Choice]:
    """The allowed values of a field with their labels (``enum`` + ``enumNames``, ``oneOf`` consts)."""
    if "enum" in prop:
        names = prop.get("enumNames") or []
        return [Choice(v, str(names[i]) if i < len(names) else str(v)) for i, v in enumerate(prop["enum"])]
    options = prop.get("oneOf") or prop.get("anyOf") or []
    return [Choice(o["const"], str(o.get("title") or o["const"])) for o in options if "const" in o]


def item_choices(prop: dict[str, Any]) -> list[Choice]:
    """For an array field: the allowed values of its items (a multi-select)."""
    items = prop.get("items")
    return choices(items) if isinstance(items, dict) else []


def field_prompt(name: str, prop: dict[str, Any], required: bool) -> str:
    """The prompt a person answers for one field: its title, ``*`` when required."""
    return f"{prop.get('title') or name}{' *' if required else ''}: "


def describe_field(prop: dict[str, Any]) -> list[str]:
    """The lines shown before a field's prompt: description, type, choices, bounds, default."""
    kind = str(prop.get("type", "string"))
    lines = [f"  ({kind})"]
    if prop.get("description"):
        lines.append(f"  {prop['description']}")
    options = choices(prop) or item_choices(prop)
    for i, choice in enumerate(options, 1):
        lines.append(f"  {i}. {choice.label}")
    if options and kind == "array":
        lines.append("  (several: numbers or labels separated by commas)")
    bounds = [f"{k} {prop[k]}" for k in ("minimum", "maximum", "minLength", "maxLength") if k in prop]
    if bounds:
        lines.append("  " + ", ".join(bounds))
    if "default" in prop:
        lines.append(f"  default: {json.dumps(prop['default'], ensure_ascii=False)}")
    return lines


def parse_field(prop: dict[str, Any], raw: str) -> Any:
    """A person's typed text as the field's value.

    Raises:
        ValueError: The text is not a value of the field's type or choices.
    """
    kind = prop.get("type", "string")
    text = raw.strip()
    if kind == "array":
        options = item_choices(prop)
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return [_pick(options, p) if options else p for p in parts]
    options = choices(prop)
    if options:
        return _pick(options, text)
    if kind == "integer":
        return int(text)
    if kind == "number":
        return float(text)
    if kind == "boolean":
        if text.lower() in ("y", "yes", "true", "1"):
            return True
        if text.lower() in ("n", "no", "false", "0"):
            return False
        raise ValueError("answer yes or no")
    return raw


def _pick(options: list[Choice], text: str) -> Any:
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1].value
    for choice in options:
        if text in (choice.label, str(choice.value)):
            return choice.value
    raise ValueError("choose one of: " + ", ".join(c.label for c in options))
