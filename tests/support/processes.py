"""Child processes of the test process: list them, and fail a test that leaves one running."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED_SERVER_PIDS: set[int] = set()
"""Servers this process keeps for many tests on purpose (tests/support/fixtures.py): never a leak."""


def child_pids() -> set[int]:
    """Pids of this process's direct children (Linux /proc), not counting the shared servers."""
    me = os.getpid()
    out: set[int] = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            out.add(int(stat.parent.name))
    return out - SHARED_SERVER_PIDS


@pytest.fixture(autouse=True)
def no_leaked_children() -> Iterator[None]:
    """Fail a test that leaves a child process running (bounded wait for it to go).

    Autouse wherever a conftest imports it (tests/integration, tests/ui).
    """
    before = child_pids()
    yield
    deadline = time.monotonic() + 5
    while (child_pids() - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    leaked = child_pids() - before
    assert not leaked, f"test leaked child processes: {sorted(leaked)}"
