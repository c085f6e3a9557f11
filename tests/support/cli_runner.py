"""Run the ``workbench`` command line for tests, and read what it prints.

A ``python -m workbench`` child costs ~1.7 s of CPU before it does anything (importing both protocol
SDKs); a test worker has them imported already. ``run_workbench`` calls ``workbench.cli.main(argv)``
in a thread of its own (the command runs its own event loop, as in its process) with fresh standard
streams, the given environment, and the logging and warning hooks the command installs put back
afterwards, so tests see what a terminal would: exit code, stdout, stderr.

What only a real process shows stays with real processes (``workbench_process``;
tests/e2e/test_cli_process.py and the TTY, profile/keyring and peer suites): the exit status of the
interpreter, signals, a terminal, the environment a child inherits.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import sys
import threading
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import keyring.core

_one_at_a_time = threading.Lock()  # the standard streams and os.environ are the process's, not a thread's


async def run_workbench(
    *argv: str, stdin: bytes = b"", env: Mapping[str, str] | None = None, timeout: float = 60
) -> tuple[int, str, str]:
    """Run ``workbench ARGV`` in this process; return (exit code, stdout, stderr) as text.

    ``env``, as for a child process, is the whole environment of the run (``None``: this process's).
    The keyring backend is chosen again from it, as a new process would.
    A run that outlives ``timeout`` fails the test with ``TimeoutError`` (its thread is left to end).
    """
    environ = None if env is None else dict(env)
    return await asyncio.wait_for(asyncio.to_thread(_run, list(argv), stdin, environ), timeout)


async def workbench(*argv: str, stdin: bytes = b"", timeout: float = 60) -> tuple[int, str, str]:
    """Run ``workbench ARGV`` in this process with this process's environment; (exit code, stdout, stderr)."""
    return await run_workbench(*argv, stdin=stdin, timeout=timeout)


async def workbench_process(
    *argv: str, stdin: bytes = b"", env: dict[str, str] | None = None, timeout: float = 60
) -> tuple[int, str, str]:
    """Run ``python -m workbench ARGV`` as its own process: for what only a process shows (its
    environment at start-up, its exit status, what it leaves behind)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "workbench",
        *argv,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(stdin), timeout)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def json_lines(text: str) -> list[dict[str, Any]]:
    """The JSON objects of ``--json`` output, one a line (blank lines skipped)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def wire_records(path: Path) -> list[dict[str, Any]]:
    """The records of a ``--wire`` JSONL file."""
    return json_lines(path.read_text(encoding="utf-8"))


def failure(out: str) -> dict[str, Any]:
    """The ``error`` object of the one failure in ``--json`` output (a ``failed`` event or an ``error``)."""
    [failed] = [m for m in map(json.loads, out.splitlines()) if m.get("kind") == "failed" or "error" in m]
    error: dict[str, Any] = failed["error"]
    return error


def _run(argv: Sequence[str], stdin: bytes, env: dict[str, str] | None) -> tuple[int, str, str]:
    from workbench.cli import main

    with _one_at_a_time:
        saved = _ProcessState.save(env)
        out, err = io.BytesIO(), io.BytesIO()
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(_Unclosable(out), encoding="utf-8", errors="backslashreplace")
        sys.stderr = io.TextIOWrapper(_Unclosable(err), encoding="utf-8", errors="backslashreplace")
        try:
            try:
                code = main(list(argv))
            except SystemExit as exit_:  # argparse's usage errors and --help
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
        finally:
            saved.restore()
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")


class _Unclosable(io.BufferedIOBase):
    """A byte sink the command may close or detach without losing what it wrote."""

    def __init__(self, sink: io.BytesIO) -> None:
        super().__init__()
        self._sink = sink

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self._sink.write(data)


class _ProcessState:
    """What ``workbench.cli.main`` changes in the process, saved to be put back."""

    def __init__(self) -> None:
        self.streams = (sys.stdin, sys.stdout, sys.stderr)
        self.environ = dict(os.environ)
        self.keyring_backend = keyring.core._keyring_backend  # private: keyring caches its first choice
        root = logging.getLogger()
        self.root_handlers = list(root.handlers)
        self.root_level = root.level
        self.showwarning = warnings.showwarning
        self.filters = list(warnings.filters)

    @classmethod
    def save(cls, env: dict[str, str] | None) -> _ProcessState:
        state = cls()
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        keyring.core._keyring_backend = None
        root = logging.getLogger()
        for handler in state.root_handlers:  # the command's records go to its debug log, as in its process
            root.removeHandler(handler)
        return state

    def restore(self) -> None:
        sys.stdin, sys.stdout, sys.stderr = self.streams
        if os.environ != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        keyring.core._keyring_backend = self.keyring_backend
        root = logging.getLogger()
        for handler in list(root.handlers):
            root.removeHandler(handler)
            handler.close()
        for handler in self.root_handlers:
            root.addHandler(handler)
        root.setLevel(self.root_level)
        warnings.showwarning = self.showwarning
        warnings.filters[:] = self.filters
