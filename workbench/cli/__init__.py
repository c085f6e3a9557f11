"""The ``workbench`` command line: inspect, call, send and demo, the protocol always explicit.

Targets: ``--mcp URL`` (Streamable HTTP), ``--mcp-sse URL``, ``--a2a URL``, or ``--stdio`` with the
server command after ``--``, e.g. ``workbench call --stdio echo --args '{"text":"hi"}' -- python srv.py``.
Exit codes: 0 done, 1 the agent or tool failed (typed error or ``is_error``), 2 bad usage.
This module only parses and dispatches, importing what a command needs when it runs (the window
opens without the agent commands' modules: ``agent_commands`` runs inspect, call and send).
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence

from workbench.cli import terminal
from workbench.cli.profile_parser import add_config_dir_option, add_profile_commands
from workbench.cli.targets import add_target_options


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--wire",
        metavar="FILE",
        help="write the wire log as JSONL (as it happens), or as HAR 1.2 if FILE ends in .har (HTTP targets only: "
        "a HAR holds HTTP exchanges, with every body whole)",
    )
    common.add_argument(
        "--mode", choices=("auto", "legacy", "2026-07-28"), default=None, help="MCP protocol era (default: auto)"
    )
    common.add_argument("--json", action="store_true", help="machine-readable output, one JSON object per line")
    common.add_argument("--stderr", action="store_true", help="show a stdio server's stderr lines")
    common.add_argument(
        "--connect-timeout", type=float, default=None, metavar="S", help="seconds to connect and discover (30)"
    )
    add_config_dir_option(common)
    common.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds per request, a trickling answer included; for an A2A stream, for its first event and then "
        "for each next one (default: none for MCP, a silent A2A stream is fine; 60 s for other A2A calls)",
    )

    parser = argparse.ArgumentParser(
        prog="workbench", description="Explore MCP servers and A2A agents. Without a command: open the window."
    )
    from workbench import __version__

    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    add_window_options(parser)
    sub = parser.add_subparsers(dest="command")

    inspect = sub.add_parser("inspect", parents=[common], help="show what an agent offers")
    add_target_options(inspect)

    call = sub.add_parser("call", parents=[common], help="call one MCP tool (or A2A skill)")
    add_target_options(call)
    call.add_argument("tool", metavar="TOOL")
    call.add_argument("--args", default="{}", metavar="JSON", help="tool arguments as a JSON object")
    call.add_argument(
        "--no-validate",
        action="store_true",
        help="send --args as given even if they do not fit the tool's input schema (to test the server's checks)",
    )
    call.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="JSON|TEXT|accept|decline|cancel",
        help="answers to the server's questions, in order: a JSON object for a form, TEXT for a completion "
        "(sampling), accept once a URL it asked you to open is done (the call is then retried), decline or cancel",
    )

    send = sub.add_parser("send", parents=[common], help="send a message to an agent and stream the reply")
    add_target_options(send)
    send.add_argument("text", metavar="TEXT")
    send.add_argument(
        "--answer", action="append", default=[], metavar="JSON|TEXT|decline|cancel", help="answers, in order"
    )
    send.add_argument("--data", metavar="JSON", help="A2A: also send this JSON value as a data part")
    send.add_argument("--task-id", help="A2A: continue this task")
    send.add_argument("--context-id", help="A2A: continue this conversation")

    add_profile_commands(sub)

    demo = sub.add_parser("demo", help="start the bundled demo agents (and the window)")
    demo.add_argument("--headless", action="store_true", help="no window: print the agents and serve until Ctrl-C")
    demo.add_argument("--scenario", default=None, help="run a demo scenario")
    demo.add_argument("--json", action="store_true")
    demo.add_argument(
        "--base-port",
        type=int,
        default=None,
        metavar="PORT",
        help="with --headless: the first of the agents' ports (default 47801, so 127.0.0.1:47801-47804; "
        "0: any free ports). A taken port falls back to a free one, and the demo says so",
    )
    add_window_options(demo)
    return parser


def add_window_options(parser: argparse.ArgumentParser) -> None:
    """Options of the window itself (``workbench`` and ``workbench demo``)."""
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, print how long it took to show (its frame) and to be ready, and exit",
    )
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the window once it is ready, then exit")
    add_config_dir_option(parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    terminal.install()  # peer text reaches the terminal inert, whichever path it takes
    raw = list(sys.argv[1:] if argv is None else argv)
    head, stdio_command = _split_double_dash(raw)
    parser = _parser()
    args = parser.parse_args(head)
    args.config_dir = getattr(args, "config_dir", None)  # before the subcommand, after it, or not given
    if args.command is None:
        from workbench.cli.window import open_window

        return open_window(args)
    if args.command == "demo":
        from workbench.cli.demo import run_demo

        return run_demo(args)
    from workbench.cli.logs import route_to_debug_log

    debug_log = route_to_debug_log(
        config_dir=args.config_dir
    )  # log records (SDK tracebacks, warnings) go to a file, not the terminal
    if args.command in ("profile", "secret", "login", "logout"):
        from workbench.cli.profile_commands import run_profile_command

        return run_profile_command(args, stdio_command)
    from workbench.cli.agent_commands import run_agent_command

    code = run_agent_command(args, stdio_command, debug_log)
    if argv is None:  # the process ends next: its final garbage collections would only delay the prompt
        gc.freeze()  # (a fifth of `inspect`'s CPU time: every imported module's objects walked again)
    return code


def _split_double_dash(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []
