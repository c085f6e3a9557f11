r"""Peer text made inert for terminals, log lines, JSON lines and file names.

A server or agent controls names, descriptions, results and log messages. Written raw to a terminal,
``ESC]0;…BEL`` retitles it, ``ESC[2J`` clears it, ``ESC]8;;URL`` plants a disguised hyperlink and
``ESC]52;c;…`` writes the clipboard. Invisible characters hide text from the person reading it while
a model still reads it (tag characters U+E0000–E007F spell ASCII nobody sees), and bidi controls
reorder what is shown. Everything here shows such characters visibly (``\\x1b``, ``\\u200b``,
``\\U000e0041``) instead:

- C0 and C1 control characters (except newline and tab), DEL, line/paragraph separators, lone
  surrogates;
- every format character (Unicode category Cf): zero-width space and joiners, word joiner and the
  invisible operators, the BOM, bidi marks, embeddings, overrides and isolates, soft hyphen,
  interlinear annotation marks, the whole tag block (U+E0000–E007F), and the Hangul fillers that
  render as nothing;
- variation selectors in runs (two or more in a row: data hidden behind an emoji); one alone after a
  character is how an emoji or an ideograph picks its form, and stays.

A zero-width joiner or non-joiner alone between two non-ASCII letters or symbols stays too: emoji
sequences (👩‍💻) and Persian or Indic scripts need it. Everything else is shown.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

_FORMAT_BMP = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
)
_FORMAT = (
    _FORMAT_BMP + "\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
)
"""Every Cf character (Unicode 15), the rest of the tag block, and the Hangul fillers (blank letters)."""
_SELECTORS_BMP = "\ufe00-\ufe0f"
_SELECTORS = _SELECTORS_BMP + "\U000e0100-\U000e01ef"
"""Variation selectors."""
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\xa0\u2028\u2029\ud800-\udfff"
"""C0 and C1 controls (newline and tab excepted), DEL, line/paragraph separators, lone surrogates."""

_UNSAFE = re.compile(f"[{_CONTROL}{_FORMAT}]|[{_SELECTORS}]{{2,}}")
"""Characters that move the cursor, start an escape sequence, or reorder/hide text."""
# The same for text without characters above U+FFFF, and for ASCII: ``re`` scans a class holding
# astral ranges ~8x slower, and almost all text a peer sends is one of these.
_UNSAFE_BMP = re.compile(f"[{_CONTROL}{_FORMAT_BMP}]|[{_SELECTORS_BMP}]{{2,}}")
_UNSAFE_ASCII = re.compile("[\x00-\x08\x0b-\x1f\x7f]")

JSON_UNSAFE = re.compile(f"[\x7f-\xa0\u2028\u2029\ud800-\udfff{_FORMAT}{_SELECTORS}]")
"""What ``json.dumps(ensure_ascii=False)`` leaves raw but a terminal may act on or a reader not see (C0 is escaped).

The no-break space (U+00A0) is among them: it reads as a space, and a Qt text editor's plain text turns it into
one, so JSON shown for editing would lose it."""

_JOINERS = "\u200c\u200d"
_JOINABLE = ("L", "M", "So", "Sk")
"""Categories a lone joiner may stand between (letters, marks, emoji and their modifiers)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u180e\u200b\u200c\u200d\u2060\ufeff")

MAX_FILE_NAME = 120
"""Characters kept of a peer-suggested file name (before its extension)."""


def _joins(text: str, at: int) -> bool:
    """Whether the joiner at ``at`` stands alone between two non-ASCII letters, marks or symbols."""
    if at == 0 or at + 1 >= len(text):
        return False
    before, after = text[at - 1], text[at + 1]
    return all(
        not c.isascii() and c not in _JOINERS and unicodedata.category(c).startswith(_JOINABLE) for c in (before, after)
    )


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _visible(match: re.Match[str]) -> str:
    found = match.group()
    if found in _JOINERS and _joins(match.string, match.start()):
        return found
    return "".join(_escape(c) for c in found)


