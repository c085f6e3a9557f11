"""Where the shipped resources (icons, stylesheets, desktop entry) are: PyInstaller bundle, repo or installed wheel."""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path

MARKER = Path("styles") / "light.qss"
"""A file every complete resources directory has; a directory without it is not taken."""
DISTRIBUTION = "agent-workbench"
DATA_DIR = "share/agent-workbench"
"""Where a wheel's data files put the resources, relative to the install scheme's data root."""


class ResourcesNotFoundError(FileNotFoundError):
    """No resources directory was found: the installation is incomplete (a packaging bug, not a user error)."""


def _candidates() -> Iterator[Path]:
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        yield Path(bundle) / "resources"
    yield Path(__file__).resolve().parents[2] / "resources"
    installed = _installed_data_dir()
    if installed is not None:
        yield installed


def _installed_data_dir() -> Path | None:
    # A wheel installs its data files under the scheme's data root (the venv, /usr/local, ~/.local ...);
    # the distribution's RECORD knows where.
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    wanted = f"{DATA_DIR}/{MARKER.as_posix()}"
    for file in dist.files or ():
        if file.as_posix().endswith(wanted):
            return Path(str(dist.locate_file(file))).resolve().parents[len(MARKER.parts) - 1]
    return None


def candidate_dirs() -> list[Path]:
    """The places searched, in order.

    1. ``sys._MEIPASS / "resources"``: the PyInstaller bundle (``packaging/workbench.spec`` puts it there).
    2. ``<repo>/resources``: a source checkout or an editable install (``resources/`` is top level).
    3. ``<data root>/share/agent-workbench``: an installed wheel that ships the resources as data files.
    """
    return list(_candidates())


def resources_dir() -> Path:
    """Return the resources directory (it contains ``icons/``, ``styles/`` and ``workbench.desktop``).

    Raises:
        ResourcesNotFoundError: None of `candidate_dirs` holds the resources.
    """
    for place in _candidates():
        if (place / MARKER).is_file():
            return place
    searched = ", ".join(str(p) for p in candidate_dirs()) or "nowhere"
    raise ResourcesNotFoundError(
        f"Agent Workbench's resources (icons, stylesheets) were not found; searched: {searched}. "
        "The installation is incomplete: reinstall, or run from a source checkout."
    )
