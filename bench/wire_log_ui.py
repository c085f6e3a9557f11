"""Wire log pane benchmark: memory per record, event-loop lag under a live tail, filter time at 1M records.

Prints figures side by side with baselines (no assertions):
- memory: RSS delta and tracemalloc (Python side) per record, for the recorder and for the model + view;
- live tail: 10,000 records/s produced on the qasync loop in bursts every 10 ms for ~5 s, a 10 ms
  PreciseTimer probe measuring lateness (p50 / p99 / max; target p99 <= 20 ms), with the pane
  following the tail, versus the same producer with no model or view attached;
- text filter over the held records (target <= 300 ms), versus a bare list comprehension over the
  same strings.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/wire_log_ui.py [N]
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.events import EventBus
from workbench.core.profiles.store import ProfileStore
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction
from workbench.ui.bridge import CoreBridge
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorPresenter
from workbench.ui.panels.wirelog.itemmodel import WireLogModel
from workbench.ui.panels.wirelog.record_filter import WireFilter
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.selection import ConnectionSelection
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
RATE = 10_000  # records per second in the live phase
TICK = 0.010  # producer burst interval
SECONDS = 5.0
OUT, IN = Direction.OUT, Direction.IN
PAD = "with some padding to reach about two hundred bytes per message"


def message(i: int) -> tuple[Direction, dict[str, Any]]:
    """A tools/call request (even i) or its result (odd i), about 200 bytes as JSON."""
    n = i // 2
    if i % 2 == 0:
        args = {"text": f"hello world, message number {n:07d} {PAD}", "n": n}
        return OUT, {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "echo", "arguments": args}}
    content = [{"type": "text", "text": f"echo: hello world, message number {n:07d} {PAD[:-8]}"}]
    return IN, {"jsonrpc": "2.0", "id": n, "result": {"content": content, "isError": False}}


def rss() -> int:
    """Resident set size of this process in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def context(wire: WireRecorder) -> PanelContext:
    bus = EventBus()
    manager = ConnectionManager(bus, wire=wire, factory=DefaultAgentFactory())
    services = Services(bus=bus, wire=wire, connections=manager, profiles=ProfileStore(Path(tempfile.mkdtemp())))
    return PanelContext(services, CoreBridge(bus), ErrorPresenter(), ConnectionSelection(), LinkGate())


flush_ms: list[float] = []
_flush = WireLogModel.flush


def _timed_flush(self: WireLogModel) -> None:
    """``WireLogModel.flush`` plus its CPU time (thread time, robust against other processes)."""
    t0 = time.thread_time()
    _flush(self)
    flush_ms.append((time.thread_time() - t0) * 1000.0)


WireLogModel.flush = _timed_flush  # type: ignore[method-assign]  # bench instrumentation only


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


LIVE_MESSAGES = [message(i) for i in range(int(RATE * SECONDS) + RATE)]  # built once: no bench garbage per run


