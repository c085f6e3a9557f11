"""What content parts hold, in numbers and names: JSON for display, base64 blobs, sizes, WAV length, file names."""

from __future__ import annotations

import base64
import binascii
import io
import json
import wave
from typing import Any

from workbench.core.protocols.base import ContentPart
from workbench.core.safe_text import escape_json_text, safe_file_name

_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/mpeg": ".mp3",
    "audio/ogg": ".ogg",
    "audio/flac": ".flac",
    "audio/webm": ".webm",
    "audio/mp4": ".m4a",
    "audio/aac": ".aac",
    "text/plain": ".txt",
    "text/markdown": ".md",
    "application/json": ".json",
    "application/pdf": ".pdf",
    "text/csv": ".csv",
    "text/tab-separated-values": ".tsv",
    "text/html": ".html",
}


def pretty_json(value: Any) -> str:
    r"""Indented JSON for display (non-JSON values fall back to ``str``), invisible characters as ``\uXXXX``."""
    return escape_json_text(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def decode_blob(blob: str | None) -> bytes | None:
    """The bytes of a base64 blob, or ``None`` when it is missing or not valid base64."""
    if blob is None:
        return None
    try:
        return base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return None


def human_size(size: int) -> str:
    """``1234567`` → ``1.2 MB`` (decimal units, as file managers show them)."""
    value = float(size)
    for unit in ("bytes", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} bytes"  # pragma: no cover - the loop always returns


def wav_duration(data: bytes) -> float | None:
    """Seconds of audio in a WAV file, or ``None`` if it is not a readable WAV."""
    try:
        with wave.open(io.BytesIO(data)) as clip:
            rate = clip.getframerate()
            return clip.getnframes() / rate if rate else None
    except (wave.Error, EOFError):
        return None


def audio_extension(mime_type: str | None) -> str | None:
    """The file extension of a known audio type (``.wav`` for ``audio/wav``), ``None`` for any other type."""
    mime = (mime_type or "").lower()
    return _EXTENSIONS.get(mime) if mime.startswith("audio/") else None


def suggested_file_name(part: ContentPart, fallback: str) -> str:
    """A file name for saving ``part``: the last URI segment or ``fallback``, with an extension for its type."""
    base = fallback
    if part.uri:
        tail = part.uri.rstrip("/").rsplit("/", 1)[-1]
        base = safe_file_name("".join(c if c.isalnum() or c in "._-" else "_" for c in tail), fallback=fallback)
    ext = _EXTENSIONS.get((part.mime_type or "").split(";", 1)[0].strip().lower(), "")
    return base if not ext or base.endswith(ext) else base + ext
