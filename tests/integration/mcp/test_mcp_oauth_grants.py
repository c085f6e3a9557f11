"""OAuth without a browser (client credentials, workload JWT bearer) and DPoP, against loopback servers.

``tests/servers/oauth_machine.py`` serves an authorization server that verifies client assertions,
workload JWTs and DPoP proofs, and the demo MCP server behind ``Bearer``/``DPoP`` tokens. Each refusal
is asserted by its typed code and step (``OAuthRefusedError``, ``details``), with nothing stored and no
secret in the wire log or the log.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.servers.oauth_machine import (
    CLIENT_ID,
    CLIENT_SECRET,
    ID_TOKEN,
    JWT_BEARER,
    TOKEN_EXCHANGE,
    Behaviour,
    MachineServers,
)
from tests.servers.oauth_machine import serve_machine_oauth as serve
from workbench.agents import (
    AuthStage,
    AuthStep,
    ClientCredentials,
    DPoP,
    EnterpriseManaged,
    JWTBearer,
    MCPAgent,
    MemoryCredentialStore,
    OAuth,
    OAuthRefusedError,
    PreRegisteredClient,
    PrivateKeyJWTClient,
    WireRecorder,
)
from workbench.core.protocols.mcp.oauth import oauth_provider
from workbench.core.protocols.mcp.oauth_storage import tokens_key

pytestmark = pytest.mark.asyncio


def basic_client() -> OAuth:
    return OAuth(client=PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), grant=ClientCredentials())


class Run:
    """One agent's login: its store, wire and steps."""

    def __init__(self, servers: MachineServers, options: OAuth) -> None:
        self.options = options
        self.store = MemoryCredentialStore()
        self.wire = WireRecorder()
        self.steps: list[AuthStep] = []
        self.agent = MCPAgent(
            servers.url,
            oauth=options,
            credentials=self.store,
            wire=self.wire,
            on_auth_step=self.steps.append,
            connect_timeout=10,
        )
        self.url = servers.url

    async def add(self) -> object:
        async with self.agent:
            return (await self.agent.call_tool("add", {"a": 2, "b": 3})).structured_content

    async def tokens_stored(self) -> bool:
        return await self.store.get(tokens_key(self.options.key_for(self.url))) is not None

    def wire_text(self, tmp_path: Path) -> str:
        target = tmp_path / "wire.jsonl"
        self.wire.export_jsonl(target)
        return target.read_text()


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[MachineServers]:
    async with serve() as running:
        yield running


