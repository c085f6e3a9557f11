"""Compressed bombs for the hand-written HTTP fault servers (stdlib only): small on the wire, huge decoded.

A bomb is a padded document (as in `_padded`: bytes before, `mib` MiB of `x`, bytes after)
compressed as a Content-Encoding sends it: `gzip`, `deflate` (zlib-wrapped, as the standard says)
or `raw-deflate` (sent as `deflate` by some servers). One MiB of `x` is compressed once, into
deflate blocks that refer to nothing before them, and repeated: 1 GiB decoded is ~1 MiB on the
wire and costs the server next to nothing. The stream's checksum is computed only if the client
reads it to the end.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from typing import Literal

MIB = 1024 * 1024
Coding = Literal["gzip", "deflate", "raw-deflate"]
BATCH = 64
"""Compressed MiB of padding per write (~64 KiB on the wire)."""


def _raw(data: bytes, *, last: bool) -> bytes:
    """``data`` as raw deflate blocks that refer to nothing before them (``last``: ending the stream)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return deflate.compress(data) + deflate.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


_MIB_OF_X = _raw(b"x" * MIB, last=False)


def compressed_length(prefix: bytes, suffix: bytes, mib: int, coding: Coding) -> int:
    """The length on the wire of ``bomb(prefix, suffix, mib, coding)`` (for a Content-Length)."""
    frame = {"gzip": 10 + 8, "deflate": 2 + 4, "raw-deflate": 0}[coding]
    return frame + len(_raw(prefix, last=False)) + mib * len(_MIB_OF_X) + len(_raw(suffix, last=True))


def bomb(prefix: bytes, suffix: bytes, mib: int, coding: Coding) -> Iterator[bytes]:
    """``prefix``, ``mib`` MiB of ``x`` and ``suffix``, compressed as ``coding``, in writes of ~64 KiB."""
    if coding == "gzip":
        yield b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name, no time, best compression, unknown OS
    elif coding == "deflate":
        yield b"\x78\xda"  # 32 KiB window, best compression
    yield _raw(prefix, last=False)
    for start in range(0, mib, BATCH):
        yield _MIB_OF_X * min(BATCH, mib - start)
    yield _raw(suffix, last=True)
    if coding == "raw-deflate":
        return
    # Reached only by a client that read it all: the checksum of everything decoded.
    check = zlib.crc32 if coding == "gzip" else zlib.adler32
    value = check(prefix, 0 if coding == "gzip" else 1)
    x = b"x" * MIB
    for _ in range(mib):
        value = check(x, value)
    value = check(suffix, value)
    if coding == "gzip":
        yield struct.pack("<II", value, (len(prefix) + mib * MIB + len(suffix)) & 0xFFFFFFFF)
    else:
        yield struct.pack(">I", value)


def compress(data: bytes, coding: Coding) -> bytes:
    """``data`` compressed as ``coding`` (a small body, whole)."""
    if coding == "gzip":
        gzip = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
        return gzip.compress(data) + gzip.flush()
    if coding == "deflate":
        return zlib.compress(data, 9)
    return _raw(data, last=True)
