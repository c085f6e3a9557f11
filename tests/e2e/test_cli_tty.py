"""The command line on a terminal: a person answers the server's form field by field."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

DEMO_STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]
ANSWERS = {
    "Fill the form?": "y",
    "Name": "Ada",
    "Email": "ada@example.org",
    "Party Size": "3",
}


def test_a_person_on_a_tty_fills_the_elicitation_form_and_the_tool_uses_it() -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "call", "--stdio", "book_table", "--", *DEMO_STDIO],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    seen = ""
    answered: set[str] = set()
    deadline = time.monotonic() + 60
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 4096).decode(errors="replace")
            except OSError:  # the child closed the terminal
                break
            seen += chunk
            line = seen.rsplit("\n", 1)[-1]
            if not line.rstrip().endswith(":"):
                continue
            key = next((k for k in ANSWERS if line.startswith(k) or k in line), None)
            reply = ANSWERS[key] if key is not None and key not in answered else ""
            if key is not None:
                answered.add(key)
            os.write(master, (reply + "\n").encode())
            seen += "\n"
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
    assert proc.returncode == 0, seen
    assert "Booked a table for 3" in seen, seen
    assert "Ada" in seen
