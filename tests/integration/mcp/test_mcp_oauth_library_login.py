"""``workbench.agents.login`` / ``logout``: an OAuth login by URL without an MCP session, and its undoing.

Against a real authorization server and the protected demo MCP server (``tests/servers/oauth_as.py``);
only the public library is used. The "browser" follows the redirects as a consenting person would.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.servers.oauth_as import OAuthServers, serve_oauth_protected_mcp
from workbench.agents import (
    AuthorizationCode,
    AuthRequiredError,
    AuthStage,
    AuthStep,
    MCPAgent,
    MemoryCredentialStore,
    OAuth,
    OAuthRefusedError,
    PreRegisteredClient,
    WireRecorder,
    follow_redirects_opener,
    login,
    logout,
)

pytestmark = pytest.mark.asyncio

IMPOSTOR = "https://impostor.example/"
BROWSER_LOGIN = [
    AuthStage.DISCOVERY,
    AuthStage.DISCOVERY,
    AuthStage.REGISTRATION,
    AuthStage.AUTHORIZE,
    AuthStage.CALLBACK,
    AuthStage.TOKEN,
]


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp() as running:
        yield running


async def _tokens(store: MemoryCredentialStore, url: str) -> dict[str, object] | None:
    saved = await store.get(f"oauth@{url}/oauth:tokens")
    return json.loads(saved.get_secret_value()) if saved is not None else None


async def test_login_by_url_stores_tokens_that_an_agent_then_uses_without_a_browser(servers: OAuthServers) -> None:
    store, steps, wire = MemoryCredentialStore(), list[AuthStep](), WireRecorder()
    result = await login(
        servers.url, credentials=store, open_browser=follow_redirects_opener, on_step=steps.append, wire=wire
    )
    assert [s.stage for s in steps] == BROWSER_LOGIN and all(s.status == "ok" for s in steps)
    assert result.steps == tuple(steps) and result.expires_at is not None and result.scope
    assert await _tokens(store, servers.url) is not None
    sent = [r for r in wire.records() if r.http and r.http.get("url") == servers.url and r.method == "POST"]
    assert all("initialize" not in r.payload for r in sent)  # the probe is a ping: no session was opened
    async with MCPAgent(servers.url, oauth=OAuth(), credentials=store) as agent:  # no browser: stored tokens
        assert float((await agent.call_tool("add", {"a": 2, "b": 3})).text) == 5
    counters = servers.provider.counters
    assert (counters.registrations, counters.authorizations, counters.code_grants) == (1, 1, 1)


async def test_a_second_login_keeps_good_tokens_refreshes_expired_ones_and_fresh_logs_in_again(
    servers: OAuthServers,
) -> None:
    store = MemoryCredentialStore()
    await login(servers.url, credentials=store, open_browser=follow_redirects_opener)
    kept = await login(servers.url, credentials=store, open_browser=None)
    assert kept.steps == ()

    saved = await _tokens(store, servers.url)
    assert saved is not None
    await store.set(f"oauth@{servers.url}/oauth:tokens", json.dumps({**saved, "expires_at": 1.0}))
    refreshed = await login(servers.url, credentials=store, open_browser=None)
    assert [(s.stage, s.status) for s in refreshed.steps] == [(AuthStage.REFRESH, "ok")]
    (exchange,) = refreshed.steps[0].exchanges
    assert "refresh_token=***" in exchange.request_body and '"access_token":"***"' in exchange.response_body
    assert {c.name for c in refreshed.steps[0].checks} >= {"https", "token_type"}
    assert servers.provider.counters.refresh_grants == 1

    again = await login(servers.url, credentials=store, open_browser=follow_redirects_opener, fresh=True)
    assert [s.stage for s in again.steps][-3:] == [AuthStage.AUTHORIZE, AuthStage.CALLBACK, AuthStage.TOKEN]
    assert servers.provider.counters.registrations == 1  # the registration is kept


async def test_a_login_needing_a_browser_without_one_is_auth_required_and_stores_nothing(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    with pytest.raises(AuthRequiredError) as info:
        await login(servers.url, credentials=store, open_browser=None)
    assert info.value.details["oauth"] == "login-required"
    assert await _tokens(store, servers.url) is None


async def test_a_login_refused_at_a_check_names_the_step_and_stores_nothing() -> None:
    async with serve_oauth_protected_mcp(metadata_overrides={"issuer": IMPOSTOR}) as servers:
        store, steps = MemoryCredentialStore(), list[AuthStep]()
        with pytest.raises(OAuthRefusedError) as info:
            await login(servers.url, credentials=store, open_browser=follow_redirects_opener, on_step=steps.append)
        assert servers.provider.counters.registrations == 0
    assert info.value.details["step"] == "discovery"
    assert steps[-1].failure is not None and steps[-1].failure.code.value == "issuer-mismatch"
    assert await _tokens(store, servers.url) is None


async def test_logout_by_url_revokes_at_the_authorization_server_and_forgets(servers: OAuthServers) -> None:
    store, steps = MemoryCredentialStore(), list[AuthStep]()
    await login(servers.url, credentials=store, open_browser=follow_redirects_opener)
    assert servers.provider.live_tokens()
    result = await logout(servers.url, credentials=store, on_step=steps.append)
    assert (result.revoked, result.forgotten) == (True, 2)
    assert [(s.stage, s.status) for s in steps] == [(AuthStage.REVOKE, "ok")]
    assert {c.name: c.outcome for c in steps[0].checks} == {
        "https": "passed",
        "refresh_token": "passed",
        "access_token": "passed",
    }
    assert [e.method for e in steps[0].exchanges] == ["POST", "POST"]
    assert all("token=***" in e.request_body for e in steps[0].exchanges)
    assert servers.provider.live_tokens() == [] and await _tokens(store, servers.url) is None
    again = await logout(servers.url, credentials=store)
    assert (again.revoked, again.forgotten, again.steps) == (False, 0, ())


async def test_logout_of_a_pre_registered_client_revokes_with_its_secret(servers: OAuthServers) -> None:
    store = MemoryCredentialStore()
    await login(servers.url, credentials=store, open_browser=follow_redirects_opener)
    registered = json.loads((await store.get(f"oauth@{servers.url}/oauth:client")).get_secret_value())  # type: ignore[union-attr]
    known = registered["client"]
    client = PreRegisteredClient(
        known["client_id"], known["client_secret"], token_endpoint_auth_method=known["token_endpoint_auth_method"]
    )
    oauth = OAuth(client=client, grant=AuthorizationCode(redirect_port=registered["redirect_port"]), store_key="pre")
    await login(servers.url, oauth=oauth, credentials=store, open_browser=follow_redirects_opener)
    assert await store.get("pre/oauth:client") is None  # a pre-registered client is never stored
    result = await logout(servers.url, oauth=oauth, credentials=store)
    assert (result.revoked, result.forgotten) == (True, 1)
    assert [(s.stage, s.status) for s in result.steps] == [(AuthStage.REVOKE, "ok")]
    assert await store.get("pre/oauth:tokens") is None
