"""The command line on a pseudo-terminal, as a person at a prompt uses it (the e2e TTY tests share it)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

PROMPT_AT_END = re.compile(r"(?:^|\n)([^\n]*: )$")
"""The terminal's last line is a prompt waiting for its answer (``Fill the form? [...]: ``, ``String *: ``)."""


def run_on_a_terminal(argv: list[str], replies: dict[str, list[str]]) -> tuple[int, str]:
    """Run ``python -m workbench ARGV`` on a pty; each prompt gets the next reply of the first prefix it starts with.

    A prompt no prefix matches gets an empty line (a field's default, or nothing).
    """
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", *argv], stdin=slave, stdout=slave, stderr=slave, close_fds=True
    )
    os.close(slave)
    seen = ""
    answered = -1
    deadline = time.monotonic() + 60
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            if not select.select([master], [], [], 0.5)[0]:
                continue
            try:
                seen += os.read(master, 4096).decode(errors="replace")
            except OSError:  # the child closed the terminal
                break
            match = PROMPT_AT_END.search(seen.replace("\r", ""))
            if match is None or len(seen) == answered:
                continue
            prompt = match.group(1)
            queue = next((q for prefix, q in replies.items() if prompt.startswith(prefix)), [])
            os.write(master, ((queue.pop(0) if queue else "") + "\n").encode())
            answered = len(seen)
        proc.wait(timeout=15)
        while select.select([master], [], [], 0.2)[0]:
            try:
                seen += os.read(master, 4096).decode(errors="replace")
            except OSError:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, seen.replace("\r", "")
