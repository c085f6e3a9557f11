"""What both pinned MCP conformance suites' tests share: the Node that runs a suite, and the warnings tolerated."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.forkserver import ForkServer

NODE_COMPILE_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "node-compile-cache"
"""Node >= 22 keeps the suite bundle's compiled code here between runs (~0.08 s of CPU less a run)."""
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


def assert_scenario_passes(argv: list[str], tmp_path: Path) -> None:
    """Run one client scenario (``argv``: the suite's ``client`` command) and assert that it passed.

    Passed: the suite wrote its checks, the client neither timed out nor exited with an error, no check
    failed or warned (but the tolerated warnings) and at least one succeeded (a client that never reaches
    the behaviour under test earns only SKIPPED checks).
    """
    proc = subprocess.run(
        [*argv, "--timeout", "60000", "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=100,
        cwd=tmp_path,
        env={**os.environ, "NODE_COMPILE_CACHE": str(NODE_COMPILE_CACHE)},
        check=False,
    )
    found = list(tmp_path.rglob("checks.json"))
    assert found, proc.stdout[-3000:] + proc.stderr[-3000:]
    checks = json.loads(found[0].read_text())
    client_stderr = (found[0].parent / "stderr.txt").read_text(errors="replace")[-3000:]
    assert "CLIENT TIMED OUT" not in proc.stdout + proc.stderr, client_stderr
    assert "CLIENT EXITED WITH ERROR" not in proc.stdout + proc.stderr, client_stderr
    bad = [
        f"{check['id']}: {check['status']}: {check.get('errorMessage') or check.get('description')}"
        for check in checks
        if check["status"] == "FAILURE" or (check["status"] == "WARNING" and check["id"] not in TOLERATED_WARNINGS)
    ]
    assert not bad, "\n".join(bad) + "\n--- client stderr ---\n" + client_stderr
    assert any(check["status"] == "SUCCESS" for check in checks), checks


def client_command(program: Path, forkserver: ForkServer | None) -> str:
    """The suite's ``--command`` for the Python ``program``: through ``forkserver``, else ``python PROGRAM``."""
    if forkserver is not None:
        return forkserver.command(program)
    return " ".join(shlex.quote(part) for part in [sys.executable, str(program)])
