"""A fork server for Python programs the tests run many times: the imports paid once, each run still a process.

The conformance suites run a client program per scenario (``--command``), ~80 runs a test session, and each
start of that program spends ~0.8 s of CPU importing the MCP SDK (its ``mcp/__init__`` loads the server
side too: uvicorn, starlette, every wire version's pydantic models) before it does anything a scenario
checks. On a 2-core machine that is ~30 s of the suite's wall time.

The server (``python forkserver.py SOCKET MODULE...``) imports the given modules, then waits on a Unix
socket. A run's command is ``forkserver_shim.py`` (standard library only, started with ``-I -S``), which
sends its arguments, environment, working directory and its standard input, output and error (the file
descriptors themselves) to the server and exits with the status the run ends with. For each run the
server forks a handler, which forks the run: a fresh process with the program's argv, environment, cwd
and the shim's descriptors, which runs the program as ``__main__`` (``runpy``) as ``python PROGRAM ARGS``
(or ``python -m MODULE ARGS``) would. What is shared is only the state the imports left; the server
refuses to serve if the imports started a thread (a fork copies only the forking thread). When the shim
dies (the suite's timeout kills it), the handler kills the run.

``ForkServer`` starts one per test worker (``--no-forkserver``-like opt-out: ``WORKBENCH_TEST_FORKSERVER=0``
runs the plain ``python PROGRAM`` command instead).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import random
import runpy
import select
import shlex
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

SHIM = Path(__file__).with_name("forkserver_shim.py")
HEADER = struct.Struct("!Q")
"""The length of a request's JSON, sent with the shim's three file descriptors."""
STATUS = struct.Struct("!i")
"""A run's exit status, sent back to the shim."""
MAX_REQUEST = 4 << 20


def _exit_code(value: object) -> int:
    """The exit status ``sys.exit(value)`` gives a process."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError("the shim closed the connection")
        data += chunk
    return bytes(data)


def _run(request: dict[str, object], fds: list[int]) -> None:
    """In the forked run: become ``python PROGRAM ARGS`` with the shim's descriptors, environment and cwd."""
    for target, fd in zip((0, 1, 2), fds, strict=True):
        os.dup2(fd, target)
        os.close(fd)
    argv = [str(arg) for arg in request["argv"]]  # type: ignore[attr-defined]
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in request["env"].items()})  # type: ignore[attr-defined]
    module = argv[1] if argv[0] == "-m" else None
    if module is None:
        sys.argv = argv
        sys.path[0] = str(Path(argv[0]).resolve().parent)
    else:
        sys.argv = ["-m", *argv[2:]]  # run_module puts the module's file name first
        sys.path[0] = os.getcwd()
    for entry in reversed(os.environ.get("PYTHONPATH", "").split(os.pathsep)):
        if entry:  # as the interpreter puts them, right after the program's own directory
            sys.path.insert(1, entry)
    random.seed()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    code = 0
    try:
        if module is None:
            runpy.run_path(argv[0], run_name="__main__")
        else:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except BaseException:
        traceback.print_exc()
        code = 1
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _handle(conn: socket.socket) -> None:
    """In the forked handler: read a request, fork its run, answer its exit status; kill it if the shim goes."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    header, fds, _flags, _addr = socket.recv_fds(conn, HEADER.size, 3)
    (size,) = HEADER.unpack(header)
    if len(fds) != 3 or size > MAX_REQUEST:
        os._exit(2)
    request = json.loads(_read_exactly(conn, size))
    pid = os.fork()
    if pid == 0:
        conn.close()
        _run(request, fds)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    readable, _, _ = select.select([conn, pidfd], [], [])
    if conn in readable and pidfd not in readable:  # the shim is gone (killed): so goes its run
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    with contextlib.suppress(OSError):
        conn.sendall(STATUS.pack(code if code >= 0 else 128 - code))
    os._exit(0)


def serve(path: str, modules: list[str]) -> None:
    """Import ``modules``, then fork a handler for each connection on the Unix socket ``path``, forever."""
    for name in modules:
        importlib.import_module(name)
    if threading.active_count() != 1:
        sys.exit(f"forkserver: importing {modules} started threads; a fork would not copy them")
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # handlers are reaped by the kernel
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    print("ready", flush=True)
    while True:
        conn, _ = server.accept()
        if os.fork() == 0:
            server.close()
            try:
                _handle(conn)
            finally:
                os._exit(3)
        conn.close()


class ForkServer:
    """A fork server process for this test worker, with the modules a program imports already imported.

    Args:
        modules: What to import before forking (the program's heavy imports).
    """

    def __init__(self, modules: list[str]) -> None:
        self._dir = tempfile.mkdtemp(prefix="wbfork")
        self.socket_path = os.path.join(self._dir, "s")
        self._proc = subprocess.Popen(
            [sys.executable, __file__, self.socket_path, *modules],
            stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if line.strip() != "ready":
            self.close()
            raise RuntimeError(f"the fork server did not start (exit {self._proc.poll()})")

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self._proc.pid

    def argv(self, *target: str) -> list[str]:
        """The command that runs ``target`` through this server: ``PROGRAM ARGS…`` or ``-m MODULE ARGS…``."""
        return [sys.executable, "-I", "-S", str(SHIM), self.socket_path, *target]

    def script(self, folder: Path, name: str, *target: str) -> Path:
        """An executable ``folder/name`` that runs ``target`` (``-m MODULE``…) with its own arguments appended."""
        path = folder / name
        path.write_text("#!/bin/sh\nexec " + " ".join(shlex.quote(part) for part in self.argv(*target)) + ' "$@"\n')
        path.chmod(0o755)
        return path

    def command(self, program: Path) -> str:
        """A shell command line that runs ``program`` (its arguments appended) through this server."""
        return " ".join(shlex.quote(part) for part in self.argv(str(program)))

    def close(self) -> None:
        """Stop the server (runs under way finish on their own)."""
        self._proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=10)
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        with contextlib.suppress(OSError):
            os.unlink(self.socket_path)
        with contextlib.suppress(OSError):
            os.rmdir(self._dir)


def enabled() -> bool:
    """Whether the tests run programs through a fork server (``WORKBENCH_TEST_FORKSERVER=0`` turns it off)."""
    return os.environ.get("WORKBENCH_TEST_FORKSERVER", "1") != "0" and hasattr(os, "pidfd_open")


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2:])
