"""Answers to an MCP elicitation form on the command line: checked against ``requestedSchema`` first.

Nothing the schema refuses is sent as ``accept``: a scripted ``--answer`` that does not fit is
reported (the request is cancelled and the command exits 2), and a person at a terminal is asked
again, field by field, with the schema's titles, descriptions and choice labels.

What is said stays small whatever the schema's size: the first problems, fields and choices are
named and the rest counted (``workbench.core.schema_check.listed``, ``first_errors``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from workbench.core.schema_check import MAX_LISTED, clipped, listed
from workbench.core.schema_order import ordered_properties

MAX_FORM_FIELDS = 20
"""Fields a form's one-line summary names; the rest are counted."""
MAX_CHOICES_SHOWN = 20
"""Choices listed under a field on a terminal (any other value the field takes is still accepted typed)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of a field and the label a person reads."""

    value: Any
    label: str


def schema_problems(schema: dict[str, Any] | None, content: Any) -> list[str]:
    """What is wrong with ``content`` for ``schema``, one readable line per problem (empty: it fits).

    At most ``MAX_LISTED`` problems (in path order, each cut to a readable length), then one line
    counting the others.
    """
    if not schema:
        return []
    from jsonschema.exceptions import SchemaError  # lazy: ~70 ms, only when a form is answered

    from workbench.core.schema_check import first_errors, make_validator

    try:
        # Formats too (email, date, date-time, uri …), as the window's forms check them.
        validator = make_validator(schema)
        errors, total = first_errors(validator.iter_errors(content))
    except SchemaError as exc:
        return [f"the server's schema is invalid: {clipped(exc.message)}"]
    problems = []
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path)
        if error.validator == "pattern":
            message = f"does not have the required form (pattern {error.validator_value})"
        elif error.validator == "format":
            message = f"{json.dumps(error.instance, ensure_ascii=False)} is not a valid {error.validator_value}"
        elif error.validator in ("enum", "const", "oneOf", "anyOf"):
            message = not_a_choice(error.instance, error.schema)
        else:
            message = error.message
        problems.append(clipped(f"{clipped(where, 80)}: {message}" if where else message))
    if total > len(errors):
        problems.append(f"… and {total - len(errors):,} more problems")
    return problems


def with_defaults(schema: dict[str, Any] | None, content: dict[str, Any]) -> dict[str, Any]:
    """``content`` with the form's defaults for the fields it leaves out (SEP-1034).

    A scripted answer is what a person would send from the form pre-filled with its defaults, having
    changed the fields they name; the window's form and the terminal form do the same.
    """
    properties = (schema or {}).get("properties")
    if not isinstance(properties, dict):
        return content
    defaults = {
        name: prop["default"]
        for name, prop in properties.items()
        if isinstance(prop, dict) and "default" in prop and name not in content
    }
    return {**defaults, **content} if defaults else content


def unknown_fields(schema: dict[str, Any] | None, content: Any) -> list[str]:
    """Fields of ``content`` the form does not have, one readable line each (a typo is not sent silently).

    An MCP elicitation form is a flat object of named fields: a key it does not name would reach the
    server as part of an "accept" and be ignored there.
    """
    properties = (schema or {}).get("properties")
    if not isinstance(content, dict) or not isinstance(properties, dict) or not properties:
        return []
    extra = [key for key in content if key not in properties]
    if not extra:
        return []
    fields = listed(properties, total=len(properties), what="more")
    problems = [f"{clipped(key, 80)}: is not a field of this form (its fields: {fields})" for key in extra[:1]]
    problems += [f"{clipped(key, 80)}: is not a field of this form" for key in extra[1:MAX_LISTED]]
    if len(extra) > MAX_LISTED:
        problems.append(f"… and {len(extra) - MAX_LISTED:,} more fields the form does not have")
    return problems


def not_a_choice(value: Any, schema: Any) -> str:
    """Why ``value`` is refused by ``schema``'s choices: ``"x" is not one of: a (Label A), b (Label B)``.

    Without the list when the schema names no choices (a ``oneOf`` of sub-schemas, say).
    """
    given = clipped(json.dumps(value, ensure_ascii=False), 80)
    options = choices(schema) if isinstance(schema, dict) else []
    if not options:
        return f"{given} is not one of the allowed values"
    return f"{given} is not one of: {listed((_choice_text(c) for c in options), total=len(options))}"


def _choice_text(choice: Choice) -> str:
    value = json.dumps(choice.value, ensure_ascii=False) if not isinstance(choice.value, str) else choice.value
    return value if choice.label == value else f"{value} ({choice.label})"


