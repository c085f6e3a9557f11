"""How much an MCP App may ask of the host: message, tool-call and link rates, sizes, and when it is stopped."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AppLimits:
    """Bounds on one app; the defaults leave a well-behaved app untouched and stop a runaway one.

    Attributes:
        messages_burst: Messages from the app taken at once before the rate applies.
        messages_per_second: Sustained rate of messages taken; the rest are dropped (and counted).
        replies_burst: Error replies to refused requests sent at once (a flood is not answered in full).
        replies_per_second: Sustained rate of those replies.
        calls_burst: ``tools/call`` requests taken at once.
        calls_per_second: Sustained rate of ``tools/call`` requests; the rest are refused as rate-limited.
        calls_in_flight: Tool calls (and resource reads) running at once; more are refused.
        links_burst: ``ui/open-link`` requests offered to the user at once.
        links_per_second: Sustained rate of those.
        max_message_chars: Largest single message taken (characters of its JSON text).
        max_dropped: Messages dropped before the app is stopped altogether.
        max_side: Largest width or height (pixels) an app may ask for.
    """

    messages_burst: int = 200
    messages_per_second: float = 50.0
    replies_burst: int = 20
    replies_per_second: float = 5.0
    calls_burst: int = 10
    calls_per_second: float = 1.0
    calls_in_flight: int = 4
    links_burst: int = 2
    links_per_second: float = 0.2
    max_message_chars: int = 1_000_000
    max_dropped: int = 2_000
    max_side: int = 4_000


class TokenBucket:
    """A token bucket: ``take()`` succeeds while tokens remain; they come back at ``rate`` a second.

    Args:
        capacity: Tokens when full (the burst).
        rate: Tokens added per second.
        clock: Monotonic seconds (injectable for tests).
    """

    def __init__(self, capacity: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(capacity)
        self.rate = rate
        self._clock = clock
        self._tokens = float(capacity)
        self._at = clock()

    def take(self) -> bool:
        """Take one token; ``False`` when the bucket is empty."""
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
