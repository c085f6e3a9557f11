"""The MCP conformance suite 0.2's client scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12) against us.

Every scenario runs one program, ``client.py SERVER_URL`` (the suite's ``--command`` convention), which
uses nothing of ``workbench`` but the public ``workbench.agents``. Each scenario runs at its own wire,
as ``--suite all`` runs it; the scenarios that ``--requirements 2026-07-28`` scores at another wire
than that run a second time at 2026-07-28 (``--spec-version 2026-07-28 --force``, what that option
does for each). One scenario per suite run: ``--suite`` starts every client at once, too many for this
machine. The suite needs Node >= 22: ``make test`` installs it beside the suite; a system Node >= 22
serves too, else the tests skip saying why. A scenario passes when no check fails or warns, the client
neither timed out nor failed where it may not, and at least one check succeeded (a client that never
reaches the behaviour under test earns only SKIPPED checks, which ``--suite all`` counts as passed).
A scenario whose client mode the public library lacks (``client.GAPS``) is an expected failure naming
what is missing. It is not run: ``client.py`` has no handler for it and exits at once, so the suite's
verdict is known (running the 51 of them costs ~25 s of CPU, ~12 s of a 2-core run). Giving it a
handler and taking it out of ``GAPS`` makes it run.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.conformance import assert_scenario_passes, client_command, node
from tests.support.everything import REPO_ROOT
from tests.support.forkserver import ForkServer

PREFIX = REPO_ROOT / ".cache" / "npm" / "conformance-0.2.0-alpha.12" / "node_modules"
SUITE = PREFIX / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
CLIENT = Path(__file__).with_name("client.py")


def _client_program() -> ModuleType:
    """``client.py`` loaded as the suite runs it, a program by its path (it is no test helper to import)."""
    spec = importlib.util.spec_from_file_location("conformance_client", CLIENT)
    assert spec is not None and spec.loader is not None
    program = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = program  # its dataclasses look their module up while it runs
    spec.loader.exec_module(program)
    return program


_program = _client_program()
GAPS, SCENARIOS = _program.GAPS, _program.SCENARIOS

MODERN = "2026-07-28"
SCORED_ON_ANOTHER_WIRE = [
    "tools_call",
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
]
"""The scenarios ``--requirements 2026-07-28`` scores whose own wire is older (the other 17 it scores are
draft scenarios, which already run at 2026-07-28)."""


def suite_or_skip() -> list[str]:
    """The command that runs the suite, or a skip saying what is missing."""
    runner = node(PREFIX)
    if not SUITE.exists() or runner is None:
        pytest.skip("the MCP conformance suite 0.2 (make test installs it in .cache/npm) or a Node >= 22 is missing")
    return [runner, str(SUITE)]


def scenario_params() -> list[object]:
    runs = [(name, None) for name in [*SCENARIOS, *GAPS]] + [(name, MODERN) for name in SCORED_ON_ANOTHER_WIRE]
    return [
        pytest.param(
            name,
            wire,
            id=f"{name}@{wire}" if wire else name,
            marks=[pytest.mark.xfail(reason=f"not in workbench.agents: {GAPS[name]}", strict=True, run=False)]
            if name in GAPS
            else [],
        )
        for name, wire in runs
    ]


def test_client_py_has_an_entry_for_every_client_scenario_of_the_pinned_suite() -> None:
    suite = suite_or_skip()
    listing = subprocess.run([*suite, "list", "--client"], capture_output=True, text=True, timeout=60, check=True)
    listed = {line.strip()[2:].split(" [")[0] for line in listing.stdout.splitlines() if line.strip().startswith("- ")}
    assert listed == set(SCENARIOS) | set(GAPS)
    assert not set(SCENARIOS) & set(GAPS)


def test_client_py_uses_nothing_of_workbench_but_workbench_agents() -> None:
    tree = ast.parse(CLIENT.read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {name for name in imported if name.split(".")[0] == "workbench"} == {"workbench.agents"}


@pytest.mark.parametrize(("scenario", "wire"), scenario_params())
def test_a_conformance_client_scenario_passes(
    scenario: str, wire: str | None, tmp_path: Path, client_forkserver: ForkServer | None
) -> None:
    command = client_command(CLIENT, client_forkserver)
    argv = [*suite_or_skip(), "client", "--command", command, "--scenario", scenario]
    if wire is not None:
        argv += ["--spec-version", wire, "--force"]
    assert_scenario_passes(argv, tmp_path)
