"""``workbench call --args`` checked against a tool's inputSchema: what is refused, and what cannot be checked."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.cli.tool_arguments import SchemaUnusableError, argument_problems, check_arguments, parameters
from workbench.core.errors import ConfigError

POINT = {
    "type": "object",
    "properties": {"x": {"type": "number"}, "label": {"type": "string", "enum": ["a", "b"]}},
    "required": ["x"],
    "additionalProperties": False,
}


def test_arguments_that_fit_pass_and_an_empty_schema_checks_nothing() -> None:
    assert argument_problems(POINT, {"x": 1.5, "label": "a"}) == []
    assert argument_problems({}, {"anything": [1]}) == []


def test_each_problem_is_named_by_its_field() -> None:
    problems = argument_problems(POINT, {"label": "c", "extra": 1})
    assert problems == [
        "'x' is a required property",
        "Additional properties are not allowed ('extra' was unexpected)",
        'label: "c" is not one of: a, b',  # the value given and those that fit
    ]


def test_a_draft_07_schema_is_checked_in_its_own_dialect() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "items": [{"type": "string"}]}
    assert argument_problems(schema, {}) == []  # 'items' as an array is valid draft 7 (not 2020-12)


@pytest.mark.parametrize(
    "schema",
    [
        {
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        },
        {"type": "object", "properties": {"x": {"$ref": "#/$defs/missing"}}},
        {"type": 12},
    ],
    ids=["endless-refs", "unresolvable-ref", "invalid"],
)
def test_a_schema_that_cannot_check_sends_the_arguments_with_a_warning(schema: dict[str, Any]) -> None:
    with pytest.raises(SchemaUnusableError):
        argument_problems(schema, {"x": 1})
    warning = check_arguments("t", schema, {"x": 1})
    assert warning is not None and warning.startswith("t's input schema cannot be checked: ")


def test_arguments_that_do_not_fit_are_a_config_error_naming_what_the_tool_takes() -> None:
    with pytest.raises(ConfigError) as caught:
        check_arguments("plot", POINT, {})
    assert caught.value.details["problems"] == ["'x' is a required property"]
    assert (
        caught.value.hint == "plot takes: x* (number), label (string) (* required); --no-validate sends them as given"
    )


def test_the_hint_names_a_dozen_parameters_at_most() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": ["string", "null"]} for i in range(20)}}
    hint = parameters(schema)
    assert hint.startswith("p0 (string|null), p1 (string|null)") and hint.endswith(", … (8 more)")
    assert parameters({"type": "object"}) == "no parameters"
