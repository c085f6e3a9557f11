"""A2A soak: 10,000 streamed events through one ``A2AAgent``; prints RSS, fds and asyncio tasks.

The demo firehose agent (``python -m workbench.demo.a2a_agents.firehose``, a child process so its
task store does not count in this process's memory) streams N artifact chunks per message. Two shapes:

* ``many streams``: 100 messages of 100 chunks each (103 SSE events per stream: task, working,
  chunks, completed) through one agent, each in a new conversation;
* ``one stream``: one message of 10,000 chunks. Its merged artifact (every chunk kept, by design)
  grows with the stream, so its RSS growth is the content received, not a leak.

Each shape runs with no recorder passed (``A2AAgent`` then makes its own default one), with a default
``WireRecorder`` passed (every HTTP, SSE and JSON-RPC record kept, up to a million) and with one capped
at 2,000 records (separating the wire
log's growth, by design, from a leak); each case in a fresh child process. ``events`` counts what
``stream_async`` yielded (one more per stream than the SSE events: the final ``Completed``).
Printed: this process's RSS (``VmRSS``) at start (after a warm-up), middle and end and end/start
(target: flat within 10 %); open file descriptors (``/proc/self/fd``) and live asyncio tasks
before connecting and after closing (target: equal). Not a timed test.

Run: .venv/bin/python bench/soak_a2a.py [--quick]
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
from dataclasses import dataclass

from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import Completed, Failed
from workbench.core.wire.recorder import WireRecorder

STREAMS, CHUNKS = 100, 100
EVENTS_PER_STREAM_EXTRA = 3  # task, working, completed


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


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


async def settle() -> None:
    """Let closed connections and cancelled tasks finish, then collect garbage."""
    for _ in range(20):
        await asyncio.sleep(0.01)
    gc.collect()


@dataclass
class Samples:
    """RSS samples of one run."""

    start: int = 0
    middle: int = 0
    end: int = 0
    events: int = 0


async def stream_once(agent: A2AAgent, chunks: int, samples: Samples | None = None, mark: int = 0) -> int:
    """Stream one message of ``chunks`` chunks; sample RSS at event ``mark`` when asked. Returns events seen."""
    events = 0
    async for ev in agent.stream_async(str(chunks), new_conversation=True):
        events += 1
        if samples is not None and events == mark:
            gc.collect()
            samples.middle = rss_kib()
        if isinstance(ev, Failed):
            raise RuntimeError(f"stream failed: {ev.message}")
        if isinstance(ev, Completed):
            got = ev.result.artifacts.get("stream", [])
            assert len(got) == chunks, (len(got), chunks)
    return events


async def many_streams(agent: A2AAgent, streams: int, chunks: int) -> Samples:
    samples = Samples()
    gc.collect()
    samples.start = rss_kib()
    for i in range(streams):
        samples.events += await stream_once(agent, chunks)
        if i == streams // 2 - 1:
            gc.collect()
            samples.middle = rss_kib()
    gc.collect()
    samples.end = rss_kib()
    return samples


async def one_stream(agent: A2AAgent, chunks: int) -> Samples:
    samples = Samples()
    gc.collect()
    samples.start = rss_kib()
    samples.events = await stream_once(agent, chunks, samples, mark=chunks // 2)
    gc.collect()
    samples.end = rss_kib()
    return samples


CASES: dict[str, int | None] = {"own recorder": None, "wire tap": 0, "wire tap bounded": 2_000}
"""Case -> wire recorder capacity (None: none passed, the agent makes its own default one; 0: the default)."""


async def soak(url: str, label: str, streams: int, chunks: int, long_chunks: int) -> list[float]:
    await settle()
    fds0, tasks0 = open_fds(), len(asyncio.all_tasks())
    capacity = CASES[label]
    recorder = None if capacity is None else WireRecorder(capacity) if capacity else WireRecorder()
    ratios: list[float] = []
    async with A2AAgent(url, wire=recorder, request_timeout=300) as agent:
        for _ in range(3):  # warm-up: connections, imports, caches
            await stream_once(agent, chunks)
        shapes: list[tuple[str, Callable[[], Awaitable[Samples]]]] = [
            (f"{streams} streams x {chunks}", lambda: many_streams(agent, streams, chunks)),
            (f"1 stream x {long_chunks:,}", lambda: one_stream(agent, long_chunks)),
        ]
        for shape, run in shapes:
            started = time.perf_counter()
            s = await run()
            elapsed = time.perf_counter() - started
            ratio = s.end / s.start
            ratios.append(ratio)
            print(
                f"  {label + ' ' + shape:<40}{s.events:>7,} events {elapsed:>6.1f} s {s.events / elapsed:>7,.0f}/s"
                f"   RSS MiB {mib(s.start):>6} {mib(s.middle):>6} {mib(s.end):>6}   end/start {ratio:.3f}"
            )
        views = len(agent.tasks.views)
        fds_open, tasks_open = open_fds(), len(asyncio.all_tasks())
        kept = agent.config.wire  # the recorder passed, or the agent's own
    await settle()
    fds1, tasks1 = open_fds(), len(asyncio.all_tasks())
    held = f"wire: {len(kept.records()):,} records, {kept.held_chars / 1e6:.1f} M chars"
    print(
        f"  {label:<40}fds {fds0} -> {fds_open} open -> {fds1} closed   tasks {tasks0} -> {tasks_open} open -> "
        f"{tasks1} closed   task views kept: {views}   {held}"
    )
    if fds1 != fds0 or tasks1 != tasks0:
        print(f"  {label:<40}LEAK: fds {fds1 - fds0:+d}, tasks {tasks1 - tasks0:+d}")
    return ratios


def sizes(quick: bool) -> tuple[int, int, int]:
    """Streams, chunks per stream, chunks of the long stream."""
    return (10, 100, 1_000) if quick else (STREAMS, CHUNKS, 10_000)


async def run_case(label: str, quick: bool) -> None:
    """One case in this process (with its own firehose child); the last line is ``WORST many one``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "workbench.demo.a2a_agents.firehose",
        "--port",
        "0",
        stdout=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
        assert line and line[0] == "LISTENING", line
        capacity = CASES[label]
        recorder = (
            "none passed (the agent's own)" if capacity is None else f"capacity {capacity:,}" if capacity else "default"
        )
        print(f"\n[{label}] wire recorder: {recorder}; firehose agent at {line[1]}")
        many, one = await soak(line[1], label, *sizes(quick))
        print(f"WORST {many} {one}", flush=True)
    finally:
        proc.terminate()
        await proc.wait()


