"""The MCP reference servers beside server-everything, as stdio peers of the command line in tests.

`make test` installs them, every transitive dependency pinned, never into the project's venv:
  - npm: server-filesystem, server-memory, server-sequential-thinking in `.cache/npm/mcp-peers`
    (`npm ci` from `tests/peers/npm/mcp-peers/package-lock.json`);
  - PyPI: mcp-server-fetch, mcp-server-git, mcp-server-time, each in its own venv
    `.cache/pypeers/<name>` (they pin their own `mcp`) from `tests/peers/pypi/<name>.txt`.

`peer_command(name)` gives the argv to put after `--`, or skips the test saying what to install.
`run_cli(...)` runs the `workbench` command line as a user would (in the test process), times it,
and proves the server it started is gone once the command has returned (the server carries a
marker of that one run through `--env`, found in /proc).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runner import run_workbench
from tests.support.everything import REPO_ROOT, node_path

NPM_PEERS_VERSION = "2026.8.31"
NPM_PEERS_DIR = REPO_ROOT / ".cache" / "npm" / "mcp-peers" / "node_modules" / "@modelcontextprotocol"
PYPEERS_DIR = REPO_ROOT / ".cache" / "pypeers"
PYPI_VERSIONS = {"fetch": "2026.10.24", "git": "2026.10.19", "time": "2026.10.19"}
NPM_PEERS = ("filesystem", "memory", "sequential-thinking")
RUN_ENV = "WORKBENCH_PEER_RUN"
"""Set by `run_cli` in the server's environment (a fresh value per run) to find it afterwards."""
TABLE_ENV = "WORKBENCH_PEER_TABLE"
"""If set, every `run_cli` appends one JSON line (peer, command, exit code, seconds) to this file."""


def _npm_command(name: str) -> list[str]:
    package = f"@modelcontextprotocol/server-{name}@{NPM_PEERS_VERSION}"
    node = node_path()
    if node is None:
        pytest.skip(f"{package} needs node >= 18 on PATH")
    directory = NPM_PEERS_DIR / f"server-{name}"
    try:
        version = json.loads((directory / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        version = None
    entry = directory / "dist" / "index.js"
    if version != NPM_PEERS_VERSION or not entry.is_file():
        pytest.skip(f"{package} is not installed in .cache/npm/mcp-peers; run `make test` to install it")
    return [node, str(entry)]


def _pypi_command(name: str) -> list[str]:
    package = f"mcp-server-{name}=={PYPI_VERSIONS[name]}"
    venv = PYPEERS_DIR / name
    script = venv / "bin" / f"mcp-server-{name}"
    dist = f"mcp_server_{name}-{PYPI_VERSIONS[name]}.dist-info"
    if not script.is_file() or not any(venv.glob(f"lib/python*/site-packages/{dist}")):
        pytest.skip(f"{package} is not installed in .cache/pypeers/{name}; run `make test` to install it")
    return [str(script)]


def peer_command(name: str) -> list[str]:
    """The argv that starts reference server ``name`` over stdio (skips the test when it is missing).

    Args:
        name: "filesystem", "memory", "sequential-thinking" (npm) or "fetch", "git", "time" (PyPI).
    """
    return _npm_command(name) if name in NPM_PEERS else _pypi_command(name)


@dataclass(frozen=True)
class CliRun:
    """One finished ``workbench`` command: exit code, its two streams and its wall time."""

    code: int
    out: str
    err: str
    seconds: float

    def json_lines(self) -> list[dict[str, Any]]:
        """stdout parsed as one JSON object per line."""
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]


async def run_cli(peer: str, command: str, *options: str, server: list[str], timeout: float = 60) -> CliRun:
    """Run ``workbench COMMAND --stdio OPTIONS -- SERVER`` and return what a user would see.

    The server gets a marker of this run (``--env``); once the command has returned, no process
    carrying it may be alive (the command must not leave its server behind).

    Args:
        peer: The peer's name, for the table of results (``WORKBENCH_PEER_TABLE``).
        command: "inspect" or "call".
        options: Everything between ``--stdio`` and ``--`` (``--json``, the tool, ``--args`` ...).
        server: The server's argv (from ``peer_command``) and its own arguments.
        timeout: Seconds before the command is killed and the test fails.
    """
    marker = f"{RUN_ENV}={uuid.uuid4().hex}"
    argv = [command, "--stdio", "--env", marker, *options, "--", *server]
    started = time.monotonic()
    try:  # in this process (tests/support/cli_runner.py): the server is its child as in a user's run
        code, out, err = await run_workbench(*argv, timeout=timeout)
    except TimeoutError:
        for pid in _processes_with(marker):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        pytest.fail(f"workbench {command} against {peer} did not finish in {timeout} s")
    run = CliRun(code, out, err, time.monotonic() - started)
    left = _processes_with(marker)
    for pid in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"workbench {command} left its server running: pids {left}"
    _record(peer, command, options, run)
    return run


def _processes_with(marker: str) -> list[int]:
    """Live (not zombie) processes whose environment holds ``marker`` (Linux /proc; [] elsewhere)."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


def _record(peer: str, command: str, options: tuple[str, ...], run: CliRun) -> None:
    path = os.environ.get(TABLE_ENV)
    if not path:
        return
    row = {
        "peer": peer,
        "command": " ".join([command, *options]),
        "code": run.code,
        "seconds": round(run.seconds, 2),
        "out": run.out[:200],
        "err": run.err[:200],
    }
    with Path(path).open("a", encoding="utf-8") as table:
        table.write(json.dumps(row, ensure_ascii=False) + "\n")
