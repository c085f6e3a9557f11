"""``CappedHistory``: a task's status history or messages, bounded in count and bytes.

An agent may send a task's status a million times (a progress bar, or a hostile peer's endless
stream of 1 MiB updates). Keeping each of them would make one task cost as much memory as the agent
cares to send, so a task keeps the first few and the latest ones and counts those in between:

    first ``head`` items | ``dropped`` items not kept | the last ``tail`` items

Besides the count, the kept items' sizes are bounded by ``max_bytes``: when they pass it, the oldest
of the latest items goes first, then the last of the first ones; the newest item always stays.
Items leave only from the two sides of the gap, so what is kept reads in order around one gap.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import overload

MIB = 1024 * 1024
DEFAULT_HEAD = 5
"""Items kept from the start (how the task began)."""
DEFAULT_TAIL = 50
"""Items kept from the end (what it did lately)."""
DEFAULT_MAX_BYTES = 16 * MIB
"""Most bytes the kept items may hold together (the newest is kept whatever its size)."""


class CappedHistory[T]:
    """A sequence that keeps its first ``head`` and last ``tail`` items and counts the ones between.

    Indexing, iteration, ``len`` and truth look only at the kept items, oldest first.

    Args:
        head: Items kept from the start.
        tail: Items kept from the end (at least 1).
        max_bytes: Most bytes the kept items may hold together (``None``: no byte bound).
        size: An item's size in bytes (default: every item counts 0, only the counts bound).
    """

    __slots__ = ("_bytes", "_head", "_head_open", "_size", "_tail", "dropped", "head_limit", "max_bytes", "tail_limit")

    def __init__(
        self,
        head: int = DEFAULT_HEAD,
        tail: int = DEFAULT_TAIL,
        *,
        max_bytes: int | None = DEFAULT_MAX_BYTES,
        size: Callable[[T], int] | None = None,
    ) -> None:
        self.head_limit = max(0, head)
        self.tail_limit = max(1, tail)
        self.max_bytes = max_bytes
        self._size: Callable[[T], int] = size if size is not None else (lambda item: 0)
        self._head: list[tuple[T, int]] = []
        self._tail: deque[tuple[T, int]] = deque()
        self._head_open = True  # the first items go to the head until it is full or anything was dropped
        self._bytes = 0
        self.dropped = 0
        """How many items were not kept (they sat between the first and the last ones)."""

    @property
    def total(self) -> int:
        """How many items were appended, kept or not."""
        return len(self._head) + self.dropped + len(self._tail)

    @property
    def kept_bytes(self) -> int:
        """The kept items' size in bytes, as ``size`` measured them."""
        return self._bytes

    @property
    def gap_at(self) -> int:
        """How many kept items come before the dropped ones (the index where the gap sits)."""
        return len(self._head)

    def append(self, item: T) -> None:
        """Add ``item`` as the newest; older items may leave (counted in ``dropped``)."""
        size = self._size(item)
        self._bytes += size
        if self._head_open and len(self._head) < self.head_limit:
            self._head.append((item, size))
        else:
            self._head_open = False
            self._tail.append((item, size))
            while len(self._tail) > self.tail_limit:
                self._drop(self._tail.popleft())
        if self.max_bytes is not None:
            self._fit(self.max_bytes)

    def insert(self, index: int, item: T) -> None:
        """Put ``item`` before the kept item at ``index`` (an item that arrived late but belongs earlier).

        The bounds hold as for ``append``: a full head passes its last item on (to the tail when
        nothing was dropped, else it is dropped); an overfull tail drops its oldest items.
        """
        index = max(0, min(index, len(self)))
        size = self._size(item)
        self._bytes += size
        head, tail = self._head, self._tail
        if index < len(head) or (index == len(head) and self._head_open and len(head) < self.head_limit):
            head.insert(index, (item, size))
            if len(head) > self.head_limit:
                moved = head.pop()
                if self.dropped == 0:
                    tail.appendleft(moved)
                else:
                    self._drop(moved)
        else:
            tail.insert(index - len(head), (item, size))
        while len(tail) > self.tail_limit:
            self._drop(tail.popleft())
        if self.max_bytes is not None:
            self._fit(self.max_bytes)

    def _fit(self, budget: int) -> None:
        head, tail = self._head, self._tail
        while self._bytes > budget and len(head) + len(tail) > 1:
            if not tail:  # everything is in the head: its newest item opens the tail
                tail.append(head.pop())
            if len(tail) > 1:
                self._drop(tail.popleft())
            else:
                self._drop(head.pop())

    def _drop(self, entry: tuple[T, int]) -> None:
        self._bytes -= entry[1]
        self.dropped += 1
        self._head_open = False

    def numbered(self) -> Iterator[tuple[int, T]]:
        """Each kept item with its 1-based number among all items appended (dropped ones count too)."""
        for i, (item, _) in enumerate(self._head):
            yield i + 1, item
        first_tail = len(self._head) + self.dropped + 1
        for i, (item, _) in enumerate(self._tail):
            yield first_tail + i, item

    def __iter__(self) -> Iterator[T]:
        for item, _ in self._head:
            yield item
        for item, _ in self._tail:
            yield item

    def __reversed__(self) -> Iterator[T]:
        for item, _ in reversed(self._tail):
            yield item
        for item, _ in reversed(self._head):
            yield item

    def __len__(self) -> int:
        return len(self._head) + len(self._tail)

    def __bool__(self) -> bool:
        return bool(self._head) or bool(self._tail)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return list(self)[index]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("CappedHistory index out of range")
        head = len(self._head)
        return self._head[index][0] if index < head else self._tail[index - head][0]

    def __repr__(self) -> str:
        return f"CappedHistory(kept={len(self)}, dropped={self.dropped})"
