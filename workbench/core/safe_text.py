r"""Peer text made inert for terminals, log lines, JSON lines and file names.

A server or agent controls names, descriptions, results and log messages. Written raw to a terminal,
``ESC]0;…BEL`` retitles it, ``ESC[2J`` clears it, ``ESC]8;;URL`` plants a disguised hyperlink and
``ESC]52;c;…`` writes the clipboard. Everything here shows such characters visibly (``\\x1b``)
instead: C0 and C1 control characters (except newline and tab), DEL, and the invisible Unicode
controls that reorder or hide text (bidi overrides and isolates, line/paragraph separators).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""Characters that move the cursor, start an escape sequence, or reorder/hide text."""

_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""What ``json.dumps(ensure_ascii=False)`` leaves raw but a terminal may act on (C0 is escaped)."""

MAX_FILE_NAME = 120
"""Characters kept of a peer-suggested file name (before its extension)."""


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def neutralise(text: str) -> str:
    r"""``text`` with every control character shown as an escape (``\\x1b``), newline and tab kept.

    A ``\\r\\n`` line ending counts as a newline; a lone ``\\r`` (which would let text overwrite the
    line before it) is shown.
    """
    return _UNSAFE.sub(_visible, text.replace("\r\n", "\n"))


def neutralise_line(text: str) -> str:
    """``text`` as one inert line: newlines and tabs escaped too (for log records and one-line fields)."""
    return neutralise(text).replace("\n", "\\n").replace("\t", "\\t")


def json_line(value: Any, *, default: Any = None) -> str:
    r"""One JSON document on one line that no terminal interprets (C1 and bidi controls as ``\\uXXXX``)."""
    text = json.dumps(value, ensure_ascii=False, default=default)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def safe_file_name(name: str | None, *, fallback: str = "download") -> str:
    r"""A file name a peer suggested, made safe to offer in a save dialog.

    No directory part (``/``, ``\\``), no ``..``, no leading dot (hidden file), no control or
    reserved characters, at most ``MAX_FILE_NAME`` characters before the extension. An empty result
    becomes ``fallback``.
    """
    text = unicodedata.normalize("NFC", name or "")
    text = text.replace("/", "_").replace("\\", "_")
    text = _UNSAFE.sub("", text)
    text = re.sub(r'[<>:"|?*]', "_", text)
    text = re.sub(r"\.{2,}", ".", text).strip().strip(".").strip()
    stem, dot, ext = text.rpartition(".")
    if not dot or not stem or len(ext) > 16:
        stem, ext = text, ""
    stem = stem[:MAX_FILE_NAME].rstrip(". ")
    if not stem:
        return fallback
    return f"{stem}.{ext}" if ext else stem
