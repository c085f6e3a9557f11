"""Tool inputs that take a file: which schemas ask for one, and a chosen file turned into the string they take.

A string schema asks for a file when it says ``format: "data-url"``, ``contentEncoding: "base64"``, or
``contentMediaType`` (JSON Schema's content vocabulary). A plain ``format: "uri"`` does not: a web
address, an agent URI or a resource URI is typed, and a file chooser beside it would mislead. The
value filled in is a ``data:`` URL with the file's media type, the file's bytes in base64, or, for a
text media type without an encoding, the file's text. Files are read up to ``MAX_FILE_BYTES`` (or
what the schema's ``maxLength`` leaves room for): a bigger file is an ``InputError`` that says both
sizes, never a partial value.
"""

from __future__ import annotations

import base64
import fnmatch
import mimetypes
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from workbench.core.errors import ConfigError

FileEncoding = Literal["data-url", "base64", "text"]

MAX_FILE_BYTES = 8_000_000
"""Largest file a tool input is filled from (its base64 is a third bigger, and travels in one JSON message)."""

_URI_FORMATS = frozenset({"uri", "uri-reference", "iri", "iri-reference"})
"""Formats whose value may be a ``data:`` URL: a file fills one when the schema also names a media type."""
_TEXT_TYPES = ("text/*", "application/json", "application/*+json", "application/xml", "application/*+xml")


class FileInputError(ConfigError):
    """A chosen file cannot fill the input: too big, unreadable, or not text where text is asked for."""

    code = "file-input"


def _is_text(media_type: str) -> bool:
    return any(fnmatch.fnmatch(media_type, pattern) for pattern in _TEXT_TYPES)


def _size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "kB", "MB"):
        if value < 1000 or unit == "MB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} bytes"  # pragma: no cover - the loop always returns


@dataclass(frozen=True)
class FileInputSpec:
    """What a file input takes.

    Attributes:
        encoding: ``data-url`` (a ``data:`` URL), ``base64`` (the bytes) or ``text`` (the file's text).
        media_type: The media type the schema names (``contentMediaType``; may be a pattern such as
            ``image/*``), or ``None``.
        max_bytes: Largest file accepted: ``MAX_FILE_BYTES``, less where ``maxLength`` asks for less.
        explicit: The schema asks for file content (``data-url``, an encoding or a media type), not just
            any URI (``format: uri``), where a file is one choice among typed addresses.
    """

    encoding: FileEncoding
    media_type: str | None
    max_bytes: int
    explicit: bool = True

    def accepts(self, media_type: str) -> bool:
        """Whether a file of ``media_type`` is what the schema names (any type when it names none)."""
        return self.media_type is None or fnmatch.fnmatch(media_type.lower(), self.media_type.lower())

    def name_filters(self) -> list[str]:
        """File dialog filters: the schema's media type by its extensions (when known), then all files."""
        if self.media_type is None:
            return ["All files (*)"]
        major, _, minor = self.media_type.lower().partition("/")
        if minor == "*":
            extensions = sorted({ext for ext, mt in mimetypes.types_map.items() if mt.startswith(major + "/")})
        else:
            extensions = sorted(set(mimetypes.guess_all_extensions(self.media_type)))
        if not extensions:
            return ["All files (*)"]
        return [f"{self.media_type} ({' '.join('*' + e for e in extensions)})", "All files (*)"]

    def describe(self) -> str:
        """How the file is sent, for the note beside the button."""
        how = {"data-url": "a data: URL", "base64": "base64", "text": "text"}[self.encoding]
        kind = f"{self.media_type} " if self.media_type else ""
        return f"A {kind}file of up to {_size(self.max_bytes)}, sent as {how}."


