"""QtWebEngine in tests: skip without the apps extra, run as root, and the engine's known log noise.

- ``require_webengine()``: skip the module when QtWebEngine (the ``apps`` extra) is not installed, saying so.
- As root (CI containers, these machines) Chromium refuses to start with its sandbox on; the tests turn it off
  with ``QTWEBENGINE_DISABLE_SANDBOX=1`` before the engine starts. Only in tests: the window never does.
- ``WEBENGINE_LOG_NOISE``: what Chromium says under the offscreen platform with software rendering.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

WEBENGINE_LOG_NOISE = (
    # Chromium under the offscreen platform with software rendering says what it cannot use.
    r"QRhiGles2: Failed to create",
    r"Failed to create RHI",
    r"This plugin does not support createPlatformVulkanInstance",
    r"QVulkanInstance: Failed to initialize Vulkan",
    r"GBM is not supported",
    r"GPUInfo not initialized",
    r"Sandboxing disabled by user",
    r"Failed to connect to the bus",
    r"Qt WebEngine seems to be initialized from a plugin",
)


def require_webengine() -> None:
    """Skip the calling module unless QtWebEngine is installed; turn the sandbox off when running as root."""
    if importlib.util.find_spec("PySide6.QtWebEngineWidgets") is None:
        pytest.skip(
            "QtWebEngine is not installed (the apps extra: pip install -e '.[dev,apps]'; make env installs it)",
            allow_module_level=True,
        )
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ["QTWEBENGINE_DISABLE_SANDBOX"] = "1"
