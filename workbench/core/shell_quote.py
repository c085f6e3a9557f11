r"""Command lines printed for a person to paste into a shell: each value one word, each command one line.

Values in such a line may come from a peer (a task id, an agent card's host, a recorded URL). Each is
quoted so that a POSIX shell reads it back as exactly one argument and runs nothing of it: plain values
with ``shlex.quote`` (``'x; touch f'``); a value holding a control character, a line or paragraph
separator, an invisible format character or an odd space with ANSI-C quoting (``$'a\nb'``, read as
the same single argument by bash, zsh, ksh and POSIX.1-2024 shells; a shell without it reads one
wrong argument, never a command), so the line stays one line and shows what it sends. A NUL cannot be
part of any argument, and neither can a lone surrogate other than Python's ``surrogateescape`` bytes:
such a value has no command line (``ValueError``).
"""

from __future__ import annotations

import json
import re
import shlex
import unicodedata
from collections.abc import Sequence

_ODD = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
"""Unicode categories shown as escapes: controls, format (bidi, zero-width, tags), unassigned, separators."""
_VARIATION_SELECTOR = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\", "'": "\\'"}


def _odd(char: str) -> bool:
    return char != " " and (unicodedata.category(char) in _ODD or bool(_VARIATION_SELECTOR.match(char)))


def _escaped(char: str) -> str:
    """``char`` inside ``$'…'``: a named escape, itself when visible, else its UTF-8 bytes in octal."""
    if char in _NAMED:
        return _NAMED[char]
    if not _odd(char):
        return char
    if "\udc80" <= char <= "\udcff":  # a byte that was not UTF-8 (os.fsdecode's surrogateescape)
        data = bytes([ord(char) - 0xDC00])
    else:
        try:
            data = char.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"a lone surrogate (U+{ord(char):04X}) cannot be part of an argument") from None
    return "".join(f"\\{byte:03o}" for byte in data)  # three octal digits: never runs into the next character


def quote(value: str) -> str:
    r"""``value`` as one shell word that reads back as ``value`` and shows every character it holds.

    Args:
        value: Any text, for example a task id an agent chose.

    Returns:
        ``shlex.quote(value)`` when every character is visible; otherwise the ANSI-C quoted form
        (``$'a\nb'``, ``$'\033[2J'``) on one line.

    Raises:
        ValueError: ``value`` holds a NUL or a lone surrogate, which no argument can carry.
    """
    if "\x00" in value:
        raise ValueError("a NUL character cannot be part of a command-line argument")
    if not any(_odd(char) for char in value):
        return shlex.quote(value)
    return "$'" + "".join(_escaped(char) for char in value) + "'"


def command_line(*argv: str) -> str:
    """The command ``argv`` as one line to paste into a shell: each value ``quote``-d, one word each.

    Args:
        *argv: The program and its arguments, as the program should receive them.

    Returns:
        The words joined by single spaces; no newline or other control character in it.

    Raises:
        ValueError: A value holds a NUL or a lone surrogate (no command line can pass it).
    """
    return " ".join(quote(arg) for arg in argv)


def shown_command(argv: Sequence[str]) -> str:
    """A saved command (a stdio server's) as text to show: ``command_line``, or its arguments as a JSON array.

    The JSON array is for a value no command line can carry (a NUL): shown exactly and inertly, and
    nobody mistakes it for a line to paste.
    """
    try:
        return command_line(*argv)
    except ValueError:
        return json.dumps(list(argv))