def choices(prop: dict[str, Any]) -> list[Choice]:
    """The allowed values of a field with their labels (``enum`` + ``enumNames``, ``oneOf`` consts)."""
    if "enum" in prop:
        names = prop.get("enumNames") or []
        return [Choice(v, str(names[i]) if i < len(names) else str(v)) for i, v in enumerate(prop["enum"])]
    options = prop.get("oneOf") or prop.get("anyOf") or []
    return [Choice(o["const"], str(o.get("title") or o["const"])) for o in options if "const" in o]


SIMPLE_TYPES = frozenset({"string", "number", "integer", "boolean"})
"""Field types a person types on a terminal (``parse_field`` reads them)."""


def is_flat_form(schema: Any) -> bool:
    """Whether a person can fill ``schema`` field by field on a terminal: an object of simple fields.

    Simple: a string, number, integer or boolean (choices included), or an array of choices. Anything
    else (a nested object, an array of objects, a ``$ref``) is answered as JSON instead.
    """
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or not properties:
        return False
    for prop in properties.values():
        if not isinstance(prop, dict) or "$ref" in prop:
            return False
        kind = prop.get("type", "string" if choices(prop) else None)
        if kind not in SIMPLE_TYPES and not (kind == "array" and item_choices(prop)):
            return False
    return True


def item_choices(prop: dict[str, Any]) -> list[Choice]:
    """For an array field: the allowed values of its items (a multi-select)."""
    items = prop.get("items")
    return choices(items) if isinstance(items, dict) else []


def form_summary(schema: dict[str, Any] | None) -> str:
    """A form's fields on one line, for a note that says how to answer it with ``--answer JSON``.

    ``name* (string), check (boolean), hero (hero-1 | hero-2), fish (list of fish-1 | fish-2)``; ``*`` = required.
    The first ``MAX_FORM_FIELDS`` fields, then how many more.
    """
    named = (schema or {}).get("required")
    required = {r for r in named if isinstance(r, str)} if isinstance(named, list) else set()
    ordered = ordered_properties(schema or {})
    fields = []
    for name, prop in ordered[:MAX_FORM_FIELDS]:
        options = choices(prop)
        items = item_choices(prop)
        if options:
            kind = listed((_choice_value(c) for c in options), total=len(options), sep=" | ", limit=8)
        elif items:
            kind = "list of " + listed((_choice_value(c) for c in items), total=len(items), sep=" | ", limit=8)
        else:
            kind = clipped(_kind(prop), 60)
        fields.append(f"{clipped(name, 60)}{'*' if name in required else ''} ({kind})")
    more = len(ordered) - len(fields)
    return ", ".join(fields) + (f", … and {more:,} more fields" if more > 0 else "")


def _kind(prop: dict[str, Any]) -> str:
    """A field's type as a person reads it: ``string``, ``string, email``."""
    kind = str(prop.get("type", "string"))
    return f"{kind}, {prop['format']}" if isinstance(prop.get("format"), str) else kind


def _choice_value(choice: Choice) -> str:
    return choice.value if isinstance(choice.value, str) else json.dumps(choice.value)


def field_prompt(name: str, prop: dict[str, Any], required: bool) -> str:
    """The prompt a person answers for one field: its title, ``*`` when required."""
    return f"{prop.get('title') or name}{' *' if required else ''}: "


def describe_field(prop: dict[str, Any]) -> list[str]:
    """The lines shown before a field's prompt: description, type, choices, bounds, default."""
    kind = str(prop.get("type", "string"))
    lines = [f"  ({_kind(prop)})"]
    if prop.get("description"):
        lines.append(f"  {clipped(str(prop['description']), 1000)}")
    options = choices(prop) or item_choices(prop)
    for i, choice in enumerate(options[:MAX_CHOICES_SHOWN], 1):
        lines.append(f"  {i}. {clipped(choice.label)}")
    if len(options) > MAX_CHOICES_SHOWN:
        lines.append(f"  … and {len(options) - MAX_CHOICES_SHOWN:,} more (type one by its value)")
    if options and kind == "array":
        lines.append("  (several: numbers or labels separated by commas)")
    bounds = [f"{k} {prop[k]}" for k in ("minimum", "maximum", "minLength", "maxLength") if k in prop]
    if bounds:
        lines.append("  " + ", ".join(bounds))
    if "default" in prop:
        lines.append(f"  default: {_default_text(prop['default'], options)}")
    return lines


def _default_text(default: Any, options: list[Choice]) -> str:
    """A default as the person reads it: a choice's label (``Superman``, not ``hero-1``), else JSON."""
    labels = {json.dumps(c.value): c.label for c in options}
    if options and isinstance(default, list) and all(json.dumps(v) in labels for v in default):
        return ", ".join(labels[json.dumps(v)] for v in default)
    if options and json.dumps(default) in labels:
        return labels[json.dumps(default)]
    return json.dumps(default, ensure_ascii=False)


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
