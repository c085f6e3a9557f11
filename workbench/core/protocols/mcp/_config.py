"""What one ``MCPAgent`` was configured with (one frozen value, checked once) and what changes while it lives."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import httpx2
import mcp.types as types

from workbench.core.errors import ConfigError
from workbench.core.events import EventBus
from workbench.core.http.limits import HTTPLimits
from workbench.core.profiles.client_capabilities import ALL_ON, ClientCapabilitySwitches
from workbench.core.protocols.base import ElicitationHandler, SamplingHandler
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.redaction import is_secret_header, mask_query_values

Transport = Literal["streamable-http", "sse", "stdio", "in-process"]
Mode = Literal["auto", "legacy", "2026-07-28"]
MODES: tuple[str, ...] = ("auto", "legacy", "2026-07-28")
CLIENT_INFO = types.Implementation(name="agent-workbench", version="0.1.0")

Root = tuple[str, str | None]
"""A root offered to the server: ``(uri, name)``."""


def _frozen_map(value: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class MCPConfig:
    """Everything ``MCPAgent(...)`` was given (see its docstring), checked once; ``agent.config``.

    The value never changes: the display name the server gives, the roots offered later
    (``set_roots``) and the log level asked later (``set_logging_level``) live on the agent and its
    ``server_features``. ``roots`` is ``None`` when no roots were configured: the client then does
    not declare the ``roots`` capability at all (a server would otherwise ask ``roots/list`` for
    nothing).

    Attributes:
        transport: ``streamable-http``, ``sse``, ``stdio`` or ``in-process``.
        wire: The wire recorder every message goes to.
        connection_id: Id of this agent's traffic in the wire log and of its events.
        url: The HTTP/SSE URL (``None`` for stdio and in-process servers).
        command: stdio: the executable.
        args: stdio: its arguments.
        env: stdio: the extra environment of the child.
        cwd: stdio: the working directory.
        mode: The protocol era asked for: ``auto``, ``legacy`` or ``2026-07-28``.
        headers: HTTP headers sent with every request.
        agent_tool: The tool named as the agent entry point, if one was.
        roots: The roots offered when the session opens (``None``: the capability is not declared).
        elicitation_handler: Answers the server's elicitations (``None``: they are declined).
        sampling_handler: Answers the server's sampling requests (``None``: they are refused).
        bus: The core event bus (stderr lines, process exits, list changes), if any.
        connect_timeout: Seconds allowed for spawn, handshake and discovery.
        request_timeout: Seconds per request (``None``: no limit).
        log_level: The log level asked of the server on connect (``None``: its default).
        auth: HTTP: the ``httpx2.Auth`` of every request (e.g. the OAuth provider), if any.
        server: in-process: the MCP SDK server object.
        sdk_transport: in-process: an MCP SDK ``Transport`` instead of ``server``.
        http_transport: HTTP: the transport under the wire tap that really talks HTTP (``None``: a plain one).
        limits: HTTP: the response size limits (one message or event, one request's event stream).
        name: The display name given (``None``: the server's name once known, else the target).
        client_capabilities: Which client capabilities may be advertised (a switch that is off leaves
            its capability out and refuses the server's requests for it).
        renders_apps: The host shows MCP Apps: with the ``apps`` switch on, the client advertises the
            ``io.modelcontextprotocol/ui`` extension.
    """

    transport: Transport
    wire: WireRecorder
    connection_id: str
    url: str | None = None
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None))
    cwd: str | None = None
    mode: str = "auto"
    headers: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None))
    agent_tool: str | None = None
    roots: tuple[Root, ...] | None = None
    elicitation_handler: ElicitationHandler | None = None
    sampling_handler: SamplingHandler | None = None
    bus: EventBus | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    request_timeout: float | None = None
    log_level: str | None = "info"
    auth: httpx2.Auth | None = None
    server: Any = None
    sdk_transport: Any = None
    http_transport: httpx2.AsyncBaseTransport | None = None
    limits: HTTPLimits = field(default_factory=HTTPLimits)
    name: str | None = None
    client_capabilities: ClientCapabilitySwitches = ALL_ON
    renders_apps: bool = False

    @property
    def advertises_apps(self) -> bool:
        """Whether the client advertises MCP Apps: the host shows them and the switch is on."""
        return self.renders_apps and self.client_capabilities.apps

    def __post_init__(self) -> None:
        # Frozen: copies are taken once here, so a caller's later change to its own list or dict
        # does not reach the agent.
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "env", _frozen_map(self.env))
        object.__setattr__(self, "headers", _frozen_map(self.headers))
        if self.roots is not None:
            object.__setattr__(self, "roots", tuple((uri, name) for uri, name in self.roots))
        self._check()
        for key, value in self.headers.items():
            if is_secret_header(key):
                self.wire.redactor.add_secret(value)
                self.wire.redactor.add_secret(value.split(" ", 1)[-1])

    def _check(self) -> None:
        """Refuse a configuration that cannot work (run once, at construction: the value never changes).

        Raises:
            ConfigError: Unknown mode or transport, or what the transport needs is missing.
        """
        if self.mode not in MODES:
            raise ConfigError(f"Unknown MCP protocol mode {self.mode!r}.", hint=f"use one of {', '.join(MODES)}")
        if self.transport == "stdio":
            if not self.command:
                raise ConfigError("A stdio MCP server needs a command.", hint="MCPAgent.stdio('python', ['server.py'])")
        elif self.transport == "in-process":
            if (self.server is None) == (self.sdk_transport is None):
                raise ConfigError(
                    "An in-process MCP server needs exactly one of server= or sdk_transport=.",
                    hint="MCPAgent.in_process(server) with an mcp Server or MCPServer object",
                )
        elif self.transport in ("streamable-http", "sse"):
            if not self.url or not self.url.startswith(("http://", "https://")):
                raise ConfigError(
                    f"An MCP {self.transport} server needs an http(s) URL, got {self.url!r}.",
                    hint="for a local command use MCPAgent.stdio(command, args)",
                )
        else:
            raise ConfigError(
                f"Unknown MCP transport {self.transport!r}.", hint="streamable-http, sse, stdio or in-process"
            )

    @property
    def target_label(self) -> str:
        """Where the server is, for messages: the URL with query values masked, or ``stdio: command args``."""
        if self.transport == "stdio":
            return f"stdio: {' '.join([self.command or '', *self.args])}".strip()
        if self.transport == "in-process":
            return "in-process server"
        return mask_query_values(f"{self.url}") + (" (SSE)" if self.transport == "sse" else "")

    def publish(self, event: Any) -> None:
        """Put a core event on the bus (nothing when the agent has none)."""
        if self.bus is not None:
            self.bus.publish(event)


@dataclass
class LiveSettings:
    """What the parts of one agent share that changes after construction.

    Attributes:
        name: The display name: the one given, else the server's once known, else the target.
        roots: The roots offered now (``None``: the roots capability is not declared).
        log_level: The log level asked of the server now (``None``: its default).
    """

    name: str
    roots: list[Root] | None
    log_level: str | None

    @classmethod
    def starting_from(cls, config: MCPConfig) -> LiveSettings:
        """The settings as configured, before the server is known."""
        roots = list(config.roots) if config.roots is not None else None
        return cls(name=config.name or config.target_label, roots=roots, log_level=config.log_level)
