"""An A2A card's client-credentials scheme logged in through the shared OAuth layer against a loopback server.

The authorization server is the one the MCP machine-grant tests use (``tests.servers.oauth_machine``):
it authenticates the client by ``client_secret_basic`` or a ``private_key_jwt`` assertion for its
issuer, binds tokens to DPoP proofs and can demand nonces. The agent in front of it
(``tests.support.a2a_machine_agent``) accepts only the tokens it issued.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET, Behaviour
from tests.support.a2a_machine_agent import MachineAgent, serve_machine_agent
from workbench.core.auth_steps import AuthStage, AuthStep, FailureCode
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError
from workbench.core.oauth.tokens import TokenSet
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import DPoP, OAuthClient, PreRegisteredClient
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.a2a.security_auth import credential_key
from workbench.core.protocols.base import Failed
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

CID = "a2a-machine"
BOUND = 20


def agent_for(servers: MachineAgent, client: OAuthClient, **kw: Any) -> tuple[A2AAgent, list[AuthStep], WireRecorder]:
    steps: list[AuthStep] = []
    wire = WireRecorder()
    agent = A2AAgent(
        servers.url,
        connection_id=CID,
        wire=wire,
        credentials=kw.pop("credentials", MemoryCredentialStore()),
        oauth_client=client,
        on_auth_step=steps.append,
        **kw,
    )
    return agent, steps, wire


def wire_text(wire: WireRecorder) -> str:
    return "\n".join(f"{r.summary}\n{r.payload}\n{r.http}" for r in wire.records())


@pytest.mark.asyncio
async def test_client_credentials_with_client_secret_basic_gets_a_token_the_agent_accepts_and_the_steps_show_it() -> (
    None
):
    async with serve_machine_agent() as servers:
        agent, steps, wire = agent_for(servers, PreRegisteredClient(CLIENT_ID, CLIENT_SECRET))
        async with agent:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("one")).state == "completed"
                assert (await agent.invoke_async("two")).state == "completed"
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    assert servers.seen.schemes and set(servers.seen.schemes) == {"Bearer"}
    (token_step,) = steps
    assert (token_step.stage, token_step.status, token_step.connection_id) == (AuthStage.TOKEN, "ok", CID)
    (exchange,) = token_step.exchanges
    assert exchange.method == "POST" and exchange.url.endswith("/token") and exchange.status == 200
    assert any(name.lower() == "authorization" for name, _ in exchange.request_headers)
    assert "client_secret" not in exchange.request_body and "client_id" not in exchange.request_body
    assert any(r.kind is WireKind.AUTH_STEP for r in wire.records())
    assert CLIENT_SECRET not in wire_text(wire)


@pytest.mark.asyncio
async def test_a_private_key_jwt_client_signs_for_the_issuer_it_discovered_and_never_shows_the_key() -> None:
    async with serve_machine_agent() as servers:
        client = PrivateKeyJWTClient(CLIENT_ID, servers.client_key_pem, "ES256")
        agent, steps, wire = agent_for(servers, client)
        async with agent:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("hello")).artifacts["echo"][0].text == "hello"
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    assert [(s.stage, s.name, s.status) for s in steps] == [
        (AuthStage.DISCOVERY, "Authorization-server metadata", "ok"),
        (AuthStage.TOKEN, "Token", "ok"),
    ]
    assert [c.name for c in steps[0].checks] == ["issuer"] and steps[0].checks[0].passed
    assert "client_assertion_type" in steps[1].exchanges[0].request_body
    text = wire_text(wire)
    assert servers.client_key_pem.splitlines()[1] not in text
    assertion = next(r for r in wire.records() if "client_assertion=" in r.payload).payload
    assert "client_assertion=***" in assertion or "client_assertion=%2A%2A%2A" in assertion


@pytest.mark.asyncio
async def test_dpop_binds_the_token_and_the_agent_sees_a_fresh_proof_with_each_call() -> None:
    store = MemoryCredentialStore()
    async with serve_machine_agent() as servers:
        agent, _, _ = agent_for(servers, PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), dpop=DPoP(), credentials=store)
        async with agent:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("one")).state == "completed"
                assert (await agent.invoke_async("two")).state == "completed"
    assert servers.authorization_server.seen.token_proofs == 1
    assert servers.seen.schemes and set(servers.seen.schemes) == {"DPoP"}
    stored = await store.get(credential_key(CID, "oauth", "token"))
    assert stored is not None
    token = TokenSet.from_json(stored.get_secret_value())
    assert token is not None and token.dpop_bound
    assert await store.get(credential_key(CID, "*", "dpop_key")) is not None


@pytest.mark.asyncio
async def test_dpop_nonces_of_the_authorization_server_and_the_agent_are_answered_once_each() -> None:
    async with serve_machine_agent(Behaviour(as_nonce=True, rs_nonce=True)) as servers:
        client = PrivateKeyJWTClient(CLIENT_ID, servers.client_key_pem, "ES256")
        agent, _, _ = agent_for(servers, client, dpop=DPoP())
        async with agent:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("one")).state == "completed"
    seen = servers.authorization_server.seen
    assert seen.grants == ["client_credentials", "client_credentials"] and seen.token_proofs == 2
    assert servers.seen.proofs.replayed == 0


@pytest.mark.asyncio
async def test_a_wrong_client_secret_is_refused_at_the_token_step_named_with_its_failure_and_nothing_stored() -> None:
    store = MemoryCredentialStore()
    async with serve_machine_agent() as servers:
        agent, steps, wire = agent_for(servers, PreRegisteredClient(CLIENT_ID, "not-the-secret-77"), credentials=store)
        async with agent:
            with anyio.fail_after(BOUND):
                events = [ev async for ev in agent.stream_async("hello")]
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, AuthRequiredError)
    assert final.error.details["oauth_error"] == "invalid_client" and final.error.details["step"] == "token"
    failed = [s for s in steps if s.status == "failed"]
    assert failed and all(s.stage is AuthStage.TOKEN for s in failed)
    assert failed[0].failure is not None and failed[0].failure.code is FailureCode.HTTP_ERROR
    assert failed[0].wire_seqs and failed[0].exchanges[0].status == 401
    assert await store.get(credential_key(CID, "oauth", "token")) is None
    assert "not-the-secret-77" not in wire_text(wire)


@pytest.mark.asyncio
async def test_a_public_client_cannot_run_client_credentials_so_nothing_is_sent() -> None:
    async with serve_machine_agent() as servers:
        agent, steps, _ = agent_for(servers, PreRegisteredClient(CLIENT_ID))
        async with agent:
            with anyio.fail_after(BOUND):
                events = [ev async for ev in agent.stream_async("hello")]
    assert isinstance(events[-1], Failed) and isinstance(events[-1].error, AuthRequiredError)
    assert servers.authorization_server.seen.grants == [] and steps == []


@pytest.mark.asyncio
async def test_an_openid_connect_sign_in_of_a_saved_profile_puts_each_step_on_the_bus_as_an_mcp_login_does() -> None:
    from tests.support.a2a_security_agents import CLIENT_ID as OIDC_CLIENT
    from tests.support.a2a_security_agents import OAuthServer, oauth_agent
    from workbench.core.agent_factory import build_agent
    from workbench.core.events import EventBus
    from workbench.core.profiles import A2AProfile
    from workbench.demo.a2a_agents import serve_agent

    async def follow(url: str) -> None:
        import httpx

        async with httpx.AsyncClient(timeout=BOUND) as browser:
            assert (await browser.get(url, follow_redirects=True)).status_code == 200

    bus, on_bus = EventBus(), []
    bus.subscribe(AuthStep, on_bus.append)
    server = OAuthServer()
    async with serve_agent(oauth_agent("oidc", server)) as url:
        profile = A2AProfile(name="oidc", url=url)
        store = MemoryCredentialStore({credential_key(profile.id, "oauth", "client_id"): OIDC_CLIENT})
        agent = await build_agent(profile, credentials=store, bus=bus, oauth_opener=follow)
        try:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("hello")).state == "completed"
        finally:
            await agent.aclose()
    assert [(s.stage, s.status) for s in on_bus] == [
        (AuthStage.DISCOVERY, "ok"),
        (AuthStage.AUTHORIZE, "ok"),
        (AuthStage.CALLBACK, "ok"),
        (AuthStage.TOKEN, "ok"),
    ]
    discovery, authorize, callback, token = on_bus
    assert {c.name: c.outcome for c in discovery.checks} == {"issuer": "passed", "https": "passed"}
    assert {c.name for c in authorize.checks} == {"pkce", "state"} and authorize.exchanges[0].via == "browser"
    assert "state=***" in authorize.exchanges[0].url and "code_challenge_method=S256" in authorize.exchanges[0].url
    assert callback.exchanges[0].url.endswith("code=***&state=***")
    assert token.wire_seqs and all(s.connection_id == profile.id for s in on_bus)


@pytest.mark.asyncio
async def test_a_dpop_nonce_refused_again_stops_the_login_at_the_token_step_and_nothing_is_stored() -> None:
    from workbench.core.errors import OAuthRefusedError

    store = MemoryCredentialStore()
    async with serve_machine_agent(Behaviour(as_nonce=True, nonces_expire=True)) as servers:
        client = PreRegisteredClient(CLIENT_ID, CLIENT_SECRET)
        agent, steps, _ = agent_for(servers, client, dpop=DPoP(), credentials=store)
        async with agent:
            with anyio.fail_after(BOUND):
                events = [ev async for ev in agent.stream_async("hello")]
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, OAuthRefusedError)
    assert (final.error.details["oauth"], final.error.details["step"]) == ("dpop-nonce-refused", "token")
    assert steps[-1].stage is AuthStage.TOKEN and steps[-1].status == "failed"
    assert await store.get(credential_key(CID, "oauth", "token")) is None
