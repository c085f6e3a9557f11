"""The order a schema's fields are shown in, and the CLI asking for them in that order (the form's)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from workbench.cli.answers import AnswerBook
from workbench.core.protocols.base import ElicitationRequest, InputRequest
from workbench.core.schema_order import in_display_order, ordered_properties

NAMES = ["surname", "given_name", "passport", "nationality", "birth_date", "email", "phone", "seat", "meal", "zip"]
HINTED: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{n: {"type": "string"} for n in sorted(NAMES)},
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            "x-order": ["city", "street"],
        },
    },
    "x-order": NAMES,
}


def test_ordered_properties_follow_the_schema_unless_it_names_an_order() -> None:
    plain = {"type": "object", "properties": {n: {"type": "string"} for n in NAMES}}
    assert [name for name, _ in ordered_properties(plain)] == NAMES
    assert [name for name, _ in ordered_properties(HINTED)] == [*NAMES, "address"]  # unnamed ones follow


def test_in_display_order_reorders_every_level_and_changes_nothing_else() -> None:
    shown = in_display_order(HINTED)
    assert list(shown["properties"]) == [*NAMES, "address"]
    assert list(shown["properties"]["address"]["properties"]) == ["city", "street"]
    assert shown == HINTED and list(HINTED["properties"]) == [*sorted(NAMES), "address"]  # a copy


@pytest.mark.asyncio
async def test_the_answer_book_shows_an_agents_schema_with_its_fields_in_the_forms_order() -> None:
    note = io.StringIO()
    book = AnswerBook([], interactive=False, note=note)
    await book.input(InputRequest("input", "Who is flying?", task_id="t", context_id="c", schema=HINTED))
    [line] = [line for line in note.getvalue().splitlines() if "answer with JSON matching: " in line]
    printed = json.loads(line.split("answer with JSON matching: ", 1)[1])
    assert list(printed["properties"]) == [*NAMES, "address"]


@pytest.mark.asyncio
async def test_the_terminal_form_asks_for_the_fields_in_the_forms_order(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = {"type": "object", "properties": {n: {"type": "string"} for n in sorted(NAMES)}, "x-order": NAMES}
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n" + "".join(f"{n}!\n" for n in NAMES)))
    note = io.StringIO()
    book = AnswerBook([], interactive=True, note=note)
    response = await book.elicitation(ElicitationRequest(mode="form", message="who?", requested_schema=schema))
    assert response.action == "accept" and response.content == {n: f"{n}!" for n in NAMES}
    assert list(response.content) == NAMES
    asked = note.getvalue()
    assert [asked.index(n) for n in NAMES] == sorted(asked.index(n) for n in NAMES)


def test_a_required_that_is_not_a_list_is_ignored() -> None:
    schema = {"type": "object", "properties": {"a": {}, "b": {}}, "required": True}
    assert [name for name, _ in ordered_properties(schema)] == ["a", "b"]
