"""The life of one A2A connection: the HTTP client, the card fetch, the SDK client, and closing them.

It also holds what changes while the agent lives: its display name (the card's once known) and the
bearer token (one set later replaces the configured one).

``connect`` is bounded by ``connect_timeout`` as a whole (card fetch, client creation and the
extended card), so a peer that accepts the TCP connection and never answers fails in that time,
not after the read timeout of each request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from urllib.parse import urlsplit

import anyio
import httpx
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.types import AgentCard, AgentInterface, GetExtendedAgentCardRequest

from workbench.core.auth_steps import StepLog
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import RequestTimeoutError, UsageError
from workbench.core.protocols.a2a._config import A2AConfig
from workbench.core.protocols.a2a._sdk_compat import use_streaming_jsonrpc
from workbench.core.protocols.a2a.card_fetch import Discovery, fetch_card, select_interface
from workbench.core.protocols.a2a.errors import map_error
from workbench.core.protocols.a2a.json_order import DataOrder
from workbench.core.protocols.a2a.normalise import NormalisingTransport, Unreadable
from workbench.core.protocols.a2a.security_auth import SecurityAuth
from workbench.core.protocols.a2a.wire_tap import A2ATransport
from workbench.core.protocols.agent_base import LoopBinding, register_for_exit, run_sync

log = logging.getLogger(__name__)


class Session:
    """The HTTP client, the card and the SDK client of one agent, from ``connect`` to ``aclose``.

    Without ``config.credentials`` the values for the card's security schemes live in this
    session's memory; what the user answers is still sent where the card's schemes say.

    Args:
        config: The agent's options.
    """

    def __init__(self, config: A2AConfig) -> None:
        self.config = config
        self.name = config.name or urlsplit(config.url).netloc or config.url
        """The display name: the one given, else the card's once known, else the URL's host."""
        self.bearer_token = config.bearer_token
        """The bearer token sent as ``Authorization`` (the configured one until another is set)."""
        self.http: httpx.AsyncClient | None = None
        self.client: Client | None = None
        self.discovery: Discovery | None = None
        """What connecting found (``None`` before the first ``connect``)."""
        self.unreadable = Unreadable()
        """Values the agent sent that could not be made parseable (named in parse errors)."""
        self.data_order = DataOrder()
        """The key order of the data parts of the agent's latest messages, as its JSON had it."""
        self._lock = asyncio.Lock()
        self._loop = LoopBinding(self.name)
        self._stores_credentials = config.credentials is not None
        self.security = SecurityAuth(
            lambda: self.card,
            config.credentials if config.credentials is not None else MemoryCredentialStore(),
            config.credential_id,
            opener=config.oauth_opener,
            on_secret=self.add_secret,
            oauth_client=config.oauth_client,
            dpop=config.dpop,
            steps=StepLog(config.connection_id, config.wire, config.on_auth_step),
        )

    @property
    def card(self) -> AgentCard | None:
        """The card in use (the extended card when it was fetched), once connected."""
        return self.discovery.card if self.discovery is not None else None

    @property
    def interface(self) -> AgentInterface | None:
        """The interface the client talks to, once connected."""
        return self.discovery.interface if self.discovery is not None else None

    @property
    def connected(self) -> bool:
        """The card is known and a client exists."""
        return self.client is not None

    @property
    def asks_by_scheme(self) -> bool:
        """Whether a credential is asked for by the card's security schemes, and once per request.

        True when a credential store was given or the card declares schemes; otherwise an answer
        is a bearer token, and it may be asked for again.
        """
        card = self.card
        return self._stores_credentials or (card is not None and bool(card.security_schemes))

    @property
    def error_url(self) -> str:
        """The URL errors name: the interface in use once known, else the configured URL."""
        return self.interface.url if self.interface is not None else self.config.url

    def _new_http(self) -> httpx.AsyncClient:
        config = self.config
        tap = A2ATransport(
            inner=config.http_transport,
            stream_idle_timeout=config.stream_idle_timeout,
            limits=config.limits,
            recorder=config.wire,
            connection_id=config.connection_id,
        )
        http = httpx.AsyncClient(
            # The SDK reads payloads made parseable; the wire log (under it) keeps them as sent.
            transport=NormalisingTransport(tap, self.unreadable, self.data_order.observe),
            headers=self.auth_headers(),
            params=config.query_params or None,  # on every request's URL (the credential guard sees them)
            timeout=httpx.Timeout(config.request_timeout, connect=config.connect_timeout, pool=config.connect_timeout),
            auth=self.security,
        )
        self.security.http = http
        return http

    async def connect(self) -> None:
        """Fetch the card and build the client (idempotent), all within ``connect_timeout``.

        Raises:
            UnreachableError: Nothing answers at the URL.
            RequestTimeoutError: The card and the client were not ready within ``connect_timeout``.
            AuthRequiredError: The card needs a credential.
            AgentCardError: No card, or an invalid one (the message names the URL).
            UnsupportedCapabilityError: The agent offers no binding the workbench speaks (e.g. gRPC only).
            UsageError: The agent is already connected on another event loop.
        """
        self._loop.bind()
        if self.client is not None:
            return
        async with self._lock:
            if self.connected:  # another task connected while this one waited for the lock
                return
            config = self.config
            deadline = time.monotonic() + config.connect_timeout
            http = self._new_http()
            try:
                with anyio.move_on_after(config.connect_timeout) as scope:
                    fetch = await fetch_card(http, config.url, card_url=config.card_url)
                    interface = select_interface(fetch.card, config.binding, config.protocol_version)
                    client = self._create_client(http, fetch.card, interface)
                if scope.cancelled_caught:
                    raise self._connect_timeout()
            except BaseException:
                await http.aclose()
                raise
            self.http, self.client = http, client
            self.discovery = Discovery(card=fetch.card, fetch=fetch, interface=interface)
            if config.name is None and fetch.card.name:
                self.name = fetch.card.name
            register_for_exit(self)
            await self._fetch_extended_card(max(deadline - time.monotonic(), 0.0))

    def _create_client(self, http: httpx.AsyncClient, card: AgentCard, interface: AgentInterface) -> Client:
        """The SDK client for ``interface``: it gets a card offering only that one, so it cannot choose another."""
        only = AgentCard()
        only.CopyFrom(card)
        del only.supported_interfaces[:]
        only.supported_interfaces.append(interface)
        grpc_factory = None
        if interface.protocol_binding == "GRPC":
            from workbench.core.protocols.a2a.grpc_channel import channel_factory  # grpcio only when used

            grpc_factory = channel_factory(self.auth_headers, self.config.wire, self.config.connection_id)
        config = ClientConfig(
            streaming=self.config.streaming,
            httpx_client=http,
            supported_protocol_bindings=[interface.protocol_binding],
            grpc_channel_factory=grpc_factory,
        )
        try:
            factory = ClientFactory(config)
            use_streaming_jsonrpc(factory, http, interface)  # artifact chunks parsed in ~6 µs, not ~50
            return factory.create(only)
        except ValueError as exc:
            raise map_error(exc, action="creating the client", url=self.config.url) from exc

    def _connect_timeout(self) -> RequestTimeoutError:
        seconds, target = self.config.connect_timeout, self.config.target_label
        return RequestTimeoutError(
            f"Connecting to {target} took longer than {seconds:g} s (its agent card did not arrive).",
            hint="check that it is an A2A agent and that it answers; raise the connect timeout if it starts slowly",
            details={"url": target, "connect_timeout": seconds, "phase": "agent card"},
        )

    async def _fetch_extended_card(self, budget: float) -> None:
        discovery, client, security = self.discovery, self.client, self.security
        if discovery is None or client is None or not discovery.card.capabilities.extended_agent_card:
            return
        config = self.config
        if not (self.bearer_token or config.headers or await security.ready()):
            return  # the extended card is for authenticated callers; don't provoke a 401
        try:
            with anyio.fail_after(budget):
                extended = await client.get_extended_agent_card(GetExtendedAgentCardRequest())
        except Exception as exc:  # any failure leaves the public card in place; kept for display
            error = map_error(exc, action="fetching the extended agent card", url=config.url)
            self.discovery = replace(discovery, extended_error=error)
            log.info("extended card of %s not available: %s", config.target_label, error)
            return
        self.discovery = replace(discovery, card=extended, extended=True)

    async def aclose(self) -> None:
        """Close the SDK and HTTP clients (safe to call twice; running remote tasks are not cancelled)."""
        client, http = self.client, self.http
        self.client = self.http = None
        try:
            if client is not None:
                await client.close()
        finally:
            if http is not None:
                await http.aclose()
            self._loop.release()
            self._lock = asyncio.Lock()  # a fresh lock for whichever loop connects next
            self.security.detach()

    def add_secret(self, value: str) -> None:
        """Redact ``value`` from the wire log from now on."""
        self.config.wire.redactor.add_secret(value)

    def auth_headers(self) -> dict[str, str]:
        """The headers every request carries: the configured ones, and the bearer token as ``Authorization``."""
        headers = dict(self.config.headers)
        if self.bearer_token:
            headers["Authorization"] = f"Bearer {self.bearer_token}"
        return headers

    def set_bearer_token(self, token: str) -> None:
        """Use ``token`` as ``Authorization: Bearer`` from now on (also on an open connection)."""
        self.bearer_token = token
        self.add_secret(token)
        if self.http is not None:
            self.http.headers["Authorization"] = f"Bearer {token}"

    def ensure_discovery(self) -> Discovery:
        """What connecting found; outside an event loop the agent connects first.

        Raises:
            UsageError: Inside an event loop, before ``connect``.
        """
        if self.discovery is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                run_sync(self.connect())
            else:
                raise UsageError(
                    f"The card of {self.name!r} is not loaded yet.",
                    hint="await agent.connect() first (or use 'async with agent')",
                )
        assert self.discovery is not None
        return self.discovery

    def require_client(self) -> Client:
        """The SDK client.

        Raises:
            UsageError: Not connected.
        """
        if self.client is None:
            raise UsageError(f"{self.name!r} is not connected.", hint="await agent.connect() first")
        return self.client
