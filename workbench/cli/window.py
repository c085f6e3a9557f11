"""``workbench`` with no command and ``workbench demo``: open the window (checks first that it can)."""

from __future__ import annotations

import os
import sys

from workbench.cli.options import WindowOptions

EXIT_USAGE = 2


def open_window(options: WindowOptions, *, demo: bool = False, scenario: str | None = None) -> int:
    """Open the window (connected to the bundled demo agents when ``demo``); returns the exit code."""
    if sys.version_info < (3, 12):  # noqa: UP036 - run from a source checkout; PySide6 6.12 on 3.11 corrupts None's refcount and aborts
        print(
            f"error: the window needs Python 3.12 or newer (this is {sys.version.split()[0]}). "
            "Run 'make demo' (it builds .venv with Python >= 3.12) or install Python 3.12.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("QT_QPA_PLATFORM")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        hint = "'workbench demo --headless' serves the demo agents without a window" if demo else "use the CLI"
        print(
            "error: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the window cannot open; "
            f"{hint}, or run under a virtual display: xvfb-run -a workbench{' demo' if demo else ''}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from workbench.app import GuiOptions, run_gui

    return run_gui(
        GuiOptions(
            demo=demo,
            scenario=scenario,
            smoke_test=options.smoke_test,
            screenshot=options.screenshot,
            config_dir=options.config_dir,
        )
    )
