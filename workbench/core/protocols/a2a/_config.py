"""What one ``A2AAgent`` was configured with, checked once, and the read-only views of it."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

import httpx

from workbench.core.errors import ConfigError
from workbench.core.http.limits import HTTPLimits
from workbench.core.protocols.base import InputHandler
from workbench.core.redaction import is_secret_header, mask_query_values
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire import WireRecorder

Binding = Literal["auto", "JSONRPC", "HTTP+JSON", "GRPC"]
BINDING_CHOICES: tuple[str, ...] = ("auto", "JSONRPC", "HTTP+JSON", "GRPC")
"""``auto`` (the card's first HTTP binding) or one of the bindings the workbench speaks (gRPC: ``a2a-sdk[grpc]``)."""
ProtocolVersion = Literal["auto", "1.0", "0.3"]
PROTOCOL_VERSION_CHOICES: tuple[str, ...] = ("auto", "1.0", "0.3")
"""``auto`` (1.0 when the card offers it, as the SDK chooses) or the A2A protocol version to speak."""


def _positive(name: str, value: float | None, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise ConfigError(
            f"The A2A option {name} must be a positive number of seconds, got {value!r}.",
            hint="use None for no limit" if optional else None,
            details={"option": name},
        )


@dataclass
class A2AConfig:
    """Everything ``A2AAgent(...)`` was given (see its docstring), plus the display name once known."""

    url: str
    wire: WireRecorder
    connection_id: str
    explicit_name: str | None = None
    card_url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    query_params: dict[str, str] = field(default_factory=dict)
    bearer_token: str | None = None
    binding: Binding = "auto"
    protocol_version: ProtocolVersion = "auto"
    streaming: bool = True
    input_handler: InputHandler | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    request_timeout: float | None = None
    stream_idle_timeout: float | None = None
    limits: HTTPLimits = field(default_factory=HTTPLimits)
    http_transport: httpx.AsyncBaseTransport | None = None
    name: str = ""

    def __post_init__(self) -> None:
        self.check()
        self.name = self.explicit_name or urlsplit(self.url).netloc or self.url
        self.register_secrets()

    def check(self) -> None:
        """Refuse a configuration that cannot work.

        Raises:
            ConfigError: Not an http(s) URL, an unknown binding or protocol version, gRPC without ``grpcio``,
                or a timeout that is not a positive number.
        """
        if not isinstance(self.url, str) or urlsplit(self.url).scheme not in ("http", "https"):
            raise ConfigError(
                f"An A2A agent needs an http(s) URL, got {self.url!r}.",
                hint="the agent's base URL (http://host:port) or its card URL",
                details={"option": "url"},
            )
        if self.binding not in BINDING_CHOICES:
            raise ConfigError(
                f"Unknown A2A binding {self.binding!r}.",
                hint="use auto, JSONRPC, HTTP+JSON or GRPC",
                details={"option": "binding", "choices": list(BINDING_CHOICES)},
            )
        if self.binding == "GRPC" and importlib.util.find_spec("grpc") is None:
            raise ConfigError(
                "The gRPC binding needs the grpcio package, which is not installed.",
                hint='install it with: pip install "a2a-sdk[grpc]" (or choose the JSONRPC or HTTP+JSON binding)',
                details={"option": "binding", "missing": "grpcio"},
            )
        if self.protocol_version not in PROTOCOL_VERSION_CHOICES:
            raise ConfigError(
                f"Unknown A2A protocol version {self.protocol_version!r}.",
                hint="use auto, 1.0 or 0.3",
                details={"option": "protocol_version", "choices": list(PROTOCOL_VERSION_CHOICES)},
            )
        _positive("connect_timeout", self.connect_timeout, optional=False)
        _positive("request_timeout", self.request_timeout, optional=True)
        _positive("stream_idle_timeout", self.stream_idle_timeout, optional=True)

    def register_secrets(self) -> None:
        """Tell the wire recorder's redactor about the bearer token, every header value and query parameter.

        A header the user adds is a credential whatever its name (``X-Custom: …``); a credential
        header's value also counts without its scheme word (``Signature x`` → ``x``).
        """
        redactor = self.wire.redactor
        if self.bearer_token:
            redactor.add_secret(self.bearer_token)
        for value in self.query_params.values():
            redactor.add_secret(value)
        for key, value in self.headers.items():
            redactor.add_secret(value)
            if is_secret_header(key):
                redactor.add_secret(value.split(" ", 1)[-1])

    def add_secret(self, value: str) -> None:
        """Redact ``value`` from the wire log from now on."""
        self.wire.redactor.add_secret(value)

    def auth_headers(self) -> dict[str, str]:
        """The headers every request carries (the bearer token as ``Authorization``)."""
        headers = dict(self.headers)
        if self.bearer_token:
            headers["Authorization"] = f"Bearer {self.bearer_token}"
        return headers

    @property
    def target_label(self) -> str:
        """The agent's URL with query values masked."""
        return mask_query_values(self.url)


class ConfigViews:
    """Read-only views of an ``A2AConfig`` (the ``A2AAgent`` façade's options)."""

    _config: A2AConfig

    @property
    def url(self) -> str:
        """The URL the agent was configured with (its base URL or its card URL)."""
        return self._config.url

    @property
    def card_url(self) -> str | None:
        """The card URL the user gave, if any (else the well-known paths are tried)."""
        return self._config.card_url

    @property
    def binding(self) -> Binding:
        """The binding asked for (``auto``: the card's first HTTP binding)."""
        return self._config.binding

    @property
    def protocol_version(self) -> ProtocolVersion:
        """The A2A protocol version asked for (``auto``: 1.0 when the card offers it)."""
        return self._config.protocol_version

    @property
    def streaming(self) -> bool:
        """Whether streaming is used when the agent supports it."""
        return self._config.streaming

    @property
    def wire(self) -> WireRecorder:
        """The wire recorder every request, response and SSE event goes to."""
        return self._config.wire

    @property
    def connect_timeout(self) -> float:
        """Seconds for fetching the card and creating the client, in total."""
        return self._config.connect_timeout

    @property
    def request_timeout(self) -> float | None:
        """Seconds to wait for a non-streaming response (``None``: no limit)."""
        return self._config.request_timeout

    @property
    def stream_idle_timeout(self) -> float | None:
        """Seconds of silence allowed inside an SSE stream (``None``: no limit)."""
        return self._config.stream_idle_timeout

    @property
    def http_transport(self) -> httpx.AsyncBaseTransport | None:
        """The transport under the wire tap that really talks HTTP (``None``: a plain one)."""
        return self._config.http_transport

    @property
    def target_label(self) -> str:
        """The agent's URL with query values masked."""
        return self._config.target_label

    @property
    def input_handler(self) -> InputHandler | None:
        """Answers input-required / auth-required pauses (``None``: the stream ends at them)."""
        return self._config.input_handler

    @input_handler.setter
    def input_handler(self, handler: InputHandler | None) -> None:
        self._config.input_handler = handler
