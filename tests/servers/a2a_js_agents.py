"""Starts the JS SDK's A2A agents (``a2a_js_agent_v1.mjs``, ``a2a_js_agent_v03.mjs``) for a test.

The packages are installed by ``make test`` (``.cache/npm/a2a-js-<version>``, ``npm ci`` from the lock files in
``tests/peers/npm/a2a-js-<version>``); without node or
them the test is skipped, naming what is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SDK_VERSIONS = {"1.0": "1.3.0", "0.3": "0.3.14"}
"""A2A protocol version → the @a2a-js/sdk release that speaks it (pinned in tests/peers/npm/a2a-js-<release>)."""
START_TIMEOUT = 20.0


def modules_dir(protocol: str) -> Path:
    """Where ``make`` installs the JS SDK release speaking ``protocol``."""
    return ROOT / ".cache" / "npm" / f"a2a-js-{SDK_VERSIONS[protocol]}" / "node_modules"


@contextlib.asynccontextmanager
async def js_agent(protocol: str = "1.0", *, compat: bool = False) -> AsyncIterator[str]:
    """The JS SDK's steps agent speaking ``protocol`` (``1.0``, or ``0.3``) on loopback; yields its base URL.

    Args:
        protocol: ``1.0`` (@a2a-js/sdk 1.3.0) or ``0.3`` (0.3.14).
        compat: 1.0 only: also declare every interface at 0.3 (the SDK's legacyCompat layer).
    """
    node = shutil.which("node")
    modules = modules_dir(protocol)
    if node is None:
        pytest.skip("node is not installed: the JS SDK's A2A agents cannot run")
    if not (modules / "@a2a-js" / "sdk").is_dir() or not (modules / "express").is_dir():
        pytest.skip(
            f"@a2a-js/sdk {SDK_VERSIONS[protocol]} is not installed in {modules.parent} (make test installs it)"
        )
    script = HERE / ("a2a_js_agent_v1.mjs" if protocol == "1.0" else "a2a_js_agent_v03.mjs")
    argv = [str(script), str(modules), *(["--compat"] if compat else [])]
    proc = await asyncio.create_subprocess_exec(
        node, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        assert proc.stdout is not None
        async with asyncio.timeout(START_TIMEOUT):
            line = (await proc.stdout.readline()).decode()
        if not line.startswith("READY "):
            assert proc.stderr is not None
            err = (await proc.stderr.read()).decode(errors="replace")
            raise RuntimeError(f"the JS agent did not start: {line!r} {err[-2000:]}")
        yield f"http://127.0.0.1:{int(line.split()[1])}"
    finally:
        if proc.stdin is not None:
            proc.stdin.close()  # the agent exits when its stdin ends
        try:
            async with asyncio.timeout(5):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()
