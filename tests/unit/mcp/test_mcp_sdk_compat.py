"""Contract tests of the MCP SDK's private names the workbench relies on (``mcp/_sdk_compat.py``).

Each runs against the demo server in this process (no npm, no sockets), so an SDK upgrade that
removes or changes one of the names fails here, by name, rather than deep inside an integration test.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.session import ClientSession
from mcp.shared.auth import OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl

from workbench.core.protocols.mcp import _sdk_compat as compat
from workbench.demo.mcp_server.app import build_server

MODES = ["auto", "legacy"]  # the 2026 era (server/discover) and the handshake era (initialize)


def client(**kwargs: Any) -> Client:
    return Client(compat.in_memory_transport(build_server()), **kwargs)


def test_the_private_names_still_exist_in_the_installed_sdk():
    from mcp.client import _memory

    assert inspect.isclass(_memory.InMemoryTransport), "mcp.client._memory.InMemoryTransport is gone"
    session_source = inspect.getsource(ClientSession)
    for name in ("self._stamp", "self._dispatcher", "self._log_level", "self._session_read_timeout_seconds"):
        assert name in session_source, f"ClientSession no longer has {name}"
    assert inspect.iscoroutinefunction(ClientSession.validate_tool_result)
    assert inspect.iscoroutinefunction(Client._build_session), "Client._build_session is gone"
    assert "self._build_capabilities(" in session_source, "ClientSession no longer builds its capabilities there"
    assert "self._dispatcher.run, self._on_request," in session_source, "ClientSession no longer serves requests so"
    assert inspect.iscoroutinefunction(OAuthClientProvider._initialize)
    assert inspect.isasyncgenfunction(OAuthClientProvider._auth_flow)
    flow_source = inspect.getsource(OAuthClientProvider._auth_flow)
    assert "self._initialized" in flow_source
    for name in ("self._refresh_token()", "self._handle_refresh_response(", "self._handle_token_response("):
        assert name in flow_source, f"OAuthClientProvider._auth_flow no longer calls {name}"
    authorization_source = inspect.getsource(OAuthClientProvider._perform_authorization)
    for name in ("self._perform_authorization_code_grant()", "self._exchange_token_authorization_code("):
        assert name in authorization_source, f"OAuthClientProvider._perform_authorization no longer calls {name}"
    for method in (
        OAuthClientProvider._perform_authorization_code_grant,
        OAuthClientProvider._exchange_token_authorization_code,
        OAuthClientProvider._refresh_token,
        OAuthClientProvider._handle_token_response,
        OAuthClientProvider._handle_refresh_response,
    ):
        assert inspect.iscoroutinefunction(method), f"{method.__name__} is no longer a coroutine function"


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_send_raw_request_is_stamped_so_both_eras_answer(mode):
    with anyio.fail_after(10):
        async with client(mode=mode) as c:
            result = await compat.send_raw_request(c.session, "tools/list", None)
            assert "weather" in [tool["name"] for tool in result["tools"]]


@pytest.mark.asyncio
async def test_a_log_level_set_after_connecting_reaches_later_requests_of_a_2026_session():
    levels: list[str] = []

    async def on_log(params: Any) -> None:
        levels.append(params.level)

    with anyio.fail_after(10):
        async with client(log_level="warning", logging_callback=on_log) as c:
            assert c.session._negotiated_version not in (None, "2025-11-25")
            await c.call_tool("weather", {"city": "Paris"})  # logs at debug only
            assert levels == []
            compat.set_session_log_level(c.session, "debug")
            compat.set_session_log_level(c.session, "debug")  # twice wraps once
            await c.call_tool("weather", {"city": "Paris"})
            assert levels == ["debug"]


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_accept_any_tool_result_lets_a_result_that_violates_its_output_schema_through(mode):
    with anyio.fail_after(10):
        async with client(mode=mode) as c:
            with pytest.raises(RuntimeError):
                await c.call_tool("broken_output", {})
            compat.accept_any_tool_result(c.session)
            result = await c.call_tool("broken_output", {})
            assert result.structured_content == {"city": 42, "condition": "volcanic", "temp_c": "warm"}


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_shaped_client_capabilities_are_what_the_server_sees_in_both_eras(mode):
    import mcp.types as types

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    versions: list[str] = []

    def form_only(caps: types.ClientCapabilities, version: str) -> types.ClientCapabilities:
        versions.append(version)
        return caps.model_copy(
            update={"elicitation": types.ElicitationCapability(form=types.FormElicitationCapability())}
        )

    with anyio.fail_after(10):
        async with client(mode=mode, elicitation_callback=elicit) as c:
            assert (await c.call_tool("connect_account", {})).is_error is False  # URL elicitation declined
        shaped = client(mode=mode, elicitation_callback=elicit)
        compat.shape_client_capabilities(shaped, form_only)
        async with shaped as c:
            assert (await c.call_tool("connect_account", {})).is_error  # the tool needs URL elicitation
            negotiated = c.session.protocol_version
    # initialize is built for 2025-11-25; a 2026-era session builds each request's _meta for its own version
    assert set(versions) == ({"2025-11-25"} if mode == "legacy" else {negotiated})


@pytest.mark.asyncio
async def test_a_route_answers_the_servers_requests_it_takes_and_leaves_the_others_to_the_sdk():
    import mcp.types as types

    called: list[str] = []
    routed: list[tuple[str, Any]] = []

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        called.append(params.message)
        return types.ElicitResult(action="decline")

    def route_taking(taking: bool) -> Any:
        async def route(session: Any, request_id: Any, method: str, params: Any) -> dict[str, Any] | None:
            routed.append((method, request_id))
            if method == "elicitation/create" and taking:
                return {"action": "accept", "content": {}}  # sent as it is, no callback
            return None

        return route

    with anyio.fail_after(10):
        for taking in (True, False):
            routed_client = client(mode="legacy", elicitation_callback=elicit)
            compat.route_server_requests(routed_client, route_taking(taking))
            async with routed_client as c:
                result = await c.call_tool("connect_account", {})
                assert result.is_error is False
    assert [method for method, _ in routed] == ["elicitation/create", "elicitation/create"]
    assert all(request_id is not None for _, request_id in routed)
    assert len(called) == 1  # only the request the route left to the SDK reached the callback


def test_the_sdk_still_requires_result_type_on_a_2026_result_before_reading_it():
    from mcp_types import methods
    from pydantic import ValidationError

    methods.validate_server_result("tools/call", "2026-07-28", {"content": [], "resultType": "complete"})
    with pytest.raises(ValidationError):
        methods.validate_server_result("tools/call", "2026-07-28", {"content": []})


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", MODES)
async def test_reading_absent_result_type_as_complete_wraps_the_session_once_and_keeps_it_working(mode):
    with anyio.fail_after(10):
        async with client(mode=mode) as c:
            compat.read_absent_result_type_as_complete(c.session)
            wrapped = c.session._dispatcher.send_raw_request
            compat.read_absent_result_type_as_complete(c.session)
            assert c.session._dispatcher.send_raw_request is wrapped
            result = await c.call_tool("weather", {"city": "Paris"})
            assert not result.is_error


class _NoStorage:
    async def get_tokens(self) -> None:
        return None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        raise AssertionError("not expected")

    async def get_client_info(self) -> None:
        return None

    async def set_client_info(self, client_info: Any) -> None:
        raise AssertionError("not expected")


class _Recording(compat.HookedOAuthClientProvider):
    def __init__(self) -> None:
        metadata = OAuthClientMetadata(redirect_uris=[AnyUrl("http://127.0.0.1:1/callback")])
        super().__init__("http://127.0.0.1:1/mcp", metadata, _NoStorage())
        self.loads = 0
        self.watched: list[httpx2.Request] = []

    async def load_state(self) -> None:
        self.loads += 1
        self.context.current_tokens = OAuthToken(access_token="stored", token_type="Bearer")

    async def watch_flow(self, request: httpx2.Request, flow: Any) -> Any:
        self.watched.append(request)
        outgoing = await flow.__anext__()
        try:
            while True:
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return


@pytest.mark.asyncio
async def test_waiting_on_a_person_stops_the_timeout_of_the_request_being_served_and_restarts_it():
    from mcp.shared._request_clock import request_clock

    with compat.waiting_on_a_person():
        pass  # outside a request: nothing to stop
    with request_clock(30) as clock:
        clock.start()
        with compat.waiting_on_a_person():
            assert clock._scope.deadline == math.inf
        assert clock._scope.deadline < math.inf


@pytest.mark.asyncio
async def test_the_oauth_hooks_load_state_once_and_watch_every_flow():
    provider = _Recording()
    for _ in range(2):
        request = httpx2.Request("POST", "http://127.0.0.1:1/mcp")
        flow = provider.async_auth_flow(request)
        sent = await flow.__anext__()
        assert sent is request and sent.headers["Authorization"] == "Bearer stored"
        with pytest.raises(StopAsyncIteration):
            await flow.asend(httpx2.Response(200, request=request))
    assert provider.loads == 1
    assert len(provider.watched) == 2


@pytest.mark.asyncio
async def test_a_streamable_http_stand_in_error_is_a_stand_in_and_a_servers_error_is_not():
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCError, JSONRPCRequest

    from workbench.core.protocols.mcp import transports  # noqa: F401 - sets the transports up
    from workbench.core.protocols.mcp.provenance import StandInError

    def answer(request: httpx2.Request) -> httpx2.Response:
        rid = request.read().decode().split('"id":')[1].split(",")[0]
        if rid == "1":  # an event stream that ends without the answer: the transport's stand-in
            return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=b"")
        error = b'{"jsonrpc": "2.0", "id": 2, "error": {"code": -32000, "message": "the server\'s own"}}'
        return httpx2.Response(200, headers={"content-type": "application/json"}, content=error)

    http = httpx2.AsyncClient(transport=httpx2.MockTransport(answer))
    errors = []
    with anyio.fail_after(10):
        async with http, streamable_http_client("http://127.0.0.1:1/mcp", http_client=http) as (read, write):
            for rid in (1, 2):
                await write.send(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=rid, method="tools/list")))
                item = await read.receive()
                assert isinstance(item, SessionMessage) and isinstance(item.message, JSONRPCError)
                errors.append(item.message.error)
    assert isinstance(errors[0], StandInError) and errors[0].code == -32000
    assert not isinstance(errors[1], StandInError) and errors[1].message == "the server's own"


@pytest.mark.asyncio
async def test_a_legacy_sse_endpoint_on_another_origin_ends_the_connection_at_once_with_a_typed_error():
    from mcp.client.sse import sse_client

    from workbench.core.errors import WorkbenchError
    from workbench.core.protocols.mcp.errors import leaves
    from workbench.core.protocols.mcp.transports import ForeignEndpointError

    def answer(request: httpx2.Request) -> httpx2.Response:
        stream = b"event: endpoint\ndata: http://elsewhere.example:8080/messages?session_id=1\n\n"
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=stream)

    def factory(headers: Any = None, timeout: Any = None, auth: Any = None) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(headers=headers, timeout=timeout, auth=auth, transport=httpx2.MockTransport(answer))

    with anyio.fail_after(5), pytest.raises(BaseException) as raised:
        async with sse_client("http://127.0.0.1:1/sse", httpx_client_factory=factory):
            pass
    [refused] = [leaf for leaf in leaves(raised.value) if isinstance(leaf, WorkbenchError)]
    assert isinstance(refused, ForeignEndpointError)
    assert refused.details == {"endpoint_origin": "http://elsewhere.example:8080", "origin": "http://127.0.0.1:1"}
