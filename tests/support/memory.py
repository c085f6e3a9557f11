"""This process's memory for tests that bound it: its resident size, and its peak growth over a block."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

MIB = 1024 * 1024


def rss() -> int:
    """This process's resident set size in bytes (Linux: /proc/self/status)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class PeakRSS:
    """The most this process's RSS grew while the block ran (sampled every 20 ms)."""

    growth = 0


@contextlib.asynccontextmanager
async def peak_rss() -> AsyncIterator[PeakRSS]:
    """Sample this process's RSS while the block runs; the yielded ``PeakRSS`` holds its largest growth."""
    peak, start = PeakRSS(), rss()

    async def sample() -> None:
        while True:
            peak.growth = max(peak.growth, rss() - start)
            await asyncio.sleep(0.02)  # a sampling period, not a wait for an outcome

    sampler = asyncio.create_task(sample())
    try:
        yield peak
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
        peak.growth = max(peak.growth, rss() - start)
