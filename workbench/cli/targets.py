"""Turn command-line target options into a target spec (the protocol always explicit); see ``transient``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.errors import ConfigError

DEFAULT_CONNECT_TIMEOUT = 30.0
A2ABindingName = Literal["auto", "JSONRPC", "HTTP+JSON", "GRPC"]
BINDINGS: dict[str, A2ABindingName] = {"auto": "auto", "jsonrpc": "JSONRPC", "http-json": "HTTP+JSON", "grpc": "GRPC"}
"""``--binding`` values and the A2A binding names they stand for."""
A2AVersionName = Literal["auto", "1.0", "0.3"]
A2A_VERSIONS: tuple[A2AVersionName, ...] = ("auto", "1.0", "0.3")
"""``--a2a-version`` values."""


@dataclass
class TargetSpec:
    """Which agent to talk to, as parsed from the command line."""

    protocol: str  # "mcp-http" | "mcp-sse" | "mcp-stdio" | "a2a"
    url: str | None = None
    command: list[str] = field(default_factory=list)
    mode: str = "auto"
    agent_tool: str | None = None
    binding: A2ABindingName = "auto"
    a2a_version: A2AVersionName = "auto"
    headers: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    connect_timeout: float = 30.0
    request_timeout: float | None = None
    allow_origins: list[str] = field(default_factory=list)
    limits: dict[str, int | None] = field(default_factory=dict)
    """The size limits given (``max_message_bytes`` / ``max_stream_bytes``; ``None``: no limit)."""

    @property
    def label(self) -> str:
        """Human description of the target."""
        if self.protocol == "mcp-stdio":
            return "stdio: " + " ".join(self.command)
        return f"{self.protocol} {self.url}"


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


LIMIT_OPTIONS = {"max_message_bytes": "--max-message-bytes", "max_stream_bytes": "--max-stream-bytes"}
"""The size-limit profile fields and their options."""


def parse_size(text: str, option: str) -> int | None:
    """A size option's value in bytes (``workbench.core.sizes``: ``64MiB``, ``128M``, ``500KB``, ``none``).

    Returns:
        The bytes, or ``None`` for ``none`` (no limit).

    Raises:
        ConfigError: Not a size, or not more than zero.
    """
    from workbench.core.sizes import SIZE_EXAMPLES
    from workbench.core.sizes import parse_size as parse

    try:
        return parse(text)
    except ValueError:
        raise ConfigError(
            f"{option} expects a size such as {SIZE_EXAMPLES}; got {text!r}.",
            hint="a size is more than zero; none turns the limit off",
            details={"option": option},
        ) from None


def limits_from_args(args: argparse.Namespace) -> dict[str, int | None]:
    """The size limits given on the command line, by profile field (only those given).

    Raises:
        ConfigError: A value is not a size.
    """
    out: dict[str, int | None] = {}
    for name, option in LIMIT_OPTIONS.items():
        text = getattr(args, name, None)
        if text is not None:
            out[name] = parse_size(text, option)
    return out


def target_from_args(args: argparse.Namespace, stdio_command: list[str]) -> TargetSpec:
    """Build a ``TargetSpec``; ``stdio_command`` is what followed ``--`` on the command line.

    Raises:
        ConfigError: The options do not name one usable target.
    """
    headers = pairs(args.header, "--header")
    allow_origins = parse_origins(getattr(args, "allow_origin", []) or [])
    env = pairs(args.env, "--env")
    if env and not args.stdio:
        raise ConfigError("--env is only for --stdio servers.")
    limits = limits_from_args(args)
    if limits and args.stdio:
        option = LIMIT_OPTIONS[next(iter(limits))]
        raise ConfigError(
            f"{option} is for HTTP targets; a --stdio server's replies have their own line limit.",
            details={"option": option},
        )
    mode = getattr(args, "mode", None)
    binding = getattr(args, "binding", None)
    a2a_version = getattr(args, "a2a_version", None)
    if args.a2a:
        for option, value in (("--mode", mode), ("--agent-tool", args.agent_tool)):
            if value is not None:
                raise ConfigError(
                    f"{option} is for MCP servers; --a2a names an A2A agent.",
                    hint="choose how to talk to an A2A agent with --binding and --a2a-version",
                    details={"option": option},
                )
    else:
        for option, value in (("--binding", binding), ("--a2a-version", a2a_version)):
            if value is not None:
                raise ConfigError(f"{option} is for A2A agents (--a2a URL).", details={"option": option})
    connect_timeout = getattr(args, "connect_timeout", None)
    common: dict[str, Any] = {
        "mode": mode or "auto",
        "agent_tool": args.agent_tool,
        "binding": BINDINGS.get(binding or "auto", "auto"),
        "a2a_version": a2a_version or "auto",
        "headers": headers,
        "env": env,
        "connect_timeout": DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout,
        "request_timeout": args.timeout,
        "allow_origins": allow_origins,
        "limits": limits,
    }
    if args.stdio:
        if not stdio_command:
            raise ConfigError("--stdio needs the server command after '--'.", hint="--stdio -- python server.py")
        return TargetSpec("mcp-stdio", command=stdio_command, **common)
    if stdio_command:
        raise ConfigError("Arguments after '--' are only for --stdio.")
    if args.mcp:
        return TargetSpec("mcp-http", url=args.mcp, **common)
    if args.mcp_sse:
        return TargetSpec("mcp-sse", url=args.mcp_sse, **common)
    return TargetSpec("a2a", url=args.a2a, **common)


def parse_origins(items: list[str]) -> list[str]:
    """``--allow-origin`` values as origins (``scheme://host:port``).

    Raises:
        ConfigError: A value is not an http(s) origin.
    """
    from workbench.core.http.origins import origin_of

    out: list[str] = []
    for item in items:
        try:
            origin = origin_of(item)
        except ValueError:
            origin = ""
        if not origin.startswith(("http://", "https://")):
            raise ConfigError(f"--allow-origin expects an http(s) origin such as https://host:443, got {item!r}.")
        out.append(origin)
    return out


def pairs(items: list[str], option: str) -> dict[str, str]:
    """``K=V`` option values as a dict (the last of a repeated key wins).

    Raises:
        ConfigError: A value has no ``=`` or an empty key.
    """
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{option} expects K=V, got {item!r}.")
        out[key.strip()] = value
    return out
