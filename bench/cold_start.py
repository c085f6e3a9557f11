"""Cold start to a shown window: the workbench vs a bare PySide6 QMainWindow, fresh interpreters, same run.

Each sample spawns a new interpreter and measures wall time from spawn until the child prints its
"shown" line, right after ``show()`` returns (the app's ``--smoke-test`` prints ``window shown in N ms``
when its start-up frame is shown, before the core and the panels are imported; its own figure is
printed for information), and, for the app, until ``window ready in N ms``: the main window shown in
the frame's place. Baseline and app alternate run by run (the order flips every round) after one
unmeasured warm-up of each. Prints the medians and the ratios to the bare window (target for the
shown window <= 2.0; the ready window is reported) per platform: offscreen, and Xvfb when ``Xvfb`` is
installed.
With ``--imports`` it also prints what the app's first import of each big package cost (``-X importtime``).
With ``--frozen`` the PyInstaller build (``packaging/build.sh``) is timed as a third contender.
Usage: python bench/cold_start.py [--runs N] [--platform offscreen|xvfb|both] [--frozen] [--imports]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

TARGET = 2.0
TIMEOUT_S = 120.0
ROOT = Path(__file__).resolve().parents[1]
FROZEN = "dist/workbench/workbench"

BARE = """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setWindowTitle("bare")
window.resize(1200, 800)
window.show()
print("window shown", flush=True)
"""
SHOWN = re.compile(r"window shown(?: in (\d+) ms)?")
READY = re.compile(r"window ready in (\d+) ms")


@dataclass
class Series:
    """Samples of one contender: wall seconds to the shown line, and the self-reported ms if any."""

    name: str
    command: list[str]
    wall: list[float] = field(default_factory=list)
    reported_ms: list[float] = field(default_factory=list)
    ready: list[float] = field(default_factory=list)
    """Wall seconds to the ``window ready`` line (the main window in place), for the app."""


class StartFailedError(RuntimeError):
    """A child did not print its shown line or exited non-zero."""


def time_to_shown(cmd: list[str], env: dict[str, str]) -> tuple[float, float | None, float | None]:
    """Spawn ``cmd``; return seconds until it printed the shown line, the ms it reported, seconds to ready."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, env=env, cwd=ROOT, text=True)
        killer = threading.Timer(TIMEOUT_S, proc.kill)
        killer.start()
        try:
            assert proc.stdout is not None
            elapsed, reported, ready = None, None, None
            for line in proc.stdout:
                match = SHOWN.search(line)
                if match and elapsed is None:
                    elapsed = time.perf_counter() - started
                    reported = float(match.group(1)) if match.group(1) else None
                if READY.search(line) and ready is None:
                    ready = time.perf_counter() - started
            code = proc.wait()
        finally:
            killer.cancel()
        if elapsed is None or code != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-6:]
            raise StartFailedError(
                f"{' '.join(cmd[-3:])}: exit {code}, shown line {'seen' if elapsed else 'missing'}\n  "
                + "\n  ".join(tail)
            )
        return elapsed, reported, ready