def main(quick: bool) -> None:
    streams, chunks, long_chunks = sizes(quick)
    total = streams * (chunks + EVENTS_PER_STREAM_EXTRA)
    print("A2A soak against the demo firehose agent (a child process)")
    print(f"  {streams} streams x {chunks} chunks = {total:,} SSE events; then one stream of {long_chunks:,} chunks")
    print("  RSS of the case's process at start (after 3 warm-up streams) / middle / end")
    worst: dict[str, tuple[float, float]] = {}
    for label in CASES:
        argv = [sys.executable, __file__, "--case", label] + (["--quick"] if quick else [])
        child = subprocess.run(argv, capture_output=True, text=True, check=True)
        *lines, last = child.stdout.rstrip("\n").split("\n")
        print("\n".join(lines), flush=True)
        many, one = (float(x) for x in last.removeprefix("WORST ").split())
        worst[label] = (many, one)
    print(
        "\nend/start RSS (target <= 1.10 for the bounded recorder; the other cases also keep every wire record,\n"
        "the log the window shows, up to the recorder's capacity; the one-stream figure includes its artifact):"
    )
    for label, (many, one) in worst.items():
        verdict = ("OK" if many <= 1.10 else "ABOVE") if CASES[label] else "the wire log it keeps"
        print(f"  {label:<18} many streams {many:.3f} {verdict}   one stream {one:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="10 streams of 100 and one of 1,000 chunks")
    parser.add_argument("--case", choices=list(CASES), help="run one case in this process")
    args = parser.parse_args()
    if args.case:
        asyncio.run(run_case(args.case, args.quick))
    else:
        main(args.quick)
