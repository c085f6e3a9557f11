"""Standalone fault-test servers (run as their own processes) and helpers that start and reap them."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SERVERS_DIR = Path(__file__).resolve().parent
STARTUP_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0


def script_path(name: str) -> str:
    """Absolute path of the fault server script `name` (with or without `.py`).

    Raises:
        FileNotFoundError: There is no such script.
    """
    path = SERVERS_DIR / f"{name.removesuffix('.py')}.py"
    if not path.is_file():
        raise FileNotFoundError(path)
    return str(path)


@dataclass
class ListeningProcess:
    """A child process that announced `LISTENING <url>` on stdout; its stderr is collected line by line."""

    url: str
    process: asyncio.subprocess.Process
    stderr_lines: list[str] = field(default_factory=list)
    _stderr_grew: asyncio.Event = field(default_factory=asyncio.Event)

    def _add_stderr(self, line: str) -> None:
        self.stderr_lines.append(line)
        self._stderr_grew.set()

    async def wait_for_stderr(self, needle: str, timeout: float = 10.0) -> str:
        """Return the first stderr line containing `needle`, waiting up to `timeout` seconds for it.

        Raises:
            TimeoutError: No such line arrived in time.
        """
        async with asyncio.timeout(timeout):
            while True:
                for line in self.stderr_lines:
                    if needle in line:
                        return line
                self._stderr_grew.clear()
                await self._stderr_grew.wait()


async def _pump(stream: asyncio.StreamReader, sink: ListeningProcess) -> None:
    while raw := await stream.readline():
        sink._add_stderr(raw.decode(errors="replace").rstrip("\r\n"))


async def _reap(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


@contextlib.asynccontextmanager
async def start_listening_process(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> AsyncIterator[ListeningProcess]:
    """Start `argv`, wait (bounded) for its `LISTENING <url>` line, and terminate + reap it at exit.

    Args:
        argv: Program and arguments, e.g. `[sys.executable, script_path("http_status")]`.
        env: Full environment of the child (inherits ours when None).
        cwd: Working directory of the child.

    Yields:
        The running process, its URL and its stderr lines so far.

    Raises:
        RuntimeError: The first stdout line was not `LISTENING <url>` (e.g. the process died).
        TimeoutError: No line within 20 s.
    """
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=dict(env) if env is not None else None,
        cwd=cwd,
    )
    assert process.stdout is not None and process.stderr is not None
    running = ListeningProcess(url="", process=process)
    stderr_task = asyncio.create_task(_pump(process.stderr, running))
    try:
        first = await asyncio.wait_for(process.stdout.readline(), STARTUP_TIMEOUT_S)
        text = first.decode(errors="replace").strip()
        if not text.startswith("LISTENING "):
            await _reap(process)
            await stderr_task
            raise RuntimeError(
                f"{argv!r} printed {text!r} instead of LISTENING; stderr: {running.stderr_lines[-20:]!r}"
            )
        running.url = text.removeprefix("LISTENING ")
        yield running
    finally:
        await _reap(process)
        await stderr_task


@contextlib.asynccontextmanager
async def run_http_script(name: str) -> AsyncIterator[str]:
    """Run the HTTP fault script `name` with this interpreter and yield its base URL.

    The process is terminated and reaped when the context exits.
    """
    async with start_listening_process([sys.executable, script_path(name)]) as running:
        yield running.url
