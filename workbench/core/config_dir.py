"""Where the workbench keeps its configuration: the one rule, light enough for the window's first paint."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "agent-workbench"
CONFIG_DIR_ENV = "WORKBENCH_CONFIG_DIR"
WINDOW_SETTINGS_FILE = "window.ini"
"""The window's layout memory (geometry, docks, last selection), next to the profiles."""


def resolve_config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The configuration directory (not created here).

    Args:
        override: Use this directory; otherwise ``$WORKBENCH_CONFIG_DIR``, otherwise the platform's
            user config directory for the workbench.
    """
    if override is not None:
        return Path(override)
    from_env = os.environ.get(CONFIG_DIR_ENV)
    if from_env:
        return Path(from_env)
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
