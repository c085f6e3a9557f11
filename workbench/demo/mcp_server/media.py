"""Tiny deterministic media generated in code: a PNG gradient and a WAV beep (no files, no randomness)."""

from __future__ import annotations

import io
import math
import struct
import wave
import zlib


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def make_png(size: int = 16) -> bytes:
    """Return an RGB PNG of `size`x`size` pixels showing a fixed colour gradient.

    Args:
        size: Width and height in pixels (1..256).

    Returns:
        The complete PNG file as bytes.
    """
    if not 1 <= size <= 256:
        raise ValueError("size must be between 1 and 256")
    rows = bytearray()
    for y in range(size):
        rows.append(0)  # filter type "None" for this scanline
        for x in range(size):
            rows += bytes((x * 255 // max(size - 1, 1), y * 255 // max(size - 1, 1), 160))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit depth, truecolour
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _png_chunk(b"IEND", b"")
    )


def make_wav(frequency_hz: float = 440.0, duration_s: float = 0.25, rate: int = 8000) -> bytes:
    """Return a mono 8-bit PCM WAV file with a sine tone.

    Args:
        frequency_hz: Tone frequency.
        duration_s: Length of the clip in seconds.
        rate: Sample rate in Hz.

    Returns:
        The complete WAV file as bytes.
    """
    frames = bytes(
        int(128 + 100 * math.sin(2 * math.pi * frequency_hz * i / rate)) for i in range(int(rate * duration_s))
    )
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(frames)
    return buf.getvalue()
