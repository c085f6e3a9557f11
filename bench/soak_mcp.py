"""MCP soak: 10,000 sequential and 50-at-a-time tool calls through one ``MCPAgent``; prints RSS, fds, tasks.

The demo MCP server (``workbench.demo.mcp_server``) is reached two ways: as a stdio child
(``python -m workbench.demo.mcp_server --stdio``) and in-process (``MCPAgent.in_process(server)``,
whose server then shares this process's memory). For each, one agent is connected, warmed up, then:

* ``sequential``: N calls of ``echo``, one after the other;
* ``concurrent``: N calls in waves of 50 at once (``asyncio.gather``).

Printed per phase: this process's RSS (``VmRSS`` of /proc/self/status) at start (after the warm-up),
middle and end, and end/start (target: flat within 10 %). Per transport: open file descriptors
(``/proc/self/fd``) and live asyncio tasks before connecting and after closing (target: equal), and
the wire log's size, since every call is recorded and the recorder keeps up to a million records by
default: the ``bounded wire`` rows repeat the run with a recorder capped at 2,000 records, which
separates the wire log's growth (by design) from a leak. Each case runs in a fresh child process, so
memory one case freed (but the allocator kept) does not hide another's growth. Not a timed test.

Run: .venv/bin/python bench/soak_mcp.py [--quick] [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable

from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.mcp_server import build_server

STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]
CONCURRENCY = 50
WARM_UP = 200
BOUNDED_CAPACITY = 2_000


def rss_kib() -> int:
    """This process's resident set size in KiB (``VmRSS`` of /proc/self/status)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def open_fds() -> int:
    """How many file descriptors this process has open."""
    return len(os.listdir("/proc/self/fd"))


def live_tasks() -> int:
    """How many asyncio tasks are alive, this one included."""
    return len(asyncio.all_tasks())


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


async def settle() -> None:
    """Let closed transports and cancelled tasks finish, then collect garbage."""
    for _ in range(20):
        await asyncio.sleep(0.01)
    gc.collect()


async def sequential(agent: MCPAgent, n: int) -> None:
    for i in range(n):
        result = await agent.call_tool("echo", {"text": f"soak {i}"})
        assert result.content[0].text == f"soak {i}", result


async def concurrent(agent: MCPAgent, n: int) -> None:
    for start in range(0, n, CONCURRENCY):
        wave = range(start, min(n, start + CONCURRENCY))
        results = await asyncio.gather(*(agent.call_tool("echo", {"text": f"wave {i}"}) for i in wave))
        assert [r.content[0].text for r in results] == [f"wave {i}" for i in wave]


async def phase(label: str, agent: MCPAgent, n: int, run: Callable[[MCPAgent, int], Awaitable[None]]) -> float:
    """Run ``n`` calls in two halves; print RSS at start/middle/end; return end/start."""
    gc.collect()
    start = rss_kib()
    started = time.perf_counter()
    await run(agent, n // 2)
    gc.collect()
    middle = rss_kib()
    await run(agent, n - n // 2)
    gc.collect()
    end = rss_kib()
    elapsed = time.perf_counter() - started
    ratio = end / start
    print(
        f"  {label:<34}{n:>7,} calls {elapsed:>7.1f} s {n / elapsed:>7,.0f}/s   RSS MiB "
        f"{mib(start):>6} {mib(middle):>6} {mib(end):>6}   end/start {ratio:.3f}"
    )
    return ratio


async def soak(label: str, make: Callable[[WireRecorder], MCPAgent], n: int, capacity: int | None) -> list[float]:
    await settle()
    fds0, tasks0 = open_fds(), live_tasks()
    wire = WireRecorder(capacity) if capacity else WireRecorder()
    agent = make(wire)
    ratios: list[float] = []
    async with agent:
        await sequential(agent, WARM_UP)
        await concurrent(agent, WARM_UP)
        ratios.append(await phase(f"{label} sequential", agent, n, sequential))
        ratios.append(await phase(f"{label} concurrent x{CONCURRENCY}", agent, n, concurrent))
        held = len(wire.records())
        fds_open, tasks_open = open_fds(), live_tasks()
    await settle()
    fds1, tasks1 = open_fds(), live_tasks()
    print(
        f"  {label:<34}fds {fds0} -> {fds_open} open -> {fds1} closed   tasks {tasks0} -> {tasks_open} open -> "
        f"{tasks1} closed   wire: {held:,} records held, {wire.dropped:,} dropped, "
        f"{wire.held_chars / 1e6:.1f} M chars"
    )
    if fds1 != fds0 or tasks1 != tasks0:
        print(f"  {label:<34}LEAK: fds {fds1 - fds0:+d}, tasks {tasks1 - tasks0:+d}")
    return ratios


CASES: dict[str, tuple[Callable[[WireRecorder], MCPAgent], int | None]] = {
    "stdio": (lambda wire: MCPAgent.stdio(STDIO[0], STDIO[1:], wire=wire), None),
    "in-process": (lambda wire: MCPAgent.in_process(build_server(), wire=wire), None),
    "stdio bounded wire": (lambda wire: MCPAgent.stdio(STDIO[0], STDIO[1:], wire=wire), BOUNDED_CAPACITY),
    "in-proc bounded wire": (lambda wire: MCPAgent.in_process(build_server(), wire=wire), BOUNDED_CAPACITY),
}


async def run_case(label: str, n: int) -> None:
    """One case in this process; the last line is ``WORST <end/start>`` for the parent."""
    make, capacity = CASES[label]
    print(f"\n[{label}]" + (f" WireRecorder(capacity={capacity:,})" if capacity else " WireRecorder() default"))
    print(f"WORST {max(await soak(label, make, n, capacity))}", flush=True)


def main(n: int) -> None:
    print(f"MCP soak: {n:,} sequential + {n:,} concurrent (waves of {CONCURRENCY}) echo calls per agent")
    print(f"  start = after {WARM_UP} sequential + {WARM_UP} concurrent warm-up calls; RSS of the case's process")
    worst: dict[str, float] = {}
    for label in CASES:
        child = subprocess.run(
            [sys.executable, __file__, "--case", label, "--calls", str(n)], capture_output=True, text=True, check=True
        )
        *lines, last = child.stdout.rstrip("\n").split("\n")
        print("\n".join(lines), flush=True)
        worst[label] = float(last.removeprefix("WORST "))
    print(
        "\nworst end/start RSS per case (target <= 1.10 for the bounded-wire cases; the default cases also keep\n"
        "every wire record, the log the window shows, up to the recorder's capacity: their growth is that log)"
    )
    for label, ratio in worst.items():
        verdict = "OK" if ratio <= 1.10 else "ABOVE" if CASES[label][1] else "the wire log it keeps"
        print(f"  {label:<34}{ratio:.3f}  {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1,000 calls per phase instead of 10,000")
    parser.add_argument("--calls", type=int, default=None, help="calls per phase (default 10,000)")
    parser.add_argument("--case", choices=list(CASES), help="run one case in this process")
    args = parser.parse_args()
    calls = args.calls or (1_000 if args.quick else 10_000)
    if args.case:
        asyncio.run(run_case(args.case, calls))
    else:
        main(calls)
