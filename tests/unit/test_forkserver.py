"""The tests' fork server runs a program as ``python PROGRAM ARGS`` would: argv, environment, cwd, output, status."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.conformance import client_command
from tests.support.forkserver import ForkServer, enabled

pytestmark = pytest.mark.skipif(not enabled(), reason="the fork server is turned off or needs os.pidfd_open")


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    forkserver = ForkServer(["json"])
    try:
        yield forkserver
    finally:
        forkserver.close()


def test_a_run_gets_its_arguments_environment_and_directory_and_ends_with_its_status(
    server: ForkServer, tmp_path: Path
) -> None:
    program = tmp_path / "program.py"
    program.write_text(
        "import os, sys\n"
        "print(sys.argv[1:], os.environ.get('RUN_VALUE'), os.getcwd(), __name__)\n"
        "print('to stderr', file=sys.stderr)\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    for status in (0, 7):
        proc = subprocess.run(
            [*shlex.split(server.command(program)), str(status), "two words"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "RUN_VALUE": f"value {status}"},
            timeout=30,
            check=False,
        )
        assert proc.returncode == status
        assert proc.stdout == f"{[str(status), 'two words']} value {status} {tmp_path} __main__\n"
        assert proc.stderr == "to stderr\n"


def test_an_uncaught_exception_prints_its_traceback_and_exits_1(server: ForkServer, tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text("raise LookupError('nothing here')\n")
    proc = subprocess.run(shlex.split(server.command(program)), capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 1
    assert "LookupError: nothing here" in proc.stderr


def test_a_run_whose_command_is_killed_is_killed_too(server: ForkServer, tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    pid_file = tmp_path / "pid"
    program.write_text(f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n")
    shim = subprocess.Popen(shlex.split(server.command(program)))
    deadline = time.monotonic() + 20
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)
    run_pid = int(pid_file.read_text())
    shim.terminate()
    shim.wait(timeout=10)
    while time.monotonic() < deadline:
        try:
            os.kill(run_pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    pytest.fail(f"the run {run_pid} outlived its command")


def test_the_plain_command_is_python_and_the_program(tmp_path: Path) -> None:
    assert shlex.split(client_command(tmp_path / "p.py", None)) == [sys.executable, str(tmp_path / "p.py")]
