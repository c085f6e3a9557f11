"""Byte sizes as people write them (``64MiB``, ``128M``, ``500KB``, ``1048576``, ``none``): read and written.

The command line's ``--max-message-bytes`` / ``--max-stream-bytes`` and the connection dialog's
size limits take the same text. K, M and G are binary (KiB, MiB, GiB), as the limits' messages
count; KB, MB and GB are decimal. ``none`` (or ``off``, ``unlimited``) is no limit.

``base64_size`` is the size of what a base64 attachment holds, without decoding it.
"""

from __future__ import annotations

import re

_SIZE_RE = re.compile(r"(\d+(?:\.\d+)?)([kmg](?:ib|i|b)?|b)?")
_POWERS = {"k": 1, "m": 2, "g": 3}
NO_LIMIT_WORDS = ("none", "off", "unlimited")
"""Words that mean no limit."""
SIZE_EXAMPLES = "64MiB, 128M, 500KB or 1048576 (bytes), or none"
"""What a size looks like, for messages."""


def parse_size(text: str) -> int | None:
    """A size in bytes (``None``: no limit).

    Raises:
        ValueError: Not a size, or not more than zero.
    """
    value = text.strip().lower().replace(" ", "").replace("_", "")
    if value in NO_LIMIT_WORDS:
        return None
    match = _SIZE_RE.fullmatch(value)
    size = 0
    if match is not None:
        number, unit = match.group(1), match.group(2) or "b"
        base = 1000 if len(unit) == 2 and unit.endswith("b") and unit != "ib" else 1024
        size = int(float(number) * base ** _POWERS.get(unit[0], 0))
    if size <= 0:
        raise ValueError(f"expected a size such as {SIZE_EXAMPLES}; got {text.strip()[:40]!r}")
    return size


def format_size(size: int | None) -> str:
    """``size`` as ``parse_size`` reads it back exactly: ``64MiB``, ``1536KiB``, ``1000`` or ``none``."""
    if size is None:
        return "none"
    for unit, power in (("GiB", 3), ("MiB", 2), ("KiB", 1)):
        if size % 1024**power == 0:
            return f"{size // 1024**power}{unit}"
    return str(size)


_BASE64_IGNORED = ("=", "\n", "\r", " ", "\t")
"""Characters of base64 text that carry no data: padding, and the line breaks MIME-style text has."""


def base64_size(blob: str) -> int:
    """The exact number of bytes base64 text decodes to, without decoding it.

    Every 4 data characters hold 3 bytes; padding (``=``) and whitespace hold none: ``QUJD`` is 3
    bytes, ``QUI=`` 2, ``QQ==`` 1 (``QQ`` without its padding too).
    """
    data_chars = len(blob) - sum(blob.count(c) for c in _BASE64_IGNORED)
    return data_chars * 3 // 4
