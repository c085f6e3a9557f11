"""A listing page with too many items, refused as it arrives: before the SDK builds an object per item.

A server can answer ``tools/list`` with one page of 400,000 tools: parsed into dicts, then into the
SDK's models, then into the catalog, that took 1.6 GB before the listing's total was checked. The
transports tell ``ListingCap`` which listing requests they sent; a response to one of them with more
than ``MAX_PAGE_ITEMS`` items is replaced by an error reply naming the limit, counted from the raw
text where the transport has it (stdio: the items are counted, not built, and counting stops at the
limit) or from the parsed message before the SDK validates it (HTTP). ``page_refusal`` turns that
reply into the typed error ``discovery.all_pages`` raises.
"""

from __future__ import annotations

import json
import re
from typing import Any

import mcp_types
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

from workbench.core.errors import ProtocolError
from workbench.core.protocols.mcp.provenance import StandInError
from workbench.core.wire.parse import scan_large

MAX_PAGE_ITEMS = 20_000
"""Most items one page of a listing may hold (a page of more is refused unread)."""
MAX_ITEMS = 50_000
"""Most items one listing collects over all its pages (``discovery.PageGuard``)."""
REFUSED_PAGE = "workbench.refused_page"
"""Marker in the ``data`` of the error reply that stands for a refused page."""

LIST_FIELDS = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
    "tasks/list": "tasks",
    "skills/list": "skills",
}
"""Each listing method and the member of its result that holds the page's items."""
_WHAT = {"resourceTemplates": "resource templates"}

MAX_PENDING = 1_000
"""Listing requests remembered while unanswered (a session that never gets answers forgets the oldest)."""
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]')
"""A JSON string, or a structural character (numbers and literals need no token to be skipped)."""
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def count_page_items(text: str, field: str, stop: int) -> int | None:
    """How many items the JSON-RPC response ``text`` holds in ``result.<field>``, counting at most ``stop + 1``.

    Strings and brackets are matched until that array opens; then its items are read one at a time
    and dropped (C speed, one item in memory), and counting stops once it passes ``stop``. ``None``
    when the text holds no such array or is not valid JSON there (the parser will say so).
    """
    start = _array_start(text, ("result", field))
    if start is None:
        return None
    pos = _skip_space(text, start)
    if text.startswith("]", pos):
        return 0
    count = 0
    try:
        while True:
            _, pos = _DECODER.raw_decode(text, pos)
            count += 1
            if count > stop:
                return count
            pos = _skip_space(text, pos)
            if text.startswith("]", pos):
                return count
            if not text.startswith(",", pos):
                return None
            pos = _skip_space(text, pos + 1)
    except (ValueError, RecursionError):
        return None


def _skip_space(text: str, pos: int) -> int:
    """The first position from ``pos`` on that is not JSON whitespace."""
    space = _SPACE.match(text, pos)
    return space.end() if space is not None else pos


def _array_start(text: str, path: tuple[str, str]) -> int | None:
    """Where the items of the array at ``path`` (two members deep) begin, or ``None``."""
    depth = 0
    keys: list[str | None] = []  # the member being read in each open container (None: none yet, or an array)
    pending: str | None = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == '"':
            if keys and keys[-1] is None:
                pending = token[1:-1]
        elif first == ":":
            if keys:
                keys[-1] = pending
        elif first == ",":
            if keys:
                keys[-1] = None
        elif first in "{[":
            if first == "[" and depth == 2 and (keys[0], keys[1]) == path:
                return match.end()
            depth += 1
            keys.append(None if first == "{" else "")
        else:
            depth -= 1
            if depth < 1:
                return None
            keys.pop()
    return None


class ListingCap:
    """Remembers the listing requests a session sent and refuses an answer to one that holds too many items.

    Args:
        max_page_items: Most items one page may hold.
    """

    def __init__(self, max_page_items: int = MAX_PAGE_ITEMS) -> None:
        self.max_page_items = max_page_items
        self._pending: dict[str, str] = {}
        self.refused = 0
        """How many pages were refused (for tests and benches)."""

    def sent(self, message: Any) -> None:
        """Note an outgoing message (a listing request is remembered until answered)."""
        if isinstance(message, JSONRPCRequest) and message.method in LIST_FIELDS:
            if len(self._pending) >= MAX_PENDING:
                self._pending.pop(next(iter(self._pending)))
            self._pending[str(message.id)] = message.method

    def check_text(self, text: str) -> SessionMessage | None:
        """The error reply that replaces the raw response ``text``, or ``None`` to read it as usual.

        Cheap for everything but a large answer to a pending listing request: a page of more items
        than ``max_page_items`` cannot be shorter than three characters an item (``{},``).
        """
        if not self._pending or len(text) < 3 * self.max_page_items:
            return None
        head = scan_large(text)
        if head is None or "method" in head or "id" not in head:
            return None
        method = self._pending.get(str(head["id"]))
        if method is None:
            return None
        count = count_page_items(text, LIST_FIELDS[method], self.max_page_items)
        if count is None or count <= self.max_page_items:
            return None
        return self._refusal(head["id"], method)

    def check_message(self, item: SessionMessage | Exception) -> SessionMessage | None:
        """The error reply that replaces a parsed response ``item``, or ``None`` to pass it on.

        Every answer to a listing request is forgotten here, refused or not: transports call this for
        each message they hand on.
        """
        if isinstance(item, Exception) or not self._pending:
            return None
        message = item.message
        if not isinstance(message, JSONRPCResponse | JSONRPCError):
            return None
        method = self._pending.pop(str(message.id), None)
        if method is None or not isinstance(message, JSONRPCResponse) or not isinstance(message.result, dict):
            return None
        items = message.result.get(LIST_FIELDS[method])
        if isinstance(items, list) and len(items) > self.max_page_items:
            return self._refusal(message.id, method)
        return None

    def _refusal(self, rpc_id: Any, method: str) -> SessionMessage:
        self._pending.pop(str(rpc_id), None)
        self.refused += 1
        what = _WHAT.get(LIST_FIELDS[method], LIST_FIELDS[method])
        error = StandInError(
            code=mcp_types.INTERNAL_ERROR,
            message=f"the page holds more than {self.max_page_items:,} {what}",
            data={REFUSED_PAGE: True, "what": what, "limit": self.max_page_items},
        )
        return SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=rpc_id, error=error))


def page_refusal(exc: BaseException, *, pages: int, items: int) -> ProtocolError | None:
    """The typed error for a page ``ListingCap`` refused (``exc`` is what the SDK raised), else ``None``."""
    error = getattr(exc, "error", None)
    data = getattr(error, "data", None)
    if not isinstance(data, dict) or not data.get(REFUSED_PAGE):
        return None
    what, limit = data.get("what"), data.get("limit")
    return ProtocolError(
        f"The server sent more than {limit:,} {what} in one page; it was refused unread.",
        hint=(
            f"the workbench reads at most {limit:,} {what} a page and {MAX_ITEMS:,} in all: a server offering "
            "more must page them with nextCursor; the page is in the wire log as it arrived"
        ),
        details={"limit": "max_page_items", "max": limit, "what": what, "pages": pages, "items": items},
    )
