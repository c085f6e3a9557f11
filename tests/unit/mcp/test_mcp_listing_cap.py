"""A listing page with too many items is refused from its text, its items counted but never built."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

from workbench.core.errors import ProtocolError
from workbench.core.protocols.mcp.discovery import PageGuard
from workbench.core.protocols.mcp.listing_cap import ListingCap, count_page_items


def page(items: list[Any], rpc_id: int = 7, field: str = "tools") -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "result": {field: items, "nextCursor": "c"}})


@pytest.mark.parametrize(
    ("text", "count"),
    [
        (page([]), 0),
        (page([{"name": "a", "inputSchema": {"x": [1, {"y": "],{"}]}}]), 1),
        (page([{}] * 5), 5),
        (page([1, "two", None]), 3),
        ('{"result" : { "tools" : [ {} , {} ] } }', 2),
        (json.dumps({"params": {"tools": [1]}, "result": {"x": {"tools": [1, 2]}, "tools": [{}] * 4}}), 4),
        (json.dumps({"result": {"prompts": [{}]}}), None),
    ],
)
def test_the_items_of_a_page_are_counted_at_its_own_place_only(text: str, count: int | None) -> None:
    assert count_page_items(text, "tools", 100) == count


def test_counting_stops_just_past_the_limit() -> None:
    assert count_page_items(page([{}] * 1000), "tools", 10) == 11


def test_an_answer_to_a_listing_request_over_the_limit_is_replaced_by_an_error_reply() -> None:
    cap = ListingCap(max_page_items=10)
    cap.sent(JSONRPCRequest(jsonrpc="2.0", id=7, method="tools/list"))
    assert cap.check_text(page([{"name": "t"}] * 10)) is None  # at the limit: read as usual
    refused = cap.check_text(page([{"name": "t"}] * 50))
    assert refused is not None and isinstance(refused.message, JSONRPCError) and refused.message.id == 7
    assert cap.check_text(page([{"name": "t"}] * 50)) is None  # answered: no longer waited for


def test_only_answers_to_listing_requests_are_counted() -> None:
    cap = ListingCap(max_page_items=10)
    cap.sent(JSONRPCRequest(jsonrpc="2.0", id=7, method="tools/call"))
    assert cap.check_text(page([{}] * 50)) is None
    cap.sent(JSONRPCRequest(jsonrpc="2.0", id=8, method="prompts/list"))
    assert cap.check_text(page([{}] * 50, rpc_id=8)) is None  # prompts/list's items are under "prompts"
    parsed = SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=8, result={"prompts": [{"name": "p"}] * 11}))
    refused = cap.check_message(parsed)
    assert refused is not None and isinstance(refused.message, JSONRPCError)


def test_a_listing_too_large_in_all_is_not_called_broken_pagination() -> None:
    guard = PageGuard("tools", max_items=150)
    assert guard.page(100, "next") is True
    with pytest.raises(ProtocolError) as refused:
        guard.page(100, "more")
    assert refused.value.details == {"limit": "max_items", "pages": 2, "items": 200}
    assert "pagination" not in (refused.value.hint or "")