async def test_client_credentials_with_client_secret_basic_gets_a_token_without_a_browser_and_never_shows_the_secret(
    servers: MachineServers, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    run = Run(servers, basic_client())
    assert await run.add() == {"result": 5}
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    assert [(s.stage, s.status) for s in run.steps][-1] == (AuthStage.TOKEN, "ok")
    assert CLIENT_SECRET not in run.wire_text(tmp_path) + caplog.text
    assert servers.resource.seen.schemes and set(servers.resource.seen.schemes) == {"Bearer"}


async def test_client_credentials_with_private_key_jwt_signs_an_assertion_for_the_issuer_and_never_shows_the_key(
    servers: MachineServers, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = PrivateKeyJWTClient(CLIENT_ID, servers.client_key_pem, "ES256")
    run = Run(servers, OAuth(client=client, grant=ClientCredentials()))
    assert await run.add() == {"result": 5}
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    body = servers.client_key_pem.split("-----")[2].strip().splitlines()[1]
    assert body not in run.wire_text(tmp_path) + caplog.text + repr(client)


async def test_a_wrong_private_key_is_refused_by_the_server_at_the_token_step_and_nothing_is_stored(
    servers: MachineServers,
) -> None:
    from tests.servers.oauth_machine import new_key_pem

    run = Run(
        servers, OAuth(client=PrivateKeyJWTClient(CLIENT_ID, new_key_pem()[0], "ES256"), grant=ClientCredentials())
    )
    with pytest.raises(OAuthRefusedError) as refused:
        await run.add()
    assert refused.value.details["step"] == "token"
    assert refused.value.details["oauth"] == "token-refused"
    assert not await run.tokens_stored()


@pytest.mark.parametrize(
    ("audience", "expires_in", "reason"),
    [("https://another-as.example", 300, "assertion-audience"), (None, -60, "assertion-expired")],
)
async def test_a_workload_jwt_for_another_audience_or_expired_is_refused_before_it_is_sent(
    servers: MachineServers, tmp_path: Path, audience: str | None, expires_in: int, reason: str
) -> None:
    token = servers.workload_jwt(audience=audience, expires_in=expires_in)
    run = Run(servers, OAuth(client=PreRegisteredClient("workload"), grant=JWTBearer(token)))
    with pytest.raises(OAuthRefusedError) as refused:
        await run.add()
    assert (refused.value.details["oauth"], refused.value.details["step"]) == (reason, "token")
    assert servers.authorization_server.seen.grants == []  # nothing sent
    assert not await run.tokens_stored()
    assert token not in run.wire_text(tmp_path) + str(refused.value)
    assert (run.steps[-1].stage, run.steps[-1].status) == (AuthStage.TOKEN, "failed")


async def test_a_workload_jwt_bearer_grant_is_used_once_and_an_error_ends_the_login_without_retry_or_other_grant(
    tmp_path: Path,
) -> None:
    async with serve(Behaviour(jwt_bearer_error="invalid_grant")) as servers:
        token = servers.workload_jwt()
        run = Run(servers, OAuth(client=PreRegisteredClient("workload"), grant=JWTBearer(token)))
        with pytest.raises(OAuthRefusedError) as refused:
            await run.add()
        assert (refused.value.details["oauth"], refused.value.details["step"]) == ("token-refused", "token")
        assert servers.authorization_server.seen.grants == [JWT_BEARER]
        assert not await run.tokens_stored()
        assert token not in run.wire_text(tmp_path)


async def test_a_valid_workload_jwt_gets_a_token(servers: MachineServers) -> None:
    run = Run(servers, OAuth(client=PreRegisteredClient("workload"), grant=JWTBearer(servers.workload_jwt())))
    assert await run.add() == {"result": 5}
    assert servers.authorization_server.seen.grants == [JWT_BEARER]


async def test_dpop_binds_the_token_and_every_request_to_the_server_carries_a_fresh_proof_of_the_key(
    servers: MachineServers,
) -> None:
    run = Run(
        servers, OAuth(client=PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), grant=ClientCredentials(), dpop=DPoP())
    )
    assert await run.add() == {"result": 5}
    seen = servers.resource.seen
    assert servers.authorization_server.seen.token_proofs == 1
    assert len(seen.schemes) >= 2 and set(seen.schemes) == {"DPoP"}
    assert seen.replayed == 0 and len(seen.jtis) == len(seen.schemes)


async def test_dpop_nonces_of_the_authorization_server_and_the_mcp_server_are_answered_once_each() -> None:
    async with serve(Behaviour(as_nonce=True, rs_nonce=True)) as servers:
        run = Run(
            servers, OAuth(client=PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), grant=ClientCredentials(), dpop=DPoP())
        )
        assert await run.add() == {"result": 5}
        assert servers.authorization_server.seen.grants == ["client_credentials", "client_credentials"]
        assert servers.resource.seen.replayed == 0


@pytest.mark.parametrize(("at", "step"), [("as", "token"), ("rs", "resource")])
async def test_an_expired_or_replayed_dpop_nonce_refused_again_stops_the_login_naming_the_step(
    at: str, step: str
) -> None:
    behaviour = Behaviour(as_nonce=at == "as", rs_nonce=at == "rs", nonces_expire=True)
    async with serve(behaviour) as servers:
        options = OAuth(client=PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), grant=ClientCredentials(), dpop=DPoP())
        run = Run(servers, options)
        with pytest.raises(OAuthRefusedError) as refused:
            await run.add()
        assert (refused.value.details["oauth"], refused.value.details["step"]) == ("dpop-nonce-refused", step)
        if at == "as":
            assert servers.authorization_server.seen.grants == ["client_credentials"] * 2  # one retry, no more
            assert not await run.tokens_stored()


async def test_a_refused_refresh_is_a_failed_refresh_step_its_tokens_are_forgotten_and_the_grant_runs_again() -> None:
    async with serve(Behaviour(refresh_tokens=True, refresh_error="invalid_grant", access_ttl=600)) as servers:
        store, wire, steps = MemoryCredentialStore(), WireRecorder(), list[AuthStep]()
        options = basic_client()

        async def agent() -> MCPAgent:
            provider = await oauth_provider(
                servers.url, options, store, wire=wire, connection_id="c", on_step=steps.append, clock=servers.clock
            )
            return MCPAgent(servers.url, wire=wire, connection_id="c", auth=provider, connect_timeout=10)

        async with await agent() as first:
            await first.call_tool("add", {"a": 1, "b": 1})
        first_token = (await store.get(tokens_key(options.key_for(servers.url)))).get_secret_value()  # type: ignore[union-attr]
        servers.clock.advance(3600)
        steps.clear()
        async with await agent() as second:
            assert (await second.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}
        assert [(s.stage, s.status) for s in steps if s.stage in (AuthStage.REFRESH, AuthStage.TOKEN)] == [
            (AuthStage.REFRESH, "failed"),
            (AuthStage.TOKEN, "ok"),
        ]
        assert servers.authorization_server.seen.grants == ["client_credentials", "refresh_token", "client_credentials"]
        assert (await store.get(tokens_key(options.key_for(servers.url)))).get_secret_value() != first_token  # type: ignore[union-attr]


