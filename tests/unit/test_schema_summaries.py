"""What is said about a huge schema stays small: first problems, fields and choices named, the rest counted."""

from __future__ import annotations

import pytest

from workbench.cli.form_answers import describe_field, form_summary, not_a_choice, schema_problems, unknown_fields
from workbench.cli.tool_arguments import check_arguments
from workbench.core.errors import ConfigError
from workbench.core.schema_check import clipped, first_errors, listed, make_validator

NAMES = [f"f{i:05d}" for i in range(50_000)]
HUGE = {"type": "object", "properties": {n: {"type": "string"} for n in NAMES}, "required": NAMES}


def test_listed_names_the_first_items_and_counts_the_rest() -> None:
    assert listed(["a", "b"]) == "a, b"
    assert listed(map(str, range(25)), limit=3) == "0, 1, 2, … and 22 more"
    assert listed(iter(["x" * 500]), total=7, limit=1, what="more fields") == f"{'x' * 199}…, … and 6 more fields"
    assert clipped("abcdef", 4) == "abc…"


def test_first_errors_keeps_the_first_in_path_order_and_counts_them_all() -> None:
    errors, total = first_errors(make_validator(HUGE).iter_errors({}), 3)
    assert total == 50_000
    assert [e.message for e in errors] == ["'f00000' is a required property", "'f00001' is a required property",
                                           "'f00002' is a required property"]  # fmt: skip


def test_problems_with_an_answer_to_a_form_of_50000_fields_fit_in_a_few_lines() -> None:
    problems = schema_problems(HUGE, {"zzz": 1}) + unknown_fields(HUGE, {"zzz": 1, **{f"z{i}": 1 for i in range(50)}})
    assert problems[10] == "… and 49,990 more problems"
    assert problems[-1] == "… and 41 more fields the form does not have"
    assert len("; ".join(problems)) < 2_000


def test_a_form_summary_a_field_and_a_refused_choice_name_a_few_and_count_the_rest() -> None:
    summary = form_summary(HUGE)
    assert summary.startswith("f00000* (string), f00001* (string)") and summary.endswith(", … and 49,980 more fields")
    many = {"type": "string", "enum": [f"v{i}" for i in range(10_000)], "description": "d" * 100_000}
    lines = describe_field(many)
    assert len(lines) < 30 and lines[-1] == "  … and 9,980 more (type one by its value)"
    assert sum(map(len, lines)) < 2_000
    refused = not_a_choice("nope", many)
    assert refused.endswith("… and 9,990 more") and len(refused) < 500


def test_arguments_that_miss_many_required_parameters_are_refused_in_a_short_error() -> None:
    names = NAMES[:500]  # checking the schema itself costs ~1 ms a parameter: 500 show the summary as well
    wide = {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": names}
    with pytest.raises(ConfigError) as caught:
        check_arguments("wide", wide, {})
    error = caught.value
    assert error.details["problem_count"] == 500 and len(error.details["problems"]) == 10
    assert len(error.message) + len(error.hint or "") < 2_000
