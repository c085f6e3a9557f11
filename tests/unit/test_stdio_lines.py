"""Splitting a stdio server's output into lines: any chunking, a bounded line length."""

from __future__ import annotations

import anyio
import pytest

from workbench.core.protocols.mcp.stdio_lines import HEAD_KEPT, OversizedLine, read_lines


async def lines_of(chunks: list[bytes], limit: int | None = None) -> list[str | OversizedLine]:
    send, receive = anyio.create_memory_object_stream[bytes](len(chunks) + 1)
    for chunk in chunks:
        send.send_nowait(chunk)
    send.close()
    with receive:
        return [line async for line in read_lines(receive, limit)]  # type: ignore[arg-type]


TEXT = b'{"a":1}\n{"b":"caf\xc3\xa9"}\n\nlast'


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [1, 2, 3, 7, 100])
async def test_any_chunking_gives_the_same_lines(size: int) -> None:
    chunks = [TEXT[i : i + size] for i in range(0, len(TEXT), size)]
    assert await lines_of(chunks) == ['{"a":1}', '{"b":"café"}', "", "last"]


@pytest.mark.asyncio
async def test_a_line_over_the_limit_comes_out_as_its_head_and_size_and_the_next_line_is_whole() -> None:
    long = b"x" * (HEAD_KEPT * 3)
    chunks = [long[i : i + 1000] for i in range(0, len(long), 1000)] + [b"\nshort\n"]
    out = await lines_of(chunks, limit=HEAD_KEPT)
    assert out == [OversizedLine("x" * HEAD_KEPT, HEAD_KEPT * 3), "short"]


@pytest.mark.asyncio
async def test_a_line_exactly_at_the_limit_is_kept_and_an_unterminated_oversized_tail_is_reported() -> None:
    assert await lines_of([b"abcd\n", b"abcdefgh"], limit=4) == ["abcd", OversizedLine("abcdefgh", 8)]
