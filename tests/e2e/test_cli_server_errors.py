"""A JSON-RPC error the server sends keeps its own code and message, whatever the code.

-32000 and -32001 are also the codes the MCP SDK gives its own failures (connection closed, request
timed out); from a server they are the server's answer (a ``RemoteError`` with its code and message),
over stdio and Streamable HTTP alike, and so for an A2A agent's JSON-RPC errors.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from tests.servers import script_path, start_listening_process
from tests.support.cli_runner import failure, workbench

pytestmark = pytest.mark.asyncio
BOUND = 30.0
SERVER_CODES = [-32000, -32001, -32099, 7]


@asynccontextmanager
async def http_server() -> AsyncIterator[str]:
    async with start_listening_process([sys.executable, script_path("http_unanswered")]) as server:
        yield server.url


@pytest.mark.parametrize("code", SERVER_CODES)
async def test_a_stdio_servers_error_keeps_its_code_and_message(code: int) -> None:
    arguments = json.dumps({"code": code, "message": "the server's own words"})
    server = (sys.executable, script_path("server_errors"))
    exit_code, out, err = await workbench(
        "call", "--json", "fail", "--args", arguments, "--stdio", "--", *server, timeout=BOUND
    )
    assert exit_code == 1, err
    error = failure(out)
    assert error["type"] == "RemoteError"
    assert error["details"]["remote_code"] == code
    assert error["details"]["remote_message"] == "the server's own words"


@pytest.mark.parametrize("code", SERVER_CODES)
async def test_a_streamable_http_servers_error_keeps_its_code_and_message(code: int) -> None:
    arguments = json.dumps({"code": code, "message": "the server's own words"})
    async with http_server() as url:
        exit_code, out, err = await workbench(
            "call", "--json", "fail", "--args", arguments, "--mcp", f"{url}/mcp", "--mode", "legacy", timeout=BOUND
        )
    assert exit_code == 1, err
    error = failure(out)
    assert error["type"] == "RemoteError"
    assert error["details"]["remote_code"] == code
    assert error["details"]["remote_message"] == "the server's own words"


@pytest.mark.parametrize("agent", ["v1", "v1sse", "v03"])
@pytest.mark.parametrize("code", [-32000, -32099, 7])
async def test_an_a2a_agents_json_rpc_error_keeps_its_code_and_message(agent: str, code: int) -> None:
    async with start_listening_process([sys.executable, script_path("a2a_server_errors")]) as server:
        # The agent's words, not the client's: a closed session it reports is not a lost connection.
        text = f"error {code} the session is closed"
        exit_code, out, err = await workbench("send", "--json", "--a2a", f"{server.url}/{agent}", text, timeout=BOUND)
    assert exit_code == 1, err
    error = failure(out)
    assert error["type"] == "RemoteError"
    assert error["details"]["remote_code"] == code
    assert error["details"]["remote_message"] == "the session is closed"


async def test_an_a2a_agents_task_not_found_keeps_its_message() -> None:
    async with start_listening_process([sys.executable, script_path("a2a_server_errors")]) as server:
        exit_code, out, err = await workbench(
            "send", "--json", "--a2a", f"{server.url}/v1", "error -32001 no such task here", timeout=BOUND
        )
    assert exit_code == 1, err
    error = failure(out)
    assert error["type"] == "NotFoundError"  # -32001 is A2A's TaskNotFoundError
    assert error["details"] == {"remote_code": -32001, "remote_message": "no such task here"}