async def live(wire: WireRecorder, start: int, app: QApplication) -> tuple[dict[str, float], int]:
    """Produce RATE records/s in bursts every TICK for SECONDS; probe the loop with a 10 ms timer."""
    msgs = LIVE_MESSAGES
    gc.collect()  # every run starts with the collector in the same state
    lateness: list[float] = []
    last = [time.perf_counter()]

    def probe() -> None:
        now = time.perf_counter()
        lateness.append((now - last[0]) * 1000.0 - 10.0)
        last[0] = now

    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(10)
    timer.timeout.connect(probe)
    gen2: list[float] = []
    gc_start = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            gen2.append((time.perf_counter() - gc_start[0]) * 1000.0)

    gc.callbacks.append(on_gc)
    jsonrpc = wire.jsonrpc
    sent = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    last[0] = t0
    timer.start()
    while True:
        elapsed = time.perf_counter() - t0
        if elapsed >= SECONDS:
            break
        due = min(int(elapsed * RATE) + RATE // 100, len(msgs))
        for d, m in msgs[sent:due]:
            jsonrpc("conn-1", d, m)
        sent = due
        await asyncio.sleep(TICK)
    # let the last flush happen before stopping the probe
    await asyncio.sleep(0.1)
    timer.stop()
    gc.callbacks.remove(on_gc)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    late = lateness[1:]
    figures = {
        "rate": sent / SECONDS,
        "p50": pct(late, 0.50),
        "p99": pct(late, 0.99),
        "max": max(late),
        "cpu": cpu / wall,
        "ticks": len(late),
        "gen2": len(gen2),
        "gen2_max": max(gen2, default=0.0),
    }
    return figures, start + sent


def timed(fn: Any) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


async def main(app: QApplication) -> None:
    print(f"== wire log pane, {N:,} records (~200 B JSON-RPC), offscreen, Python {sys.version.split()[0]}")
    # ---- memory ------------------------------------------------------------------------------
    tracemalloc.start()
    sample = WireRecorder(capacity=100_000)
    for i in range(100_000):
        d, m = message(i)
        sample.jsonrpc("conn-1", d, m)
    rec_py = tracemalloc.get_traced_memory()[0] / 100_000
    tracemalloc.stop()
    del sample
    gc.collect()

    wire = WireRecorder(capacity=N)
    gc.collect()
    r0 = rss()
    t0 = time.perf_counter()
    for i in range(N):
        d, m = message(i)
        wire.jsonrpc("conn-1", d, m)
    fill = time.perf_counter() - t0
    gc.collect()
    r1 = rss()
    payload = sum(len(r.payload) for r in wire.records()) / N
    print(f"recorder filled in {fill:.1f} s ({N / fill:,.0f} rec/s); average payload {payload:.0f} B")
    print(f"memory, recorder: RSS {(r1 - r0) / N:6.0f} B/record | tracemalloc (100k sample) {rec_py:6.0f} B/record")

    ctx = context(wire)
    r2 = rss()
    t0 = time.perf_counter()
    widget = WireLogWidget(ctx)
    widget.resize(1200, 800)
    widget.show()
    app.processEvents()
    attach = time.perf_counter() - t0
    gc.collect()
    r3 = rss()
    tracemalloc.start()
    spare = WireLogModel(wire)
    model_py = tracemalloc.get_traced_memory()[0] / N
    tracemalloc.stop()
    spare.close()
    spare.deleteLater()
    del spare
    print(
        f"memory, model + view attached over {N:,} rows: RSS {(r3 - r2) / N:6.1f} B/record | "
        f"model tracemalloc {model_py:6.1f} B/record | attach + first paint {attach * 1000:.0f} ms"
    )
    print(f"process RSS now {r3 / 2**20:.0f} MiB")
    print()

    # ---- live tail ---------------------------------------------------------------------------
    print(
        f"== live tail: {RATE:,} rec/s in bursts every {TICK * 1000:.0f} ms for {SECONDS:.0f} s, buffer full (evicting)"
    )
    print(f"{'setup':44} {'rate/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'CPU':>5} {'full GCs (max ms)':>18}")
    seq = N

    def row(name: str, f: dict[str, float]) -> None:
        gcs = f"{f['gen2']:.0f} ({f['gen2_max']:.0f})"
        print(f"{name:44} {f['rate']:8,.0f} {f['p50']:7.2f} {f['p99']:7.2f} {f['max']:7.2f} {f['cpu']:5.0%} {gcs:>18}")

    def pane() -> WireLogWidget:
        w = WireLogWidget(ctx)
        w.resize(1200, 800)
        w.show()
        w.table.scrollToBottom()
        app.processEvents()
        return w

    async def drop(w: WireLogWidget) -> None:
        w.vm.close()
        w.close()
        w.deleteLater()
        await asyncio.sleep(0.05)
        gc.collect()

    # Runs alternate so that load from other processes hits both sides alike (the machine is shared).
    results: dict[str, list[dict[str, float]]] = {"base": [], "pane": []}
    for round_ in (1, 2):
        await drop(widget)
        base, seq = await live(wire, seq, app)
        row(f"baseline: recorder only, no model/view #{round_}", base)
        results["base"].append(base)
        flush_ms.clear()
        widget = pane()
        tail, seq = await live(wire, seq, app)
        row(f"wire log pane following the tail #{round_}", tail)
        results["pane"].append(tail)
        bar = widget.table.verticalScrollBar()
        flushes = sorted(flush_ms)
        print(
            f"  {len(flushes)} flushes, CPU per flush p50 {pct(flushes, 0.5):.2f} ms / p99 {pct(flushes, 0.99):.2f} ms;"
            f" view at the bottom afterwards: {bar.value() == bar.maximum()}; rows {widget.vm.model.rowCount():,}"
        )
    widget.vm.set_text_filter("number 0001")  # matches ~3 % of the live stream
    filtered, seq = await live(wire, seq, app)
    row(f"pane following, text filter active ({widget.vm.model.rowCount():,} rows)", filtered)
    widget.vm.set_text_filter("")
    p99_base = statistics.median(f["p99"] for f in results["base"])
    p99_pane = statistics.median(f["p99"] for f in results["pane"])
    cpu_extra = statistics.median(f["cpu"] for f in results["pane"]) - statistics.median(
        f["cpu"] for f in results["base"]
    )
    print(
        f"p99 pane / baseline (medians): {p99_pane:.1f} / {p99_base:.1f} ms = {p99_pane / max(p99_base, 0.01):.2f}x"
        f" (target p99 <= 20 ms); the pane adds {cpu_extra:.0%} of one core at {RATE:,} rec/s"
    )
    print()

    # ---- filter ------------------------------------------------------------------------------
    model = widget.vm.model
    await asyncio.sleep(0.2)
    held = wire.records()
    payloads = [r.payload for r in held]
    print(f"== text filter over {len(held):,} held records (view attached; target <= 300 ms)")
    print(
        f"{'needle':34} {'rows':>9} {'model ms':>9} {'+paint ms':>9} {'bare ms':>8} {'bare+lower ms':>13} {'ratio':>6}"
    )
    for needle, note in (
        ("number 02345", "selective"),
        ("number 023456", "narrowing (refines shown rows)"),
        ("Echo", "cased letters (lowers each)"),
        ("tools/call", "matches half"),
        ("", "clear the filter"),
        ("jsonrpc", "matches all"),
        ("0234567", "no letters (no lowering)"),
    ):
        low = needle.lower()
        t_model = timed(lambda n=needle: model.set_filter(WireFilter(text=n)))
        t_paint = timed(app.processEvents)
        t_bare = timed(lambda n=low: [s for s in payloads if n in s])
        t_lower = timed(lambda n=low: [s for s in payloads if n in s.lower()])
        label = f"{needle!r} ({note})"
        print(
            f"{label:44} {model.rowCount():9,} {t_model * 1000:9.0f} {t_paint * 1000:9.1f} {t_bare * 1000:8.0f} "
            f"{t_lower * 1000:13.0f} {t_model / max(t_lower, 1e-9):5.2f}x"
        )
    print("(bare = [s for s in payloads if needle in s]; bare+lower = same with s.lower(); ratio = model / bare+lower)")
    widget.vm.close()
    widget.close()


if __name__ == "__main__":
    application = QApplication(sys.argv)
    application.setQuitOnLastWindowClosed(False)
    asyncio.run(main(application), loop_factory=lambda: qasync.QEventLoop(application))
