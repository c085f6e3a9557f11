"""The command line's options its subcommands share: the target, and ``--config-dir``.

The target is ``--mcp``/``--mcp-sse``/``--a2a``/``--stdio``/``--profile`` and what goes with it. Grammar
only: ``workbench.cli.parser`` reads the namespace.
"""

from __future__ import annotations

import argparse

from workbench.cli.client_options import add_client_options
from workbench.cli.options import A2A_VERSIONS, BINDINGS

__all__ = ["add_config_dir_option", "add_target_options"]


def add_target_options(parser: argparse.ArgumentParser, *, with_profile: bool = True) -> None:
    """Add the mutually exclusive protocol/target options (``--stdio`` takes the command after ``--``).

    ``--profile NAME`` (a saved profile, its secrets from the OS keyring) is one of them unless
    ``with_profile`` is False.
    """
    group = parser.add_mutually_exclusive_group(required=True)
    if with_profile:
        group.add_argument("--profile", metavar="NAME", help="a saved profile (see 'workbench profile list')")
    group.add_argument("--mcp", metavar="URL", help="an MCP server over Streamable HTTP")
    group.add_argument("--mcp-sse", metavar="URL", help="an MCP server over the legacy HTTP+SSE transport")
    group.add_argument("--a2a", metavar="URL", help="an A2A agent (base URL or agent card URL)")
    group.add_argument(
        "--stdio", action="store_true", help="an MCP server started as a child process: give its command after --"
    )
    parser.add_argument("--agent-tool", metavar="TOOL", help="MCP: the tool that serves as the agent entry point")
    parser.add_argument(
        "--binding",
        choices=tuple(BINDINGS),
        default=None,
        help="A2A: the protocol binding to use among those the card offers (default: auto, the card's first "
        "HTTP one; grpc needs a2a-sdk[grpc] and its wire log keeps messages, not HTTP/2 frames)",
    )
    parser.add_argument(
        "--a2a-version",
        choices=A2A_VERSIONS,
        default=None,
        help="A2A: the protocol version to speak, using the card's interface of that version "
        "(default: auto, 1.0 when the card offers it)",
    )
    parser.add_argument(
        "--header", action="append", default=[], metavar="K=V", help="HTTP header for every request (repeatable)"
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="K=V", help="stdio: environment variable for the server"
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also send this target's credentials (--header values) to ORIGIN (https://host:port), e.g. where "
        "an agent card points; by default they go only to the URL given (repeatable)",
    )
    parser.add_argument(
        "--max-message-bytes",
        metavar="SIZE",
        help="HTTP: most bytes of one response body or one event, e.g. 64MiB (the default), 128M, 500KB, or none",
    )
    parser.add_argument(
        "--max-stream-bytes",
        metavar="SIZE",
        help="HTTP: most bytes of one event stream answering one request (default 128MiB), or none",
    )
    add_client_options(parser)


def add_config_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--config-dir DIR`` after a subcommand too (``workbench --config-dir DIR …`` works as well).

    Its default is no attribute at all, so that a value given before the subcommand is kept.
    """
    parser.add_argument(
        "--config-dir", metavar="DIR", default=argparse.SUPPRESS, help="where profiles and window settings live"
    )
