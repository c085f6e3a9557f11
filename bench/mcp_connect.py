"""Connect + discover + list everything: MCPAgent vs a bare SDK ``Client``, same server, same run.

Prints the median seconds of each, interleaved run by run, and the ratio (target <= 1.10) for stdio
and Streamable HTTP, in both protocol eras. The demo MCP server runs as a child process.
Usage: python bench/mcp_connect.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable

from mcp import Client, StdioServerParameters

from workbench.core.protocols.mcp import MCPAgent

STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]


async def bare_client(target: str | None, mode: str) -> None:
    server = target if target else StdioServerParameters(command=STDIO[0], args=STDIO[1:])
    async with Client(server, mode=mode, cache=None) as client:  # type: ignore[arg-type]
        await client.list_tools()
        await client.list_resources()
        await client.list_resource_templates()
        await client.list_prompts()


async def workbench_agent(target: str | None, mode: str) -> None:
    agent = MCPAgent(target, mode=mode) if target else MCPAgent.stdio(STDIO[0], STDIO[1:], mode=mode)
    async with agent:
        assert agent.tools and agent.server_features.prompts


async def timed(fn: Callable[[str | None, str], Awaitable[None]], target: str | None, mode: str) -> float:
    started = time.perf_counter()
    await fn(target, mode)
    return time.perf_counter() - started


async def start_http_server() -> tuple[asyncio.subprocess.Process, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "workbench.demo.mcp_server", "--http", "--port", "0", stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().strip()
    return proc, line.split(" ", 1)[1]


async def compare(label: str, target: str | None, mode: str, runs: int) -> None:
    await timed(bare_client, target, mode)  # warm-up (imports, first connection)
    await timed(workbench_agent, target, mode)
    bare: list[float] = []
    ours: list[float] = []
    for i in range(runs):
        order = [(bare_client, bare), (workbench_agent, ours)]
        for fn, sink in order if i % 2 == 0 else reversed(order):
            sink.append(await timed(fn, target, mode))
    b, o = statistics.median(bare), statistics.median(ours)
    print(f"{label:<28} bare Client {b * 1000:8.1f} ms   MCPAgent {o * 1000:8.1f} ms   ratio {o / b:5.2f}")


async def main(runs: int) -> None:
    print(f"connect + discover + list everything, median of {runs} interleaved runs (target ratio <= 1.10)")
    proc, url = await start_http_server()
    try:
        for mode in ("legacy", "auto"):
            await compare(f"streamable-http, {mode}", url, mode, runs)
            await compare(f"stdio, {mode}", None, mode, max(3, runs // 3))
    finally:
        proc.terminate()
        await proc.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    asyncio.run(main(parser.parse_args().runs))
