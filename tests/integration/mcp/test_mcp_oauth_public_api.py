"""OAuth through the public library API, ``MCPAgent(url, oauth=OAuth(...))``, against a real loopback server.

Each client identity logs in (dynamic registration, a pre-registered client with each token endpoint
auth method, a client metadata document), and each bad input is refused at the step it belongs to,
with a typed error, nothing stored and no secret in the error, the logs or the wire log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Literal

import pytest
import pytest_asyncio
from mcp.shared.auth import OAuthClientInformationFull
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.servers.oauth_as import SCOPE, OAuthServers, serve_oauth_protected_mcp
from workbench.agents import (
    AuthorizationCode,
    AuthStage,
    AuthStep,
    ConfigError,
    InsecureEndpointError,
    MCPAgent,
    MemoryCredentialStore,
    MetadataDocumentClient,
    OAuth,
    OAuthRefusedError,
    PreRegisteredClient,
    WireRecorder,
    follow_redirects_opener,
)
from workbench.core.client_metadata_server import serve_client_metadata
from workbench.core.http.loopback import free_port, redirect_uri
from workbench.core.serving import serve_asgi

pytestmark = pytest.mark.asyncio

SECRET = "pre-registered-secret-7f3a9c"


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp() as running:
        yield running


def agent_for(
    url: str,
    oauth: OAuth,
    store: MemoryCredentialStore,
    wire: WireRecorder | None = None,
    steps: list[AuthStep] | None = None,
) -> MCPAgent:
    return MCPAgent(
        url,
        oauth=oauth,
        credentials=store,
        open_browser=follow_redirects_opener,
        wire=wire,
        on_auth_step=steps.append if steps is not None else None,
    )


async def nothing_stored(store: MemoryCredentialStore, url: str) -> bool:
    return all([await store.get(f"oauth@{url}/oauth:{kind}") is None for kind in ("tokens", "client")])


def wire_text(wire: WireRecorder) -> str:
    return "\n".join(r.payload + repr(r.http) + r.summary for r in wire.records())


async def test_the_public_api_logs_in_with_dynamic_registration_and_a_second_agent_reuses_the_tokens(
    servers: OAuthServers,
) -> None:
    store, steps = MemoryCredentialStore(), list[AuthStep]()
    async with agent_for(servers.url, OAuth(), store, steps=steps) as agent:
        assert float((await agent.call_tool("add", {"a": 2, "b": 3})).text) == 5
    assert [(s.stage, s.status) for s in steps if s.status == "ok"][-1] == (AuthStage.TOKEN, "ok")
    assert all(s.wire_seqs for s in steps if s.stage not in (AuthStage.AUTHORIZE, AuthStage.CALLBACK))
    async with MCPAgent(servers.url, oauth=OAuth(), credentials=store) as again:  # no browser: stored tokens only
        assert again.tool_specs()
    assert (servers.provider.counters.registrations, servers.provider.counters.code_grants) == (1, 1)


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post", "none"])
async def test_a_pre_registered_client_logs_in_with_its_token_endpoint_auth_method_and_never_registers(
    servers: OAuthServers, method: Literal["client_secret_basic", "client_secret_post", "none"]
) -> None:
    port, secret = free_port(), (SECRET if method != "none" else None)
    servers.provider.clients["pre-id"] = OAuthClientInformationFull(
        client_id="pre-id",
        client_secret=secret,
        redirect_uris=[redirect_uri(port)],
        token_endpoint_auth_method=method,
        scope=SCOPE,
    )
    store, wire = MemoryCredentialStore(), WireRecorder()
    oauth = OAuth(client=PreRegisteredClient("pre-id", secret, method), grant=AuthorizationCode(redirect_port=port))
    async with agent_for(servers.url, oauth, store, wire) as agent:
        assert agent.tool_specs()
    assert servers.provider.counters.registrations == 0
    assert servers.provider.counters.code_grants == 1
    assert await store.get(f"oauth@{servers.url}/oauth:client") is None  # the given client is not stored
    assert SECRET not in wire_text(wire) + repr(oauth)


async def test_a_wrong_client_secret_stops_the_login_at_the_token_step_without_printing_the_secret(
    servers: OAuthServers, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    servers.provider.clients["pre-id"] = OAuthClientInformationFull(
        client_id="pre-id",
        client_secret="the-real-one-123456",
        redirect_uris=[redirect_uri(port)],
        scope=SCOPE,
    )
    store, wire = MemoryCredentialStore(), WireRecorder()
    oauth = OAuth(client=PreRegisteredClient("pre-id", SECRET), grant=AuthorizationCode(redirect_port=port))
    caplog.set_level(logging.DEBUG)
    with pytest.raises(OAuthRefusedError) as refused:
        async with agent_for(servers.url, oauth, store, wire):
            pass
    assert (refused.value.code, refused.value.details["step"]) == ("oauth-refused", "token")
    assert await nothing_stored(store, servers.url)
    shown = str(refused.value) + json.dumps(refused.value.to_dict()) + caplog.text + wire_text(wire)
    assert SECRET not in shown


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ({"claimed_issuer": "https://impostor.example"}, "issuer-mismatch"),  # authorization-server metadata
        ({"claimed_resource": "https://elsewhere.example/mcp"}, "resource-mismatch"),  # protected-resource metadata
    ],
)
async def test_metadata_naming_another_issuer_or_resource_is_refused_at_discovery(
    claim: dict[str, str], reason: str
) -> None:
    async with serve_oauth_protected_mcp(**claim) as servers:
        store = MemoryCredentialStore()
        with pytest.raises(OAuthRefusedError) as refused:
            async with agent_for(servers.url, OAuth(), store):
                pass
        assert servers.provider.counters.registrations == servers.provider.counters.authorizations == 0
        assert await nothing_stored(store, servers.url)
    assert (refused.value.details["step"], refused.value.details["oauth"]) == ("discovery", reason)


@pytest.mark.parametrize("endpoint", ["token_endpoint", "registration_endpoint", "authorization_endpoint"])
async def test_an_endpoint_over_plain_http_off_this_machine_is_refused_before_anything_is_sent(endpoint: str) -> None:
    async with serve_oauth_protected_mcp(metadata_overrides={endpoint: "http://auth.example/x"}) as servers:
        store = MemoryCredentialStore()
        with pytest.raises(InsecureEndpointError) as refused:
            async with agent_for(servers.url, OAuth(), store):
                pass
        assert servers.provider.counters.registrations == servers.provider.counters.authorizations == 0
        assert await nothing_stored(store, servers.url)
    assert refused.value.details["step"] == "discovery"
    assert refused.value.details["endpoint"] == endpoint


@pytest_asyncio.fixture
async def cimd_servers() -> AsyncIterator[OAuthServers]:
    overrides = {"client_id_metadata_document_supported": True}
    async with serve_oauth_protected_mcp(metadata_overrides=overrides) as running:  # type: ignore[arg-type]
        yield running


def document_app(documents: dict[str, dict[str, object]]) -> Callable[[str], Starlette]:
    """An app serving ``documents[base]`` at ``/client.json`` (``_status`` in it: answered with that status)."""

    def build(base: str) -> Starlette:
        async def serve(request: Request) -> JSONResponse:
            document = dict(documents[base])
            status = int(document.pop("_status", 200))  # type: ignore[call-overload]
            return JSONResponse(document, status_code=status)

        return Starlette(routes=[Route("/client.json", serve)])

    return build


async def test_a_client_metadata_document_served_on_loopback_is_the_client_id_and_nothing_is_registered(
    cimd_servers: OAuthServers,
) -> None:
    port = free_port()
    async with serve_client_metadata(redirect_port=port) as client:
        # The authorization server resolves the document (here: it is told it, as if it had fetched it).
        document = {**client.document(port), "scope": SCOPE}
        cimd_servers.provider.clients[client.url] = OAuthClientInformationFull.model_validate(document)
        steps: list[AuthStep] = []
        oauth = OAuth(client=client, grant=AuthorizationCode(redirect_port=port))
        async with agent_for(cimd_servers.url, oauth, MemoryCredentialStore(), steps=steps) as agent:
            assert agent.tool_specs()
    assert cimd_servers.provider.counters.registrations == 0
    assert cimd_servers.provider.counters.code_grants == 1
    assert [s.status for s in steps if s.stage is AuthStage.REGISTRATION] == ["ok"]


@pytest.mark.parametrize("flaw", ["another-client-id", "redirect-uri-missing", "not-found"])
async def test_a_client_metadata_document_that_does_not_match_is_refused_at_the_registration_step(
    cimd_servers: OAuthServers, flaw: str
) -> None:
    port, documents = free_port(), dict[str, dict[str, object]]()
    async with serve_asgi(document_app(documents), lifespan="off") as base:
        client = MetadataDocumentClient(f"{base}/client.json")
        document = client.document(port)
        if flaw == "another-client-id":
            document["client_id"] = "https://someone-else.example/client.json"
        elif flaw == "redirect-uri-missing":
            document["redirect_uris"] = ["http://127.0.0.1:1/callback"]
        else:
            document = {"_status": 404}
        documents[base] = document
        store = MemoryCredentialStore()
        oauth = OAuth(client=client, grant=AuthorizationCode(redirect_port=port))
        with pytest.raises(OAuthRefusedError) as refused:
            async with agent_for(cimd_servers.url, oauth, store):
                pass
    assert refused.value.details == {"oauth": "client-metadata-mismatch", "step": "registration"}
    assert cimd_servers.provider.counters.registrations == cimd_servers.provider.counters.authorizations == 0
    assert await nothing_stored(store, cimd_servers.url)


async def test_a_client_metadata_document_without_server_support_is_refused_when_registering_is_not_allowed(
    servers: OAuthServers,
) -> None:
    oauth = OAuth(client=MetadataDocumentClient("https://app.example/client.json", fallback=False))
    with pytest.raises(OAuthRefusedError) as refused:
        async with agent_for(servers.url, oauth, MemoryCredentialStore()):
            pass
    assert refused.value.details == {"oauth": "client-metadata-unsupported", "step": "registration"}
    assert servers.provider.counters.registrations == 0


async def test_oauth_options_refuse_what_cannot_work() -> None:
    with pytest.raises(ConfigError):
        PreRegisteredClient("id", None, "client_secret_basic")
    with pytest.raises(ConfigError):
        MetadataDocumentClient("http://app.example/client.json")  # plain http off this machine
    with pytest.raises(ConfigError):
        MetadataDocumentClient("https://app.example/")  # no path
    with pytest.raises(ConfigError):
        MCPAgent.stdio("python", oauth=OAuth())
    assert SECRET not in repr(PreRegisteredClient("id", SECRET))