def neutralise(text: str) -> str:
    r"""``text`` with every control and invisible character shown as an escape (``\\x1b``), newline and tab kept.

    A ``\\r\\n`` line ending counts as a newline; a lone ``\\r`` (which would let text overwrite the
    line before it) is shown. Characters above U+FFFF are shown as ``\\U000e0041``.
    """
    text = text.replace("\r\n", "\n")
    return _unsafe_in(text).sub(_visible, text)


def _unsafe_in(text: str) -> re.Pattern[str]:
    """The narrowest pattern that finds every unsafe character ``text`` can hold (the same matches)."""
    if text.isascii():
        return _UNSAFE_ASCII
    if len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text):  # nothing above U+FFFF
        return _UNSAFE_BMP
    return _UNSAFE


def neutralise_line(text: str) -> str:
    """``text`` as one inert line: newlines and tabs escaped too (for log records and one-line fields)."""
    return neutralise(text).replace("\n", "\\n").replace("\t", "\\t")


def _kind(char: str) -> str:
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if char in _BIDI:
        return "bidi"
    if char in _ZERO_WIDTH:
        return "zero-width"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "variation-selectors"
    if code < 0xA0 or 0xD800 <= code <= 0xDFFF or char in "\u2028\u2029":
        return "control"
    return "format"


def hidden_kinds(text: str) -> set[str]:
    """What ``neutralise`` would show in ``text``, by kind; empty when it shows nothing.

    Kinds: ``tag``, ``bidi``, ``zero-width``, ``variation-selectors``, ``control`` (C0/C1 controls
    but newline and tab, a lone carriage return, separators, lone surrogates) and ``format`` (the
    other invisible format characters).
    """
    kinds: set[str] = set()
    flat = text.replace("\r\n", "\n")
    for match in _unsafe_in(flat).finditer(flat):
        found = match.group()
        if found in _JOINERS and _joins(flat, match.start()):
            continue
        kinds.add(_kind(found[0]))
    return kinds


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json_text(text: str) -> str:
    r"""JSON text with what a terminal may act on or a reader not see as ``\\uXXXX`` escapes (same value)."""
    if text.isascii() and "\x7f" not in text:
        return text  # the pattern's only ASCII character is DEL
    return JSON_UNSAFE.sub(_json_escape, text)


NON_FINITE = {math.inf: "Infinity", -math.inf: "-Infinity"}
"""How ``json_line`` writes a non-finite number: as a string (``NaN`` too), never as invalid JSON."""


def finite(value: Any) -> Any:
    """``value`` with every non-finite float (``inf``, ``-inf``, ``nan``) replaced by its name as a string."""
    if isinstance(value, float) and not math.isfinite(value):
        return NON_FINITE.get(value, "NaN")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def json_line(value: Any, *, default: Any = None) -> str:
    r"""One JSON document on one line that no terminal interprets and every JSON parser reads.

    C1, bidi, format and invisible characters are written as ``\\uXXXX`` escapes (the value is the
    same); a non-finite number becomes its name as a string (``"Infinity"``), never the invalid
    ``Infinity``.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=default, allow_nan=False)
    except ValueError:
        text = json.dumps(finite(_plain(value, default)), ensure_ascii=False, default=default, allow_nan=False)
    return escape_json_text(text)


def _plain(value: Any, default: Any, depth: int = 0) -> Any:
    """``value`` with the objects ``default`` converts already converted (so ``finite`` sees inside them)."""
    if depth > 500 or isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, dict):
        return {k: _plain(v, default, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, default, depth + 1) for v in value]
    return _plain(default(value), default, depth + 1) if default is not None else value


def safe_file_name(name: str | None, *, fallback: str = "download") -> str:
    r"""A file name a peer suggested, made safe to offer in a save dialog.

    No directory part (``/``, ``\\``), no ``..``, no leading dot (hidden file), no control, invisible
    or reserved characters, at most ``MAX_FILE_NAME`` characters before the extension. An empty
    result becomes ``fallback``.
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
