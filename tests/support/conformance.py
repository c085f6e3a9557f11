"""What both pinned MCP conformance suites' tests share: the Node that runs a suite, and the warnings tolerated."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

TOLERATED_WARNINGS = {"client-sse-retry-timing"}
"""Checks whose warning says how late the reconnect came: the machine's load, not the client."""


def node(prefix: Path) -> str | None:
    """Node >= 22 for a suite installed in ``prefix``: the one installed beside it, else the system's if new enough."""
    bundled = prefix / ".bin" / "node"
    if bundled.exists():
        return str(bundled)
    system = shutil.which("node")
    if system is None:
        return None
    version = subprocess.run([system, "--version"], capture_output=True, text=True, check=False).stdout
    major = version.lstrip("v").split(".")[0]
    return system if major.isdigit() and int(major) >= 22 else None
