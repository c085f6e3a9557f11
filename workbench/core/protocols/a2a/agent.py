"""``A2AAgent``: an A2A agent behind the neutral ``RemoteAgent`` contract.

The card is discovered lazily (first ``connect``, ``stream_async`` or property access) and cached.
Every call goes through one ``httpx.AsyncClient`` whose transport applies the stream timeout
policy and feeds the wire recorder. Events from the SDK client are merged by a ``TaskReducer``
(the SDK does not merge them) and translated into ``AgentEvent``s.

Continuing conversations: the agent remembers the last ``context_id`` and sends it with the next
message unless ``new_conversation=True``. A waiting task (input-required / auth-required) is
continued by sending a message with **both** its ``task_id`` and ``context_id``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import anyio
import httpx
from a2a.client import Client, ClientCallContext, ClientConfig, ClientFactory
from a2a.types import (
    AgentCard,
    AgentInterface,
    AgentSkill,
    CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest,
    GetTaskRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTasksRequest,
    Message,
    SendMessageConfiguration,
    SendMessageRequest,
    StreamResponse,
    SubscribeToTaskRequest,
    Task,
    TaskPushNotificationConfig,
)
from a2a.utils.errors import UnsupportedOperationError
from google.protobuf.json_format import MessageToDict

from workbench.core.errors import (
    AuthRequiredError,
    ConnectionLostError,
    UsageError,
    WorkbenchError,
)
from workbench.core.fastinit import fast_constructor
from workbench.core.models import ToolSpec
from workbench.core.protocols.a2a.convert import INTERRUPTED_STATES, build_message, state_value
from workbench.core.protocols.a2a.discovery import CardFetch, fetch_card, protocol_era, select_interface
from workbench.core.protocols.a2a.errors import map_error
from workbench.core.protocols.a2a.push import PushNotification, PushReceiver
from workbench.core.protocols.a2a.reducer import Change, TaskReducer, TaskView
from workbench.core.protocols.a2a.security import CredentialNeed, required_credentials
from workbench.core.protocols.a2a.security_auth import SKILL_HEADER, SecurityAuth
from workbench.core.protocols.a2a.security_oauth import BrowserOpener
from workbench.core.protocols.a2a.task_info import task_snapshot
from workbench.core.protocols.a2a.task_operations import A2ATaskOperations
from workbench.core.protocols.a2a.translate import (
    PROTOCOL,
    events_for,
    input_request,
    result_from_message,
    result_from_view,
)
from workbench.core.protocols.a2a.wire_tap import A2ATransport
from workbench.core.protocols.agent_base import AgentBase, LoopBinding, ToolRegistry, register_for_exit, run_sync
from workbench.core.protocols.base import (
    AgentCapabilities,
    AgentEvent,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    ContentPart,
    Failed,
    InputHandler,
    InputRequest,
    InputRequired,
    InputResponse,
    StatusChanged,
    ToolResult,
)
from workbench.core.protocols.contract import AgentFeatures, LossHandler, ProgressCallback
from workbench.core.protocols.snapshot import AgentSnapshot
from workbench.core.redaction import is_secret_header, mask_query_values

if TYPE_CHECKING:
    from workbench.core.credentials import CredentialStore

log = logging.getLogger(__name__)

Binding = Literal["auto", "JSONRPC", "HTTP+JSON"]
SKILL_METADATA_KEY = "skill_id"
"""Message metadata key carrying the skill a message is meant for (the workbench's convention)."""
AUTH_RESUME_TEXT = "Credential provided."
"""Text of the message that resumes an auth-required task after a credential was supplied."""
MAX_AUTH_PROMPTS = 2
SKILL_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"message": {"type": "string"}},
    "required": ["message"],
}
_POLL_INTERVALS = (0.2, 0.5, 1.0, 2.0)
_artifact_updated = fast_constructor(ArtifactUpdated)
_FINAL = (Completed, Failed)


@dataclass(slots=True)
class _Run:
    """One ``stream_async`` call: the task it is about, and whether it reached its end."""

    task_id: str | None = None
    finished: bool = False


@dataclass(slots=True)
class _Outcome:
    """How one request's event stream ended."""

    view: TaskView | None = None
    reply: Message | None = None
    failed: bool = False


def _skill_of(message: Message) -> str | None:
    """The skill id a message is meant for (``skill_id`` in its metadata), if any."""
    if not message.HasField("metadata"):
        return None
    value = message.metadata.fields.get(SKILL_METADATA_KEY)
    return value.string_value or None if value is not None else None


