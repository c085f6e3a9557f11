"""Incremental server-sent events framing on plain bytes (no HTTP client involved).

``SSEFramer`` is fed response body chunks as they arrive and hands back each frame the moment its
blank line arrives, so a wire tap can record events while the stream is still open. Line endings
may be LF, CRLF or a lone CR (the SSE specification allows all three), also split across
chunks.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.fastinit import fast_constructor


@dataclass(frozen=True, slots=True)
class SSEFrame:
    """One frame of an event stream: the fields up to a blank line.

    Attributes:
        data: The ``data:`` lines joined by newlines (``None`` when there was no ``data:`` line).
        event: The ``event:`` field, if any.
        event_id: The ``id:`` field, if any.
        comments: The text of each ``:`` comment line (keep-alive pings), leading spaces removed.
    """

    data: str | None = None
    event: str | None = None
    event_id: str | None = None
    comments: tuple[str, ...] = ()

    @property
    def is_event(self) -> bool:
        """Whether the frame carries an event (data, a name or an id), not only comments."""
        return self.data is not None or self.event is not None or self.event_id is not None


def parse_frame(text: str) -> SSEFrame:
    """Parse one frame (the lines between two blank lines, newline-separated).

    Args:
        text: The frame's lines, without the terminating blank line.

    Returns:
        The frame's fields; unknown fields (``retry:`` and others) are ignored.
    """
    if text.startswith("data:") and "\n" not in text:  # the usual frame: one data line
        return _data_frame(text[6:] if text.startswith(" ", 5) else text[5:])
    event: str | None = None
    event_id: str | None = None
    data: list[str] = []
    comments: list[str] = []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith(":"):
            comments.append(line[1:].strip())
            continue
        key, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if key == "data":
            data.append(value)
        elif key == "event":
            event = value
        elif key == "id":
            event_id = value
    return SSEFrame(data="\n".join(data) if data else None, event=event, event_id=event_id, comments=tuple(comments))


_data_frame = fast_constructor(SSEFrame, positional=True)
"""``SSEFrame(data)``, without the frozen dataclass's per-field ``__setattr__`` (one per event)."""


class SSEFramer:
    """Split an event stream into frames as its bytes arrive."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._cr = False  # the last chunk ended in \r: it may be the first half of \r\n
        self._scanned = 0  # bytes at the buffer's start known to hold no blank line (a large event is scanned once)

    @property
    def pending_bytes(self) -> int:
        """Bytes of the frame still being received (its blank line has not arrived yet)."""
        return len(self._buf)

    def feed(self, chunk: bytes) -> list[SSEFrame]:
        """Add a chunk of the body; returns the frames it completed (often none or one)."""
        if self._cr:
            chunk = b"\r" + chunk
            self._cr = False
        if b"\r" in chunk:
            # Line endings become \n chunk by chunk (the buffer is never rewritten); a lone trailing
            # \r waits for the next chunk.
            if chunk.endswith(b"\r"):
                chunk, self._cr = chunk[:-1], True
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        buf = self._buf
        buf += chunk
        frames: list[SSEFrame] = []
        start = 0
        while (end := buf.find(b"\n\n", max(start, self._scanned))) >= 0:
            frames.append(parse_frame(buf[start:end].decode("utf-8", "replace")))
            start = end + 2
        if start:
            del buf[:start]  # once per chunk, not once per frame
        self._scanned = max(len(buf) - 1, 0)  # a trailing \n may be the first half of the next blank line
        return frames

    def take_pending(self, most: int) -> bytes:
        """Drop the unfinished frame; returns its first ``most`` bytes (for a record of what arrived)."""
        head = bytes(self._buf[:most])
        self._buf.clear()
        self._cr = False
        self._scanned = 0
        return head

    def close(self) -> SSEFrame | None:
        """The last frame when the stream ended without its blank line (``None`` if nothing was left)."""
        rest = bytes(self._buf) + (b"\n" if self._cr else b"")
        self._buf.clear()
        self._cr = False
        self._scanned = 0
        if not rest.strip():
            return None
        return parse_frame(rest.decode("utf-8", "replace"))
