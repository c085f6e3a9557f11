"""OAuth 2.1 against a real authorization server and a protected demo MCP server (both on 127.0.0.1).

The "browser" is ``follow_redirects_opener``: it GETs the authorization URL and follows the
redirect to the loopback receiver, as a browser would after an (auto-approved) consent page.
Token expiry is driven by a clock shared by the client and the authorization server.
"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from typing import Literal

import pytest
import pytest_asyncio

from tests.servers.oauth_as import EXTRA_SCOPE, SCOPE, OAuthServers, serve_oauth_protected_mcp
from workbench.core.agent_factory import DefaultAgentFactory, build_agent
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError, ConfigError, RequestTimeoutError
from workbench.core.events import EventBus
from workbench.core.oauth_login import login, logout
from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.protocols.mcp.oauth import (
    AuthStage,
    AuthStep,
    BrowserOpener,
    build_oauth_provider,
    follow_redirects_opener,
)
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage, client_key, tokens_key
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

pytestmark = pytest.mark.asyncio

TTL = 3600


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp(access_ttl=TTL) as running:
        yield running


def http_profile(servers: OAuthServers, **extra: object) -> MCPHTTPProfile:
    return MCPHTTPProfile(name="protected", url=servers.url, auth="oauth", **extra)  # type: ignore[arg-type]


async def oauth_agent(
    profile: MCPHTTPProfile | MCPSSEProfile,
    store: MemoryCredentialStore,
    servers: OAuthServers,
    *,
    wire: WireRecorder | None = None,
    opener: BrowserOpener | None = None,
    steps: list[AuthStep] | None = None,
) -> MCPAgent:
    """An agent whose provider runs on the servers' clock (a new provider = a new app session)."""
    wire = wire if wire is not None else WireRecorder()
    provider = await build_oauth_provider(
        profile,
        store,
        wire=wire,
        connection_id=profile.id,
        opener=opener,
        on_step=steps.append if steps is not None else None,
        clock=servers.clock,
    )
    transport: Literal["streamable-http", "sse"] = "sse" if isinstance(profile, MCPSSEProfile) else "streamable-http"
    return MCPAgent(profile.url, transport=transport, wire=wire, connection_id=profile.id, auth=provider)


def stages(steps: list[AuthStep]) -> list[tuple[AuthStage, str]]:
    return [(s.stage, s.status) for s in steps]


async def stored_access_token(store: MemoryCredentialStore, profile_id: str) -> str | None:
    state = await CredentialTokenStorage(store, profile_id).load()
    return state.tokens.access_token if state.tokens else None


async def test_login_discovers_registers_authorizes_then_a_tool_call_succeeds_and_steps_name_their_wire_records(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers, oauth_scopes=[EXTRA_SCOPE])
    wire, bus = WireRecorder(), EventBus()
    steps: list[AuthStep] = []
    on_bus: list[AuthStep] = []
    bus.subscribe(AuthStep, on_bus.append)
    factory = DefaultAgentFactory(credentials=store, oauth_opener=follow_redirects_opener, on_auth_step=steps.append)
    agent = await factory(profile, connection_id="c1", wire=wire, bus=bus)
    async with agent:
        result = await agent.call_tool("add", {"a": 2, "b": 3})  # type: ignore[attr-defined]
    assert result.structured_content == {"result": 5}
    assert stages(steps) == [
        (AuthStage.DISCOVERY, "ok"),
        (AuthStage.DISCOVERY, "ok"),
        (AuthStage.REGISTRATION, "ok"),
        (AuthStage.AUTHORIZE, "ok"),
        (AuthStage.CALLBACK, "ok"),
        (AuthStage.TOKEN, "ok"),
    ]
    assert on_bus == steps
    paths = [
        [
            wire.get(seq).http["url"].split("/", 3)[-1]
            for seq in step.wire_seqs
            if wire.get(seq).kind is WireKind.HTTP_REQUEST
        ]  # type: ignore[union-attr,index]
        for step in steps
    ]
    assert paths[0] == ["mcp", ".well-known/oauth-protected-resource/mcp"]  # the 401 challenge, then RFC 9728
    assert paths[1] == [".well-known/oauth-authorization-server"]
    assert paths[2] == ["register"]
    assert paths[3] == paths[4] == []  # the browser's request and redirect are not on this connection's wire
    assert paths[5] == ["token"]
    for step in steps:
        for seq in step.wire_seqs:
            record = wire.get(seq)
            assert record is not None and record.connection_id == "c1"
            assert record.kind in (WireKind.HTTP_REQUEST, WireKind.HTTP_RESPONSE)
    counters = servers.provider.counters
    assert (counters.registrations, counters.authorizations, counters.code_grants) == (1, 1, 1)
    state = await CredentialTokenStorage(store, profile.id).load()
    assert state.tokens is not None and set((state.tokens.scope or "").split()) == {SCOPE, EXTRA_SCOPE}
    assert state.expires_at is not None and state.authorization_server is not None


