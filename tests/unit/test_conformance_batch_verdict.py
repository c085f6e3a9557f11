"""A conformance batch judges each scenario as the suite judges one run alone (tests/support/conformance.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.conformance import ScenarioRun, allows_client_error, scenario_problems
from tests.support.everything import REPO_ROOT

BUNDLE = REPO_ROOT / ".cache/npm/conformance-0.2.0-alpha.12/node_modules/@modelcontextprotocol/conformance/dist"
BUNDLE /= "index.js"
PASSED: list[dict[str, Any]] = [{"id": "client-initialized", "status": "SUCCESS"}]


@pytest.fixture(autouse=True)
def _bundle_installed() -> None:
    if not BUNDLE.exists():
        pytest.skip("the MCP conformance suite 0.2 (make test installs it in .cache/npm) is missing")


def run(scenario: str, checks: list[dict[str, Any]], exit_status: int | None) -> ScenarioRun:
    return ScenarioRun(scenario=scenario, checks=checks, exit_status=exit_status, client_stderr="Traceback …")


def test_a_scenario_whose_checks_succeed_and_whose_client_exits_0_passes() -> None:
    assert scenario_problems(run("initialize", PASSED, 0), BUNDLE) == []


def test_a_client_that_exits_with_an_error_fails_a_scenario_that_does_not_allow_it() -> None:
    problems = scenario_problems(run("initialize", PASSED, 1), BUNDLE)
    assert "the client exited with status 1" in problems
    assert problems[-1].endswith("Traceback …")


def test_a_refusing_client_passes_a_scenario_where_refusing_is_what_it_checks() -> None:
    assert allows_client_error(BUNDLE, "auth/iss-wrong-issuer")
    assert not allows_client_error(BUNDLE, "initialize")
    assert scenario_problems(run("auth/iss-wrong-issuer", PASSED, 1), BUNDLE) == []


def test_a_client_the_suite_killed_fails_even_where_errors_are_allowed() -> None:
    problems = scenario_problems(run("auth/iss-wrong-issuer", PASSED, None), BUNDLE)
    assert any("did not end by itself" in p for p in problems)


@pytest.mark.parametrize(
    ("checks", "expected"),
    [
        ([{"id": "x", "status": "FAILURE", "errorMessage": "no token"}], "x: FAILURE: no token"),
        ([*PASSED, {"id": "late", "status": "WARNING", "description": "slow"}], "late: WARNING: slow"),
        ([{"id": "a", "status": "SKIPPED"}], "no check succeeded: ['a']"),
    ],
)
def test_a_failed_check_an_untolerated_warning_or_no_success_fails(checks: list[dict[str, Any]], expected: str) -> None:
    assert expected in scenario_problems(run("initialize", checks, 0), BUNDLE)


def test_the_reconnect_timing_warning_is_tolerated() -> None:
    checks = [*PASSED, {"id": "client-sse-retry-timing", "status": "WARNING", "description": "late"}]
    assert scenario_problems(run("sse-retry", checks, 0), BUNDLE) == []
