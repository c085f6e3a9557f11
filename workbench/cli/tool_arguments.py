"""``workbench call --args``: checked against the tool's ``inputSchema`` before anything is sent.

A server answers arguments that do not fit with its own words, often a stack of validator output
("expected number, received NaN", "1 validation error for …Arguments"), and some act on them. The
command line says what does not fit, field by field, and what the tool takes, and sends nothing
(exit 2, like any usage error). ``--no-validate`` sends them as given, to test the server's own
checks. A schema that cannot be used (invalid, unresolvable or endlessly recursive ``$ref``) checks
nothing: the arguments go as given, with a warning.
"""

from __future__ import annotations

from typing import Any

from workbench.cli.form_answers import not_a_choice
from workbench.core.errors import ConfigError
from workbench.core.schema_check import clipped, first_errors

MAX_PROBLEMS = 5
"""Problems listed in the error; the rest are counted."""
MAX_PARAMETERS = 12
"""Parameters named in the hint; the rest are counted."""


class SchemaUnusableError(Exception):
    """The tool's ``inputSchema`` cannot check anything (the message says why)."""


def argument_problems(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """What in ``arguments`` does not fit ``schema``, one readable line each (empty: they fit).

    The schema's ``$schema`` dialect is used when it names one jsonschema knows, else Draft 2020-12
    (MCP's default). Formats are not checked: servers differ on them. At most ``schema_check.MAX_LISTED``
    problems (in path order), then one line counting the others.

    Raises:
        SchemaUnusableError: The schema is invalid, refers to something that cannot be resolved, or
            its references never end.
    """
    problems, total = _first_problems(schema, arguments)
    if total > len(problems):
        problems.append(f"… and {total - len(problems):,} more problems")
    return problems


def _first_problems(schema: dict[str, Any], arguments: dict[str, Any]) -> tuple[list[str], int]:
    """The first ``schema_check.MAX_LISTED`` problems, each cut to a readable length, and how many there are."""
    if not schema:
        return [], 0
    from jsonschema.exceptions import SchemaError  # lazy: only when a tool is called
    from jsonschema.validators import Draft202012Validator, validator_for
    from referencing.exceptions import Unresolvable

    try:
        cls = validator_for(schema, default=Draft202012Validator)
        cls.check_schema(schema)
        errors, total = first_errors(cls(schema).iter_errors(arguments))
    except SchemaError as exc:
        raise SchemaUnusableError(f"it is not a valid JSON Schema ({clipped(exc.message)})") from None
    except Unresolvable as exc:
        raise SchemaUnusableError(f"it refers to something that cannot be resolved ({clipped(str(exc))})") from None
    except RecursionError:
        raise SchemaUnusableError("its references point at each other without end") from None
    problems = []
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path)
        if error.validator in ("enum", "const", "oneOf", "anyOf"):
            message = not_a_choice(error.instance, error.schema)  # the value given and those that fit
        else:
            message = error.message
        problems.append(clipped(f"{clipped(where, 80)}: {message}" if where else message))
    return problems, total


def parameters(schema: dict[str, Any]) -> str:
    """The tool's top-level parameters for a hint: ``name* (type), …`` (``*`` when required)."""
    props = schema.get("properties")
    if not isinstance(props, dict) or not props:
        return "no parameters"
    listed = schema.get("required")
    required = listed if isinstance(listed, list) else []
    out = []
    for name, prop in list(props.items())[:MAX_PARAMETERS]:
        kind_text = "|".join(_types(prop)) or "any"
        out.append(f"{clipped(name, 60)}{'*' if name in required else ''} ({clipped(kind_text, 60)})")
    more = f", … ({len(props) - MAX_PARAMETERS} more)" if len(props) > MAX_PARAMETERS else ""
    return ", ".join(out) + more


def _types(prop: Any) -> list[str]:
    """The JSON types a parameter takes: its ``type``, or its ``anyOf``/``oneOf`` alternatives' (``string|null``)."""
    if not isinstance(prop, dict):
        return []
    kind = prop.get("type")
    if isinstance(kind, list):
        return [str(k) for k in kind]
    if kind:
        return [str(kind)]
    found: list[str] = []
    for option in prop.get("anyOf") or prop.get("oneOf") or []:
        found += [k for k in _types(option) if k not in found]
    return found


def check_arguments(tool: str, schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """Refuse ``arguments`` that do not fit the tool's ``inputSchema``.

    Returns:
        None when they fit, or a warning to show when the schema could not check them.

    Raises:
        ConfigError: They do not fit; the message lists the problems, the hint what the tool takes.
    """
    try:
        problems, total = _first_problems(schema, arguments)
    except SchemaUnusableError as exc:
        return f"{tool}'s input schema cannot be checked: {exc}; the arguments are sent as given"
    if not problems:
        return None
    listed = "; ".join(problems[:MAX_PROBLEMS])
    more = f" (and {total - MAX_PROBLEMS:,} more)" if total > MAX_PROBLEMS else ""
    raise ConfigError(
        f"--args do not fit {tool}'s input schema: {listed}{more}.",
        hint=f"{tool} takes: {parameters(schema)} (* required); --no-validate sends them as given",
        details={"tool": tool, "problems": problems, "problem_count": total},
    )
