"""The ``workbench`` command line: inspect, call, send and demo, the protocol always explicit.

Targets: ``--mcp URL`` (Streamable HTTP), ``--mcp-sse URL``, ``--a2a URL``, or ``--stdio`` with the
server command after ``--``, e.g. ``workbench call --stdio echo --args '{"text":"hi"}' -- python srv.py``.
Exit codes: 0 done, 1 the agent or tool failed (typed error or ``is_error``), 2 bad usage.
This module only dispatches the typed options ``parser`` builds, importing what a command needs when
it runs (the window opens without the agent commands' modules: ``agent_commands`` runs inspect, call
and send; ``profile_commands`` runs profile, secret, login and logout).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

from workbench.cli import terminal
from workbench.cli.options import DemoOptions, ProfileCommandOptions, WindowOptions
from workbench.cli.parser import parse_command_line


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    terminal.install()  # peer text reaches the terminal inert, whichever path it takes
    options = parse_command_line(sys.argv[1:] if argv is None else argv)
    if isinstance(options, WindowOptions):
        from workbench.cli.window import open_window

        return open_window(options)
    if isinstance(options, DemoOptions):
        from workbench.cli.demo import run_demo

        return run_demo(options)
    from workbench.cli.logs import route_to_debug_log

    debug_log = route_to_debug_log(
        config_dir=options.config_dir
    )  # log records (SDK tracebacks, warnings) go to a file, not the terminal
    if isinstance(options, ProfileCommandOptions):
        from workbench.cli.profile_commands import run_profile_command

        return run_profile_command(options)
    from workbench.cli.agent_commands import run_agent_command

    code = run_agent_command(options, debug_log)
    if argv is None:  # the process ends next: its final garbage collections would only delay the prompt
        gc.freeze()  # (a fifth of `inspect`'s CPU time: every imported module's objects walked again)
    return code