class A2AAgent(AgentBase):
    """An A2A agent: discovery, streaming messages, task operations, push notifications.

    Args:
        url: The agent's base URL (or its card URL ending in ``.json``).
        name: Display name (default: the card's name once discovered).
        card_url: Fetch the card from exactly this URL instead of the well-known paths.
        headers: Extra HTTP headers for every request (credential-like values are redacted).
        bearer_token: Sent as ``Authorization: Bearer <token>`` (redacted in the wire log).
        binding: ``auto`` (the agent's preference among JSON-RPC and HTTP+JSON), or one of them.
        streaming: Use streaming when the agent supports it (else one blocking request per turn).
        input_handler: Answers input-required / auth-required pauses inside ``stream_async``:
            ``text`` / ``data`` continue the task, ``cancel`` cancels it, an empty ``InputResponse()``
            defers. Without a handler (or on deferral) the stream ends with
            ``Completed(result.state="input_required")`` and the caller continues with
            ``invoke_async(answer, task_id=...)``. For auth, ``text`` is a bearer token: it is sent in
            the ``Authorization`` header from then on (never in a message body).
        wire: Wire recorder for all HTTP traffic, SSE events and JSON-RPC messages.
        connection_id: Connection id in the wire log (default: the URL).
        connect_timeout: Seconds to establish a TCP connection.
        request_timeout: Seconds to wait for a non-streaming response.
        stream_idle_timeout: Seconds of silence allowed inside an SSE stream (``None``: no limit —
            an agent may legitimately think for minutes).
        credentials: Where the values for the card's security schemes live. When set, every request
            carries what the card (or the skill) requires — API key, bearer, basic, OAuth 2.0 client
            credentials / authorization code with PKCE, OpenID Connect — and a 401/403 or
            auth-required asks ``input_handler`` with the ``CredentialNeed``s in
            ``InputRequest.data["credential_needs"]``, stores the answer and retries once
            (see ``security_auth``).
        credential_id: Prefix of the credential-store keys (default: ``connection_id``); keys are
            ``<credential_id>/a2a:<scheme>:<field>``.
        oauth_opener: Opens an authorization URL for browser sign-in (default: the system browser).
        http_transport: The httpx transport that really talks HTTP (default: a new
            ``httpx.AsyncHTTPTransport``). A seam: pass ``httpx.ASGITransport(app)`` to reach an
            in-process agent. It is wrapped by the wire tap either way.
    """

    protocol: Literal["a2a"] = "a2a"

    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        card_url: str | None = None,
        headers: dict[str, str] | None = None,
        bearer_token: str | None = None,
        binding: Binding = "auto",
        streaming: bool = True,
        input_handler: InputHandler | None = None,
        wire: Any = None,
        connection_id: str | None = None,
        connect_timeout: float = 10.0,
        request_timeout: float = 60.0,
        stream_idle_timeout: float | None = None,
        credentials: CredentialStore | None = None,
        credential_id: str | None = None,
        oauth_opener: BrowserOpener | None = None,
        http_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if binding not in ("auto", "JSONRPC", "HTTP+JSON"):
            raise UsageError(f"Unknown A2A binding {binding!r}.", hint="use auto, JSONRPC or HTTP+JSON")
        self.url = url
        self._given_name = name
        self.name = name or urlsplit(url).netloc or url
        self.card_url = card_url
        self._headers = dict(headers or {})
        self._bearer_token = bearer_token
        self.binding: Binding = binding
        self.streaming = streaming
        self.input_handler = input_handler
        self.wire = wire
        self.connection_id = connection_id or url
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self.stream_idle_timeout = stream_idle_timeout
        self._http_transport = http_transport
        self._http: httpx.AsyncClient | None = None
        self._client: Client | None = None
        self._fetch: CardFetch | None = None
        self._card: AgentCard | None = None
        self._interface: AgentInterface | None = None
        self._extended = False
        self.extended_card_error: WorkbenchError | None = None
        self._reducer = TaskReducer()
        self._context_id: str | None = None
        self._loss_handler: LossHandler | None = None
        self._binding = LoopBinding(self.name)
        self._lock = asyncio.Lock()
        self.security: SecurityAuth | None = None
        """Applies the card's security schemes (``None`` without a credential store)."""
        if credentials is not None:
            self.security = SecurityAuth(
                lambda: self._card,
                credentials,
                credential_id or self.connection_id,
                opener=oauth_opener,
                on_secret=self._add_secret,
            )
        self._register_secrets()

    # ------------------------------------------------------------------ lifecycle

    def _register_secrets(self) -> None:
        if self.wire is None:
            return
        redactor = self.wire.redactor
        if self._bearer_token:
            redactor.add_secret(self._bearer_token)
        for key, value in self._headers.items():
            if is_secret_header(key):
                redactor.add_secret(value)

    def _add_secret(self, value: str) -> None:
        if self.wire is not None:
            self.wire.redactor.add_secret(value)

    def _auth_headers(self) -> dict[str, str]:
        headers = dict(self._headers)
        if self._bearer_token:
            headers["Authorization"] = f"Bearer {self._bearer_token}"
        return headers

    def set_bearer_token(self, token: str) -> None:
        """Use ``token`` as ``Authorization: Bearer`` from now on (also on an open connection)."""
        self._bearer_token = token
        self._register_secrets()
        if self._http is not None:
            self._http.headers["Authorization"] = f"Bearer {token}"

    @property
    def connected(self) -> bool:
        """The card is known and a client exists."""
        return self._client is not None

    async def connect(self) -> None:
        """Fetch the card and build the client (idempotent).

        Raises:
            UnreachableError: Nothing answers at the URL.
            AuthRequiredError: The card needs a credential.
            AgentCardError: No card, or an invalid one (the message names the URL).
            UnsupportedCapabilityError: The agent offers no binding the workbench speaks (e.g. gRPC only).
            UsageError: The agent is already connected on another event loop.
        """
        self._binding.bind()
        if self._client is not None:
            return
        async with self._lock:
            if self.connected:  # another task connected while this one waited for the lock
                return
            transport = A2ATransport(
                inner=self._http_transport,
                stream_idle_timeout=self.stream_idle_timeout,
                recorder=self.wire,
                connection_id=self.connection_id,
            )
            http = httpx.AsyncClient(
                transport=transport,
                headers=self._auth_headers(),
                timeout=httpx.Timeout(self.request_timeout, connect=self.connect_timeout, pool=self.connect_timeout),
                auth=self.security,
            )
            if self.security is not None:
                self.security.http = http
            try:
                fetch = await fetch_card(http, self.url, card_url=self.card_url)
                interface = select_interface(fetch.card, self.binding)
                config = ClientConfig(
                    streaming=self.streaming,
                    httpx_client=http,
                    supported_protocol_bindings=[interface.protocol_binding],
                )
                try:
                    client = ClientFactory(config).create(fetch.card)
                except ValueError as exc:
                    raise map_error(exc, action="creating the client", url=self.url) from exc
            except BaseException:
                await http.aclose()
                raise
            self._http, self._client, self._fetch = http, client, fetch
            self._card, self._interface = fetch.card, interface
            if self._given_name is None and fetch.card.name:
                self.name = fetch.card.name
            register_for_exit(self)
            await self._fetch_extended_card()

    async def _fetch_extended_card(self) -> None:
        card, client = self._card, self._client
        if card is None or client is None or not card.capabilities.extended_agent_card:
            return
        if not (self._bearer_token or self._headers or (self.security is not None and await self.security.ready())):
            return  # the extended card is for authenticated callers; don't provoke a 401
        try:
            extended = await client.get_extended_agent_card(GetExtendedAgentCardRequest())
        except Exception as exc:  # any failure leaves the public card in place; kept for display
            self.extended_card_error = map_error(exc, action="fetching the extended agent card", url=self.url)
            log.info("extended card of %s not available: %s", self.url, self.extended_card_error)
            return
        self._card = extended
        self._extended = True

    async def aclose(self) -> None:
        """Close the HTTP client (safe to call twice; running remote tasks are not cancelled)."""
        client, http = self._client, self._http
        self._client = self._http = None
        try:
            if client is not None:
                await client.close()
        finally:
            if http is not None:
                await http.aclose()
            self._binding.release()
            self._lock = asyncio.Lock()  # a fresh lock for whichever loop connects next
            if self.security is not None:
                self.security.detach()

    async def __aenter__(self) -> A2AAgent:
        await self.connect()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def _ensure_card(self) -> AgentCard:
        if self._card is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                run_sync(self.connect())
            else:
                raise UsageError(
                    f"The card of {self.name!r} is not loaded yet.",
                    hint="await agent.connect() first (or use 'async with agent')",
                )
        assert self._card is not None
        return self._card

    def _require_client(self) -> Client:
        if self._client is None:
            raise UsageError(f"{self.name!r} is not connected.", hint="await agent.connect() first")
        return self._client

    # ------------------------------------------------------------------ card and capabilities

    @property
    def card(self) -> AgentCard:
        """The agent card (the extended card when it was fetched)."""
        return self._ensure_card()

    @property
    def card_json(self) -> dict[str, Any]:
        """The public card's JSON exactly as published."""
        self._ensure_card()
        assert self._fetch is not None
        return self._fetch.raw

    @property
    def card_url_used(self) -> str:
        """The URL the card was fetched from."""
        self._ensure_card()
        assert self._fetch is not None
        return self._fetch.url

    @property
    def card_notes(self) -> list[str]:
        """Adjustments made while reading the card (e.g. a 0.2 card spoken as 0.3)."""
        self._ensure_card()
        assert self._fetch is not None
        return list(self._fetch.notes)

    @property
    def extended_card(self) -> bool:
        """Whether ``card`` is the authenticated extended card."""
        return self._extended

    @property
    def interface(self) -> AgentInterface:
        """The interface in use (URL, binding, protocol version)."""
        self._ensure_card()
        assert self._interface is not None
        return self._interface

    @property
    def skills(self) -> list[AgentSkill]:
        """The card's skills."""
        return list(self.card.skills)

    @property
    def capabilities(self) -> AgentCapabilities:
        """What the agent offers, in the neutral shape (``raw`` is the card)."""
        card = self._ensure_card()
        iface = self.interface
        caps = card.capabilities
        era = protocol_era(iface)
        return AgentCapabilities(
            protocol="a2a",
            protocol_version=iface.protocol_version or ("0.3" if era == "0.3" else "1.0"),
            transport=iface.protocol_binding,
            name=card.name or None,
            version=card.version or None,
            description=card.description or None,
            era=era,
            supports_streaming=bool(caps.streaming),
            supports_tasks=True,
            supports_tools=bool(card.skills),
            supports_push_notifications=bool(caps.push_notifications),
            supports_agent_invocation=True,
            agent_entry_point=iface.url,
            extra={
                "interfaces": [MessageToDict(i) for i in card.supported_interfaces],
                "extended_agent_card": bool(caps.extended_agent_card),
                "extended_card_fetched": self._extended,
                "security_schemes": sorted(card.security_schemes.keys()),
                "skills": [s.id for s in card.skills],
                "default_input_modes": list(card.default_input_modes),
                "default_output_modes": list(card.default_output_modes),
                "extensions": [e.uri for e in caps.extensions],
                "card_url": self._fetch.url if self._fetch else None,
                "notes": list(self._fetch.notes) if self._fetch else [],
            },
            raw=card,
        )

    @property
    def tools(self) -> ToolRegistry:
        """The agent's skills as tools: calling one sends ``message`` with the skill id in metadata."""
        specs = [
            ToolSpec(
                name=s.id,
                title=s.name or None,
                description=s.description or None,
                input_schema=dict(SKILL_INPUT_SCHEMA),
                annotations={"tags": list(s.tags), "examples": list(s.examples)} if (s.tags or s.examples) else None,
                kind="skill",
                raw=s,
            )
            for s in self.skills
        ]
        return ToolRegistry(self, specs)

    @property
    def task_views(self) -> dict[str, TaskView]:
        """Every task this client has seen, by id, as merged locally."""
        return dict(self._reducer.views)

    @property
    def task_operations(self) -> A2ATaskOperations:
        """The agent's tasks as neutral snapshots: list, get, cancel, follow."""
        return A2ATaskOperations(self)

    @property
    def server_features(self) -> None:
        """A2A agents have no MCP server features."""
        return None

    @property
    def features(self) -> AgentFeatures:
        """Chat, data parts, conversations, tasks and cancel: everything but MCP server features."""
        return AgentFeatures(chat=True, message_data=True, conversations=True, tasks=True, cancel=True)

    @property
    def target_label(self) -> str:
        """The agent's URL with query values masked."""
        return mask_query_values(self.url)

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        """Kept for the contract: an HTTP agent has no session to lose, so it is never called."""
        self._loss_handler = handler

    def tool_specs(self) -> list[ToolSpec]:
        """The card's skills as tool specs."""
        return self.tools.specs()

    async def cancel(self, task_id: str) -> None:
        """Cancel a task on the agent (also one waiting for input)."""
        await self.cancel_task(task_id)

    @property
    def context_id(self) -> str | None:
        """The context the next message continues (``None``: the agent starts a new one)."""
        return self._context_id

    def new_conversation(self) -> None:
        """Forget the current context: the next message starts a new conversation."""
        self._context_id = None

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

    # ------------------------------------------------------------------ messaging

    def _common(self, task_id: str | None, context_id: str | None, raw: Any = None) -> dict[str, Any]:
        return {"agent": self.name, "protocol": PROTOCOL, "task_id": task_id, "context_id": context_id, "raw": raw}

    def _paused_event(self, view: TaskView, skill: str | None = None) -> InputRequired | AuthRequired:
        """The event for a task waiting in ``input-required`` / ``auth-required``: the agent's question."""
        request = input_request(view, agent=self.name)
        common = self._common(view.task_id, view.context_id, view.status_message)
        if request.kind == "auth":
            if self.security is not None and (needs := self._credential_needs(skill)):
                # What the card says to supply, next to whatever the agent attached itself.
                extra = {"reason": "auth-required", **self._needs_data(needs)}
                data = {**request.data, **extra} if isinstance(request.data, dict) else extra
                if request.data is not None and not isinstance(request.data, dict):
                    data["agent_data"] = request.data
                request = replace(request, data=data)
            return AuthRequired(request=request, **common)
        return InputRequired(request=request, **common)

    def _credential_needs(self, skill: str | None, error: AuthRequiredError | None = None) -> list[CredentialNeed]:
        """The needs to ask the user for (those the card requires; the refusing scheme first)."""
        if self.security is None or self._card is None:
            return []
        alternatives = self.security.alternatives(skill)
        scheme = error.details.get("scheme") if error is not None else None
        if scheme:  # an authorization server refused this scheme's client credentials
            for alt in alternatives:
                if any(n.scheme == scheme for n in alt.needs):
                    return sorted(alt.needs, key=lambda n: n.scheme != scheme)
        return [n for n in required_credentials(self._card, skill) if n.supported]

    @staticmethod
    def _needs_data(needs: list[CredentialNeed]) -> dict[str, Any]:
        return {"credential_needs": [n.to_dict() for n in needs], "need": needs[0].to_dict()}

    def _failed(self, error: WorkbenchError, task_id: str | None = None, context_id: str | None = None) -> Failed:
        if (
            isinstance(error, AuthRequiredError)
            and "credential_needs" not in error.details
            and (needs := self._credential_needs(None, error))
        ):
            # Say what the card asks for, so the user (or a later prompt) knows which fields to fill.
            error.details["credential_needs"] = [n.to_dict() for n in needs]
            error.hint = "store the credential the agent's card names: " + "; ".join(n.summary() for n in needs)
        return Failed(error=error, message=error.message, **self._common(task_id, context_id))

    def stream_async(
        self,
        prompt: str | InputResponse | list[ContentPart] | None = None,
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
        if new_conversation:
            self._context_id = None
        if task_id and not context_id and (view := self._reducer.get(task_id)) is not None:
            context_id = view.context_id
        if not task_id and not context_id:
            context_id = self._context_id
        try:
            message = build_message(
                prompt,
                data=data,
                parts=parts,
                task_id=task_id,
                context_id=context_id,
                metadata={SKILL_METADATA_KEY: skill} if skill else None,
            )
        except WorkbenchError as exc:
            return self._single(self._failed(exc, task_id, context_id))
        return self._conversation(message, cancel_on_exit=cancel_on_exit)

    @staticmethod
    async def _single(event: AgentEvent) -> AsyncGenerator[AgentEvent, None]:
        yield event

    async def _cancel_quietly(self, task_id: str) -> None:
        view = self._reducer.get(task_id)
        if view is not None and (view.terminal or self._client is None):
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(self.request_timeout):
            try:
                await self.cancel_task(task_id)
            except WorkbenchError as exc:
                log.info("cancelling %s after the caller stopped reading failed: %s", task_id, exc)

    async def _connect_with_auth(self) -> AsyncGenerator[AgentEvent, None]:
        """Connect, asking the input handler for a credential on 401/403 (yields ``AuthRequired``)."""
        for attempt in range(MAX_AUTH_PROMPTS + 1):
            try:
                await self.connect()
                return
            except AuthRequiredError as exc:
                if self.input_handler is None or attempt == MAX_AUTH_PROMPTS:
                    raise
                sink: list[AgentEvent] = []
                given = await self._ask_credential(exc, None, None, sink)
                for ev in sink:
                    yield ev
                if not given:
                    raise

    async def _ask_credential(
        self,
        error: AuthRequiredError,
        task_id: str | None,
        context_id: str | None,
        sink: list[AgentEvent],
        skill: str | None = None,
    ) -> bool:
        """Ask the input handler for a credential after an HTTP 401/403; True if one was given.

        With a credential store and a card that declares what it needs, the request's data carries
        the ``CredentialNeed``s and the answer is stored for them; otherwise the answer's text is a
        bearer token.
        """
        assert self.input_handler is not None
        needs = self._credential_needs(skill, error)
        data: dict[str, Any] = {
            "reason": "http",
            "http_status": error.details.get("http_status"),
            "url": error.details.get("url"),
        }
        if "oauth_error" in error.details:
            data["oauth_error"] = error.details["oauth_error"]
        if needs:
            data.update(self._needs_data(needs))
        request = InputRequest(
            kind="auth",
            text=error.message,
            task_id=task_id or "",
            context_id=context_id or "",
            data=data,
            agent=self.name,
        )
        sink.append(AuthRequired(request=request, **self._common(task_id, context_id)))
        answer = await self.input_handler(request)
        if answer.cancel:
            return False
        if needs and self.security is not None:
            return await self.security.store_answer(needs, answer) > 0
        if not answer.text:
            return False
        self.set_bearer_token(answer.text)
        return True

    async def _conversation(self, message: Message, *, cancel_on_exit: bool) -> AsyncGenerator[AgentEvent, None]:
        run = _Run(task_id=message.task_id or None)
        try:
            async for event in self._turns(message, run):
                if isinstance(event, _FINAL):  # a caller may stop right after the final event
                    run.finished = True
                yield event
        finally:
            if not run.finished and cancel_on_exit and run.task_id:
                await self._cancel_quietly(run.task_id)

    async def _turns(self, message: Message, run: _Run) -> AsyncGenerator[AgentEvent, None]:
        try:
            async for ev in self._connect_with_auth():
                yield ev
        except WorkbenchError as exc:
            yield self._failed(exc, message.task_id or None, message.context_id or None)
            return
        auth_prompts = in_band_prompts = 0
        # With declared schemes a credential is asked for once and the request retried once
        # (once after an HTTP 401/403, once after an auth-required task state).
        max_prompts = 1 if self.security is not None else MAX_AUTH_PROMPTS
        skill = _skill_of(message)
        while True:
            outcome = _Outcome()
            resuming = message.task_id or None
            self._reducer.record_outgoing(message)
            retry_auth: AuthRequiredError | None = None
            async for ev in self._read(
                self._send(message, skill), outcome, resuming=resuming, action="sending the message", run=run
            ):
                if (
                    isinstance(ev, Failed)
                    and isinstance(ev.error, AuthRequiredError)
                    and self.input_handler is not None
                    and auth_prompts < max_prompts
                    and outcome.view is None
                ):
                    retry_auth = ev.error
                    continue
                yield ev
            if retry_auth is not None:
                auth_prompts += 1
                sink: list[AgentEvent] = []
                given = await self._ask_credential(
                    retry_auth, message.task_id or None, message.context_id or None, sink, skill
                )
                for ev in sink:
                    yield ev
                if not given:
                    yield self._failed(retry_auth, message.task_id or None, message.context_id or None)
                    return
                continue
            if outcome.failed:
                return
            if outcome.reply is not None:
                reply = outcome.reply
                if reply.context_id:
                    self._context_id = reply.context_id
                yield Completed(
                    result=result_from_message(reply), **self._common(reply.task_id or None, reply.context_id or None)
                )
                return
            view = outcome.view
            if view is None:
                yield self._failed(ConnectionLostError("The agent ended the stream without sending anything."))
                return
            if view.context_id:
                self._context_id = view.context_id
            if not (view.terminal or view.interrupted):
                # Non-streaming agents may answer before the task is done: poll it.
                polled = _Outcome(view=view)
                async for ev in self._poll(view, polled):
                    yield ev
                if polled.failed:
                    return
            if view.state in INTERRUPTED_STATES:  # (re-read: polling changed it)
                paused = self._paused_event(view, skill)
                request = paused.request
                yield paused
                if self.input_handler is None:
                    yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))
                    return
                if request.kind == "auth" and self.security is not None:
                    if in_band_prompts >= max_prompts:
                        error = AuthRequiredError(
                            f"{self.name} still asks for a credential after one was given.",
                            hint="check the stored credential (it may be wrong or lack a scope)",
                            details={"task_id": view.task_id, "reason": "auth-required"},
                        )
                        yield self._failed(error, view.task_id, view.context_id)
                        return
                    in_band_prompts += 1
                try:
                    answer = await self.input_handler(request)
                except WorkbenchError as exc:
                    yield self._failed(exc, view.task_id, view.context_id)
                    return
                if answer.cancel:
                    async for ev in self._cancel_events(view.task_id):
                        yield ev
                    return
                if answer.text is None and answer.data is None:
                    # An empty answer defers: the task stays waiting and the caller continues it later.
                    yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))
                    return
                message = await self._answer_message(request, answer, skill)
                continue
            yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))
            return

    async def _answer_message(self, request: InputRequest, answer: InputResponse, skill: str | None = None) -> Message:
        """The message continuing a waiting task with the user's answer (both ids set)."""
        if request.kind == "auth":
            # The credential travels in headers (as the card's schemes say), never in the message body.
            needs = self._credential_needs(skill) if self.security is not None else []
            if needs and self.security is not None:
                await self.security.store_answer(needs, answer)
                prompt = InputResponse(text=AUTH_RESUME_TEXT)
            else:
                if answer.text:
                    self.set_bearer_token(answer.text)
                prompt = InputResponse(text=AUTH_RESUME_TEXT, data=answer.data)
            return build_message(prompt, task_id=request.task_id, context_id=request.context_id)
        return build_message(answer, task_id=request.task_id, context_id=request.context_id)

    def _send(self, message: Message, skill: str | None = None) -> AsyncIterator[StreamResponse]:
        client = self._require_client()
        request = SendMessageRequest(message=message, configuration=SendMessageConfiguration())
        context = None
        if skill and self.security is not None:
            # Tells the security auth which skill's requirements apply (the header is not sent).
            context = ClientCallContext(service_parameters={SKILL_HEADER: skill})
        return client.send_message(request, context=context)

    async def _read(
        self,
        source: AsyncIterator[StreamResponse],
        outcome: _Outcome,
        *,
        resuming: str | None = None,
        action: str,
        run: _Run | None = None,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Merge and translate a stream of ``StreamResponse``s; stop at a terminal or waiting state."""
        run = run if run is not None else _Run()
        first = True
        try:
            async with aclosing(source) as events:  # type: ignore[type-var]
                reducer, name = self._reducer, self.name
                apply, merge = reducer.apply, reducer.merge_artifact
                async for event in events:
                    if event.WhichOneof("payload") == "artifact_update":  # hot path: one event, no state change
                        view, av, content, append, last_chunk = merge(event.artifact_update)
                        outcome.view = view
                        run.task_id = view.task_id
                        first = False
                        yield _artifact_updated(
                            artifact_id=av.artifact_id,
                            name=av.name,
                            parts=content,
                            append=append,
                            last_chunk=last_chunk,
                            agent=name,
                            protocol=PROTOCOL,
                            task_id=view.task_id,
                            context_id=view.context_id,
                            raw=event,
                        )
                        continue
                    change = apply(event)
                    for ev in events_for(change, agent=name, raw=event):
                        yield ev
                    if change.reply is not None:
                        outcome.reply = change.reply
                        return
                    if change.view is not None:
                        outcome.view = change.view
                        run.task_id = change.view.task_id
                        if change.state is not None and self._stops(change, event, first=first, resuming=resuming):
                            return
                    first = False
        except WorkbenchError as exc:
            outcome.failed = True
            yield self._failed(exc, *self._ids(outcome))
        except Exception as exc:  # everything the SDK / httpx raise becomes a typed error
            outcome.failed = True
            error = map_error(exc, action=action, url=self._interface.url if self._interface else self.url)
            error.__cause__ = exc
            yield self._failed(error, *self._ids(outcome))

    @staticmethod
    def _ids(outcome: _Outcome) -> tuple[str | None, str | None]:
        if outcome.view is not None:
            return outcome.view.task_id, outcome.view.context_id
        return None, None

    @staticmethod
    def _stops(change: Change, event: StreamResponse, *, first: bool, resuming: str | None) -> bool:
        view = change.view
        assert view is not None
        if not (view.terminal or view.interrupted):
            return False
        if change.state is None:
            return False  # an artifact update: the state did not change with it
        # A server may open a follow-up stream with the task snapshot still showing the state we
        # just answered; that is not the agent asking again.
        return not (first and resuming == view.task_id and event.WhichOneof("payload") == "task" and view.interrupted)

    async def _poll(self, view: TaskView, outcome: _Outcome) -> AsyncGenerator[AgentEvent, None]:
        client = self._require_client()
        step = 0
        while not (view.terminal or view.interrupted):
            await anyio.sleep(_POLL_INTERVALS[min(step, len(_POLL_INTERVALS) - 1)])
            step += 1
            try:
                task = await client.get_task(GetTaskRequest(id=view.task_id))
            except Exception as exc:
                outcome.failed = True
                yield self._failed(self._map(exc, f"polling task {view.task_id}"), view.task_id, view.context_id)
                return
            change = self._reducer.apply_task(task)
            for ev in events_for(change, agent=self.name, raw=task):
                yield ev

    async def _cancel_events(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        view = self._reducer.get(task_id)
        old = view.state if view is not None else None
        try:
            view = await self.cancel_task(task_id)
        except WorkbenchError as exc:
            yield self._failed(exc, task_id, view.context_id if view else None)
            return
        if view.state != old:
            yield StatusChanged(state=view.state, **self._common(view.task_id, view.context_id))
        yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))

    def _map(self, exc: BaseException, action: str) -> WorkbenchError:
        error = map_error(exc, action=action, url=self._interface.url if self._interface else self.url)
        if error is not exc:
            error.__cause__ = exc
        return error

    # ------------------------------------------------------------------ task operations

    async def get_task(self, task_id: str, *, history_length: int | None = None) -> TaskView:
        """Fetch a task from the agent and merge it into the local view.

        Raises:
            NotFoundError: The agent does not know the task.
            WorkbenchError: Any other typed failure.
        """
        await self.connect()
        request = GetTaskRequest(id=task_id)
        if history_length is not None:
            request.history_length = history_length
        try:
            task = await self._require_client().get_task(request)
        except Exception as exc:
            raise self._map(exc, f"getting task {task_id}") from exc
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: str | None = None,
        page_size: int | None = None,
        include_artifacts: bool = False,
    ) -> list[TaskView]:
        """List the agent's tasks (A2A 1.0 agents only), merged into the local view.

        Args:
            context_id: Only tasks of this context.
            state: Only tasks in this state (neutral name like ``input_required``).
            page_size: Page size (the agent's default when ``None``; only the first page is read).
            include_artifacts: Ask for artifacts too.

        Raises:
            UnsupportedCapabilityError: The agent speaks 0.3, which has no task listing.
        """
        await self.connect()
        request = ListTasksRequest(include_artifacts=include_artifacts)
        if context_id:
            request.context_id = context_id
        if state:
            request.status = state_value(state)  # type: ignore[assignment]
        if page_size is not None:
            request.page_size = page_size
        try:
            response = await self._require_client().list_tasks(request)
        except Exception as exc:
            raise self._map(exc, "listing tasks") from exc
        views = []
        for task in response.tasks:
            change = self._reducer.apply_task(task)
            assert change.view is not None
            views.append(change.view)
        return views

    async def cancel_task(self, task_id: str) -> TaskView:
        """Cancel a task (also one waiting for input) and return its view.

        Raises:
            NotFoundError: Unknown task.
            RemoteError: The task cannot be cancelled (e.g. already finished; remote code -32002).
        """
        await self.connect()
        try:
            task: Task = await self._require_client().cancel_task(CancelTaskRequest(id=task_id))
        except Exception as exc:
            raise self._map(exc, f"cancelling task {task_id}") from exc
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view

    async def subscribe(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Follow a running task (e.g. after the client dropped its stream).

        The agent first sends the task as it is now (what was missed shows up as new events), then
        live events. Reading stops at a terminal state (``Completed``) or when the task waits for
        input or auth (``InputRequired``/``AuthRequired`` then ``Completed`` with that state) —
        the agent would keep the stream open there. A task that already ended yields ``Completed``
        from ``get_task``.
        """
        try:
            await self.connect()
        except WorkbenchError as exc:
            yield self._failed(exc, task_id)
            return
        outcome = _Outcome()
        source = self._require_client().subscribe(SubscribeToTaskRequest(id=task_id))
        failure: Failed | None = None
        async for ev in self._read(source, outcome, action=f"subscribing to task {task_id}"):
            if isinstance(ev, Failed):
                failure = ev
                break
            yield ev
        if failure is not None:
            cause = failure.error.__cause__
            if isinstance(cause, UnsupportedOperationError):
                # Subscribing to a finished task is refused; report how it ended instead.
                try:
                    view = await self.get_task(task_id)
                except WorkbenchError:
                    yield failure
                    return
                if view.terminal:
                    yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))
                    return
            yield failure
            return
        last = outcome.view
        if last is None:
            yield self._failed(ConnectionLostError(f"The subscription to task {task_id} ended without events."))
            return
        view = last
        if view.interrupted:
            yield self._paused_event(view)
        elif not view.terminal:
            yield self._failed(
                ConnectionLostError(f"The subscription to task {task_id} ended while the task was {view.state}."),
                view.task_id,
                view.context_id,
            )
            return
        yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))

    # ------------------------------------------------------------------ push notifications

    async def set_push_config(
        self, task_id: str, receiver: PushReceiver | str, *, config_id: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """Ask the agent to POST this task's events to ``receiver`` (a ``PushReceiver`` or a URL).

        Returns:
            The stored config as JSON (camelCase, as on the wire).

        Raises:
            UnsupportedCapabilityError: The agent does not do push notifications.
        """
        await self.connect()
        config = TaskPushNotificationConfig(task_id=task_id)
        if isinstance(receiver, PushReceiver):
            config.url = receiver.url
            config.token = token or receiver.token
        else:
            config.url = receiver
            if token:
                config.token = token
        if config_id:
            config.id = config_id
        if self.wire is not None and config.token:
            self.wire.redactor.add_secret(config.token)
        try:
            stored = await self._require_client().create_task_push_notification_config(config)
        except Exception as exc:
            raise self._map(exc, f"setting the push config of task {task_id}") from exc
        return MessageToDict(stored)

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        """One push config of a task, as JSON."""
        await self.connect()
        req = GetTaskPushNotificationConfigRequest(task_id=task_id, id=config_id)
        try:
            got = await self._require_client().get_task_push_notification_config(req)
        except Exception as exc:
            raise self._map(exc, f"getting push config {config_id}") from exc
        return MessageToDict(got)

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        """All push configs of a task, as JSON."""
        await self.connect()
        req = ListTaskPushNotificationConfigsRequest(task_id=task_id)
        try:
            got = await self._require_client().list_task_push_notification_configs(req)
        except Exception as exc:
            raise self._map(exc, f"listing push configs of task {task_id}") from exc
        return [MessageToDict(c) for c in got.configs]

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        """Delete a task's push config."""
        await self.connect()
        req = DeleteTaskPushNotificationConfigRequest(task_id=task_id, id=config_id)
        try:
            await self._require_client().delete_task_push_notification_config(req)
        except Exception as exc:
            raise self._map(exc, f"deleting push config {config_id}") from exc

    async def push_events(self, receiver: PushReceiver, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Translate the push notifications ``receiver`` gets for ``task_id`` into events.

        Ends like ``subscribe``: ``Completed`` at a terminal state, ``InputRequired``/``AuthRequired``
        then ``Completed`` when the task waits.
        """
        notes: AsyncIterator[PushNotification] = receiver.events(task_id)
        async with aclosing(notes) as stream:  # type: ignore[type-var]
            async for note in stream:
                change = self._reducer.apply(note.event)
                for ev in events_for(change, agent=self.name, raw=note.event):
                    yield ev
                view = change.view
                if view is None or change.state is None:
                    continue
                if view.interrupted:
                    yield self._paused_event(view)
                if view.terminal or view.interrupted:
                    yield Completed(result=result_from_view(view), **self._common(view.task_id, view.context_id))
                    return

    def describe(self) -> AgentSnapshot:
        """Everything known about the agent: card, skills, tasks seen (``workbench inspect --json``)."""
        from workbench.core.protocols.a2a.card_info import card_info
        from workbench.core.protocols.a2a.cli_support import describe_card

        return AgentSnapshot(
            protocol="a2a",
            name=self.name,
            target=self.target_label,
            capabilities=self.capabilities,
            tools=tuple(self.tool_specs()),
            card=card_info(self),
            tasks=tuple(task_snapshot(v) for v in self._reducer.views.values()),
            details={"protocol": "a2a", **describe_card(self)},
        )

    def __repr__(self) -> str:
        return f"<A2AAgent {self.name!r} {self.url}>"
