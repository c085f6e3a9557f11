"""``--max-message-bytes`` / ``--max-stream-bytes``: a run's size limits, for ad-hoc targets and over a saved profile.

Against the hostile HTTP server (tests/servers/http_hostile.py): an answer over the limit given is
refused naming that limit and its value; a value that is not a size, or a limit for a stdio server,
is a usage error (exit 2) naming the option. Against tests/servers/compression_bomb.py: the limit
counts what a compressed answer decodes to.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.servers import script_path, start_listening_process
from tests.support.cli_profiles import cli_env, workbench
from tests.support.cli_runner import failure

pytestmark = pytest.mark.asyncio
MIB = 1024 * 1024


@asynccontextmanager
async def hostile() -> AsyncIterator[str]:
    async with start_listening_process([sys.executable, script_path("http_hostile")]) as server:
        yield server.url


async def test_an_ad_hoc_target_is_refused_at_the_limits_given_on_the_command_line(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with hostile() as url:
        code, out, err = await workbench(
            env, "call", "--json", "endless", "--mcp", url, "--mode", "legacy", "--max-stream-bytes", "4MiB"
        )
        assert code == 1, err
        error = failure(out)
        assert error["type"] == "ProtocolError" and error["details"]["limit"] == "max_stream_bytes"
        assert error["details"]["limit_bytes"] == 4 * MIB and "--max-stream-bytes" in error["hint"]
        code, out, err = await workbench(
            env, "call", "--json", "huge_chunked", "--mcp-sse", url.removesuffix("/mcp") + "/sse",
            "--mode", "legacy", "--max-message-bytes", "1.5M",
        )  # fmt: skip
        assert code == 1, err
        error = failure(out)
        assert error["details"]["limit"] == "max_message_bytes" and error["details"]["limit_bytes"] == 3 * MIB // 2


async def test_the_limits_given_override_a_saved_profiles_for_this_run_only(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with hostile() as url:
        code, _, err = await workbench(env, "profile", "add", "hostile", "--mcp", url, "--max-stream-bytes", "6MiB")
        assert code == 0, err
        code, out, err = await workbench(env, "profile", "list", "--json")
        assert code == 0, err
        [saved] = [p for p in map(json.loads, out.splitlines()) if p.get("name") == "hostile"]
        assert saved["max_stream_bytes"] == 6 * MIB and saved["max_message_bytes"] == 64 * MIB
        run = ("call", "--json", "endless", "--profile", "hostile", "--mode", "legacy")
        code, out, err = await workbench(env, *run, "--max-stream-bytes", "2M")
        assert code == 1, err
        assert failure(out)["details"]["limit_bytes"] == 2 * MIB  # this run's value
        code, out, err = await workbench(env, *run)
        assert code == 1, err
        assert failure(out)["details"]["limit_bytes"] == 6 * MIB  # the saved one: nothing was saved by the override
        code, out, err = await workbench(
            env, "call", "--json", "echo", "--profile", "hostile", "--max-message-bytes", "none"
        )
        assert code == 0, err


@pytest.mark.parametrize(
    "argv",
    [
        ("call", "--json", "gzip", "--args", '{"mib": 300}', "--mcp", "{url}/mcp", "--mode", "legacy"),
        ("send", "--json", "bomb", "--a2a", "{url}/a2a"),
    ],
    ids=["mcp-call", "a2a-send"],
)
async def test_a_compressed_answer_that_inflates_to_300_mib_is_refused_at_the_1_mib_limit_given(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    server_env = {**os.environ, "BOMB_MB": "300"}  # ~300 KiB of gzip on the wire
    async with start_listening_process([sys.executable, script_path("compression_bomb")], env=server_env) as server:
        run = [arg.replace("{url}", server.url) for arg in argv]
        code, out, err = await workbench(cli_env(tmp_path), *run, "--max-message-bytes", "1MiB")
    assert code == 1, err
    error = failure(out)
    assert error["type"] == "ProtocolError" and error["code"] == "protocol"
    details = error["details"]
    assert details["limit"] == "max_message_bytes" and details["limit_bytes"] == MIB
    assert MIB < details["received_bytes"] <= MIB + 64 * 1024  # decoded bytes, refused a piece past the limit


@pytest.mark.parametrize(
    "argv",
    [
        ("--mcp", "http://127.0.0.1:9/mcp", "--max-message-bytes", "banana"),
        ("--mcp", "http://127.0.0.1:9/mcp", "--max-stream-bytes", "0"),
        ("--max-stream-bytes", "1M", "--stdio", "--", sys.executable, "-c", "pass"),
    ],
    ids=["not-a-size", "zero", "stdio"],
)
async def test_a_limit_that_is_not_a_size_or_does_not_fit_the_target_is_a_usage_error(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    code, out, _ = await workbench(cli_env(tmp_path), "inspect", "--json", *argv)
    assert code == 2
    error = failure(out)
    assert error["code"] == "config" and error["details"]["option"] in ("--max-message-bytes", "--max-stream-bytes")