def file_input_spec(schema: Mapping[str, Any]) -> FileInputSpec | None:
    """The file input a string schema asks for, or ``None`` when it asks for no file."""
    fmt = schema.get("format")
    encoding = schema.get("contentEncoding")
    media_type = schema.get("contentMediaType")
    media_type = media_type.strip() if isinstance(media_type, str) and "/" in media_type else None
    kind: FileEncoding
    if isinstance(encoding, str) and encoding.lower() == "base64":
        kind = "base64"
    elif fmt == "data-url" or (fmt in _URI_FORMATS and media_type is not None):
        kind = "data-url"
    elif media_type is not None:
        kind = "text" if _is_text(media_type.lower()) else "base64"
    else:
        return None
    max_bytes = MAX_FILE_BYTES
    max_length = schema.get("maxLength")
    if isinstance(max_length, int) and not isinstance(max_length, bool) and max_length >= 0:
        overhead = len(f"data:{media_type or 'application/octet-stream'};base64,") if kind == "data-url" else 0
        room = max(0, max_length - overhead)
        max_bytes = min(max_bytes, room if kind == "text" else room // 4 * 3)
    explicit = fmt == "data-url" or kind != "data-url" or media_type is not None
    return FileInputSpec(kind, media_type, max_bytes, explicit)


@dataclass(frozen=True)
class FileInputValue:
    """A file turned into the string an input takes.

    Attributes:
        value: The string to send.
        name: The file's name (no directories).
        media_type: The type the value says (the schema's, or guessed from the file name).
        size: The file's size in bytes.
        type_matches: Whether the file's own type is one the schema names.
    """

    value: str
    name: str
    media_type: str
    size: int
    type_matches: bool = True

    def summary(self) -> str:
        """``report.pdf · application/pdf · 12.3 kB``."""
        return f"{self.name} · {self.media_type} · {_size(self.size)}"


def guess_media_type(path: str | Path) -> str | None:
    """The media type of a file by its name (``None`` when the name says nothing)."""
    guessed, _ = mimetypes.guess_type(str(path), strict=False)
    return guessed


def read_file_input(path: str | Path, spec: FileInputSpec) -> FileInputValue:
    """Read ``path`` (bounded by ``spec.max_bytes``) into the string ``spec`` asks for.

    Blocking: run it in a worker thread from the window.

    Raises:
        FileInputError: The file is missing or unreadable, bigger than the input takes, or not UTF-8
            text where text is asked for.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > spec.max_bytes:
                raise _too_big(path.name, size, spec)
            data = handle.read(spec.max_bytes + 1)
    except OSError as exc:
        raise FileInputError(
            f"{path.name} could not be read ({exc.strerror or exc}).", hint="Choose another file."
        ) from None
    if len(data) > spec.max_bytes:  # it grew while being read
        raise _too_big(path.name, len(data), spec)
    own_type = guess_media_type(path)
    media_type = own_type or "application/octet-stream"
    declared_exact = spec.media_type is not None and "*" not in spec.media_type
    if declared_exact and (own_type is None or not spec.accepts(own_type)):
        assert spec.media_type is not None
        media_type = spec.media_type  # the value says what the tool asks for; the note says it may not be
    matches = own_type is not None and spec.accepts(own_type)
    if spec.encoding == "text":
        try:
            value = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FileInputError(
                f"{path.name} is not UTF-8 text; this input takes {spec.media_type or 'text'}.",
                hint="Choose a text file.",
            ) from None
    elif spec.encoding == "base64":
        value = base64.b64encode(data).decode("ascii")
    else:
        value = f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"
    return FileInputValue(value, path.name, media_type, len(data), type_matches=matches or spec.media_type is None)


def _too_big(name: str, size: int, spec: FileInputSpec) -> FileInputError:
    return FileInputError(
        f"{name} is {_size(size)}; this input takes files of up to {_size(spec.max_bytes)}.",
        hint="Choose a smaller file.",
        details={"size": size, "max_bytes": spec.max_bytes},
    )


def describe_value(value: str) -> str | None:
    """A short description of a long file value (``data: URL · image/png · 1.2 MB``), ``None`` for other text."""
    if value.startswith("data:") and "," in value[:300]:
        head, _, payload = value.partition(",")
        media_type = head[5:].split(";", 1)[0] or "text/plain"
        size = len(payload) // 4 * 3 if head.endswith(";base64") else len(payload)
        return f"data: URL · {media_type} · {_size(size)}"
    return None
