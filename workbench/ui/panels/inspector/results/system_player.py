"""Hands an audio clip to the desktop's own player: written to a private temporary file the workbench names.

Used where the window cannot play a clip itself (no QtMultimedia, no audio output). Nothing the peer sent
reaches the file name: the name is ``clip-<n><extension>`` with the extension chosen from a fixed table of
audio types, in a directory only this user can read, removed when the workbench exits.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

_directory: Path | None = None
_numbers = itertools.count(1)


def _clip_directory() -> Path:
    global _directory
    if _directory is None:
        _directory = Path(tempfile.mkdtemp(prefix="workbench-clips-"))  # mode 0700
        atexit.register(shutil.rmtree, _directory, ignore_errors=True)
    return _directory


def write_clip(data: bytes, extension: str) -> Path:
    """Write ``data`` to a new private file ending in ``extension`` and return its path."""
    path = _clip_directory() / f"clip-{next(_numbers)}{extension}"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    return path


def open_in_system_player(data: bytes, extension: str) -> bool:
    """Write the clip and ask the desktop to open it; ``False`` when no application took it.

    Raises:
        OSError: The temporary file could not be written.
    """
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(write_clip(data, extension))))
