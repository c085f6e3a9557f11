"""Importing the window's UI package loads neither protocol SDK nor the demo agents: the core loads them on demand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SDKS = ("mcp", "mcp_types", "a2a", "google.protobuf", "workbench.demo")

PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys
    import workbench.ui

    names = [m.name for m in pkgutil.walk_packages(workbench.ui.__path__, "workbench.ui.")]
    for name in names:
        importlib.import_module(name)
    sdks = tuple(sys.argv[1:])
    loaded = sorted(m for m in sys.modules if m in sdks or m.startswith(tuple(s + "." for s in sdks)))
    print(json.dumps({"imported": len(names), "loaded": loaded}))
    """
)


def test_importing_every_ui_module_loads_no_protocol_sdk_and_no_demo_agent() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-c", PROBE, *SDKS]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["imported"] > 50  # the whole package, not a stub
    assert report["loaded"] == []
