"""What both pinned MCP conformance suites' tests share: the Node that runs a suite, a run of many scenarios at
once, and how each scenario of it is judged."""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.conformance_bundles import Bundle
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


def client_command(program: Path, forkserver: ForkServer | None) -> str:
    """The suite's ``--command`` for the Python ``program``: through ``forkserver``, else ``python PROGRAM``."""
    if forkserver is not None:
        return forkserver.command(program)
    return " ".join(shlex.quote(part) for part in [sys.executable, str(program)])


@dataclass(frozen=True)
class ScenarioRun:
    """One scenario of a batch: what the suite checked and how its client ended.

    Attributes:
        scenario: The scenario's name (``auth/dpop``).
        checks: The suite's checks (its ``checks.json``).
        exit_status: The client's exit status; ``None`` when it never ended by itself (the suite killed it
            at its timeout).
        client_stderr: The end of the client's standard error.
    """

    scenario: str
    checks: list[dict[str, Any]]
    exit_status: int | None
    client_stderr: str


_RESULT_DIR = re.compile(r"^(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")
"""A result folder: the scenario's name, then the time the suite started it (``auth/dpop-2026-11-29T01-47-00-725Z``)."""


def run_batch(suite: list[str], selection: list[str], client: str, tmp_path: Path) -> dict[str, ScenarioRun]:
    """Run the scenarios ``selection`` picks (``--suite all``, ``--requirements 2026-07-28``) in one suite run.

    The suite starts every client at once and keeps each one's checks, output and error, but not how it
    ended; a wrapper around ``client`` (a shell command line; the suite appends the server's URL) writes
    each client's exit status under the scenario's name, so a client that crashed or was killed is seen.

    Returns:
        Every scenario that ran, by name.
    """
    status_dir = tmp_path / "exit-status"
    status_dir.mkdir()
    wrapper = tmp_path / "client.sh"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'{client} "$@"\n'
        "status=$?\n"
        f"printf '%s\\n' \"$status\" > {shlex.quote(str(status_dir))}/"
        '"$(printf \'%s\' "$MCP_CONFORMANCE_SCENARIO" | tr / _)"\n'
        'exit "$status"\n'
    )
    wrapper.chmod(0o755)
    results = tmp_path / "results"
    command = ["client", "--command", shlex.quote(str(wrapper)), *selection]
    proc = subprocess.run(
        [*suite, *command, "--timeout", "60000", "-o", str(results)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "NODE_COMPILE_CACHE": str(NODE_COMPILE_CACHE)},
        check=False,
    )
    runs: dict[str, ScenarioRun] = {}
    for found in results.rglob("checks.json"):
        match = _RESULT_DIR.match(found.parent.relative_to(results).as_posix())
        assert match is not None, found
        scenario = match["scenario"]
        status_file = status_dir / scenario.replace("/", "_")
        runs[scenario] = ScenarioRun(
            scenario=scenario,
            checks=json.loads(found.read_text()),
            exit_status=int(status_file.read_text()) if status_file.exists() else None,
            client_stderr=(found.parent / "stderr.txt").read_text(errors="replace")[-3000:],
        )
    assert runs, proc.stdout[-3000:] + proc.stderr[-3000:]
    return runs


def scenario_problems(run: ScenarioRun, bundle: Path) -> list[str]:
    """Why ``run`` did not pass, by the rule the suite applies to one scenario alone (empty: it passed).

    Passed: the client ended by itself, with status 0 unless the scenario allows a client error (those
    where refusing is the behaviour under test: the bundle sets ``allowClientError`` for them); no check
    failed or warned (but the tolerated warnings); at least one check succeeded (a client that never
    reaches the behaviour under test earns only SKIPPED checks).
    """
    problems = [
        f"{check['id']}: {check['status']}: {check.get('errorMessage') or check.get('description')}"
        for check in run.checks
        if check["status"] == "FAILURE" or (check["status"] == "WARNING" and check["id"] not in TOLERATED_WARNINGS)
    ]
    if not any(check["status"] == "SUCCESS" for check in run.checks):
        problems.append(f"no check succeeded: {[check['id'] for check in run.checks]}")
    if run.exit_status is None:
        problems.append("the client did not end by itself (the suite killed it at its timeout)")
    elif run.exit_status != 0 and not allows_client_error(bundle, run.scenario):
        problems.append(f"the client exited with status {run.exit_status}")
    if problems:
        problems.append("--- client stderr ---\n" + run.client_stderr)
    return problems


@functools.cache
def _bundle(path: Path) -> Bundle:
    return Bundle(path)


def allows_client_error(bundle: Path, scenario: str) -> bool:
    """Whether the suite passes ``scenario`` although its client exits with an error (``this.allowClientError=!0``)."""
    source = _bundle(bundle).scenario_source(scenario)
    return source is not None and "allowClientError = ! 0" in source


def judge_each(
    runs: dict[str, ScenarioRun], judged: set[str], bundle: Path, gaps: Mapping[str, str], subtests: pytest.Subtests
) -> None:
    """One subtest per scenario of ``judged``: it passes (``scenario_problems``), or fails if it is a known gap."""
    for scenario in sorted(judged):
        with subtests.test(scenario=scenario):
            problems = scenario_problems(runs[scenario], bundle)
            if scenario in gaps:
                assert problems, f"{scenario} passes now: it is no gap any more ({gaps[scenario]})"
            else:
                assert not problems, "\n".join(problems)
