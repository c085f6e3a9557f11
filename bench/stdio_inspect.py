"""``workbench inspect --stdio`` vs a bare-SDK script doing the same, against server-everything, same run.

Each sample spawns a fresh interpreter and times it from spawn to exit (what a user at the prompt
waits for): ours runs ``workbench inspect --stdio -- node …/server-everything stdio``; the baseline
is ``BARE_SCRIPT`` below (the SDK's ``Client`` over ``StdioServerParameters``: connect, list tools,
resources, templates and prompts, print the tool names, close). Both start, use and stop the same
node server. Runs alternate (the order flips every round) after one unmeasured warm-up of each.
Prints both medians and the ratio (target <= 1.10); ``--wire`` also prints how many ``tools/list``
our run sent and how the child ended (from its wire log).
Needs node and the npm package (``make test`` installs it into .cache/npm); says it skipped without them.
Usage: python bench/stdio_inspect.py [--runs N] [--wire]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.everything import everything_dir, node_path, unavailable_reason  # noqa: E402

TARGET = 1.10
BARE_SCRIPT = """
import sys, anyio
from mcp import Client, StdioServerParameters

async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with Client(params) as client:
        tools = await client.list_tools()
        await client.list_resources()
        await client.list_resource_templates()
        await client.list_prompts()
        print("\\n".join(t.name for t in tools.tools))

anyio.run(main)
"""


def timed(argv: list[str]) -> float:
    """Seconds from spawn to exit; the command must succeed."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv[:3]} … exited {done.returncode}:\n{done.stderr[-2000:]}")
    return took


def wire_summary(ours: list[str]) -> str:
    """How many tools/list our run sent, and how the server process ended (from a JSONL wire log)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "wire.jsonl"
        timed([*ours[:4], "--wire", str(path), *ours[4:]])
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    lists = sum(1 for r in records if r.get("method") == "tools/list" and r.get("direction") == "out")
    changed = sum(1 for r in records if r.get("method") == "notifications/tools/list_changed")
    ended = [r.get("summary", "") for r in records if r.get("kind") == "process" and "started" not in r.get("summary")]
    return f"tools/list sent: {lists} (for {changed} list_changed); server: {' | '.join(ended) or '?'}"


def main(runs: int, wire: bool) -> None:
    node, package = node_path(), everything_dir()
    if node is None or package is None:
        print(f"stdio inspect: skipped ({unavailable_reason()})")  # make bench goes on to the next script
        return
    server = [node, str(package / "dist" / "index.js"), "stdio"]
    ours = [sys.executable, "-m", "workbench", "inspect", "--stdio", "--", *server]
    bare = [sys.executable, "-c", BARE_SCRIPT, *server]
    timed(bare)  # warm-up: the OS page cache, node's compile cache
    timed(ours)
    samples: dict[str, list[float]] = {"bare": [], "ours": []}
    for i in range(runs):
        order = [("bare", bare), ("ours", ours)]
        for key, argv in order if i % 2 == 0 else reversed(order):
            samples[key].append(timed(argv))
    b, o = statistics.median(samples["bare"]), statistics.median(samples["ours"])
    print(f"stdio inspect against server-everything, median of {runs} interleaved runs (target ratio <= {TARGET:.2f})")
    print(f"  bare SDK script      {b * 1000:8.1f} ms   (min {min(samples['bare']) * 1000:.1f})")
    print(f"  workbench inspect    {o * 1000:8.1f} ms   (min {min(samples['ours']) * 1000:.1f})")
    print(f"  ratio                {o / b:8.2f}   {'ok' if o / b <= TARGET else 'OVER TARGET'}")
    if wire:
        print(f"  {wire_summary(ours)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--wire", action="store_true", help="also summarise one run's wire log")
    args = parser.parse_args()
    main(args.runs, args.wire)
