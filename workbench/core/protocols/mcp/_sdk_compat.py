"""Every private name of the MCP SDK the workbench relies on, each behind one function or hook.

Checked against ``mcp`` 2.3.0. Nothing else in the workbench touches an underscored name of the SDK;
``tests/unit/mcp/test_mcp_sdk_compat.py`` runs each function against an in-process server (no npm)
and fails loudly when an upgrade removes or changes one of them.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp_types import LOG_LEVEL_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

if TYPE_CHECKING:
    import mcp_types as types
    from mcp import Client
    from mcp.client.session import ClientSession
    from mcp_types import RequestId

SDK_VERSION = "2.3.0"
"""The ``mcp`` version every function here was written and tested against."""


def in_memory_transport(server: Any) -> Any:
    """The SDK's in-memory JSON-RPC transport to an ``mcp`` ``Server`` / ``MCPServer`` in this process.

    Relies on the private module ``mcp.client._memory`` (class ``InMemoryTransport``), mcp 2.3.0.

    Args:
        server: An ``mcp`` server object (``MCPServer`` or a low-level ``Server``).

    Returns:
        An SDK transport that ``mcp.client.Client`` accepts.
    """
    from mcp.client._memory import InMemoryTransport

    return InMemoryTransport(server)


async def send_raw_request(
    session: ClientSession, method: str, params: Mapping[str, Any] | None, *, timeout: float | None = None
) -> dict[str, Any]:
    """Send a request the SDK has no typed method for (``tasks/*``) and return the raw result dict.

    Stamped as ``ClientSession.send_request`` stamps typed requests: the ``MCP-Protocol-Version``
    header, and on a 2026-era session the ``_meta`` envelope without which the server answers
    -32602. Relies on ``ClientSession._stamp``, ``ClientSession._session_read_timeout_seconds`` and
    ``ClientSession._dispatcher.send_raw_request`` (mcp 2.3.0).

    Args:
        session: A connected client session (``Client.session``).
        method: The JSON-RPC method.
        params: Its params (``None`` for none).
        timeout: Seconds to wait for the answer (``None``: the session's read timeout).

    Returns:
        The result object as the server sent it.

    Raises:
        mcp.MCPError: The server answered with an error.
    """
    data: dict[str, Any] = {"method": method, "params": dict(params or {})}
    opts: dict[str, Any] = {}
    session._stamp(data, opts)  # type: ignore[arg-type]
    wait = timeout if timeout is not None else session._session_read_timeout_seconds
    if wait is not None:
        opts["timeout"] = wait
    result: dict[str, Any] = await session._dispatcher.send_raw_request(method, data.get("params"), opts)  # type: ignore[arg-type]
    return result


def set_session_log_level(session: ClientSession, level: types.LoggingLevel) -> None:
    """Make every later request of a 2026-era session ask for log messages at ``level`` and above.

    2026 logging is a per-request ``_meta`` opt-in with no ``logging/setLevel``. The SDK reads its
    private ``ClientSession._log_level`` once, when ``server/discover`` builds the request stamp
    (``ClientSession._stamp``), so setting the attribute alone changes nothing after connecting:
    the stamp is wrapped too. A request's own ``_meta`` level still wins. Relies on
    ``ClientSession._log_level`` and ``ClientSession._stamp`` (mcp 2.3.0).

    Args:
        session: A connected client session (``Client.session``).
        level: An MCP log level (``debug`` … ``emergency``).
    """
    session._log_level = level
    stamp = getattr(session._stamp, "__wrapped__", session._stamp)

    def stamp_with_level(data: dict[str, Any], opts: Any) -> None:
        params = data.setdefault("params", {})
        params.setdefault("_meta", {}).setdefault(LOG_LEVEL_META_KEY, level)
        stamp(data, opts)

    stamp_with_level.__wrapped__ = stamp  # type: ignore[attr-defined]
    session._stamp = stamp_with_level


def accept_any_tool_result(session: ClientSession) -> None:
    """Stop the session from raising on structured content that violates a tool's output schema.

    A workbench shows such a result and reports the mismatch instead. Replaces the bound method
    ``ClientSession.validate_tool_result`` on this one session (public name, but patching it is
    not a supported API; mcp 2.3.0 calls it from ``Client.call_tool`` and ``ClientSession.call_tool``).

    Args:
        session: A connected client session (``Client.session``).
    """

    async def accept(name: str, result: types.CallToolResult) -> None:
        return None

    session.validate_tool_result = accept  # type: ignore[method-assign]


def read_absent_result_type_as_complete(session: ClientSession) -> None:
    """Read a 2026-era result without ``resultType`` as a complete result, as the spec says.

    2026-07-28 (SEP-2322): a client MUST treat an absent ``resultType`` as ``"complete"``. The SDK's
    types default it so, but ``ClientSession.send_request`` (mcp 2.3.0) first checks each raw result
    against the revision's wire schema, where the field is required, and raises a
    ``ValidationError``, so every tool list and call of such a server would end as a protocol error.
    This fills the field in on results of a 2026-era session before that check (an extension's own
    tag is left alone; the wire log keeps what arrived). Wraps ``session._dispatcher.send_raw_request``
    on this one session (private name, mcp 2.3.0); idempotent.

    Args:
        session: A connected client session (``Client.session``).
    """
    dispatcher = session._dispatcher
    send = dispatcher.send_raw_request
    if getattr(send, "_workbench_absent_result_type", False):
        return

    async def send_reading_absent_as_complete(method: str, params: Any, opts: Any = None) -> dict[str, Any]:
        result = await send(method, params, opts)
        modern = session.protocol_version in MODERN_PROTOCOL_VERSIONS
        if modern and isinstance(result, dict) and "resultType" not in result:
            return {**result, "resultType": "complete"}
        return result

    send_reading_absent_as_complete._workbench_absent_result_type = True  # type: ignore[attr-defined]
    dispatcher.send_raw_request = send_reading_absent_as_complete  # type: ignore[method-assign]


class HookedOAuthClientProvider(OAuthClientProvider):
    """The SDK's ``OAuthClientProvider`` with its private hooks renamed to public ones.

    Subclasses override ``load_state`` (where tokens and registration come from), ``watch_flow``
    (see every request and response of the OAuth flow), ``token_request`` (the request that gets
    the tokens once discovery and registration are done) and the authorization code grant's parts:
    ``authorization_code_grant`` (the browser leg: code and PKCE verifier), ``code_exchange_request``,
    ``refresh_request``, ``accept_token_response`` and ``accept_refresh_response``. Relies on
    ``OAuthClientProvider._initialize``, ``._initialized``, ``._auth_flow`` (mcp 2.3.0: the flow
    generator that ``async_auth_flow`` drives and that calls ``_initialize`` once),
    ``._perform_authorization`` (what the flow awaits for its token request; it calls
    ``._perform_authorization_code_grant`` then ``._exchange_token_authorization_code``),
    ``._refresh_token`` and ``._handle_refresh_response`` (the refresh the flow sends first when the
    token is no longer valid) and ``._handle_token_response`` (what the flow does with the token
    response).
    """

    async def load_state(self) -> None:
        """Load tokens and client registration into ``self.context`` (default: the SDK's)."""
        await super()._initialize()

    def watch_flow(
        self, request: httpx2.Request, flow: AsyncGenerator[httpx2.Request, httpx2.Response]
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """Wrap the SDK's flow generator for ``request`` (default: unchanged)."""
        return flow

    async def token_request(self) -> httpx2.Request:
        """The token request of the flow (default: the SDK's authorization code grant, browser leg first)."""
        return await super()._perform_authorization()

    async def authorization_code_grant(self) -> tuple[str, str]:
        """The browser leg of the authorization code grant: the code and the PKCE verifier (default: the SDK's)."""
        return await super()._perform_authorization_code_grant()

    async def code_exchange_request(self, code: str, code_verifier: str) -> httpx2.Request:
        """The authorization code's token request (default: the SDK's)."""
        return await super()._exchange_token_authorization_code(code, code_verifier)

    async def refresh_request(self) -> httpx2.Request:
        """The refresh token's token request (default: the SDK's)."""
        return await super()._refresh_token()

    async def accept_token_response(self, response: httpx2.Response) -> None:
        """Read the token response and keep its tokens, or raise (default: the SDK's)."""
        await super()._handle_token_response(response)

    async def accept_refresh_response(self, response: httpx2.Response) -> bool:
        """Read the refresh response and keep its tokens; ``False``: log in instead (default: the SDK's)."""
        return await super()._handle_refresh_response(response)

    async def _initialize(self) -> None:
        await self.load_state()
        self._initialized = True

    async def _perform_authorization(self) -> httpx2.Request:
        return await self.token_request()

    async def _perform_authorization_code_grant(self) -> tuple[str, str]:
        return await self.authorization_code_grant()

    async def _exchange_token_authorization_code(self, auth_code: str, code_verifier: str) -> httpx2.Request:
        return await self.code_exchange_request(auth_code, code_verifier)

    async def _refresh_token(self) -> httpx2.Request:
        return await self.refresh_request()

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        await self.accept_token_response(response)

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        return await self.accept_refresh_response(response)

    def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        return self.watch_flow(request, super()._auth_flow(request))


@contextlib.contextmanager
def waiting_on_a_person() -> Iterator[None]:
    """Stop the timeout of the MCP request being served while a person logs in (a no-op outside one).

    The SDK's own authorization code grant pauses the request's clock around the browser leg; a
    provider that runs that leg itself does the same through this. Relies on the private module
    ``mcp.shared._request_clock`` (``waiting_on_a_person``, mcp 2.3.0).
    """
    from mcp.shared._request_clock import waiting_on_a_person as pause

    with pause():
        yield


def lift_legacy_sse_event_limit() -> None:
    """Let the legacy HTTP+SSE client read events of any size; the workbench's own limit bounds them.

    ``mcp.client.sse.sse_client`` (mcp 2.3.0) opens its session stream through the module-level
    name ``sse_within_origin`` with its default 1 MiB event limit, which cannot be configured: a
    larger result ended the whole connection with an ``SSEError``. The HTTP layer's
    ``max_message_bytes`` (``workbench.core.http.limits``) refuses oversized events instead, with a
    typed error naming the limit. Idempotent; affects every ``sse_client`` in this process.
    """
    import mcp.client.sse as sdk_sse

    original = sdk_sse.sse_within_origin  # type: ignore[attr-defined]  # imported there from a private module
    if getattr(original, "_workbench_unbounded", False):
        return

    def unbounded(client: httpx2.AsyncClient, url: Any, *, headers: Any = None, max_event_size: Any = None) -> Any:
        return original(client, url, headers=headers, max_event_size=None)

    unbounded._workbench_unbounded = True  # type: ignore[attr-defined]
    sdk_sse.sse_within_origin = unbounded  # type: ignore[attr-defined]


def mark_stand_in_errors() -> None:
    """Make the errors the Streamable HTTP transport makes up ``provenance.StandInError``s.

    ``mcp.client.streamable_http`` (mcp 2.3.0) answers a request the server left unanswered (the
    stream ended, the body was unreadable, an HTTP error status, a 202) with an error of its own,
    built through its module-level name ``ErrorData``; the server's own errors are parsed from the
    wire. That name is bound to the subclass, so the two stay apart (the session raises both as the
    same ``MCPError``). Idempotent; affects every such transport in this process.
    """
    import mcp.client.streamable_http as sdk_http

    from workbench.core.protocols.mcp.provenance import StandInError

    sdk_http.ErrorData = StandInError  # type: ignore[attr-defined]


SSEWatch = Callable[[str, httpx2.ServerSentEvent], None]
"""Called with the session stream's URL and each event; raising ``httpx2.SSEError`` ends the connection."""


def watch_legacy_sse_events(watch: SSEWatch) -> None:
    """Show every event of a legacy HTTP+SSE session stream to ``watch`` before the SDK reads it.

    ``mcp.client.sse.sse_client`` (mcp 2.3.0) opens its session stream through the module-level
    name ``sse_within_origin``. Its reader ends the connection at once when an event raises
    ``httpx2.SSEError``; any other exception there (its own check of the ``endpoint`` event's
    origin, for one) leaves the connection waiting until the connect timeout. Idempotent (the
    first ``watch`` stays); affects every ``sse_client`` in this process.

    Args:
        watch: Called with the stream's URL and each event, in order.
    """
    import mcp.client.sse as sdk_sse

    original = sdk_sse.sse_within_origin  # type: ignore[attr-defined]  # imported there from a private module
    if getattr(original, "_workbench_watched", False):
        return

    @contextlib.asynccontextmanager
    async def watched(client: httpx2.AsyncClient, url: Any, **kwargs: Any) -> AsyncIterator[_WatchedEvents]:
        async with original(client, url, **kwargs) as source:
            yield _WatchedEvents(source, str(url), watch)

    watched._workbench_watched = True  # type: ignore[attr-defined]
    watched._workbench_unbounded = getattr(original, "_workbench_unbounded", False)  # type: ignore[attr-defined]
    sdk_sse.sse_within_origin = watched  # type: ignore[attr-defined,assignment]  # an EventSource to the SDK


class _WatchedEvents:
    """An ``httpx2.EventSource`` whose events are shown to a watch as they are read."""

    def __init__(self, source: httpx2.EventSource, url: str, watch: SSEWatch) -> None:
        self._source = source
        self._url = url
        self._watch = watch

    @property
    def response(self) -> httpx2.Response:
        return self._source.response

    async def __aiter__(self) -> AsyncIterator[httpx2.ServerSentEvent]:
        async for event in self._source:
            self._watch(self._url, event)
            yield event


def shape_client_capabilities(
    client: Client, shape: Callable[[types.ClientCapabilities, str], types.ClientCapabilities]
) -> None:
    """Let ``shape`` change the client capabilities a not yet entered ``client`` declares.

    The SDK builds the capabilities from the callbacks it has (``elicitation`` always with both the
    form and the URL mode); ``shape`` gets that value and the protocol version it is built for
    (``2025-11-25`` for ``initialize``, the negotiated one for every 2026-era request's ``_meta``).
    Relies on ``Client._build_session`` and ``ClientSession._build_capabilities`` (mcp 2.3.0).

    Args:
        client: An SDK ``Client`` before ``__aenter__``.
        shape: Returns the capabilities to declare instead.
    """
    build = client._build_session

    async def build_shaped(exit_stack: Any) -> ClientSession:
        session = await build(exit_stack)
        built = session._build_capabilities

        def shaped(version: str) -> types.ClientCapabilities:
            return shape(built(version), version)

        session._build_capabilities = shaped  # type: ignore[method-assign]
        return session

    client._build_session = build_shaped  # type: ignore[method-assign]


ServerRequestRoute = Callable[
    ["ClientSession", "RequestId", str, "Mapping[str, Any] | None"], Awaitable["dict[str, Any] | None"]
]
"""Answers a server→client request (session, JSON-RPC id, method, params) with a raw result, or
``None`` to leave it to the SDK; raising ``mcp.MCPError`` answers with that error."""


def route_server_requests(client: Client, route: ServerRequestRoute) -> None:
    """Let ``route`` answer the server's requests to a not yet entered ``client`` before the SDK does.

    The SDK answers a server→client request from a fixed table (``ping``, sampling, elicitation,
    roots) and refuses any other method with -32601; its callbacks must return the request's plain
    result. A client that runs such requests as tasks (2025-11-25) must answer methods outside that
    table (``tasks/get`` …) and a result of another shape (``CreateTaskResult``). ``route`` sees each
    request first, on the SDK's own request task (so it may block, and a peer's cancel cancels it);
    what it returns goes out as the result as it is. Relies on ``Client._build_session`` and
    ``ClientSession._on_request`` (mcp 2.3.0: the handler ``__aenter__`` hands to the dispatcher,
    so it is replaced before the session is entered).

    Args:
        client: An SDK ``Client`` before ``__aenter__``.
        route: Answers a request, or returns ``None`` to let the SDK answer it.
    """
    build = client._build_session

    async def build_routed(exit_stack: Any) -> ClientSession:
        session = await build(exit_stack)
        answer = session._on_request

        async def on_request(dctx: Any, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
            request_id = dctx.request_id
            if request_id is not None:
                result = await route(session, request_id, method, params)
                if result is not None:
                    return result
            return await answer(dctx, method, params)

        session._on_request = on_request  # type: ignore[method-assign]
        return session

    client._build_session = build_routed  # type: ignore[method-assign]
