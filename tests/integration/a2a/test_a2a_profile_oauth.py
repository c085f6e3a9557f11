"""A saved A2A profile's OAuth client and DPoP, built into the agent and logged in with the core's ``login``/``logout``.

Against the loopback agent of ``tests/support/a2a_machine_agent.py`` (client credentials at the
authorization server of ``tests/servers/oauth_machine.py``, which takes ``client_secret_basic`` or a
``private_key_jwt`` assertion and binds tokens to DPoP proofs) and an API-key agent without OAuth.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from pydantic import SecretStr

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET
from tests.support.a2a_machine_agent import serve_machine_agent
from tests.support.a2a_security_agents import api_key_agent
from workbench.core.agent_factory import build_agent
from workbench.core.auth_steps import AuthStage, AuthStep
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError, ConfigError
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.oauth_login import login, logout
from workbench.core.profiles import A2AProfile, parse_profile
from workbench.core.profiles.credential_keys import a2a_dpop_key, oauth_client_key_key, oauth_client_secret_key
from workbench.core.profiles.service import ProfileService
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.a2a.security_auth import credential_key
from workbench.demo.a2a_agents import serve_agent

BOUND = 20


def _profile(url: str, **fields: object) -> A2AProfile:
    return A2AProfile(id="p", name="p", url=url, **fields)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_pre_registered_profile_builds_an_agent_with_its_stored_secret_and_the_token_is_basic_authenticated():
    store = MemoryCredentialStore({oauth_client_secret_key("p"): CLIENT_SECRET})
    steps: list[AuthStep] = []
    async with serve_machine_agent() as servers:
        profile = _profile(servers.url, oauth_client="pre-registered", oauth_client_id=CLIENT_ID)
        agent = await build_agent(profile, credentials=store, on_auth_step=steps.append)
        try:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("hi")).state == "completed"
        finally:
            await agent.aclose()
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    token_step = steps[-1]
    assert token_step.stage is AuthStage.TOKEN and token_step.status == "ok"
    assert any(name.lower() == "authorization" for name, _ in token_step.exchanges[0].request_headers)
    assert await store.get(credential_key("p", "oauth", "token")) is not None


@pytest.mark.asyncio
async def test_a_private_key_profile_with_its_key_in_the_store_and_dpop_gets_a_bound_token():
    async with serve_machine_agent() as servers:
        store = MemoryCredentialStore({oauth_client_key_key("p"): servers.client_key_pem})
        profile = _profile(
            servers.url,
            oauth_client="private-key-jwt",
            oauth_client_id=CLIENT_ID,
            oauth_client_key_algorithm="ES256",
            oauth_dpop=True,
        )
        agent = await build_agent(profile, credentials=store)
        try:
            with anyio.fail_after(BOUND):
                assert (await agent.invoke_async("hi")).state == "completed"
        finally:
            await agent.aclose()
    assert set(servers.seen.schemes) == {"DPoP"}
    assert await store.get(a2a_dpop_key("p")) is not None


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"oauth_client": "pre-registered", "oauth_client_id": CLIENT_ID}, "client-secret-missing"),
        ({"oauth_client": "private-key-jwt", "oauth_client_id": CLIENT_ID}, "client-key-missing"),
        (
            {"oauth_client": "private-key-jwt", "oauth_client_id": CLIENT_ID, "oauth_client_key_file": "/nowhere.pem"},
            "client-key-unreadable",
        ),
    ],
)
async def test_a_client_without_its_secret_or_key_is_a_config_error_before_anything_is_sent(
    fields: dict[str, object], code: str
) -> None:
    store = MemoryCredentialStore()
    async with serve_machine_agent() as servers:
        with pytest.raises(ConfigError) as caught:
            await build_agent(_profile(servers.url, **fields), credentials=store)
    assert caught.value.details["oauth"] == code
    assert servers.authorization_server.seen.grants == [] and repr(store) == "MemoryCredentialStore(keys=[])"


@pytest.mark.asyncio
async def test_login_then_logout_of_an_a2a_profile_stores_then_forgets_the_schemes_token() -> None:
    store = MemoryCredentialStore({oauth_client_secret_key("p"): CLIENT_SECRET})
    steps: list[AuthStep] = []
    async with serve_machine_agent() as servers:
        profile = _profile(servers.url, oauth_client="pre-registered", oauth_client_id=CLIENT_ID)
        with anyio.fail_after(BOUND):
            result = await login(profile, store, opener=follow_redirects_opener, on_step=steps.append)
            again = await login(profile, store, opener=follow_redirects_opener)
            out = await logout(profile, store)
    assert [s.stage for s in result.steps] == [AuthStage.TOKEN] and result.steps == tuple(steps)
    assert result.expires_at is not None
    assert [s.stage for s in again.steps] == [AuthStage.TOKEN]  # a login signs in afresh
    assert servers.authorization_server.seen.grants == ["client_credentials", "client_credentials"]
    assert (out.forgotten, out.revoked) == (1, False)
    assert await store.get(credential_key("p", "oauth", "token")) is None
    assert await store.get(oauth_client_secret_key("p")) is not None  # the client's secret stays


@pytest.mark.asyncio
async def test_a_refused_login_raises_with_the_token_step_named_and_stores_nothing() -> None:
    store = MemoryCredentialStore({oauth_client_secret_key("p"): "wrong-secret-0912"})
    async with serve_machine_agent() as servers:
        profile = _profile(servers.url, oauth_client="pre-registered", oauth_client_id=CLIENT_ID)
        with anyio.fail_after(BOUND), pytest.raises(AuthRequiredError) as caught:
            await login(profile, store, opener=follow_redirects_opener)
    assert caught.value.details["step"] == "token" and caught.value.details["oauth_error"] == "invalid_client"
    assert await store.get(credential_key("p", "oauth", "token")) is None
    assert "wrong-secret-0912" not in str(caught.value) + repr(caught.value.details)


@pytest.mark.asyncio
async def test_a_card_without_oauth_is_refused_by_login_and_logout_with_its_code() -> None:
    store = MemoryCredentialStore()
    async with serve_agent(api_key_agent()) as url:
        with anyio.fail_after(BOUND):
            with pytest.raises(ConfigError) as caught:
                await login(_profile(url), store, opener=follow_redirects_opener)
            with pytest.raises(ConfigError) as caught_out:
                await logout(_profile(url), store)
    assert caught.value.details["oauth"] == caught_out.value.details["oauth"] == "no-oauth-scheme"
    assert repr(store) == "MemoryCredentialStore(keys=[])"


@pytest.mark.asyncio
async def test_a_per_scheme_profile_without_a_client_id_says_which_client_is_missing() -> None:
    async with serve_machine_agent() as servers:
        with anyio.fail_after(BOUND), pytest.raises(AuthRequiredError) as caught:
            await login(_profile(servers.url), MemoryCredentialStore(), opener=follow_redirects_opener)
    assert caught.value.details["oauth"] == "client-missing"
    assert servers.authorization_server.seen.grants == []


@pytest.mark.asyncio
async def test_removing_an_a2a_profile_forgets_its_client_secret_and_dpop_key(tmp_path: Path) -> None:
    store = MemoryCredentialStore()
    service = ProfileService(ProfileStore(tmp_path), store)
    profile = _profile("https://agent.example", oauth_client="pre-registered", oauth_client_id="id")
    await service.save_oauth_client(profile, SecretStr("s3cret-7781"), new=True)
    await store.set(a2a_dpop_key("p"), "pem")
    assert await store.get(oauth_client_secret_key("p")) is not None
    await service.remove(profile)
    assert await store.get(oauth_client_secret_key("p")) is None and await store.get(a2a_dpop_key("p")) is None


def test_an_a2a_profile_saved_before_it_had_oauth_fields_reads_as_per_scheme_without_dpop() -> None:
    profile = parse_profile({"kind": "a2a", "id": "old", "name": "old", "url": "https://agent.example"})
    assert isinstance(profile, A2AProfile)
    assert (profile.oauth_client, profile.oauth_client_id, profile.oauth_dpop) == ("per-scheme", None, False)
    with pytest.raises(ConfigError):
        parse_profile({"kind": "a2a", "id": "x", "name": "x", "url": "https://a.example", "oauth_client": "dynamic"})
