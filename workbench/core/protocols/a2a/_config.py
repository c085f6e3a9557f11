"""What one ``A2AAgent`` was configured with: one frozen value, checked once (``agent.config``)."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

import httpx

from workbench.core.errors import ConfigError
from workbench.core.http.browser import BrowserOpener
from workbench.core.http.limits import HTTPLimits
from workbench.core.oauth.client_auth import secrets_of
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import DPoP, OAuthClient, PreRegisteredClient
from workbench.core.protocols.base import InputHandler
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.redaction import is_secret_header, mask_query_values

if TYPE_CHECKING:
    from workbench.core.auth_steps import StepCallback
    from workbench.core.credentials import CredentialStore

Binding = Literal["auto", "JSONRPC", "HTTP+JSON", "GRPC"]
BINDING_CHOICES: tuple[str, ...] = ("auto", "JSONRPC", "HTTP+JSON", "GRPC")
"""``auto`` (the card's first HTTP binding) or one of the bindings the workbench speaks (gRPC: ``a2a-sdk[grpc]``)."""
ProtocolVersion = Literal["auto", "1.0", "0.3"]
PROTOCOL_VERSION_CHOICES: tuple[str, ...] = ("auto", "1.0", "0.3")
"""``auto`` (1.0 when the card offers it, as the SDK chooses) or the A2A protocol version to speak."""


def _frozen_map(value: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(value or {}))


def _positive(name: str, value: float | None, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise ConfigError(
            f"The A2A option {name} must be a positive number of seconds, got {value!r}.",
            hint="use None for no limit" if optional else None,
            details={"option": name},
        )


@dataclass(frozen=True)
class A2AConfig:
    """Everything ``A2AAgent(...)`` was given (see its docstring), checked once; ``agent.config``.

    The value never changes: the display name the card gives and a bearer token set later
    (``set_bearer_token``, an auth-required answer) live in the agent's session. Building it
    registers the bearer token, every header value and query parameter with the wire recorder's
    redactor.

    Attributes:
        url: The agent's base URL or its card URL.
        wire: The wire recorder every request, response and SSE event goes to.
        connection_id: Id of this agent's traffic in the wire log and of its events.
        name: The display name given (``None``: the card's name once known, else the URL's host).
        card_url: The card URL given (``None``: the well-known paths are tried).
        headers: Extra HTTP headers sent with every request (each value a credential).
        query_params: Query parameters added to every HTTP request's URL (each value a credential).
        bearer_token: The bearer token given at construction, if any.
        binding: The binding asked for (``auto``: the card's first HTTP binding).
        protocol_version: The A2A protocol version asked for (``auto``: 1.0 when the card offers it).
        streaming: Whether streaming is used when the agent supports it.
        input_handler: Answers input-required / auth-required pauses (``None``: the stream ends at them).
        connect_timeout: Seconds for fetching the card and creating the client, in total.
        request_timeout: Seconds a request may take in all (``None``: no limit).
        stream_idle_timeout: Seconds of silence allowed inside an SSE stream (``None``: no limit).
        limits: Response size limits (one body or event, one stream).
        http_transport: The transport under the wire tap that really talks HTTP (``None``: a plain one).
        credentials: Where the values for the card's security schemes live (``None``: the agent's memory).
        credential_id: Prefix of the credential-store keys.
        oauth_opener: Opens an authorization URL for browser sign-in (``None``: the system browser).
        oauth_client: The client for the card's OAuth schemes (``None``: each scheme's stored id and secret).
        dpop: DPoP-bound OAuth tokens (``None``: bearer tokens).
        on_auth_step: Receives each step of an OAuth login (``AuthStep``) as it finishes.
    """

    url: str
    wire: WireRecorder
    connection_id: str
    name: str | None = None
    card_url: str | None = None
    # Credentials stay out of the repr: a config may be logged.
    headers: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None), repr=False)
    query_params: Mapping[str, str] = field(default_factory=lambda: _frozen_map(None), repr=False)
    bearer_token: str | None = field(default=None, repr=False)
    binding: Binding = "auto"
    protocol_version: ProtocolVersion = "auto"
    streaming: bool = True
    input_handler: InputHandler | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    request_timeout: float | None = None
    stream_idle_timeout: float | None = None
    limits: HTTPLimits = field(default_factory=HTTPLimits)
    http_transport: httpx.AsyncBaseTransport | None = None
    credentials: CredentialStore | None = None
    credential_id: str = ""
    oauth_opener: BrowserOpener | None = None
    oauth_client: OAuthClient | None = None
    dpop: DPoP | None = None
    on_auth_step: StepCallback | None = None

    def __post_init__(self) -> None:
        # Frozen: copies are taken once here, so a caller's later change to its own dict does not
        # reach the agent.
        object.__setattr__(self, "headers", _frozen_map(self.headers))
        object.__setattr__(self, "query_params", _frozen_map(self.query_params))
        if not self.credential_id:
            object.__setattr__(self, "credential_id", self.connection_id)
        self.check()
        self._register_secrets()

    def check(self) -> None:
        """Refuse a configuration that cannot work.

        Raises:
            ConfigError: Not an http(s) URL, an unknown binding or protocol version, gRPC without ``grpcio``,
                a timeout that is not a positive number, or an OAuth client without its own id.
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
        if self.oauth_client is not None and not isinstance(
            self.oauth_client, PreRegisteredClient | PrivateKeyJWTClient
        ):
            raise ConfigError(
                f"An A2A agent's OAuth client is a PreRegisteredClient or a PrivateKeyJWTClient, "
                f"not {type(self.oauth_client).__name__}.",
                hint="the card names the authorization server; give the client registered there",
                details={"option": "oauth_client", "oauth": "client-unsuitable"},
            )
        _positive("connect_timeout", self.connect_timeout, optional=False)
        _positive("request_timeout", self.request_timeout, optional=True)
        _positive("stream_idle_timeout", self.stream_idle_timeout, optional=True)

    def _register_secrets(self) -> None:
        """Tell the wire recorder's redactor about the bearer token, every header value and query parameter.

        A header the user adds is a credential whatever its name (``X-Custom: …``); a credential
        header's value also counts without its scheme word (``Signature x`` → ``x``).
        """
        redactor = self.wire.redactor
        for secret in secrets_of(self.oauth_client) if self.oauth_client is not None else ():
            redactor.add_secret(secret)
        if self.bearer_token:
            redactor.add_secret(self.bearer_token)
        for value in self.query_params.values():
            redactor.add_secret(value)
        for key, value in self.headers.items():
            redactor.add_secret(value)
            if is_secret_header(key):
                redactor.add_secret(value.split(" ", 1)[-1])

    @property
    def target_label(self) -> str:
        """The agent's URL with query values masked."""
        return mask_query_values(self.url)
