"""Answer parsing for the command line (``--answer`` values and the TTY)."""

from __future__ import annotations

import io

import pytest

from workbench.cli.answers import AnswerBook, answer_from_text
from workbench.core.errors import ConfigError
from workbench.core.protocols.base import ElicitationRequest, InputRequest, InputResponse


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('{"travellers": 2}', InputResponse(data={"travellers": 2})),
        ('  {"a": [1]} ', InputResponse(data={"a": [1]})),
        ("cancel", InputResponse(cancel=True)),
        ("CANCEL", InputResponse(cancel=True)),
        ("Ada", InputResponse(text="Ada")),
        ("[1, 2]", InputResponse(text="[1, 2]")),
    ],
)
def test_cli_answers_become_input_responses(value: str, expected: InputResponse) -> None:
    assert answer_from_text(value) == expected


def test_an_answer_that_looks_like_json_but_is_not_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        answer_from_text("{not json")


@pytest.mark.asyncio
async def test_answers_are_used_in_order_then_the_book_defers_with_a_note() -> None:
    note = io.StringIO()
    book = AnswerBook(['{"a": 1}', "first"], interactive=False, note=note)
    request = InputRequest(kind="input", text="?", task_id="t", context_id="c")
    assert await book.input(request) == InputResponse(data={"a": 1})
    assert await book.input(request) == InputResponse(text="first")
    assert await book.input(request) == InputResponse()
    assert "--answer" in note.getvalue()


@pytest.mark.asyncio
async def test_elicitations_take_json_decline_and_cancel() -> None:
    book = AnswerBook(['{"name": "Ada"}', "decline", "cancel"], interactive=False, note=io.StringIO())
    form = ElicitationRequest(mode="form", message="who?", requested_schema={"type": "object"})
    assert (await book.elicitation(form)).content == {"name": "Ada"}
    assert (await book.elicitation(form)).action == "decline"
    assert (await book.elicitation(form)).action == "cancel"
    assert (await book.elicitation(form)).action == "decline"  # nothing left: declined with a note
