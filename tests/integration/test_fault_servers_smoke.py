"""Smoke tests of the fault servers in tests/servers: each misbehaves exactly as documented (raw subprocess I/O)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
import pytest

from tests.servers import run_http_script, script_path

WAIT_S = 15.0
INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "workbench-tests", "version": "0.0.0"},
}


class RawStdio:
    """A fault server process spoken to line by line over its stdin/stdout."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stderr_lines: list[str] = []
        self._stderr_grew = asyncio.Event()
        assert process.stderr is not None
        self._stderr_task = asyncio.create_task(self._pump(process.stderr))

    async def _pump(self, stream: asyncio.StreamReader) -> None:
        while raw := await stream.readline():
            self.stderr_lines.append(raw.decode(errors="replace").rstrip())
            self._stderr_grew.set()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        await self.process.stdin.drain()

    async def request(self, request_id: int, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)

    async def line(self) -> str:
        """The next raw stdout line ("" at EOF)."""
        assert self.process.stdout is not None
        with anyio.fail_after(WAIT_S):
            return (await self.process.stdout.readline()).decode().rstrip("\r\n")

    async def message(self) -> dict[str, Any]:
        parsed = json.loads(await self.line())
        assert isinstance(parsed, dict)
        return parsed

    async def response(self, request_id: int) -> dict[str, Any]:
        """The reply to `request_id`, skipping notifications that come first."""
        while True:
            message = await self.message()
            if message.get("id") == request_id:
                return message
            assert "method" in message, message

    async def handshake(self) -> None:
        await self.request(1, "initialize", INITIALIZE)
        reply = await self.response(1)
        assert reply["result"]["protocolVersion"] == "2025-11-25"
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def stderr_line(self, needle: str) -> str:
        with anyio.fail_after(WAIT_S):
            while True:
                for line in self.stderr_lines:
                    if needle in line:
                        return line
                self._stderr_grew.clear()
                await self._stderr_grew.wait()

    async def exit_code(self) -> int:
        with anyio.fail_after(WAIT_S):
            return await self.process.wait()


@contextlib.asynccontextmanager
async def run_stdio_script(name: str) -> AsyncIterator[RawStdio]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        script_path(name),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    raw = RawStdio(process)
    try:
        yield raw
    finally:
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        try:
            with anyio.fail_after(WAIT_S):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()
        await raw._stderr_task


def test_script_path_finds_every_fault_server_and_rejects_unknown_names() -> None:
    for name in ("crash_mid_call", "garbage_stdout", "malformed_jsonrpc", "never_answers", "http_status"):
        assert script_path(name).endswith(f"{name}.py")
    assert script_path("http_status.py") == script_path("http_status")
    with pytest.raises(FileNotFoundError):
        script_path("no_such_server")


@pytest.mark.asyncio
async def test_crash_mid_call_exits_with_code_3_after_writing_to_stderr() -> None:
    async with run_stdio_script("crash_mid_call") as server:
        await server.handshake()
        await server.request(2, "tools/call", {"name": "echo", "arguments": {"text": "hi"}})
        assert (await server.response(2))["result"]["content"][0]["text"] == "hi"
        await server.request(3, "tools/call", {"name": "crash", "arguments": {}})
        assert await server.line() == ""  # EOF: no reply to the call
        assert await server.exit_code() == 3
        assert "exiting with code 3" in await server.stderr_line("crash_mid_call")


@pytest.mark.asyncio
async def test_garbage_stdout_prints_non_json_lines_and_keeps_working() -> None:
    async with run_stdio_script("garbage_stdout") as server:
        first = await server.line()
        with pytest.raises(json.JSONDecodeError):
            json.loads(first)
        await server.request(0, "server/discover", {})
        assert (await server.response(0))["error"]["code"] == -32601
        await server.handshake()
        await server.request(2, "tools/call", {"name": "echo", "arguments": {"text": "hi"}})
        garbage = await server.line()
        assert "not JSON-RPC" in garbage
        with pytest.raises(json.JSONDecodeError):
            json.loads(garbage)
        assert (await server.response(2))["result"]["content"] == [{"type": "text", "text": "hi"}]
        await server.request(3, "tools/list")
        assert [t["name"] for t in (await server.response(3))["result"]["tools"]] == ["echo"]


@pytest.mark.asyncio
async def test_malformed_jsonrpc_answers_lists_with_invalid_json_rpc() -> None:
    async with run_stdio_script("malformed_jsonrpc") as server:
        await server.request(0, "server/discover", {})
        assert (await server.response(0))["error"]["code"] == -32601
        await server.handshake()

        await server.request(2, "tools/list")
        no_version = await server.message()
        assert "jsonrpc" not in no_version and no_version["id"] == 2
        both = await server.message()
        assert {"result", "error"} <= both.keys() and both["id"] == 2
        with pytest.raises(json.JSONDecodeError):
            json.loads(await server.line())

        await server.request(3, "resources/list")
        assert {"result", "error"} <= (await server.message()).keys()
        await server.request(4, "prompts/list")
        with pytest.raises(json.JSONDecodeError):
            json.loads(await server.line())
        await server.request(5, "ping")
        assert await server.message() == {"jsonrpc": "2.0", "id": 5, "result": {}}


@pytest.mark.asyncio
async def test_never_answers_holds_tool_calls_and_logs_cancellation() -> None:
    async with run_stdio_script("never_answers") as server:
        await server.request(0, "server/discover", {})
        assert (await server.response(0))["error"]["code"] == -32601
        await server.handshake()
        await server.request(2, "tools/list")
        assert [t["name"] for t in (await server.response(2))["result"]["tools"]] == ["wait_forever"]
        await server.request(3, "tools/call", {"name": "wait_forever", "arguments": {}})
        await server.request(4, "ping")
        assert await server.message() == {"jsonrpc": "2.0", "id": 4, "result": {}}  # the call got no reply first
        await server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
        assert await server.stderr_line("cancelled 3") == "cancelled 3"
        assert server.process.stdin is not None
        server.process.stdin.close()
        assert await server.line() == ""
        assert await server.exit_code() == 0


@pytest.mark.asyncio
async def test_http_status_answers_401_with_bearer_challenge_and_500_with_html() -> None:
    async with run_http_script("http_status") as url, httpx2.AsyncClient(timeout=WAIT_S) as http:
        assert url.startswith("http://127.0.0.1:")
        unauthorized = await http.post(f"{url}/401", json={"jsonrpc": "2.0", "id": 1, "method": "initialize"})
        assert unauthorized.status_code == 401
        assert unauthorized.headers["www-authenticate"].startswith("Bearer")
        broken = await http.post(f"{url}/500", json={})
        assert broken.status_code == 500
        assert broken.headers["content-type"].startswith("text/html")
        assert "<html>" in broken.text
        assert (await http.get(f"{url}/elsewhere")).status_code == 404
