"""How ``workbench call`` prints a tool result: each text once, the structured form only when it adds something."""

from __future__ import annotations

import io

from workbench.cli.render import tool_result_human
from workbench.core.protocols.base import ContentPart, ToolResult


def _printed(result: ToolResult) -> str:
    out = io.StringIO()
    tool_result_human(result, out)
    return out.getvalue()


def test_structured_content_that_the_text_already_serialises_is_not_printed_twice() -> None:
    result = ToolResult([ContentPart("text", text='{\n  "a": [1, 2]\n}')], structured_content={"a": [1, 2]})
    assert _printed(result) == '{\n  "a": [1, 2]\n}\n'


def test_structured_content_holding_just_the_text_is_not_printed_twice() -> None:
    result = ToolResult([ContentPart("text", text="hello\n")], structured_content={"content": "hello\n"})
    assert _printed(result) == "hello\n"  # the text's own newline is not doubled either


def test_structured_content_of_another_shape_follows_the_text_with_long_strings_cut() -> None:
    blob = "A" * 400
    result = ToolResult([ContentPart("text", text="two fields")], structured_content={"n": 2, "data": blob})
    assert _printed(result) == 'two fields\nstructured: {"n": 2, "data": "' + "A" * 80 + '… (400 characters)"}\n'


def test_a_text_that_only_looks_like_json_keeps_the_structured_line() -> None:
    result = ToolResult([ContentPart("text", text="{not json")], structured_content={"a": 1})
    assert _printed(result) == '{not json\nstructured: {"a": 1}\n'
