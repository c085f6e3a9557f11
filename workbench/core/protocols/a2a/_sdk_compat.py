"""Every private name of the A2A SDK (and its httpx / protobuf stack) the workbench relies on.

Checked against ``a2a-sdk`` 1.3.0: the adapter uses none today, so this module is empty on purpose.
When one is needed, it goes here behind a function whose docstring names the SDK version and the
private name, with a contract test in ``tests/unit/a2a/`` that runs without npm;
``tests/unit/test_sdk_private_names.py`` fails when one is used anywhere else.
"""

from __future__ import annotations

SDK_VERSION = "1.3.0"
"""The ``a2a-sdk`` version this module was checked against."""
