"""A form answered on the command line is checked for the formats the window's forms check (date-time, uri too)."""

from __future__ import annotations

import pytest

from workbench.cli.form_answers import schema_problems

FORM = {
    "type": "object",
    "properties": {
        "when": {"type": "string", "format": "date-time"},
        "at": {"type": "string", "format": "time"},
        "link": {"type": "string", "format": "uri"},
        "email": {"type": "string", "format": "email"},
    },
}


def test_well_formed_values_fit() -> None:
    answer = {"when": "2026-12-01T09:30:00Z", "at": "09:30:00+01:00", "link": "https://example.org/x", "email": "a@b.c"}
    assert schema_problems(FORM, answer) == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("when", "tomorrow"), ("when", "2026-12-01 25:00:00Z"), ("at", "9.30"), ("link", "not a uri"), ("email", "x")],
)
def test_a_malformed_value_is_refused_naming_its_field_and_format(field: str, value: str) -> None:
    (problem,) = schema_problems(FORM, {field: value})
    assert problem.startswith(f"{field}: ") and FORM["properties"][field]["format"] in problem
