"""What bash runs when a printed command line is pasted into it: every command with its words, nothing run.

bash reads the text with a ``PATH`` that finds nothing and a ``command_not_found_handle`` that records each
command it would start (the program and its arguments, NUL-separated) instead of starting it. A
value that escapes its quoting shows up as a second command, a substituted word or stray output.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

_END = "END-OF-COMMAND"
_RECORDER = f"command_not_found_handle() {{ printf '%s\\0' \"$@\" '{_END}'; }}\n"


def bash_commands(text: str, *, cwd: Path) -> list[list[str]]:
    """The commands bash would run for ``text`` pasted at its prompt, each as its list of words.

    Args:
        text: One or more lines, as printed.
        cwd: Where bash runs (an empty folder: nothing is written there unless something escaped).

    Returns:
        Each command's words (program first), in order. Output that is not a recorded command (a
        builtin that ran, a syntax error) fails the test.
    """
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    done = subprocess.run(
        [bash, "--noprofile", "--norc", "-c", _RECORDER + text],
        env={"PATH": "/nonexistent", "LC_ALL": "C"},
        cwd=cwd,
        capture_output=True,
        timeout=10,
        check=False,
    )
    assert not done.stderr, f"bash complained (a command substitution ran?): {done.stderr.decode(errors='replace')}"
    words = [part.decode("utf-8", "surrogateescape") for part in done.stdout.split(b"\0")]
    assert words[-1] == "", f"bash printed {words[-1]!r} beside the commands"
    commands: list[list[str]] = [[]]
    for word in words[:-1]:
        if word == _END:
            commands.append([])
        else:
            commands[-1].append(word)
    assert commands[-1] == [], f"unfinished command {commands[-1]!r}"
    return commands[:-1]
