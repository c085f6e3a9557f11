"""Turn command-line target options into a target spec (the protocol always explicit); see ``transient``."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from workbench.cli.client_options import ClientOptions
from workbench.cli.options import BINDINGS, A2ABindingName, A2AVersionName, LimitOptions, TargetOptions
from workbench.cli.parser import target_options
from workbench.cli.target_parser import add_target_options as add_target_options  # re-exported for tests' own parsers
from workbench.core.errors import ConfigError
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT


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
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    request_timeout: float | None = None
    allow_origins: list[str] = field(default_factory=list)
    limits: dict[str, int | None] = field(default_factory=dict)
    """The size limits given (``max_message_bytes`` / ``max_stream_bytes``; ``None``: no limit)."""
    client: ClientOptions = field(default_factory=ClientOptions)
    """MCP: the client capabilities switched and the roots offered."""

    @property
    def label(self) -> str:
        """Human description of the target."""
        if self.protocol == "mcp-stdio":
            return "stdio: " + " ".join(self.command)
        return f"{self.protocol} {self.url}"


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


def parse_limits(limits: LimitOptions) -> dict[str, int | None]:
    """The size limits given on the command line, by profile field (only those given).

    Raises:
        ConfigError: A value is not a size.
    """
    return {name: parse_size(text, LIMIT_OPTIONS[name]) for name, text in limits.given().items()}


def target_spec(options: TargetOptions) -> TargetSpec:
    """Build a ``TargetSpec`` from an ad-hoc target (``options.command``: what followed ``--``).

    Raises:
        ConfigError: The options do not name one usable target.
    """
    headers = pairs(options.headers, "--header")
    allow_origins = parse_origins(options.allow_origins)
    env = pairs(options.env, "--env")
    if env and not options.stdio:
        raise ConfigError("--env is only for --stdio servers.")
    limits = parse_limits(options.limits)
    if limits and options.stdio:
        option = LIMIT_OPTIONS[next(iter(limits))]
        raise ConfigError(
            f"{option} is for HTTP targets; a --stdio server's replies have their own line limit.",
            details={"option": option},
        )
    if options.a2a:
        for option, value in (("--mode", options.mode), ("--agent-tool", options.agent_tool)):
            if value is not None:
                raise ConfigError(
                    f"{option} is for MCP servers; --a2a names an A2A agent.",
                    hint="choose how to talk to an A2A agent with --binding and --a2a-version",
                    details={"option": option},
                )
    else:
        for option, value in (("--binding", options.binding), ("--a2a-version", options.a2a_version)):
            if value is not None:
                raise ConfigError(f"{option} is for A2A agents (--a2a URL).", details={"option": option})
    connect_timeout = options.timeouts.connect
    common: dict[str, Any] = {
        "mode": options.mode or "auto",
        "agent_tool": options.agent_tool,
        "binding": BINDINGS.get(options.binding or "auto", "auto"),
        "a2a_version": options.a2a_version or "auto",
        "headers": headers,
        "env": env,
        "connect_timeout": DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout,
        "request_timeout": options.timeouts.request,
        "allow_origins": allow_origins,
        "limits": limits,
        "client": options.client,
    }
    command = list(options.command)
    if options.stdio:
        if not command:
            raise ConfigError("--stdio needs the server command after '--'.", hint="--stdio -- python server.py")
        return TargetSpec("mcp-stdio", command=command, **common)
    if command:
        raise ConfigError("Arguments after '--' are only for --stdio.")
    if options.mcp:
        return TargetSpec("mcp-http", url=options.mcp, **common)
    if options.mcp_sse:
        return TargetSpec("mcp-sse", url=options.mcp_sse, **common)
    return TargetSpec("a2a", url=options.a2a, **common)


def target_from_args(args: argparse.Namespace, stdio_command: list[str]) -> TargetSpec:
    """Deprecated: ``target_spec(parser.target_options(args, stdio_command))``, for a parser of one's own.

    The command line itself reads its namespace once, in ``parser``, and calls ``target_spec``.

    Raises:
        ConfigError: The options do not name one usable target.
    """
    return target_spec(target_options(args, stdio_command))


def parse_origins(items: Iterable[str]) -> list[str]:
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


def pairs(items: Iterable[str], option: str) -> dict[str, str]:
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