def app_has_smoke_test(python: str) -> bool:
    """Whether this checkout's CLI offers ``--smoke-test``."""
    out = subprocess.run([python, "-m", "workbench", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    return "--smoke-test" in out.stdout


@contextmanager
def xvfb() -> Iterator[str]:
    """Run a private Xvfb server; yields its DISPLAY (the server says when it is ready via -displayfd)."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as ready:
            number = ready.readline().strip()  # blocks until the server accepts connections
        if not number:
            raise StartFailedError("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def measure(platform: str, env: dict[str, str], runs: int, contenders: list[Series]) -> None:
    """Run the alternating series on one platform and print the figures; ``contenders[0]`` is the baseline."""
    bare = contenders[0]
    for series in list(contenders):  # warm-up: page cache and .pyc files, not counted
        try:
            time_to_shown(series.command, env)
        except StartFailedError as exc:
            if series is bare:
                raise
            print(f"[{platform}] {series.name} did not start, not measured: {exc}")
            contenders.remove(series)
    for i in range(runs):
        for series in contenders if i % 2 == 0 else contenders[::-1]:
            try:
                wall, reported, ready = time_to_shown(series.command, env)
            except StartFailedError as exc:
                print(f"[{platform}] run {i + 1}: {exc}")
                continue
            series.wall.append(wall)
            if ready is not None:
                series.ready.append(ready)
            if reported is not None:
                series.reported_ms.append(reported)

    print(f"\n[{platform}] cold start to shown window, {runs} runs each, median (min-max)")
    for series in contenders:
        if not series.wall:
            continue
        ms = [w * 1000 for w in series.wall]
        line = f"  {series.name:<32} {statistics.median(ms):7.0f} ms  ({min(ms):.0f}-{max(ms):.0f}, n={len(ms)})"
        if series.reported_ms:
            line += f"   self-reported median {statistics.median(series.reported_ms):.0f} ms"
        print(line)
        if series.ready:
            ms = [w * 1000 for w in series.ready]
            print(f"  {'  ... main window ready':<32} {statistics.median(ms):7.0f} ms  ({min(ms):.0f}-{max(ms):.0f})")
    for series in contenders[1:]:
        if series.wall and bare.wall:
            ratio = statistics.median(series.wall) / statistics.median(bare.wall)
            verdict = "ok" if ratio <= TARGET else "over target"
            print(f"  ratio {series.name} / bare: {ratio:.2f}  (target <= {TARGET}: {verdict})")
            if series.ready:
                ready = statistics.median(series.ready) / statistics.median(bare.wall)
                print(f"  ratio main window ready / bare: {ready:.2f}  (reported)")
    if len(contenders) == 1:
        print("  the workbench was not measured (no --smoke-test, or it failed to start): baseline only")


def print_import_costs(python: str, env: dict[str, str], config: str, top: int = 14) -> None:
    """Run the app once under ``-X importtime``; print the self time of all imports, summed per top package."""
    cmd = [python, "-X", "importtime", "-m", "workbench", "--smoke-test", "--config-dir", config]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=TIMEOUT_S)
    per_package: dict[str, int] = {}
    for line in proc.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].startswith("import time:") and parts[0][12:].strip().isdigit():
            root = parts[2].strip().split(".")[0]
            per_package[root] = per_package.get(root, 0) + int(parts[0][12:])
    total = sum(per_package.values())
    print(f"\nimports of one app start (-X importtime self times per top package; total {total / 1000:.0f} ms):")
    for name, us in sorted(per_package.items(), key=lambda item: -item[1])[:top]:
        print(f"  {us / 1000:7.0f} ms  {name}")


def main() -> int:
    """Parse arguments, run the series, print figures; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--platform", choices=("offscreen", "xvfb", "both"), default="both")
    parser.add_argument("--python", default=sys.executable, help="interpreter to spawn (default: this one)")
    parser.add_argument("--imports", action="store_true", help="also print the app's import costs (-X importtime)")
    parser.add_argument("--frozen", action="store_true", help=f"also time the PyInstaller build {FROZEN}")
    args = parser.parse_args()
    frozen = ROOT / FROZEN
    if args.frozen and not frozen.is_file():
        parser.error(f"{frozen} does not exist: run packaging/build.sh first")

    with_app = app_has_smoke_test(args.python)
    if not with_app:
        print("note: 'workbench --smoke-test' is not available in this checkout; measuring the baseline only")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "DISPLAY", "WAYLAND"))}
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)  # the warm-up run writes .pyc files like a normal first start
    print(f"python: {args.python}; cores: {os.cpu_count()}")

    config = tempfile.mkdtemp(prefix="wb-cold-")  # a private config dir, not the user's
    try:

        def contenders() -> list[Series]:
            series = [Series("bare PySide6 window", [args.python, "-c", BARE])]
            if with_app:
                cmd = [args.python, "-m", "workbench", "--smoke-test", "--config-dir", config]
                series.append(Series("workbench --smoke-test", cmd))
            if args.frozen:
                series.append(
                    Series("frozen bundle --smoke-test", [str(frozen), "--smoke-test", "--config-dir", config])
                )
            return series

        if args.platform in ("offscreen", "both"):
            measure("offscreen", {**base_env, "QT_QPA_PLATFORM": "offscreen"}, args.runs, contenders())
        if args.platform in ("xvfb", "both"):
            if shutil.which("Xvfb") is None:
                print(
                    "\n[xvfb] skipped: Xvfb is not installed "
                    "(Debian: apt-get install xvfb and the xcb libraries tools/screenshots.py lists)"
                )
            else:
                with xvfb() as display:
                    env = {**base_env, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display}
                    measure(f"xvfb {display}", env, args.runs, contenders())
        if args.imports and with_app:
            print_import_costs(args.python, {**base_env, "QT_QPA_PLATFORM": "offscreen"}, config)
    finally:
        shutil.rmtree(config, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
