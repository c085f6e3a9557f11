"""Chat pane benchmark: 20,000 streamed chunks through the real ChatViewModel + ChatWidget.

Scenarios (qt-async §5.2 numbers are the reference):

* ``generated``: an async generator yields ``TextDelta`` chunks at full speed (``await sleep(0)``
  after each, as a socket read would) in 100 turns × 200 chunks, fed with ``ChatViewModel.play``.
* ``one long message``: the same 20,000 chunks as a single reply (exercises the plain-append mode
  of long streaming messages).
* ``firehose``: the demo A2A firehose agent (``workbench.demo.a2a_agents.firehose``, run in a child
  process) streams N artifact chunks; the pane is driven through ``ChatWidget.send`` like a user.

Each is run three ways, side by side: ``loop only`` (the producer drained by a bare ``async for``),
``view-model`` (ChatViewModel, no widget) and ``view-model + widget`` (ChatWidget 900×700, shown).
Printed: total time, ratio to ``loop only``, whether rendering kept up (chunks drawn == chunks
sent after the stream ended plus one flush) and event-loop lateness p50/p99/max of a 10 ms
``PreciseTimer``. Target: lateness p99 ≤ 16 ms with the widget.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/chat_stream.py [CHUNKS] [FIREHOSE_CHUNKS] [ROUNDS]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.connections import ConnectionManager
from workbench.core.conversation import AgentMessage, Artifact
from workbench.core.events import EventBus
from workbench.core.profiles import A2AProfile
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.base import AgentEvent, AgentResult, Completed, TextDelta
from workbench.core.wire.recorder import WireRecorder
from workbench.ui.asyncutil import wait_signal
from workbench.ui.bridge import CoreBridge
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorPresenter
from workbench.ui.panels.chat import ChatViewModel, ChatWidget
from workbench.ui.selection import ConnectionSelection
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate

CHUNKS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 20_000
FIREHOSE_CHUNKS = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 3_000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 3
TURNS = 100
PROBE_MS = 10
TARGET_P99_MS = 16.0


def make_context(config_dir: Path) -> PanelContext:
    """A PanelContext over real core services (as the window builds it)."""
    bus = EventBus()
    wire = WireRecorder()
    manager = ConnectionManager(bus, wire=wire, factory=DefaultAgentFactory())
    services = Services(bus=bus, wire=wire, connections=manager, profiles=ProfileStore(config_dir))
    return PanelContext(services, CoreBridge(bus), ErrorPresenter(), ConnectionSelection(), LinkGate())


class LagProbe(QObject):
    """A 10 ms precise timer; records how late each tick fired."""

    def __init__(self) -> None:
        super().__init__()
        self.lateness: list[float] = []
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(PROBE_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def reset(self) -> None:
        self.lateness.clear()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.lateness.append(max(0.0, (now - self._last) * 1000 - PROBE_MS))
        self._last = now

    def p99(self) -> float:
        data = sorted(self.lateness)
        return data[min(len(data) - 1, int(len(data) * 0.99))] if data else 0.0

    def figures(self) -> str:
        if not self.lateness:
            return "lateness   n/a (no tick)"
        data = sorted(self.lateness)
        p99 = data[min(len(data) - 1, int(len(data) * 0.99))]
        return (
            f"lateness p50 {statistics.median(data):4.1f} / p99 {p99:5.1f} / max {data[-1]:5.1f} ms ({len(data)} ticks)"
        )


# ------------------------------------------------------------------------------------ producers


def chunk_text(i: int) -> str:
    """Small chunks with some markdown: bold words and line breaks now and then."""
    if i % 50 == 49:
        return "**bold** "
    if i % 20 == 19:
        return f"w{i}\n\n"
    return f"w{i} "


async def generated(start: int, n: int) -> AsyncIterator[AgentEvent]:
    """``n`` text chunks at full speed, then ``Completed``."""
    for i in range(start, start + n):
        yield TextDelta(text=chunk_text(i), protocol="a2a")
        await asyncio.sleep(0)
    yield Completed(result=AgentResult(text=""), protocol="a2a")


# ------------------------------------------------------------------------------------ runs


async def drain(stream: AsyncIterator[AgentEvent]) -> int:
    count = 0
    async for event in stream:
        count += isinstance(event, TextDelta)
    return count


LAST_RUN: dict[str, int] = {}


async def finish(widget: ChatWidget | None) -> None:
    """Wait for the flush that follows the end of a stream; note what it drew, then draw any backlog."""
    if widget is None:
        return
    if widget.flush_pending:
        await wait_signal(widget.flushed, timeout=5)
    else:
        widget.flush()
    LAST_RUN["after_one_flush"] = widget.renderer.drawn_chunks
    flushes = 0
    while widget.flush_pending:
        await wait_signal(widget.flushed, timeout=5)
        flushes += 1
    LAST_RUN["backlog_flushes"] = flushes


async def play_turns(vm: ChatViewModel, widget: ChatWidget | None, turns: int, per_turn: int) -> int:
    cid = vm.current or "bench"
    for t in range(turns):
        vm.play(cid, f"turn {t}", generated(t * per_turn, per_turn))
        await wait_signal(vm.turn_finished, timeout=120)
    await finish(widget)
    if widget is not None:
        return widget.renderer.drawn_chunks
    conv = vm.conversation(cid)
    assert conv is not None
    return sum(i.chunk_count for i in conv if isinstance(i, AgentMessage))


def surface(ctx: PanelContext, with_widget: bool, cid: str) -> tuple[ChatViewModel, ChatWidget | None]:
    if with_widget:
        widget = ChatWidget(ctx)
        widget.resize(900, 700)
        widget.show()
        ctx.selection.select(cid)
        return widget.viewmodel, widget
    vm = ChatViewModel(ctx)
    ctx.selection.select(cid)
    return vm, None


class Variant:
    """Figures of one way of running a scenario, pooled over rounds."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.times: list[float] = []
        self.kept: list[bool] = []
        self.backlog: list[int] = []
        self.probe = LagProbe()

    async def measure(self, run: Callable[[], Awaitable[int]], sent: int, *, draws: bool) -> None:
        self.probe.start()
        started = time.perf_counter()
        drawn = await run()
        self.times.append(time.perf_counter() - started)
        self.probe.stop()
        if draws:
            self.kept.append(LAST_RUN.pop("after_one_flush", drawn) == sent)
            self.backlog.append(LAST_RUN.pop("backlog_flushes", 0))
            assert drawn == sent, f"{self.label}: drew {drawn} of {sent} chunks"

    def print(self, base: float) -> None:
        best = min(self.times)
        kept = ""
        if self.kept:
            ok = sum(self.kept)
            kept = f"kept up {ok}/{len(self.kept)}" + (
                f" (else +{max(self.backlog)} flushes)" if ok < len(self.kept) else ""
            )
        print(f"  {self.label:<22} {best:6.2f} s  ×{best / base:5.2f}  {kept:<28} {self.probe.figures()}", flush=True)
        if self.label.endswith("widget"):
            verdict = "met" if self.probe.p99() <= TARGET_P99_MS else "MISSED"
            print(f"  target lateness p99 <= {TARGET_P99_MS:g} ms with the widget: {verdict}", flush=True)


