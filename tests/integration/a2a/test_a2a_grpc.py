"""The gRPC binding against the Python a2a-sdk's own gRPC server (``GrpcHandler``); skipped without grpcio."""

from __future__ import annotations

import importlib.util

import pytest

from tests.servers.a2a_grpc_agent import grpc_agent
from workbench.core.errors import ConfigError, WorkbenchError
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import ArtifactUpdated, Completed, InputRequired
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

pytestmark = pytest.mark.asyncio
TOKEN = "grpc-bearer-123"


async def test_the_grpc_binding_streams_answers_and_records_each_message() -> None:
    wire = WireRecorder()
    async with grpc_agent() as url, A2AAgent(url, binding="GRPC", wire=wire) as agent:
        assert agent.capabilities.transport == "GRPC"
        result = await agent.invoke_async("hello grpc")
        events = [e async for e in agent.stream_async("ask-schema")]
        asked = next(e for e in events if isinstance(e, InputRequired))
        again = [e async for e in agent.stream_async("blue", task_id=asked.request.task_id)]
    assert result.state == "completed" and "hello grpc" in result.text
    assert [e.name for e in again if isinstance(e, ArtifactUpdated)] == ["answer"]
    last = again[-1]
    assert isinstance(last, Completed) and last.result.state == "completed"
    grpc_records = [r for r in wire.records() if r.kind == WireKind.RAW and "gRPC SendStreamingMessage" in r.summary]
    assert any("hello grpc" in r.payload for r in grpc_records if r.direction == "out")
    assert any('"artifactUpdate"' in r.payload for r in grpc_records if r.direction == "in")
    assert any("not" in r.summary and "HTTP/2" in r.summary for r in wire.records())  # says what is not kept


async def test_auto_keeps_to_http_when_the_card_offers_grpc_first() -> None:
    async with grpc_agent() as url, A2AAgent(url) as agent:
        assert agent.capabilities.transport == "JSONRPC"


async def test_headers_travel_as_grpc_metadata_and_a_refusal_is_a_typed_error() -> None:
    async with grpc_agent(auth_token=TOKEN) as url:
        async with A2AAgent(url, binding="GRPC", bearer_token=TOKEN) as agent:
            assert (await agent.invoke_async("with token")).state == "completed"
        async with A2AAgent(url, binding="GRPC") as agent:
            with pytest.raises(WorkbenchError):
                await agent.invoke_async("without")


async def test_the_grpc_binding_without_grpcio_is_a_config_error_naming_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "grpc" else real(name, *a))
    with pytest.raises(ConfigError) as caught:
        A2AAgent("http://127.0.0.1:9", binding="GRPC")
    assert caught.value.details == {"option": "binding", "missing": "grpcio"}
