"""A stdio server's output as lines, and the answer to a reply that cannot be read.

``read_lines`` splits a byte stream into lines in time linear in their length, however it is
chunked, and turns a line over the message limit into an ``OversizedLine`` (its head and size; the
rest is never kept). ``unreadable_reply`` answers the request a broken, too deep or too large reply
was meant for with a parse error, so the call fails at once instead of waiting forever.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio
import anyio.abc
import mcp_types
from anyio.streams.text import TextReceiveStream
from mcp.shared.message import SessionMessage

from workbench.core.protocols.mcp.errors import UNREADABLE_REPLY
from workbench.core.protocols.mcp.provenance import StandInError
from workbench.core.wire.parse import scan_large


def unreadable_reply(
    text: str, exc: ValueError, *, size: int | None = None, limit: int | None = None
) -> SessionMessage | ValueError:
    """A reply that cannot be read still answers its request when its id can be: with a parse error of our own.

    Otherwise the request would wait forever (nothing else will ever answer it). The id is taken from
    the reply's first or last members without parsing the rest (``scan_large``: no recursion, so a
    result nested 100,000 levels deep is no problem); anything without a readable response id stays
    the transport fault it was. The error is a ``StandInError``: the server did not send it.
    """
    head = scan_large(text)
    rid = head.get("id") if head is not None and "method" not in head else None
    if not isinstance(rid, str | int) or isinstance(rid, bool):
        return exc
    deep = "recursion" in str(exc).lower()
    size = len(text) if size is None else size
    if limit is not None:
        why, reason = f"it is larger than the {limit:,}-character message limit", "too-large"
    elif deep:
        why, reason = "it is nested too deeply", "too-deep"
    else:
        why, reason = "it is not valid JSON-RPC", "invalid"
    error = StandInError(
        code=mcp_types.PARSE_ERROR,
        message=f"{why} ({size:,} characters)",
        data={UNREADABLE_REPLY: True, "reason": reason, "size": size, "limit": limit},
    )
    return SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=rid, error=error))


@dataclass(frozen=True, slots=True)
class OversizedLine:
    """A line longer than the limit: its first ``HEAD_KEPT`` characters and its full size (the rest was dropped)."""

    head: str
    size: int


HEAD_KEPT = 64 * 1024


async def read_lines(
    stream: anyio.abc.ByteReceiveStream, limit: int | None = None
) -> AsyncIterator[str | OversizedLine]:
    """The stream's text, line by line (a last unterminated line included); ends quietly when it closes.

    Linear in the line's length however it is chunked. A line longer than ``limit`` characters is not
    kept: it comes out as an ``OversizedLine`` (its head and size) once its end arrives.
    """
    parts: list[str] = []
    size = 0
    head = ""
    try:
        async for chunk in TextReceiveStream(stream, errors="replace"):
            start = 0
            while (end := chunk.find("\n", start)) >= 0:
                piece = chunk[start:end]
                if limit is not None and size + len(piece) > limit:
                    yield OversizedLine(head or (("".join(parts) + piece)[:HEAD_KEPT]), size + len(piece))
                else:
                    yield "".join(parts) + piece if parts else piece
                parts, size, head = [], 0, ""
                start = end + 1
            rest = chunk[start:]
            if rest:
                if limit is not None and size + len(rest) > limit:
                    if not head:
                        head = ("".join(parts) + rest)[:HEAD_KEPT]
                    parts = []  # over the limit: only the size is counted from here on
                else:
                    parts.append(rest)
                size += len(rest)
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        pass
    if size:
        yield OversizedLine(head, size) if head else "".join(parts)
