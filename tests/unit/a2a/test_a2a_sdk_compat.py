"""Contract tests of the A2A SDK's private names the workbench relies on (``a2a/_sdk_compat.py``).

``StreamingJsonRpcTransport`` replaces the SDK's ``JsonRpcTransport._send_stream_request``: over the
same event streams (served in process) it must yield the same messages and raise the same errors.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import httpx
import pytest
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.helpers import new_text_message
from a2a.types import AgentCard, AgentInterface, Role, SendMessageRequest
from a2a.utils.constants import TransportProtocol
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from workbench.core.protocols.a2a import _sdk_compat as compat

URL = "http://agent.test/"
CHUNKS = [
    {"task": {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_SUBMITTED"}}},
    {"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}},
    {"artifactUpdate": {"taskId": "t1", "contextId": "c1", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}},
    {
        "artifactUpdate": {
            "taskId": "t1",
            "contextId": "c1",
            "artifact": {"artifactId": "a", "name": "out", "metadata": {"k": [1, "v"]}, "parts": [{"text": "y"}]},
            "append": True,
            "lastChunk": True,
        }
    },
    {"statusUpdate": {"taskId": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_COMPLETED"}}},
]


def event(data: Any, name: str | None = None) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    return (f"event: {name}\n" if name else "") + f"data: {text}\n\n"


def rpc(result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": "1", "result": result}


STREAMS: dict[str, str] = {
    "chunks": "".join(event(rpc(c)) for c in CHUNKS),
    "error member": event(rpc(CHUNKS[0]))
    + event({"jsonrpc": "2.0", "id": "1", "error": {"code": -32001, "message": "gone"}}),
    "error and result": event(
        {"jsonrpc": "2.0", "id": "1", "error": {"code": -32001, "message": "x"}, "result": CHUNKS[2]}
    ),
    "falsy error member": event({"jsonrpc": "2.0", "id": "1", "error": None, "result": CHUNKS[2]}),
    "invalid json": event(rpc(CHUNKS[0])) + event("{not json"),
    "a list": event([rpc(CHUNKS[0])]),
    "no result": event({"jsonrpc": "2.0", "id": "1"}),
    "unparseable result": event(rpc({"artifactUpdate": {"artifact": {"parts": "text"}}})),
    "sse error event": event(rpc(CHUNKS[0])) + event({"error": {"code": -32603, "message": "boom"}}, name="error"),
}


def app_for(body: str, content_type: str = "text/event-stream") -> Starlette:
    async def answer(request: Request) -> Response:
        await request.body()
        return Response(body, media_type=content_type)

    return Starlette(routes=[Route("/", answer, methods=["POST"])])


async def outcome(cls: type[JsonRpcTransport], app: Starlette) -> tuple[list[Any], str | None]:
    card = AgentCard(supported_interfaces=[AgentInterface(url=URL, protocol_binding="JSONRPC")])
    request = SendMessageRequest(message=new_text_message("hi", role=Role.ROLE_USER))
    got: list[Any] = []
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app)) as http:
        transport = cls(http, card, URL, is_shared_httpx=True)
        try:
            async for response in transport.send_message_streaming(request):
                got.append(response)
        except Exception as exc:
            return got, f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}"
    return got, None


@pytest.mark.asyncio
@pytest.mark.parametrize("name", list(STREAMS))
async def test_the_streaming_transport_yields_and_raises_what_the_sdk_transport_does(name: str) -> None:
    app = app_for(STREAMS[name])
    ours = await outcome(compat.StreamingJsonRpcTransport, app)
    sdk = await outcome(JsonRpcTransport, app)
    assert ours == sdk
    if name == "chunks":
        assert len(ours[0]) == len(CHUNKS) and ours[1] is None


@pytest.mark.asyncio
async def test_an_upfront_json_rpc_error_body_raises_what_the_sdk_raises() -> None:
    app = app_for(
        json.dumps({"jsonrpc": "2.0", "id": "1", "error": {"code": -32600, "message": "bad"}}), "application/json"
    )
    ours = await outcome(compat.StreamingJsonRpcTransport, app)
    assert ours == await outcome(JsonRpcTransport, app)
    assert ours[1] is not None


def test_the_sdk_still_has_the_private_names_the_transport_replaces_and_calls() -> None:
    assert compat.SDK_VERSION == "1.3.0"
    params = list(inspect.signature(JsonRpcTransport._send_stream_request).parameters)
    assert params == ["self", "rpc_request_payload", "context"]
    assert callable(JsonRpcTransport._check_jsonrpc_response)
    assert callable(JsonRpcTransport._handle_sse_error)


@pytest.mark.parametrize(
    ("binding", "version", "streaming"),
    [("JSONRPC", "1.0", True), ("JSONRPC", "", True), ("JSONRPC", "0.3", False), ("HTTP+JSON", "1.0", False)],
)
def test_the_factory_builds_the_streaming_transport_for_1x_json_rpc_only(
    binding: str, version: str, streaming: bool
) -> None:
    from a2a.client import ClientConfig, ClientFactory

    http = httpx.AsyncClient()
    interface = AgentInterface(url=URL, protocol_binding=binding, protocol_version=version)
    card = AgentCard(supported_interfaces=[interface])
    factory = ClientFactory(ClientConfig(httpx_client=http, supported_protocol_bindings=[binding]))
    compat.use_streaming_jsonrpc(factory, http, interface)
    client = factory.create(card)
    transports = [value for value in vars(client).values() if isinstance(value, JsonRpcTransport)]
    assert any(isinstance(t, compat.StreamingJsonRpcTransport) for t in transports) is streaming
    assert TransportProtocol.JSONRPC == "JSONRPC"


async def raised(app: Starlette, *, streaming: bool) -> Exception:
    card = AgentCard(supported_interfaces=[AgentInterface(url=URL, protocol_binding="JSONRPC")])
    request = SendMessageRequest(message=new_text_message("hi", role=Role.ROLE_USER))

    async def send(transport: compat.StreamingJsonRpcTransport) -> None:
        if streaming:
            async for _ in transport.send_message_streaming(request):
                pass
        else:
            await transport.send_message(request)

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app)) as http:
        with pytest.raises(Exception) as error:
            await send(compat.StreamingJsonRpcTransport(http, card, URL, is_shared_httpx=True))
    return error.value


@pytest.mark.asyncio
@pytest.mark.parametrize("streaming", [False, True])
async def test_an_error_code_that_names_no_a2a_error_keeps_its_code_message_and_data(streaming: bool) -> None:
    error = {"code": -32000, "message": "the agent's own", "data": {"retry": 5}}
    reply = {"jsonrpc": "2.0", "id": "1", "error": error}
    app = app_for(event(reply)) if streaming else app_for(json.dumps(reply), "application/json")
    exc = await raised(app, streaming=streaming)
    assert isinstance(exc, compat.AgentJSONRPCError)
    assert (exc.code, exc.message, exc.remote_data) == (-32000, "the agent's own", {"retry": 5})


@pytest.mark.asyncio
async def test_an_a2a_error_code_still_raises_the_sdks_error() -> None:
    from a2a.utils.errors import TaskNotFoundError

    reply = {"jsonrpc": "2.0", "id": "1", "error": {"code": -32001, "message": "gone"}}
    exc = await raised(app_for(json.dumps(reply), "application/json"), streaming=False)
    assert isinstance(exc, TaskNotFoundError) and exc.message == "gone"


def test_the_factory_builds_a_0_3_json_rpc_transport_that_keeps_unknown_codes() -> None:
    from a2a.client import ClientConfig, ClientFactory
    from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport
    from a2a.utils.errors import TaskNotFoundError

    assert list(inspect.signature(CompatJsonRpcTransport._create_jsonrpc_error).parameters) == ["self", "error_dict"]
    assert list(inspect.signature(JsonRpcTransport._create_jsonrpc_error).parameters) == ["self", "error_dict"]
    http = httpx.AsyncClient()
    interface = AgentInterface(url=URL, protocol_binding="JSONRPC", protocol_version="0.3")
    factory = ClientFactory(ClientConfig(httpx_client=http, supported_protocol_bindings=["JSONRPC"]))
    compat.use_streaming_jsonrpc(factory, http, interface)
    client = factory.create(AgentCard(supported_interfaces=[interface]))
    [transport] = [value for value in vars(client).values() if isinstance(value, CompatJsonRpcTransport)]
    unknown = transport._create_jsonrpc_error({"code": -32000, "message": "the agent's own"})
    assert isinstance(unknown, compat.AgentJSONRPCError)
    assert (unknown.code, unknown.message) == (-32000, "the agent's own")
    assert isinstance(transport._create_jsonrpc_error({"code": -32001, "message": "gone"}), TaskNotFoundError)


SURROGATE_CASES = [
    "",
    "plain ascii",
    "é and ünïcödé",
    "astral 😀 emoji",
    "lone high \ud800 here",
    "lone low \udc00 here",
    "pair as two code points \ud83d\ude00",
    "low then high \udc00\ud800",
    "ends high \udbff",
]


def test_protobuf_still_has_the_surrogate_pattern_the_check_stands_in_for() -> None:
    from google.protobuf import __version__ as protobuf_version
    from google.protobuf import json_format

    assert protobuf_version == compat.PROTOBUF_VERSION
    assert isinstance(json_format._UNPAIRED_SURROGATE_PATTERN, compat.SurrogateCheck)  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", SURROGATE_CASES)
def test_the_surrogate_check_answers_as_the_pattern_does(value: str) -> None:
    from google.protobuf import json_format

    check: compat.SurrogateCheck = json_format._UNPAIRED_SURROGATE_PATTERN  # type: ignore[attr-defined]
    expected = check.pattern.search(value)
    found = check.search(value)
    assert (found is None) == (expected is None)
    assert found is None or (expected is not None and found.span() == expected.span())


def test_a_lone_surrogate_in_a_string_field_is_still_a_parse_error_and_a_non_string_a_type_error() -> None:
    from a2a.types import Message
    from google.protobuf.json_format import ParseDict, ParseError

    with pytest.raises(ParseError):
        ParseDict({"messageId": "m\ud800", "role": "ROLE_USER"}, Message())
    with pytest.raises(ParseError):
        ParseDict({"messageId": 5, "role": "ROLE_USER"}, Message())
    assert ParseDict({"messageId": "m-é", "role": "ROLE_USER"}, Message()).message_id == "m-é"
