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


_PARTY_FORM = {
    "type": "object",
    "properties": {
        "party": {"type": "integer", "title": "Party size", "minimum": 1, "maximum": 12},
        "seating": {
            "type": "string",
            "oneOf": [{"const": "in", "title": "Inside"}, {"const": "out", "title": "Terrace"}],
        },
    },
    "required": ["party"],
}


@pytest.mark.asyncio
async def test_a_scripted_form_answer_outside_the_schema_is_cancelled_and_recorded() -> None:
    book = AnswerBook(['{"party": 30, "seating": "roof"}'], interactive=False, note=io.StringIO())
    form = ElicitationRequest(mode="form", message="table?", requested_schema=_PARTY_FORM)
    assert (await book.elicitation(form)).action == "cancel"
    assert len(book.problems) == 1
    assert "party" in book.problems[0].message and "seating" in book.problems[0].message


@pytest.mark.asyncio
async def test_the_terminal_form_re_asks_a_bad_field_then_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n30\n4\nTerrace\n"))
    note = io.StringIO()
    book = AnswerBook([], interactive=True, note=note)
    form = ElicitationRequest(mode="form", message="table?", requested_schema=_PARTY_FORM)
    response = await book.elicitation(form)
    assert (response.action, response.content) == ("accept", {"party": 4, "seating": "out"})
    assert "12" in note.getvalue()  # the range the first answer missed was named
    assert "Inside" in note.getvalue() and "Terrace" in note.getvalue()  # titles, not const ids


@pytest.mark.asyncio
async def test_input_ending_in_the_middle_of_a_terminal_form_cancels_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    book = AnswerBook([], interactive=True, note=io.StringIO())
    form = ElicitationRequest(mode="form", message="table?", requested_schema=_PARTY_FORM)
    assert (await book.elicitation(form)).action == "cancel"


@pytest.mark.asyncio
async def test_a_call_that_asks_first_is_shown_with_its_hints_and_goes_out_only_on_yes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workbench.core.protocols.catalog import ToolSpec
    from workbench.core.tool_approval import ToolCallRequest

    tool = ToolSpec("wipe\x1b[2J", annotations={"destructiveHint": True, "openWorldHint": False})
    request = ToolCallRequest("demo", tool, {"path": "/tmp/x"}, caller="cli")
    monkeypatch.setattr("sys.stdin", io.StringIO("y\nn\n"))
    note = io.StringIO()
    book = AnswerBook([], interactive=True, note=note)
    assert await book.approve_tool_call(request) is True
    assert await book.approve_tool_call(request) is False
    assert await book.approve_tool_call(request) is False  # the input ended: no
    shown = note.getvalue()
    assert "destructive: yes" in shown and "open world: no" in shown and '"/tmp/x"' in shown
    assert "\x1b" not in shown  # the server's tool name cannot drive the terminal
    assert await AnswerBook([], interactive=False, note=io.StringIO()).approve_tool_call(request) is False