async def generated_scenario(tmp: Path, turns: int, title: str) -> None:
    per_turn = CHUNKS // turns
    sent = per_turn * turns
    print(f"{title}: {turns} turn(s) × {per_turn} chunks = {sent}; best of {ROUNDS} rounds", flush=True)
    base, vm_only, with_widget = Variant("loop only"), Variant("view-model"), Variant("view-model + widget")

    async def loop_only() -> int:
        total = 0
        for t in range(turns):
            total += await drain(generated(t * per_turn, per_turn))
        return total

    for r in range(ROUNDS):
        await base.measure(loop_only, sent, draws=False)
        for variant, widgeted in ((vm_only, False), (with_widget, True)):
            ctx = make_context(tmp / f"{title}-{variant.label}-{r}")
            vm, widget = surface(ctx, widgeted, "bench")

            async def run(vm: ChatViewModel = vm, widget: ChatWidget | None = widget) -> int:
                return await play_turns(vm, widget, turns, per_turn)

            await variant.measure(run, sent, draws=True)
            if widget is not None:
                widget.close()
                widget.deleteLater()
    for variant in (base, vm_only, with_widget):
        variant.print(min(base.times))


async def start_firehose() -> tuple[asyncio.subprocess.Process, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "workbench.demo.a2a_agents.firehose", stdout=asyncio.subprocess.PIPE, env=env
    )
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
    assert line and line[0] == "LISTENING", line
    return proc, line[1]


async def firehose_scenario(tmp: Path) -> None:
    n = FIREHOSE_CHUNKS
    print(f"firehose A2A agent (child process): {n} artifact chunks; best of {ROUNDS} rounds", flush=True)
    proc, url = await start_firehose()
    try:
        ctx = make_context(tmp / "firehose")
        conn = await ctx.services.connections.connect(A2AProfile(name="firehose", url=url, request_timeout=600))
        agent = conn.agent
        assert agent is not None
        async for _ in agent.stream_async("200"):  # warm up the server and the client
            pass
        base, vm_only, with_widget = Variant("loop only (agent)"), Variant("view-model"), Variant("view-model + widget")

        async def loop_only() -> int:
            count = 0
            async for event in agent.stream_async(str(n)):
                count += event.kind == "artifact"
            return count

        for _ in range(ROUNDS):
            await base.measure(loop_only, n, draws=False)
            for variant, widgeted in ((vm_only, False), (with_widget, True)):
                ctx.selection.select(None)
                vm, widget = surface(ctx, widgeted, conn.id)

                async def run(vm: ChatViewModel = vm, widget: ChatWidget | None = widget) -> int:
                    if widget is not None:
                        widget.input.setPlainText(str(n))
                        assert widget.send()
                    else:
                        assert vm.send(str(n))
                    await wait_signal(vm.turn_finished, timeout=600)
                    await finish(widget)
                    if widget is not None:
                        return widget.renderer.drawn_chunks
                    conv = vm.conversation()
                    assert conv is not None
                    return sum(i.chunks for i in conv if isinstance(i, Artifact))

                await variant.measure(run, n, draws=True)
                vm.new_conversation()
                ctx.selection.changed.disconnect(vm.on_selection_changed)
                if widget is not None:
                    widget.close()
                    widget.deleteLater()
        for variant in (base, vm_only, with_widget):
            variant.print(min(base.times))
        await ctx.services.connections.aclose()
    finally:
        proc.terminate()
        await proc.wait()


async def main() -> int:
    loop = asyncio.get_running_loop()
    # qasync installs no async-generator hooks; without them httpx's generators are finalized late.
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook, finalizer=loop._asyncgen_finalizer_hook)  # type: ignore[attr-defined]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {sys.version.split()[0]}, platform {QApplication.platformName()}, 900×700 widget, "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at start"
    )
    with tempfile.TemporaryDirectory() as tmp:
        await generated_scenario(Path(tmp), TURNS, "generated")
        await generated_scenario(Path(tmp), 1, "one long message")
        await firehose_scenario(Path(tmp))
    return 0


if __name__ == "__main__":
    app = QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)
    sys.exit(asyncio.run(main(), loop_factory=qasync.QEventLoop))