async def test_a_second_agent_with_the_same_store_reuses_the_tokens_without_logging_in(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    async with await oauth_agent(profile, store, servers, opener=follow_redirects_opener) as agent:
        await agent.call_tool("add", {"a": 1, "b": 1})
    steps: list[AuthStep] = []
    async with await oauth_agent(profile, store, servers, steps=steps) as again:  # no opener: no login possible
        assert (await again.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
    assert steps == []
    assert (servers.provider.counters.authorizations, servers.provider.counters.code_grants) == (1, 1)


async def test_a_token_close_to_expiry_is_refreshed_before_use_and_no_login_happens(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    steps: list[AuthStep] = []
    async with await oauth_agent(profile, store, servers, opener=follow_redirects_opener, steps=steps) as agent:
        first = await stored_access_token(store, profile.id)
        steps.clear()
        servers.clock.advance(TTL - 30)  # still valid at the server, but inside the refresh margin
        assert (await agent.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}
    assert stages(steps) == [(AuthStage.REFRESH, "ok")]
    assert servers.provider.counters.refresh_grants == 1
    assert servers.provider.counters.authorizations == 1
    assert await stored_access_token(store, profile.id) not in (None, first)


async def test_a_restarted_session_refreshes_an_expired_stored_token_instead_of_logging_in(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    async with await oauth_agent(profile, store, servers, opener=follow_redirects_opener) as agent:
        await agent.call_tool("add", {"a": 1, "b": 1})
    servers.clock.advance(TTL + 60)  # the app was closed for a while: the access token expired everywhere
    steps: list[AuthStep] = []
    async with await oauth_agent(profile, store, servers, steps=steps) as restarted:  # new provider, same store
        assert (await restarted.call_tool("add", {"a": 3, "b": 4})).structured_content == {"result": 7}
    assert stages(steps) == [(AuthStage.REFRESH, "ok")]
    assert servers.provider.counters.authorizations == 1
    state = await CredentialTokenStorage(store, profile.id).load()
    assert state.expires_at is not None and state.expires_at > servers.clock()


async def test_a_revoked_login_fails_with_auth_required_and_logging_in_again_recovers(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    async with await oauth_agent(profile, store, servers, opener=follow_redirects_opener) as agent:
        servers.provider.revoke_everything()
        # this agent may open a "browser": the 401 leads straight to a new login
        assert (await agent.call_tool("add", {"a": 1, "b": 1})).structured_content == {"result": 2}
    assert servers.provider.counters.authorizations == 2
    servers.provider.revoke_everything()
    steps: list[AuthStep] = []
    no_browser = await oauth_agent(profile, store, servers, steps=steps)
    with pytest.raises(AuthRequiredError) as info:
        await no_browser.connect()
    assert info.value.details["oauth"] == "login-required"
    assert stages(steps)[-1] == (AuthStage.AUTHORIZE, "failed")
    result = await login(profile, store, opener=follow_redirects_opener)
    assert [s.stage for s in result.steps] == [
        AuthStage.REFRESH,  # skipped: the stored tokens are set aside
        AuthStage.DISCOVERY,
        AuthStage.DISCOVERY,
        AuthStage.AUTHORIZE,
        AuthStage.CALLBACK,
        AuthStage.TOKEN,
    ]
    async with await oauth_agent(profile, store, servers) as recovered:
        assert (await recovered.call_tool("add", {"a": 2, "b": 5})).structured_content == {"result": 7}


async def test_a_token_revoked_mid_session_fails_the_call_with_auth_required_when_no_login_may_happen(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    await login(profile, store, opener=follow_redirects_opener)
    async with await oauth_agent(profile, store, servers) as agent:
        servers.provider.revoke_everything()
        with pytest.raises(AuthRequiredError):
            await agent.call_tool("add", {"a": 1, "b": 1})


async def test_an_expired_token_whose_refresh_is_refused_is_forgotten_and_a_login_is_required(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    await login(profile, store, opener=follow_redirects_opener)
    servers.provider.revoke_everything()
    servers.clock.advance(TTL + 1)
    steps: list[AuthStep] = []
    with pytest.raises(AuthRequiredError) as info:
        await (await oauth_agent(profile, store, servers, steps=steps)).connect()
    assert info.value.details["oauth"] == "login-required"
    assert stages(steps)[0] == (AuthStage.REFRESH, "failed")
    assert stages(steps)[-1] == (AuthStage.AUTHORIZE, "failed")
    assert await store.get(tokens_key(profile.id)) is None
    assert await store.get(client_key(profile.id)) is not None  # the registration is still good


async def test_logout_revokes_at_the_authorization_server_and_forgets_tokens_and_registration(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    await login(profile, store, opener=follow_redirects_opener)
    assert servers.provider.live_tokens()
    wire = WireRecorder()
    result = await logout(profile, store, wire=wire)
    assert result.revoked and result.forgotten == 2
    assert [(s.stage, s.status) for s in result.steps] == [(AuthStage.REVOKE, "ok")]
    revoke_requests = [wire.get(seq) for seq in result.steps[0].wire_seqs]
    assert [r.http["url"].endswith("/revoke") for r in revoke_requests if r and r.kind is WireKind.HTTP_REQUEST] == [  # type: ignore[index]
        True,
        True,
    ]
    assert servers.provider.live_tokens() == []
    assert await store.get(tokens_key(profile.id)) is None
    assert await store.get(client_key(profile.id)) is None
    again = await logout(profile, store)
    assert (again.revoked, again.forgotten, again.steps) == (False, 0, ())


async def test_logout_sends_nothing_to_a_revocation_endpoint_over_plain_http_off_this_machine(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    await login(profile, store, opener=follow_redirects_opener)
    saved = await store.get(client_key(profile.id))
    assert saved is not None
    stored = json.loads(saved.get_secret_value())
    stored["authorization_server"]["revocation_endpoint"] = "http://auth.example/revoke"
    await store.set(client_key(profile.id), json.dumps(stored))
    wire = WireRecorder()
    result = await logout(profile, store, wire=wire)
    assert (result.revoked, result.forgotten) == (False, 2)
    assert [(s.stage, s.status) for s in result.steps] == [(AuthStage.REVOKE, "failed")]
    assert [r.kind for r in wire.records()] == [WireKind.AUTH_STEP]  # nothing sent: only the step's own record
    assert servers.provider.counters.revocations == 0


async def test_the_redirect_port_is_registered_once_and_every_later_login_uses_it(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    first = await login(profile, store, opener=follow_redirects_opener)
    second = await login(profile, store, opener=follow_redirects_opener)
    assert first.redirect_port == second.redirect_port
    counters = servers.provider.counters
    assert counters.registrations == 1 and counters.authorizations == 2
    assert counters.redirect_uris == [f"http://127.0.0.1:{first.redirect_port}/callback"] * 2
    assert [s.stage for s in second.steps] == [
        AuthStage.REFRESH,  # skipped: the stored tokens are set aside
        AuthStage.DISCOVERY,
        AuthStage.DISCOVERY,
        AuthStage.AUTHORIZE,
        AuthStage.CALLBACK,
        AuthStage.TOKEN,
    ]
    state = await CredentialTokenStorage(store, profile.id).load()
    assert state.redirect_port == first.redirect_port
    assert state.client is not None and [u.port for u in state.client.redirect_uris or []] == [first.redirect_port]


async def test_the_wire_log_has_every_oauth_exchange_and_no_token_code_or_client_secret(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    wire = WireRecorder()
    await login(profile, store, opener=follow_redirects_opener, wire=wire)
    async with await oauth_agent(profile, store, servers, wire=wire) as agent:
        servers.clock.advance(TTL)
        await agent.call_tool("add", {"a": 1, "b": 1})  # a refresh
    await logout(profile, store, wire=wire)
    secrets = [*servers.provider.issued, *servers.provider.issued_codes]
    secrets += [c.client_secret for c in servers.provider.clients.values() if c.client_secret]
    assert len(secrets) >= 6
    requests = [r for r in wire.records() if r.kind is WireKind.HTTP_REQUEST]
    urls = [r.http["url"] for r in requests]  # type: ignore[index]
    for needed in (
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-authorization-server",
        "/register",
        "/token",
        "/revoke",
    ):
        assert any(url.endswith(needed) for url in urls), needed
    token_bodies = [r.payload for r in requests if r.http["url"].endswith("/token")]  # type: ignore[index]
    assert any("code=***" in b and "code_verifier=***" in b and "client_secret=***" in b for b in token_bodies)
    assert any("refresh_token=***" in b for b in token_bodies)
    for record in wire.records():
        text = record.payload + repr(record.http) + record.summary
        for secret in secrets:
            assert secret not in text, (record.seq, record.kind)


async def test_login_works_over_the_legacy_sse_transport() -> None:
    async with serve_oauth_protected_mcp(transport="sse") as servers:
        store = MemoryCredentialStore()
        profile = MCPSSEProfile(name="sse", url=servers.url, auth="oauth")
        result = await login(profile, store, opener=follow_redirects_opener)
        assert result.steps[-1].stage is AuthStage.TOKEN
        async with await oauth_agent(profile, store, servers) as agent:
            assert (await agent.call_tool("add", {"a": 4, "b": 4})).structured_content == {"result": 8}


async def test_an_oauth_profile_without_a_credential_store_is_a_config_error(servers: OAuthServers) -> None:
    with pytest.raises(ConfigError):
        await build_agent(http_profile(servers))


async def test_a_declined_authorization_fails_the_login_with_the_servers_error_code(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    servers.provider.deny = True
    steps: list[AuthStep] = []
    with pytest.raises(AuthRequiredError) as info:
        await login(profile, store, opener=follow_redirects_opener, on_step=steps.append)
    assert info.value.details["oauth_error"] == "access_denied"
    assert stages(steps)[-2:] == [(AuthStage.AUTHORIZE, "ok"), (AuthStage.CALLBACK, "failed")]
    assert await store.get(tokens_key(profile.id)) is None


async def test_a_login_nobody_finishes_times_out_and_frees_the_redirect_port(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    opened: list[str] = []

    async def shown_to_nobody(url: str) -> None:
        opened.append(url)

    with pytest.raises(RequestTimeoutError) as info:
        await login(profile, store, opener=shown_to_nobody, timeout=0.5)
    assert info.value.details["oauth"] == "login-timeout"
    assert len(opened) == 1
    result = await login(profile, store, opener=follow_redirects_opener)  # the same port is free again
    assert f"127.0.0.1%3A{result.redirect_port}%2Fcallback" in opened[0]


async def test_a_redirect_port_taken_by_another_program_fails_the_login_with_a_hint(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    profile = http_profile(servers)
    first = await login(profile, store, opener=follow_redirects_opener)
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the last redirect may be in TIME_WAIT
        squatter.bind(("127.0.0.1", first.redirect_port))
        squatter.listen()
        with pytest.raises(AuthRequiredError) as info:
            await login(profile, store, opener=follow_redirects_opener)
    assert info.value.details["oauth"] == "redirect-port-busy"
    assert info.value.hint


async def test_authorization_server_metadata_naming_another_issuer_is_refused() -> None:
    """RFC 8414 §3.3: the metadata's issuer must be the authorization server the resource named."""
    async with serve_oauth_protected_mcp(claimed_issuer="https://impostor.example") as servers:
        store = MemoryCredentialStore()
        profile = http_profile(servers)
        agent = await oauth_agent(profile, store, servers, opener=follow_redirects_opener)
        with pytest.raises(AuthRequiredError) as refused:
            await agent.connect()
        await agent.aclose()
        assert await stored_access_token(store, profile.id) is None
        assert servers.provider.counters.authorizations == 0  # no browser was sent there
    assert "issuer" in str(refused.value).lower()
