"""A model that answers a server's sampling request through the window's ``SamplingService`` records its HTTP
exchanges in the wire log as records of the connection that asked (protocol ``model``), its key redacted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.servers.model_api import ModelAPI
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.protocols.base import SamplingRequest, SamplingResponse
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
from workbench.core.sampling.responders import SamplingPolicy
from workbench.core.sampling.service import SamplingChoice, SamplingService
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.mcp_server.app import build_server

pytestmark = pytest.mark.asyncio
KEY = "sk-sampling-service-0123456789-SECRET"


async def test_the_demo_servers_handoff_answered_by_a_model_is_recorded_on_its_connection_with_the_key_masked(
    model_api: ModelAPI, tmp_path: Path
) -> None:
    async def person(request: SamplingRequest) -> SamplingResponse:
        raise AssertionError("the model answers, not a person")

    store = ModelEndpointStore(tmp_path, MemoryCredentialStore({"model-endpoint:local": KEY}))
    store.put(ModelEndpoint(name="local", api="openai", base_url=model_api.openai_url, model="echo", timeout=10))
    wire = WireRecorder()
    service = SamplingService(person, store, config_dir=tmp_path, wire=wire)
    service.set_choice("demo", SamplingChoice("model:local", SamplingPolicy.AUTO))
    server = build_server()
    async with MCPAgent.in_process(
        server, name="demo", wire=wire, connection_id="demo-conn", sampling_handler=service
    ) as agent:
        result = await agent.call_tool("handoff", {"agent_uri": "https://agents.example/a", "message": "hello"})
    assert result.text == "echo: hello"
    assert model_api.seen[-1].key == KEY  # the key went to the endpoint, and only there
    model = [r for r in wire.records() if r.protocol == "model"]
    assert {r.connection_id for r in model} == {"demo-conn"}
    assert {r.direction.value for r in model} >= {"out", "in"}
    assert any("/v1/chat/completions" in str((r.http or {}).get("url")) for r in model)
    assert any(r.http and r.http.get("status") == 200 for r in model)
    assert all(KEY not in r.payload and KEY not in str(r.http or {}) for r in wire.records())
    assert all(KEY[:8] not in str((r.http or {}).get("headers", {})) for r in model)
    assert service.ledger("demo").by_responder == {"model:local": 1}
