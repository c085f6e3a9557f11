"""``A2AAgent``: an A2A agent behind the neutral ``RemoteAgent`` contract.

A thin façade over parts with one job each; four of them are public, reached by a property::

    A2AAgent
    ├── config     _config.A2AConfig                  what it was given: one frozen value, checked once
    ├── discovery  card_fetch.Discovery               what connecting found: the card in use, how it was fetched
    ├── tasks      task_operations.A2ATaskOperations  get, list, cancel, follow; the task views
    │   └── push   push_configs.PushConfigs           a task's push configs, and pushed events
    ├── security   security_auth.SecurityAuth         the card's security schemes and their values
    ├── _session.Session            HTTP client, card fetch, SDK client, close; the name and bearer token now
    ├── _funnel.RequestFunnel       every SDK call goes out here; failures come back typed
    └── _conversation.Conversation  the state machine of a message: turns, input/auth-required, retries
        ├── _reading.StreamReader   one stream: reducer → events, where a turn ends; polling
        └── _turn_events.TurnEvents Completed / Failed / InputRequired / AuthRequired; asking for credentials

The card is discovered lazily (first ``connect``, ``stream_async`` or property access) and cached.
Events from the SDK client are merged by a ``TaskReducer`` (the SDK does not merge them) and
translated into ``AgentEvent``s. Names the agent had before its facets (``agent.card``,
``agent.get_task``, ``agent.binding`` …) still answer for one release, with a ``DeprecationWarning``
(``_deprecated.MOVED``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

import anyio
import httpx

from workbench.core.errors import UsageError
from workbench.core.http.browser import BrowserOpener
from workbench.core.http.limits import HTTPLimits
from workbench.core.protocols.a2a import card_capabilities
from workbench.core.protocols.a2a._config import A2AConfig, Binding, ProtocolVersion
from workbench.core.protocols.a2a._conversation import SKILL_METADATA_KEY, Conversation
from workbench.core.protocols.a2a._deprecated import MOVED
from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._reading import StreamReader
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.card_description import describe_card
from workbench.core.protocols.a2a.card_fetch import Discovery
from workbench.core.protocols.a2a.card_info import card_info
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.security_auth import SecurityAuth
from workbench.core.protocols.a2a.task_info import task_snapshot
from workbench.core.protocols.a2a.task_operations import A2ATaskOperations
from workbench.core.protocols.agent_base import AgentBase, ToolRegistry
from workbench.core.protocols.base import AgentCapabilities, AgentEvent, ContentPart, InputHandler, ToolResult
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures, LossHandler, ProgressCallback, Prompt
from workbench.core.protocols.deprecated import moved_attribute
from workbench.core.protocols.snapshot import AgentSnapshot
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:
    from workbench.core.auth_steps import StepCallback
    from workbench.core.credentials import CredentialStore
    from workbench.core.oauth_options import DPoP, OAuthClient

__all__ = [
    "SKILL_METADATA_KEY",
    "A2AAgent",
    "A2AConfig",
    "A2ATaskOperations",
    "Binding",
    "Discovery",
    "ProtocolVersion",
]


class A2AAgent(AgentBase):
    """An A2A agent: discovery, streaming messages, task operations, push notifications.

    What it was given is ``agent.config`` (an ``A2AConfig``); what connecting found (the card in
    use, where it came from, the interface) is ``agent.discovery``; tasks and their push configs
    are ``agent.tasks`` (``agent.tasks.push``); the card's security schemes are ``agent.security``.

    Args:
        url: The agent's base URL (or its card URL ending in ``.json``).
        name: Display name (default: the card's name once discovered).
        card_url: Fetch the card from exactly this URL instead of the well-known paths.
        headers: Extra HTTP headers for every request; each value is treated as a credential
            (redacted in the wire log and in log records).
        query_params: Query parameters added to every HTTP request's URL (an API key a profile keeps
            as a ``query`` secret); each value is treated as a credential. Not sent over gRPC.
        bearer_token: Sent as ``Authorization: Bearer <token>`` (redacted in the wire log).
        binding: ``auto`` (the agent's preference among JSON-RPC and HTTP+JSON), one of them, or ``GRPC``
            (needs ``a2a-sdk[grpc]``; the wire log keeps its messages decoded, not its HTTP/2 frames).
        protocol_version: ``auto`` (1.0 when the card offers it), ``1.0`` or ``0.3``: that version's interface.
        streaming: Use streaming when the agent supports it (else one blocking request per turn).
        input_handler: Answers input-required / auth-required pauses inside ``stream_async``:
            ``text`` / ``data`` continue the task, ``cancel`` cancels it, an empty ``InputResponse()``
            defers. Without a handler (or on deferral) the stream ends with
            ``Completed(result.state="input_required")`` and the caller continues with
            ``invoke_async(answer, task_id=...)``. For auth, the answer fills what the card's security
            schemes need and is sent where they say (an API key as its header, query parameter or
            cookie); when the card declares none, ``text`` is a bearer token for the ``Authorization``
            header. Never in a message body.
        wire: Wire recorder for all HTTP traffic, SSE events and JSON-RPC messages (default: the
            agent's own ``WireRecorder``; pass one to share a log).
        connection_id: Connection id in the wire log (default: the URL).
        connect_timeout: Seconds for connecting in total: the agent card's fetch (every URL tried)
            and the client's creation.
        request_timeout: Seconds a request may take in all: a whole response, however slowly it
            trickles in, and for a stream its first event (``None``: no limit; an agent may wait for
            a person, and every call can be cancelled).
        stream_idle_timeout: Seconds of silence allowed inside an SSE stream (``None``: no limit —
            an agent may legitimately think for minutes).
        limits: Response size limits (default ``HTTPLimits()``: 64 MiB per body or event, 128 MiB
            per stream); a refusal is a ``ProtocolError`` naming the limit.
        credentials: Where the values for the card's security schemes live (default: this agent's
            memory, gone when it is). Every request
            carries what the card (or the skill) requires — API key, bearer, basic, OAuth 2.0 client
            credentials / authorization code with PKCE, OpenID Connect — and a 401/403 or
            auth-required asks ``input_handler`` with the ``CredentialNeed``s in
            ``InputRequest.data["credential_needs"]``, stores the answer and retries once
            (see ``security_auth``).
        credential_id: Prefix of the credential-store keys (default: ``connection_id``); keys are
            ``<credential_id>/a2a:<scheme>:<field>``.
        oauth_opener: Opens an authorization URL for browser sign-in (default: the system browser).
        oauth_client: The OAuth client for the card's OAuth 2.0 / OpenID Connect schemes:
            ``PreRegisteredClient(id, secret)`` (``client_secret_basic`` by default, or
            ``token_endpoint_auth_method="client_secret_post"``) or ``PrivateKeyJWTClient(id, pem)``
            (``private_key_jwt``, RFC 7523). Default: the client id and secret stored (or asked for)
            per scheme, sent as ``client_secret_post``.
        dpop: ``DPoP()``: OAuth tokens bound to a proof key (RFC 9449), every token and agent request
            carrying a proof (one ``use_dpop_nonce`` answered per request); the key is the one given,
            else one kept in ``credentials``. Default: bearer tokens.
        on_auth_step: Receives each step of an OAuth login as an ``AuthStep`` (authorization-server
            metadata, authorization request, callback, token, refresh), as an MCP login's; each step
            is a wire record too.
        http_transport: The httpx transport that really talks HTTP (default: a new
            ``httpx.AsyncHTTPTransport``). A seam: pass ``httpx.ASGITransport(app)`` to reach an
            in-process agent. It is wrapped by the wire tap either way.

    Raises:
        ConfigError: Not an http(s) URL, an unknown binding or protocol version, ``GRPC`` without
            ``grpcio``, or a timeout that is not a positive number.
    """

    protocol: Literal["a2a"] = "a2a"

    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        card_url: str | None = None,
        headers: dict[str, str] | None = None,
        query_params: dict[str, str] | None = None,
        bearer_token: str | None = None,
        binding: Binding = "auto",
        protocol_version: ProtocolVersion = "auto",
        streaming: bool = True,
        input_handler: InputHandler | None = None,
        wire: WireRecorder | None = None,
        connection_id: str | None = None,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        request_timeout: float | None = None,
        stream_idle_timeout: float | None = None,
        credentials: CredentialStore | None = None,
        credential_id: str | None = None,
        oauth_opener: BrowserOpener | None = None,
        http_transport: httpx.AsyncBaseTransport | None = None,
        limits: HTTPLimits | None = None,
        oauth_client: OAuthClient | None = None,
        dpop: DPoP | None = None,
        on_auth_step: StepCallback | None = None,
    ) -> None:
        self._config = config = A2AConfig(
            url=url,
            wire=wire if wire is not None else WireRecorder(),
            connection_id=connection_id or url,
            name=name,
            card_url=card_url,
            headers=dict(headers or {}),
            query_params=dict(query_params or {}),
            bearer_token=bearer_token,
            binding=binding,
            protocol_version=protocol_version,
            streaming=streaming,
            input_handler=input_handler,
            connect_timeout=connect_timeout,
            request_timeout=request_timeout,
            stream_idle_timeout=stream_idle_timeout,
            http_transport=http_transport,
            limits=limits if limits is not None else HTTPLimits(),
            credentials=credentials,
            credential_id=credential_id or "",
            oauth_opener=oauth_opener,
            oauth_client=oauth_client,
            dpop=dpop,
            on_auth_step=on_auth_step,
        )
        self.connection_id = config.connection_id
        self._reducer = reducer = TaskReducer()
        self._session = session = Session(config)
        funnel = RequestFunnel(session)
        events = TurnEvents(session)
        reader = StreamReader(session, reducer, funnel, events)
        self._tasks = tasks = A2ATaskOperations(session, funnel, reducer, reader, events)
        self._conversation = Conversation(session, funnel, reducer, reader, events, tasks)

    @property
    def config(self) -> A2AConfig:
        """What this agent was given, checked once: one frozen value."""
        return self._config

    @property
    def name(self) -> str:
        """Display name: the one given, else the card's once known, else the URL's host."""
        return self._session.name

    @name.setter
    def name(self, value: str) -> None:
        self._session.name = value

    if not TYPE_CHECKING:  # the old names answer at run time; type checkers see only the current ones

        def __getattr__(self, name: str) -> Any:
            return moved_attribute(self, name, MOVED)

        def __setattr__(self, name: str, value: Any) -> None:
            # An old name set on the agent would only hide the new place, which is read-only
            # (``config`` is frozen): refuse it instead of ignoring it.
            if name in MOVED:
                raise AttributeError(
                    f"A2AAgent.{name} cannot be set: it is A2AAgent.{MOVED[name]} now, given to A2AAgent(...)",
                    name=name,
                    obj=self,
                )
            super().__setattr__(name, value)

    # ------------------------------------------------------------------ lifecycle

    @property
    def security(self) -> SecurityAuth:
        """Applies the card's security schemes (values in this agent's memory without a credential store)."""
        return self._session.security

    def set_bearer_token(self, token: str) -> None:
        """Use ``token`` as ``Authorization: Bearer`` from now on (also on an open connection)."""
        self._session.set_bearer_token(token)

    @property
    def connected(self) -> bool:
        """The card is known and a client exists."""
        return self._session.connected

    async def connect(self) -> None:
        """Fetch the card and build the client (idempotent).

        Raises:
            UnreachableError: Nothing answers at the URL.
            RequestTimeoutError: The card and the client were not ready within ``connect_timeout``.
            AuthRequiredError: The card needs a credential.
            AgentCardError: No card, or an invalid one (the message names the URL).
            UnsupportedCapabilityError: No interface of the binding and protocol version asked for.
            UsageError: The agent is already connected on another event loop.
        """
        await self._session.connect()

    async def aclose(self) -> None:
        """Close the HTTP client (safe to call twice; running remote tasks are not cancelled)."""
        await self._session.aclose()

    async def __aenter__(self) -> A2AAgent:
        await self.connect()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        """Kept for the contract: an HTTP agent has no session to lose, so it is never called."""

    # ------------------------------------------------------------------ card and capabilities

    @property
    def discovery(self) -> Discovery:
        """What connecting found: the card in use, the public card as fetched, the interface chosen.

        Outside an event loop the agent connects first.

        Raises:
            UsageError: Inside an event loop, before ``connect``.
        """
        return self._session.ensure_discovery()

    @property
    def capabilities(self) -> AgentCapabilities:
        """What the agent offers, in the neutral shape (``raw`` is the card)."""
        return card_capabilities.capabilities(self.discovery)

    @property
    def tools(self) -> ToolRegistry:
        """The agent's skills as tools: calling one sends ``message`` with the skill id in metadata."""
        return ToolRegistry(self, self.tool_specs())

    def tool_specs(self) -> list[ToolSpec]:
        """The card's skills as tool specs."""
        return card_capabilities.skill_specs(self.discovery.card)

    @property
    def features(self) -> AgentFeatures:
        """Chat, data parts, conversations, tasks and cancel: everything but MCP server features."""
        return card_capabilities.FEATURES

    @property
    def server_features(self) -> None:
        """A2A agents have no MCP server features."""
        return None

    def describe(self) -> AgentSnapshot:
        """Everything known about the agent: card, skills, tasks seen (``workbench inspect --json``)."""
        discovery = self.discovery
        return AgentSnapshot(
            protocol="a2a",
            name=self.name,
            target=self._config.target_label,
            capabilities=self.capabilities,
            tools=tuple(self.tool_specs()),
            card=card_info(discovery),
            tasks=tuple(task_snapshot(v) for v in self._reducer.views.values()),
            details={"protocol": "a2a", **describe_card(discovery)},
        )

    # ------------------------------------------------------------------ conversation

    @property
    def context_id(self) -> str | None:
        """The context the next message continues (``None``: the agent starts a new one)."""
        return self._conversation.context_id

    def new_conversation(self) -> None:
        """Forget the current context: the next message starts a new conversation."""
        self._conversation.context_id = None

    def stream_async(
        self,
        prompt: Prompt = None,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        data: Any = None,
        parts: list[ContentPart] | None = None,
        new_conversation: bool = False,
        skill: str | None = None,
        cancel_on_exit: bool = False,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Send a message and yield events as they arrive; the last is ``Completed`` or ``Failed``.

        Args:
            prompt: Text, an ``InputResponse`` (answering a waiting task), or parts.
            task_id: Continue this waiting task (its ``context_id`` is added when known).
            context_id: Continue this conversation (default: the last one, unless ``new_conversation``).
            data: A JSON value sent as an extra data part.
            parts: Extra parts.
            new_conversation: Start a new context.
            skill: Skill id put in the message metadata (``skill_id``).
            cancel_on_exit: If the caller stops reading before the task ends, cancel it on the agent.
                Otherwise the task keeps running and can be resubscribed.

        Returns:
            An async iterator of ``StatusChanged``, ``TextDelta``, ``ArtifactUpdated``,
            ``ToolCallRequested``, ``InputRequired`` / ``AuthRequired`` and finally ``Completed`` or
            ``Failed``. Nothing is sent before the first ``__anext__``.
        """
        return self._conversation.stream(
            prompt,
            task_id=task_id,
            context_id=context_id,
            data=data,
            parts=parts,
            new_conversation=new_conversation,
            skill=skill,
            cancel_on_exit=cancel_on_exit,
        )

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> ToolResult:
        """Invoke skill ``name`` with ``arguments["message"]``; the task's outcome as a ``ToolResult``.

        ``timeout`` bounds the whole task (``None``: no limit); ``on_progress`` is not called (A2A
        reports progress as status messages, which ``call_tool_stream`` yields).

        Raises:
            NotFoundError: The agent has no such skill.
            UsageError: ``message`` is missing.
            WorkbenchError: The typed failure of the call.
        """
        await self.connect()
        self.tools[name]  # raises NotFoundError listing the available skills
        arguments = dict(arguments or {})
        message = arguments.get("message")
        if not isinstance(message, str):
            raise UsageError(f"Skill {name!r} takes a 'message' string.", details={"arguments": arguments})
        with anyio.fail_after(timeout):
            result = await self.invoke_async(message, skill=name)
        return ToolResult(
            content=list(result.parts),
            structured_content=result.structured,
            is_error=result.is_error,
            meta={"a2a_state": result.state, "task_id": result.task_id, "context_id": result.context_id},
            raw=result.raw,
        )

    def call_tool_stream(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Send skill ``name`` its ``message``; other arguments go as a data part. Events as they arrive.

        Raises:
            NotFoundError: The agent has no such skill (on the first ``__anext__``).
        """
        return self._skill_stream(name, dict(arguments or {}), timeout)

    async def _skill_stream(
        self, name: str, arguments: dict[str, Any], timeout: float | None
    ) -> AsyncGenerator[AgentEvent, None]:
        await self.connect()
        self.tools[name]  # raises NotFoundError listing the available skills
        message = arguments.pop("message", None) or None
        with anyio.fail_after(timeout):
            async with aclosing(self.stream_async(message, skill=name, data=arguments or None)) as events:
                async for event in events:
                    yield event

    # ------------------------------------------------------------------ tasks

    @property
    def tasks(self) -> A2ATaskOperations:
        """The agent's tasks: the contract's ``TaskOperations``, the merged ``TaskView``s, push configs."""
        return self._tasks

    async def cancel(self, task_id: str) -> None:
        """Cancel a task on the agent (also one waiting for input)."""
        await self._tasks.cancel_view(task_id)

    def __repr__(self) -> str:
        return f"<A2AAgent {self.name!r} {self._config.url}>"
