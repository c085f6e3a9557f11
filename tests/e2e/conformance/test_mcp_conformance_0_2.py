"""The MCP conformance suite 0.2's client scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12) against us.

Every scenario runs one program, ``client.py SERVER_URL`` (the suite's ``--command`` convention), which
uses nothing of ``workbench`` but the public ``workbench.agents``. Two suite runs cover them, each
starting all its clients at once (through the fork server, so a client costs a fork, not an interpreter
importing the MCP SDK): ``--suite all`` runs each scenario at its own wire, ``--requirements
2026-07-28`` runs what that revision scores, and the client extensions it reports unscored, at
2026-07-28. Each scenario is a subtest judged as the suite judges one scenario run alone
(``tests/support/conformance.scenario_problems``): no check fails or warns, at least one succeeds (a
client that never reaches the behaviour under test earns only SKIPPED checks, which ``--suite all``
counts as passed), and the client ends by itself, with status 0 unless the scenario is one where
refusing is what it checks. The suite needs Node >= 22: ``make test`` installs it beside the suite; a
system Node >= 22 serves too, else the tests skip saying why. A scenario whose client mode the public
library lacks goes in ``client.GAPS`` (none now) with what is missing: its subtest then expects it to fail.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.conformance import ScenarioRun, client_command, judge_each, node, run_batch
from tests.support.everything import REPO_ROOT
from tests.support.forkserver import ForkServer

PREFIX = REPO_ROOT / ".cache" / "npm" / "conformance-0.2.0-alpha.12" / "node_modules"
SUITE = PREFIX / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
CLIENT = Path(__file__).with_name("client.py")
MODERN = "2026-07-28"


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


def suite_or_skip() -> list[str]:
    """The command that runs the suite, or a skip saying what is missing."""
    runner = node(PREFIX)
    if not SUITE.exists() or runner is None:
        pytest.skip("the MCP conformance suite 0.2 (make test installs it in .cache/npm) or a Node >= 22 is missing")
    return [runner, str(SUITE)]


def client_scenarios(listing: str) -> set[str]:
    """The client scenarios a ``list --client`` output names: its client section's ``- name`` lines, and the
    unscored entries marked ``[client]`` that ``--requirements`` adds."""
    names, in_client_section = set(), False
    for line in listing.splitlines():
        entry = line.strip()
        if not entry:
            in_client_section = False
        elif entry.startswith("Client scenarios"):
            in_client_section = True
        elif entry.startswith("- ") and (in_client_section or entry.endswith("[client]")):
            names.add(entry[2:].split(" [")[0])
    return names


def _listing(*options: str) -> str:
    return subprocess.run(
        [*suite_or_skip(), "list", "--client", *options], capture_output=True, text=True, timeout=60, check=True
    ).stdout


def test_client_py_has_an_entry_for_every_client_scenario_of_the_pinned_suite() -> None:
    assert client_scenarios(_listing()) == set(SCENARIOS) | set(GAPS)
    assert not set(SCENARIOS) & set(GAPS)


def test_client_py_uses_nothing_of_workbench_but_workbench_agents() -> None:
    tree = ast.parse(CLIENT.read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {name for name in imported if name.split(".")[0] == "workbench"} == {"workbench.agents"}


def _judge(runs: dict[str, ScenarioRun], expected: set[str], subtests: pytest.Subtests) -> None:
    """One subtest per scenario; every expected scenario ran and no other."""
    assert set(runs) == expected, f"ran and not expected: {set(runs) - expected}; missing: {expected - set(runs)}"
    judge_each(runs, expected, SUITE, GAPS, subtests)


def test_every_client_scenario_passes_at_its_own_wire(
    tmp_path: Path, client_forkserver: ForkServer | None, subtests: pytest.Subtests
) -> None:
    runs = run_batch(suite_or_skip(), ["--suite", "all"], client_command(CLIENT, client_forkserver), tmp_path)
    _judge(runs, set(SCENARIOS) | set(GAPS), subtests)


def test_every_client_scenario_the_2026_07_28_revision_requires_passes_at_its_wire(
    tmp_path: Path, client_forkserver: ForkServer | None, subtests: pytest.Subtests
) -> None:
    required = client_scenarios(_listing("--requirements", MODERN))
    runs = run_batch(suite_or_skip(), ["--requirements", MODERN], client_command(CLIENT, client_forkserver), tmp_path)
    _judge(runs, required, subtests)
