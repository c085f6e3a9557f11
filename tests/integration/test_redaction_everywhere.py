"""Secrets stay secret everywhere: known values drive real authenticated connections, then every log
record, error message, wire record, export and saved file is scanned for them."""

from __future__ import annotations

import logging

import pytest
from pydantic import SecretStr

from tests.support.a2a_agents import BEARER, bearer_app
from workbench.core.agent_factory import build_agent
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import WorkbenchError
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, SecretKind
from workbench.core.profiles.service import ProfileService
from workbench.core.profiles.store import ProfileStore
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio
MCP_TOKEN = "mcp-bearer-5d1f0c9e"
QUERY_KEY = "qk-71a9b3e2d4"
WRONG = "wrong-secret-4a4a4a"


async def _mcp_call(profile, store, wire) -> str:
    agent = await build_agent(profile, wire=wire, resolve_secret=store.resolve, credentials=store)
    async with agent:
        result = await agent.call_tool("add", {"a": 2, "b": 3})
    return str(result.structured_content)


@pytest.mark.expected_error_logs  # the refused A2A request is logged by the agent's SDK
async def test_known_secrets_never_appear_in_logs_errors_wire_records_exports_or_saved_files(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    store = MemoryCredentialStore()
    profiles = ProfileStore(tmp_path / "config")
    wire = WireRecorder()
    errors: list[str] = []
    async with (
        serve_http(transport="streamable-http", require_bearer=MCP_TOKEN) as bearer_url,
        serve_http(transport="streamable-http", require_query_key=("api_key", QUERY_KEY)) as query_url,
        serve_agent(bearer_app) as a2a_url,
    ):
        bearer = MCPHTTPProfile(name="bearer", url=bearer_url)
        query = MCPHTTPProfile(name="query", url=query_url)
        a2a = A2AProfile(name="a2a", url=a2a_url)
        for p in (bearer, query, a2a):
            profiles.upsert(p)
        service = ProfileService(profiles, store)
        bearer = await service.set_secret(bearer, SecretKind.BEARER, "", SecretStr(MCP_TOKEN))
        query = await service.set_secret(query, SecretKind.QUERY, "api_key", SecretStr(QUERY_KEY))
        a2a = await service.set_secret(a2a, SecretKind.BEARER, "", SecretStr(BEARER))
        assert await _mcp_call(bearer, store, wire) == "{'result': 5.0}"
        assert await _mcp_call(query, store, wire) == "{'result': 5.0}"
        agent = await build_agent(a2a, wire=wire, resolve_secret=store.resolve)
        async with agent:
            assert (await agent.invoke_async("hello")).state == "completed"
        # a wrong value: the failure's message and details must not echo it either
        wrong = MemoryCredentialStore()
        await wrong.set(query.secrets[0].key, WRONG)
        with pytest.raises(WorkbenchError) as info:
            await _mcp_call(query, wrong, wire)
        errors += [str(info.value), repr(info.value.to_dict())]
    assert any(r.kind.value == "http-request" for r in wire.records())
    jsonl, har = tmp_path / "wire.jsonl", tmp_path / "wire.har"
    wire.export_jsonl(jsonl)
    wire.export_har(har)
    haystacks = {
        "logs": "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records),
        "errors": "\n".join(errors),
        "wire": "\n".join(f"{r.payload} {r.http} {r.summary}" for r in wire.records()),
        "jsonl": jsonl.read_text(),
        "har": har.read_text(),
    }
    haystacks |= {str(p): p.read_text(errors="replace") for p in (tmp_path / "config").rglob("*") if p.is_file()}
    for name, text in haystacks.items():
        for secret in (MCP_TOKEN, QUERY_KEY, BEARER, WRONG):
            assert secret not in text, f"{secret!r} found in {name}"
    assert "api_key=%2A%2A%2A" in haystacks["jsonl"] or "api_key=***" in haystacks["jsonl"]
