"""The SSE framer: frames complete at their blank line, whatever the chunking and line endings."""

from __future__ import annotations

import pytest

from workbench.core.http.sse import SSEFrame, SSEFramer, parse_frame

STREAM = b': ping\n\nevent: message\nid: 7\ndata: {"a":\ndata: 1}\n\ndata: caf\xc3\xa9\n\nid: 8\n\n'
EXPECTED = [
    SSEFrame(comments=("ping",)),
    SSEFrame(data='{"a":\n1}', event="message", event_id="7"),
    SSEFrame(data="café"),
    SSEFrame(event_id="8"),
]


def frames_of(chunks: list[bytes]) -> list[SSEFrame]:
    framer = SSEFramer()
    out = [frame for chunk in chunks for frame in framer.feed(chunk)]
    last = framer.close()
    return out + ([last] if last is not None else [])


def test_whole_stream_in_one_chunk_gives_every_frame() -> None:
    assert frames_of([STREAM]) == EXPECTED


def test_one_byte_chunks_give_the_same_frames_including_split_utf8() -> None:
    assert frames_of([STREAM[i : i + 1] for i in range(len(STREAM))]) == EXPECTED


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
def test_crlf_and_lone_cr_line_endings_frame_like_lf(newline: bytes) -> None:
    stream = STREAM.replace(b"\n", newline)
    assert frames_of([stream]) == EXPECTED
    assert frames_of([stream[i : i + 1] for i in range(len(stream))]) == EXPECTED


def test_a_frame_is_returned_by_the_chunk_that_completes_it() -> None:
    framer = SSEFramer()
    assert framer.feed(b"data: one\n") == []
    assert framer.feed(b"\ndata: tw") == [SSEFrame(data="one")]
    assert framer.feed(b"o\r") == []
    assert framer.feed(b"\n\r\n") == [SSEFrame(data="two")]


def test_a_last_frame_without_blank_line_is_returned_on_close() -> None:
    framer = SSEFramer()
    assert framer.feed(b"data: tail") == []
    assert framer.close() == SSEFrame(data="tail")
    assert framer.close() is None


def test_comment_only_frames_are_not_events_and_unknown_fields_are_ignored() -> None:
    frame = parse_frame(": keep-alive\nretry: 100\nfoo: bar")
    assert frame == SSEFrame(comments=("keep-alive",))
    assert not frame.is_event
    assert parse_frame("data:").data == ""
    assert parse_frame("data:").is_event


@pytest.mark.parametrize(
    ("text", "data"),
    [("data: {}", "{}"), ("data:{}", "{}"), ("data:  two", " two"), ("data:", ""), ("data: caf\u00e9", "caf\u00e9")],
)
def test_a_one_line_data_frame_reads_like_the_general_case(text: str, data: str) -> None:
    # One data line is the usual frame and takes a shorter path; it must give the same frame.
    assert parse_frame(text) == SSEFrame(data=data)
    assert parse_frame(text + "\nretry: 5") == SSEFrame(data=data)
    assert parse_frame(text).is_event
