"""A listing that never ends is refused with a typed error naming the limit, fast and in bounded memory.

A server whose ``tools/list`` always returns another ``nextCursor`` is stopped at the page limit,
not paged for the whole connect timeout (400 MB after 30 s), and the error names the listing, not
the handshake.
"""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from tests.servers import script_path
from workbench.core.errors import ProtocolError
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.protocols.mcp.discovery import MAX_PAGES, PageGuard, all_pages
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("behaviour", "limit", "pages"), [("forever", "max_pages", MAX_PAGES), ("loop", "cursor_repeated", 2)]
)
async def test_a_server_that_never_ends_its_tool_list_is_refused_naming_the_limit(
    behaviour: str, limit: str, pages: int
) -> None:
    wire = WireRecorder()
    agent = MCPAgent.stdio(sys.executable, [script_path("endless_pages"), behaviour], mode="legacy", wire=wire)
    started = time.monotonic()
    with pytest.raises(ProtocolError) as refused:
        await asyncio.wait_for(agent.connect(), 60)
    await agent.aclose()
    assert refused.value.details == {"limit": limit, "pages": pages, "items": pages}
    assert "tools" in refused.value.message
    assert time.monotonic() - started < 30  # not the connect timeout
    listed = [r for r in wire.records() if r.kind is WireKind.JSONRPC and r.method == "tools/list"]
    assert len(listed) == pages  # the wire log keeps every page that arrived


class _Page:
    def __init__(self, items: list[int], next_cursor: str | None) -> None:
        self.items, self.next_cursor = items, next_cursor


@pytest.mark.asyncio
async def test_ten_thousand_items_over_many_pages_are_fine_and_too_many_items_are_not() -> None:
    async def fetch(cursor: str | None) -> _Page:
        start = int(cursor or 0)
        return _Page(list(range(start, start + 100)), str(start + 100) if start + 100 < 10_000 else None)

    assert len(await all_pages(fetch, "items")) == 10_000
    guard = PageGuard("items", max_items=150)
    assert guard.page(100, "next") is True
    with pytest.raises(ProtocolError) as refused:
        guard.page(100, "more")
    assert refused.value.details["limit"] == "max_items"
