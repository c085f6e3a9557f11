"""Malformed commands exit 2 with a typed error before anything is spawned or connected."""

from __future__ import annotations

import json

import pytest

from tests.support.cli_runner import workbench

pytestmark = pytest.mark.asyncio
# Never started: a usage error must be found first (spawning it would fail with exit 1 instead).
NO_SERVER = ["--", "/nonexistent/never-started-mcp-server"]


@pytest.mark.parametrize(
    "argv",
    [
        ["call", "--stdio", "echo", "--args", "not json", *NO_SERVER],
        ["call", "--stdio", "echo", "--args", "[1, 2]", *NO_SERVER],
        ["send", "--stdio", "hello", "--data", "{}", *NO_SERVER],
        ["send", "--a2a", "http://127.0.0.1:9/", "hello", "--data", "{not json"],
        ["inspect", "--stdio", "--wire", "/nonexistent/folder/session.har", *NO_SERVER],
    ],
)
async def test_usage_errors_exit_2_before_connecting(argv: list[str]) -> None:
    code, out, err = await workbench(*argv)
    assert code == 2, (out, err)
    assert err.startswith("error: ")


async def test_a_usage_error_with_json_is_one_failed_line_with_the_config_code() -> None:
    code, out, _ = await workbench("call", "--stdio", "--json", "echo", "--args", "[1]", *NO_SERVER)
    assert code == 2
    [line] = [json.loads(x) for x in out.splitlines() if x.strip()]
    assert line["kind"] == "failed"
    assert line["error"]["code"] == "config"
