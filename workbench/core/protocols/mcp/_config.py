"""What one ``MCPAgent`` was configured with, checked once, and the plumbing its parts share (wire, bus)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2
import mcp.types as types

from workbench.core.errors import ConfigError
from workbench.core.events import EventBus
from workbench.core.http.limits import HTTPLimits
from workbench.core.protocols.base import ElicitationHandler, SamplingHandler
from workbench.core.redaction import is_secret_header, mask_query_values
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire import WireRecorder

Transport = Literal["streamable-http", "sse", "stdio", "in-process"]
Mode = Literal["auto", "legacy", "2026-07-28"]
MODES: tuple[str, ...] = ("auto", "legacy", "2026-07-28")
CLIENT_INFO = types.Implementation(name="agent-workbench", version="0.1.0")


@dataclass
class AgentConfig:
    """Everything ``MCPAgent(...)`` was given (see its docstring), plus the display name once known.

    ``roots`` is ``None`` when no roots were configured: the client then does not declare the
    ``roots`` capability at all (a server would otherwise ask ``roots/list`` for nothing).
    """

    transport: Transport
    wire: WireRecorder
    connection_id: str
    url: str | None = None
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    mode: str = "auto"
    headers: dict[str, str] = field(default_factory=dict)
    agent_tool: str | None = None
    roots: list[tuple[str, str | None]] | None = None
    elicitation_handler: ElicitationHandler | None = None
    sampling_handler: SamplingHandler | None = None
    bus: EventBus | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    request_timeout: float | None = None
    log_level: str | None = "info"
    auth: httpx2.Auth | None = None
    server: Any = None
    sdk_transport: Any = None
    http_transport: httpx2.AsyncBaseTransport | None = None  # under the wire tap (credential guard, tests)
    limits: HTTPLimits = field(default_factory=HTTPLimits)  # response sizes (HTTP)
    explicit_name: str | None = None
    name: str = ""

    def __post_init__(self) -> None:
        self.check()
        self.name = self.explicit_name or self.target_label
        for key, value in self.headers.items():
            if is_secret_header(key):
                self.wire.redactor.add_secret(value)
                self.wire.redactor.add_secret(value.split(" ", 1)[-1])

    def check(self) -> None:
        """Refuse a configuration that cannot work.

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


class ConfigViews:
    """Read-only views of an agent's configuration, as attributes of the agent (mixed into ``MCPAgent``)."""

    _config: AgentConfig

    @property
    def transport(self) -> Transport:
        """``streamable-http``, ``sse``, ``stdio`` or ``in-process``."""
        return self._config.transport

    @property
    def url(self) -> str | None:
        """The HTTP/SSE URL (``None`` for stdio and in-process servers)."""
        return self._config.url

    @property
    def command(self) -> str | None:
        """stdio: the executable."""
        return self._config.command

    @property
    def args(self) -> list[str]:
        """stdio: its arguments."""
        return list(self._config.args)

    @property
    def env(self) -> dict[str, str]:
        """stdio: the extra environment of the child."""
        return dict(self._config.env)

    @property
    def cwd(self) -> str | None:
        """stdio: the working directory."""
        return self._config.cwd

    @property
    def mode(self) -> str:
        """The protocol era asked for: ``auto``, ``legacy`` or ``2026-07-28``."""
        return self._config.mode

    @property
    def headers(self) -> dict[str, str]:
        """HTTP headers sent with every request."""
        return dict(self._config.headers)

    @property
    def agent_tool(self) -> str | None:
        """The tool named as the agent entry point, if one was."""
        return self._config.agent_tool

    @property
    def roots(self) -> list[tuple[str, str | None]] | None:
        """The roots offered to the server (``None``: the roots capability is not declared)."""
        roots = self._config.roots
        return list(roots) if roots is not None else None

    @property
    def elicitation_handler(self) -> ElicitationHandler | None:
        """Answers the server's elicitations (``None``: they are declined)."""
        return self._config.elicitation_handler

    @property
    def sampling_handler(self) -> SamplingHandler | None:
        """Answers the server's sampling requests (``None``: they are refused)."""
        return self._config.sampling_handler

    @property
    def wire(self) -> WireRecorder:
        """The wire recorder every message goes to."""
        return self._config.wire

    @property
    def bus(self) -> EventBus | None:
        """The core event bus (stderr lines, process exits, list changes), if any."""
        return self._config.bus

    @property
    def connect_timeout(self) -> float:
        """Seconds allowed for spawn, handshake and discovery."""
        return self._config.connect_timeout

    @property
    def request_timeout(self) -> float | None:
        """Seconds per request (``None``: no limit)."""
        return self._config.request_timeout

    @property
    def log_level(self) -> str | None:
        """The log level asked of the server (``None``: its default)."""
        return self._config.log_level

    @property
    def auth(self) -> httpx2.Auth | None:
        """HTTP: the ``httpx2.Auth`` of every request (e.g. the OAuth provider), if any."""
        return self._config.auth

    @property
    def http_transport(self) -> httpx2.AsyncBaseTransport | None:
        """HTTP: the transport under the wire tap that really talks HTTP (``None``: a plain one)."""
        return self._config.http_transport

    @property
    def limits(self) -> HTTPLimits:
        """HTTP: the response size limits (one message or event, one request's event stream)."""
        return self._config.limits

    @property
    def target_label(self) -> str:
        """Where the server is, for messages: the URL with query values masked, or ``stdio: command args``."""
        return self._config.target_label