def enterprise(servers: MachineServers) -> OAuth:
    grant = EnterpriseManaged(servers.idp_token_endpoint, "idp-client", ID_TOKEN)
    return OAuth(client=PreRegisteredClient(CLIENT_ID, CLIENT_SECRET), grant=grant)


async def test_enterprise_managed_exchanges_the_id_token_for_an_id_jag_then_gets_a_token_with_it(
    servers: MachineServers, tmp_path: Path
) -> None:
    run = Run(servers, enterprise(servers))
    assert await run.add() == {"result": 5}
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE, JWT_BEARER]
    assert [s.stage for s in run.steps][-2:] == [AuthStage.TOKEN, AuthStage.TOKEN]
    assert ID_TOKEN not in run.wire_text(tmp_path)


async def test_an_id_jag_for_another_audience_is_refused_before_it_reaches_the_authorization_server() -> None:
    async with serve(Behaviour(id_jag_audience="https://another-as.example")) as servers:
        run = Run(servers, enterprise(servers))
        with pytest.raises(OAuthRefusedError) as refused:
            await run.add()
        assert (refused.value.details["oauth"], refused.value.details["step"]) == ("assertion-audience", "token")
        assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE]
        assert not await run.tokens_stored()


async def test_an_access_token_for_another_audience_is_refused_at_the_token_step_and_not_stored() -> None:
    async with serve(Behaviour(access_token_audience="https://other.example/mcp")) as servers:
        run = Run(servers, basic_client())
        with pytest.raises(OAuthRefusedError) as refused:
            await run.add()
        assert (refused.value.details["oauth"], refused.value.details["step"]) == ("audience-mismatch", "token")
        assert not await run.tokens_stored()
        assert servers.resource.seen.schemes == []  # never presented


async def test_a_profile_with_a_key_file_client_credentials_and_dpop_keeps_its_dpop_key_and_bound_token_in_the_store(
    servers: MachineServers, tmp_path: Path
) -> None:
    from workbench.core.agent_factory import DefaultAgentFactory
    from workbench.core.events import EventBus
    from workbench.core.profiles import MCPHTTPProfile
    from workbench.core.profiles.credential_keys import oauth_dpop_keys

    key_file = tmp_path / "client.pem"
    key_file.write_text(servers.client_key_pem)
    profile = MCPHTTPProfile(
        name="machine",
        url=servers.url,
        auth="oauth",
        oauth_client="private-key-jwt",
        oauth_client_id=CLIENT_ID,
        oauth_client_key_file=str(key_file),
        oauth_client_key_algorithm="ES256",
        oauth_grant="client_credentials",
        oauth_dpop=True,
    )
    store = MemoryCredentialStore()
    factory = DefaultAgentFactory(credentials=store)
    for connection in ("c1", "c2"):  # the second session reuses the bound token with the stored key
        async with await factory(profile, connection_id=connection, wire=WireRecorder(), bus=EventBus()) as agent:
            assert (await agent.call_tool("add", {"a": 2, "b": 2})).structured_content == {"result": 4}  # type: ignore[attr-defined]
    dpop_key_name, bound_name = oauth_dpop_keys(profile.id)
    assert await store.get(dpop_key_name) is not None and await store.get(bound_name) is not None
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    assert set(servers.resource.seen.schemes) == {"DPoP"} and servers.resource.seen.replayed == 0


async def test_a_profile_refuses_a_private_key_client_without_the_client_credentials_grant() -> None:
    from pydantic import ValidationError

    from workbench.core.profiles import MCPHTTPProfile

    with pytest.raises(ValidationError):
        MCPHTTPProfile(
            name="p", url="https://mcp.example/mcp", auth="oauth", oauth_client="private-key-jwt", oauth_client_id="x"
        )
    with pytest.raises(ValidationError):
        MCPHTTPProfile(name="p", url="https://mcp.example/mcp", auth="oauth", oauth_grant="client_credentials")
