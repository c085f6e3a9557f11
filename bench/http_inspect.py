"""``workbench inspect --mcp URL`` vs a bare-SDK script and the Node MCP Inspector CLI, same server, same run.

server-everything runs once in Streamable HTTP mode on 127.0.0.1 (ephemeral port, the tests' loopback
preload) for the whole run. Each sample spawns a fresh process and times it from spawn to exit (what a
user at the prompt waits for):
  - ours: ``workbench inspect --mcp URL`` (connect, discover, list tools/resources/templates/prompts, print);
  - bare: ``BARE_SCRIPT`` below (the SDK's ``Client`` on the URL: the same four lists, print the tool names);
  - node: the MCP Inspector CLI, ``mcp-inspector --cli URL --method tools/list`` (one list only), run with
    ``node`` straight from its install in .cache/npm (npx's own package resolution is not timed).
Runs alternate (the order rotates every round) after one unmeasured warm-up of each. Prints the medians
(wall and CPU: user + system, steadier than wall time on a busy machine), ours/bare (target <= 1.10)
and ours/node, and the machine's load average before and after.
Needs node and server-everything (``make test`` installs them); the Inspector CLI is installed by
``make bench`` into .cache/npm/inspector-<version>. Nothing is downloaded at run time: whatever is missing
is reported as skipped.
Usage: python bench/http_inspect.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.everything import node_path, start_everything_http, unavailable_reason  # noqa: E402

TARGET = 1.10
INSPECTOR_VERSION = "2.12.0"  # keep in step with the Makefile's INSPECTOR
INSPECTOR_BIN = (
    ROOT / ".cache" / "npm" / f"inspector-{INSPECTOR_VERSION}" / "node_modules" / "@modelcontextprotocol" / "inspector"
)
BARE_SCRIPT = """
import sys, anyio
from mcp import Client

async def main() -> None:
    async with Client(sys.argv[1]) as client:
        tools = await client.list_tools()
        await client.list_resources()
        await client.list_resource_templates()
        await client.list_prompts()
        print("\\n".join(t.name for t in tools.tools))

anyio.run(main)
"""


def inspector_entry() -> Path | None:
    """The Inspector's launcher script if the pinned version is installed, else None."""
    entry = INSPECTOR_BIN / "clients" / "launcher" / "build" / "index.js"
    return entry if entry.is_file() else None


def loadavg() -> str:
    """The 1/5/15-minute load averages (Linux), or '?'."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


async def timed(argv: list[str]) -> tuple[float, float]:
    """Seconds from spawn to exit, and the CPU seconds (user + system) it used; the command must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    _, err = await asyncio.wait_for(proc.communicate(), 120)
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:3]} … exited {proc.returncode}:\n{err.decode(errors='replace')[-2000:]}")
    return took, cpu


def line(label: str, values: list[tuple[float, float]]) -> str:
    walls, cpus = [w for w, _ in values], [c for _, c in values]
    wall, cpu = statistics.median(walls) * 1000, statistics.median(cpus) * 1000
    return f"  {label:<24} {wall:8.1f} ms   (min {min(walls) * 1000:.1f})   CPU {cpu:7.1f} ms"


def median(values: list[tuple[float, float]], which: int) -> float:
    return statistics.median(v[which] for v in values)


async def main(runs: int) -> None:
    reason = unavailable_reason()
    node = node_path()
    if reason is not None or node is None:
        print(f"http inspect: skipped ({reason})")  # make bench goes on to the next script
        return
    print(f"load average before: {loadavg()}")
    async with start_everything_http("streamableHttp") as server:
        commands = {
            "bare": [sys.executable, "-c", BARE_SCRIPT, server.url],
            "ours": [sys.executable, "-m", "workbench", "inspect", "--mcp", server.url],
        }
        entry = inspector_entry()
        if entry is not None:
            commands["node"] = [node, str(entry), "--cli", server.url, "--method", "tools/list"]
        for argv in commands.values():  # warm-up: the OS page cache, node's compile cache
            await timed(argv)
        samples: dict[str, list[tuple[float, float]]] = {key: [] for key in commands}
        order = list(commands)
        for i in range(runs):
            for key in order[i % len(order) :] + order[: i % len(order)]:
                samples[key].append(await timed(commands[key]))
    b, o = median(samples["bare"], 0), median(samples["ours"], 0)
    cpu_ratio = median(samples["ours"], 1) / median(samples["bare"], 1)
    print(
        f"HTTP inspect against server-everything, median of {runs} interleaved runs (target ours/bare <= {TARGET:.2f})"
    )
    print(line("bare SDK script", samples["bare"]))
    print(line("workbench inspect", samples["ours"]))
    if "node" in samples:
        print(line(f"Inspector CLI {INSPECTOR_VERSION}", samples["node"]))
    else:
        missing = f"@modelcontextprotocol/inspector@{INSPECTOR_VERSION} is not installed; make bench installs it"
        print(f"  Inspector CLI            skipped ({missing})")
    verdict = "ok" if o / b <= TARGET else "OVER TARGET"
    print(f"  ratio ours/bare          {o / b:8.2f}   {verdict}   (CPU {cpu_ratio:.2f})")
    if "node" in samples:
        node_ratio = o / median(samples["node"], 0)
        print(f"  ratio ours/Inspector     {node_ratio:8.2f}   (the Inspector lists tools only)")
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    asyncio.run(main(args.runs))
