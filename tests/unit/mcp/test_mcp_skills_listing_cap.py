"""A ``skills/list`` page with too many entries is refused from its text, as the other listings are."""

from __future__ import annotations

import json

from mcp.types import JSONRPCError, JSONRPCRequest

from workbench.core.protocols.mcp.listing_cap import ListingCap


def test_a_skills_page_over_the_limit_is_replaced_by_an_error_reply_before_it_is_parsed() -> None:
    cap = ListingCap(max_page_items=10)
    cap.sent(JSONRPCRequest(jsonrpc="2.0", id=3, method="skills/list"))
    entries = [{"uri": f"skill://s{i}/SKILL.md"} for i in range(11)]
    refused = cap.check_text(json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"skills": entries}}))
    assert refused is not None and isinstance(refused.message, JSONRPCError) and refused.message.id == 3
