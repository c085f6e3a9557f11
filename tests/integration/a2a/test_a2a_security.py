"""A2A security schemes against agents that enforce them: what is asked for, attached, renewed, redacted."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, quote_plus

import anyio
import httpx
import pytest

from tests.support.a2a_security_agents import (
    API_KEY,
    BASIC_PASSWORD,
    BASIC_USER,
    CLIENT_ID,
    CLIENT_SECRET,
    SCOPE,
    TOKEN_LIFETIME,
    VAULT_KEY,
    Location,
    OAuthServer,
    api_key_agent,
    basic_app,
    oauth_agent,
)
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError
from workbench.core.oauth.tokens import TokenSet
from workbench.core.protocols.a2a import A2AAgent, describe_card
from workbench.core.protocols.a2a.security import required_credentials
from workbench.core.protocols.a2a.security_auth import credential_key
from workbench.core.protocols.base import AgentEvent, AuthRequired, Completed, Failed, InputRequest, InputResponse
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent

CID = "sec-test"


async def collect(stream: Any, limit: float = 20) -> list[AgentEvent]:
    with anyio.fail_after(limit):
        return [ev async for ev in stream]


def key(scheme: str, field: str) -> str:
    return credential_key(CID, scheme, field)


class Asker:
    """An input handler that records what it was asked and gives the scripted answers."""

    def __init__(self, *answers: InputResponse) -> None:
        self.answers = list(answers)
        self.asked: list[InputRequest] = []

    async def __call__(self, request: InputRequest) -> InputResponse:
        self.asked.append(request)
        return self.answers.pop(0) if self.answers else InputResponse(cancel=True)


async def follow_redirects(url: str) -> None:
    """The test's 'browser': follows the authorize redirect to the loopback receiver."""
    async with httpx.AsyncClient(timeout=10) as browser:
        response = await browser.get(url, follow_redirects=True)
        assert response.status_code == 200


class Clock:
    """A clock the test moves forward instead of waiting for a token to expire."""

    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def agent_for(url: str, store: MemoryCredentialStore, **kw: Any) -> A2AAgent:
    return A2AAgent(url, credentials=store, credential_id=CID, connection_id=CID, **kw)


# --------------------------------------------------------------------------- required_credentials


@pytest.mark.asyncio
async def test_required_credentials_describe_every_scheme_type_from_served_cards() -> None:
    server = OAuthServer()
    seen: dict[str, Any] = {}
    factories: dict[str, Callable[[str], Any]] = {
        "header": api_key_agent("header"),
        "query": api_key_agent("query"),
        "cookie": api_key_agent("cookie"),
        "basic": basic_app,
        "cc": oauth_agent("client-credentials", server),
        "code": oauth_agent("authorization-code", server),
        "oidc": oauth_agent("oidc", server),
    }
    for name, factory in factories.items():
        async with serve_agent(factory) as url, A2AAgent(url) as agent:
            seen[name] = (url, agent.discovery.card)
    for location, param in (("header", "X-API-Key"), ("query", "access"), ("cookie", "wb_session")):
        (need,) = required_credentials(seen[location][1])  # mutual TLS (first alternative) is skipped
        assert (need.scheme, need.type, need.location, need.param_name) == ("apikey", "api-key", location, param)
        assert [f.name for f in need.fields] == ["api_key"] and need.fields[0].secret
    vault = required_credentials(seen["header"][1], skill="vault")
    assert [(n.scheme, n.param_name) for n in vault] == [("apikey", "X-API-Key"), ("vault", "X-Vault-Key")]
    (basic,) = required_credentials(seen["basic"][1])
    assert basic.type == "http-basic" and [f.name for f in basic.fields] == ["username", "password"]
    (cc,) = required_credentials(seen["cc"][1])
    assert cc.type == "oauth2-client-credentials" and cc.scopes == (SCOPE,)
    assert cc.token_url == seen["cc"][0] + "/oauth/token"
    (code,) = required_credentials(seen["code"][1])
    assert code.type == "oauth2-authorization-code" and code.pkce_required
    assert code.authorization_url == seen["code"][0] + "/oauth/authorize"
    assert [f.optional for f in code.fields] == [False, True]  # a public client needs no secret
    (oidc,) = required_credentials(seen["oidc"][1])
    assert oidc.type == "openid-connect"
    assert oidc.openid_connect_url == seen["oidc"][0] + "/.well-known/openid-configuration"
    assert oidc.to_dict()["scopes"] == [SCOPE]


def test_schemes_without_requirements_mean_any_one_and_an_empty_requirement_means_anonymous() -> None:
    from a2a.types import AgentCard, HTTPAuthSecurityScheme, MutualTlsSecurityScheme, SecurityScheme

    card = AgentCard(
        name="c",
        security_schemes={
            "a-mtls": SecurityScheme(mtls_security_scheme=MutualTlsSecurityScheme()),
            "b-digest": SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Digest")),
            "c-bearer": SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Bearer")),
        },
    )
    assert [(n.scheme, n.type) for n in required_credentials(card)] == [("c-bearer", "http-bearer")]
    card.security_requirements.add().schemes["a-mtls"].list.extend([])
    (only,) = required_credentials(card)  # nothing supported: the first alternative, marked as such
    assert only.type == "unsupported" and not only.supported
    card.security_requirements.add()  # an empty requirement: anonymous access is allowed
    assert required_credentials(card) == []


@pytest.mark.asyncio
async def test_describe_card_lists_what_the_agent_needs() -> None:
    async with serve_agent(api_key_agent("header")) as url, A2AAgent(url) as agent:
        info = describe_card(agent.discovery)
    assert [n["scheme"] for n in info["credential_needs"]] == ["apikey"]
    assert info["needs"] == "apikey: api-key X-API-Key in header"


# --------------------------------------------------------------------------- API keys and basic


@pytest.mark.asyncio
@pytest.mark.parametrize("location", ["header", "query", "cookie"])
async def test_a_stored_api_key_is_attached_where_the_card_says_and_accepted(location: Location) -> None:
    store = MemoryCredentialStore({key("apikey", "api_key"): API_KEY})
    async with serve_agent(api_key_agent(location)) as url, agent_for(url, store) as agent:
        result = await agent.invoke_async("hello")
    assert result.state == "completed" and result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_a_missing_api_key_gets_a_401_then_the_handler_is_asked_and_the_retry_succeeds(binding: str) -> None:
    store = MemoryCredentialStore()
    asker = Asker(InputResponse(text=API_KEY))
    async with (
        serve_agent(api_key_agent("header")) as url,
        agent_for(url, store, input_handler=asker, binding=binding) as agent,
    ):
        events = await collect(agent.stream_async("hello"))
    (request,) = asker.asked
    assert request.kind == "auth" and request.data["http_status"] == 401
    assert request.data["need"]["type"] == "api-key" and request.data["need"]["param_name"] == "X-API-Key"
    assert isinstance(events[0], AuthRequired) and events[0].request is request
    final = events[-1]
    assert isinstance(final, Completed) and final.result.artifacts["echo"][0].text == "hello"
    stored = await store.get(key("apikey", "api_key"))
    assert stored is not None and stored.get_secret_value() == API_KEY


@pytest.mark.asyncio
async def test_a_wrong_api_key_fails_with_auth_required_after_one_prompt_and_one_retry() -> None:
    store = MemoryCredentialStore({key("apikey", "api_key"): "wrong-key-1"})
    asker = Asker(InputResponse(text="wrong-key-2"), InputResponse(text=API_KEY))
    async with serve_agent(api_key_agent("header")) as url, agent_for(url, store, input_handler=asker) as agent:
        events = await collect(agent.stream_async("hello"))
    assert len(asker.asked) == 1
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, AuthRequiredError)
    assert final.error.code == "auth-required"


@pytest.mark.asyncio
async def test_without_an_input_handler_a_missing_key_is_an_auth_required_error_naming_the_need() -> None:
    async with serve_agent(api_key_agent("header")) as url, agent_for(url, MemoryCredentialStore()) as agent:
        with pytest.raises(AuthRequiredError) as caught:
            await agent.invoke_async("hello")
    assert [n["param_name"] for n in caught.value.details["credential_needs"]] == ["X-API-Key"]


@pytest.mark.asyncio
async def test_a_rejected_key_sent_in_the_query_does_not_show_in_the_error() -> None:
    rejected = "rejected-query-key-4410"
    store = MemoryCredentialStore({key("apikey", "api_key"): rejected})
    async with serve_agent(api_key_agent("query")) as url, agent_for(url, store) as agent:
        with pytest.raises(AuthRequiredError) as caught:
            await agent.invoke_async("hello")
    assert rejected not in json.dumps(caught.value.to_dict()) and rejected not in str(caught.value)


@pytest.mark.asyncio
async def test_http_basic_credentials_entered_as_fields_are_stored_and_sent() -> None:
    store = MemoryCredentialStore()
    asker = Asker(InputResponse(data={"username": BASIC_USER, "password": BASIC_PASSWORD}))
    async with serve_agent(basic_app) as url, agent_for(url, store, input_handler=asker) as agent:
        result = await agent.invoke_async("hi")
        again = await agent.invoke_async("again")
    assert [n["type"] for n in asker.asked[0].data["credential_needs"]] == ["http-basic"]
    assert result.artifacts["echo"][0].text == "hi" and again.state == "completed"
    assert len(asker.asked) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
async def test_a_skill_with_its_own_requirement_asks_in_band_for_the_second_key_and_resumes(binding: str) -> None:
    store = MemoryCredentialStore({key("apikey", "api_key"): API_KEY})
    asker = Asker(InputResponse(text=VAULT_KEY))
    async with (
        serve_agent(api_key_agent("header")) as url,
        agent_for(url, store, input_handler=asker, binding=binding) as agent,
    ):
        events = await collect(agent.stream_async("open", skill="vault"))
    (request,) = asker.asked
    assert request.kind == "auth" and request.text == "The vault needs its key."
    assert [n["scheme"] for n in request.data["credential_needs"]] == ["apikey", "vault"]
    final = events[-1]
    assert isinstance(final, Completed) and final.result.artifacts["vault"][0].text == "vault opened"
    vault = await store.get(key("vault", "api_key"))
    api = await store.get(key("apikey", "api_key"))
    assert vault is not None and vault.get_secret_value() == VAULT_KEY
    assert api is not None and api.get_secret_value() == API_KEY  # the first key was kept


@pytest.mark.asyncio
async def test_a_401_and_then_an_in_band_auth_required_are_each_asked_once_in_one_call() -> None:
    store = MemoryCredentialStore()
    asker = Asker(InputResponse(text=API_KEY), InputResponse(text=VAULT_KEY))
    async with serve_agent(api_key_agent("header")) as url, agent_for(url, store, input_handler=asker) as agent:
        result = await agent.invoke_async("open", skill="vault")
    assert [r.data["reason"] for r in asker.asked] == ["http", "auth-required"]
    assert result.artifacts["vault"][0].text == "vault opened"


@pytest.mark.asyncio
async def test_a_skill_still_refusing_after_one_in_band_answer_fails_with_auth_required() -> None:
    store = MemoryCredentialStore({key("apikey", "api_key"): API_KEY})
    asker = Asker(InputResponse(text="not-the-vault-key"), InputResponse(text=VAULT_KEY))
    async with serve_agent(api_key_agent("header")) as url, agent_for(url, store, input_handler=asker) as agent:
        events = await collect(agent.stream_async("open", skill="vault"))
    assert len(asker.asked) == 1
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, AuthRequiredError)


# --------------------------------------------------------------------------- OAuth 2.0 client credentials


def client_store() -> MemoryCredentialStore:
    return MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID, key("oauth", "client_secret"): CLIENT_SECRET})


@pytest.mark.asyncio
async def test_client_credentials_token_is_fetched_reused_and_fetched_again_after_expiry() -> None:
    server, store, clock = OAuthServer(), client_store(), Clock()
    async with serve_agent(oauth_agent("client-credentials", server)) as url, agent_for(url, store) as agent:
        assert agent.security is not None
        agent.security.clock = clock
        assert (await agent.invoke_async("one")).state == "completed"
        assert (await agent.invoke_async("two")).state == "completed"
        assert server.grants == ["client_credentials"]
        stored = await store.get(key("oauth", "token"))
        assert stored is not None
        token = TokenSet.from_json(stored.get_secret_value())
        assert token is not None and token.access_token in server.tokens
        assert token.expires_at == pytest.approx(clock.now + TOKEN_LIFETIME)
        clock.now += TOKEN_LIFETIME + 1
        assert (await agent.invoke_async("three")).state == "completed"
    assert server.grants == ["client_credentials", "client_credentials"]


@pytest.mark.asyncio
async def test_a_token_the_agent_no_longer_accepts_is_replaced_without_asking() -> None:
    server, store = OAuthServer(), client_store()
    asker = Asker()
    async with (
        serve_agent(oauth_agent("client-credentials", server)) as url,
        agent_for(url, store, input_handler=asker) as agent,
        httpx.AsyncClient() as control,
    ):
        assert (await agent.invoke_async("one")).state == "completed"
        await control.post(url + "/oauth/revoke-all")
        assert (await agent.invoke_async("two")).state == "completed"
    assert server.grants == ["client_credentials", "client_credentials"] and asker.asked == []


@pytest.mark.asyncio
async def test_missing_client_credentials_are_asked_for_with_their_fields() -> None:
    server, store = OAuthServer(), MemoryCredentialStore()
    asker = Asker(InputResponse(data={"oauth": {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}}))
    async with (
        serve_agent(oauth_agent("client-credentials", server)) as url,
        agent_for(url, store, input_handler=asker) as agent,
    ):
        result = await agent.invoke_async("hello")
    need = asker.asked[0].data["need"]
    assert need["type"] == "oauth2-client-credentials" and need["scopes"] == [SCOPE]
    assert [f["name"] for f in need["fields"]] == ["client_id", "client_secret"]
    assert result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
async def test_a_wrong_client_secret_fails_with_auth_required_after_one_retry() -> None:
    server = OAuthServer()
    store = MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID, key("oauth", "client_secret"): "nope-1234"})
    asker = Asker(InputResponse(data={"client_secret": "still-wrong-5678"}))
    async with (
        serve_agent(oauth_agent("client-credentials", server)) as url,
        agent_for(url, store, input_handler=asker) as agent,
    ):
        events = await collect(agent.stream_async("hello"))
    (request,) = asker.asked
    assert request.data["oauth_error"] == "invalid_client"
    final = events[-1]
    assert isinstance(final, Failed) and isinstance(final.error, AuthRequiredError)
    assert final.error.code == "auth-required" and final.error.details["oauth_error"] == "invalid_client"
    assert server.refused == ["invalid_client", "invalid_client"] and server.grants == []


# --------------------------------------------------------------------------- authorization code + PKCE, OIDC


@pytest.mark.asyncio
async def test_authorization_code_with_pkce_signs_in_through_the_opener_then_refreshes() -> None:
    server, clock = OAuthServer(), Clock()
    store = MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID})
    opened: list[str] = []

    async def opener(url: str) -> None:
        opened.append(url)
        await follow_redirects(url)

    async with (
        serve_agent(oauth_agent("authorization-code", server)) as url,
        agent_for(url, store, oauth_opener=opener) as agent,
    ):
        assert agent.security is not None
        agent.security.clock = clock
        assert (await agent.invoke_async("one")).state == "completed"
        assert (await agent.invoke_async("two")).state == "completed"
        clock.now += TOKEN_LIFETIME + 1
        assert (await agent.invoke_async("three")).state == "completed"
    (authorize,) = opened
    assert authorize.startswith(url + "/oauth/authorize?") and "code_challenge_method=S256" in authorize
    assert server.authorizations == 1
    assert server.grants == ["authorization_code", "refresh_token"]


@pytest.mark.asyncio
async def test_openid_connect_discovers_the_endpoints_and_signs_in() -> None:
    server = OAuthServer()
    store = MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID})
    opened: list[str] = []

    async def opener(url: str) -> None:
        opened.append(url)
        await follow_redirects(url)

    wire = WireRecorder()
    async with (
        serve_agent(oauth_agent("oidc", server)) as url,
        agent_for(url, store, oauth_opener=opener, wire=wire) as agent,
    ):
        result = await agent.invoke_async("hello")
    assert result.artifacts["echo"][0].text == "hello"
    (authorize,) = opened
    assert authorize.startswith(url + "/oauth/authorize?") and "scope=openid+agent%3Ause" in authorize
    assert server.grants == ["authorization_code"]
    urls = [r.http["url"] for r in wire.records(CID) if r.http and "url" in r.http]
    assert url + "/.well-known/openid-configuration" in urls


@pytest.mark.asyncio
async def test_a_browser_sign_in_that_never_comes_back_times_out() -> None:
    from workbench.core.errors import RequestTimeoutError

    server = OAuthServer()
    store = MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID})
    opened: list[str] = []

    async def ignore(url: str) -> None:
        opened.append(url)  # the user closed the browser

    async with (
        serve_agent(oauth_agent("authorization-code", server)) as url,
        agent_for(url, store, oauth_opener=ignore) as agent,
    ):
        assert agent.security is not None
        agent.security.authorization_timeout = 0.3
        with anyio.fail_after(10), pytest.raises(RequestTimeoutError):
            await agent.invoke_async("hello")
    assert len(opened) == 1 and server.grants == []


@pytest.mark.asyncio
async def test_a_missing_client_id_for_browser_sign_in_is_asked_for_then_the_flow_runs() -> None:
    server = OAuthServer()
    asker = Asker(InputResponse(text=CLIENT_ID))
    async with (
        serve_agent(oauth_agent("authorization-code", server)) as url,
        agent_for(url, MemoryCredentialStore(), input_handler=asker, oauth_opener=follow_redirects) as agent,
    ):
        result = await agent.invoke_async("hello")
    assert asker.asked[0].data["need"]["type"] == "oauth2-authorization-code"
    assert result.state == "completed" and server.authorizations == 1


# --------------------------------------------------------------------------- the wire log


def spellings(value: str) -> set[str]:
    return {value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]}


@pytest.mark.asyncio
async def test_the_wire_log_never_contains_a_secret_value() -> None:
    import base64

    server = OAuthServer()
    wire = WireRecorder()
    store = MemoryCredentialStore({key("apikey", "api_key"): API_KEY, key("vault", "api_key"): VAULT_KEY})
    async with serve_agent(api_key_agent("query")) as url, agent_for(url, store, wire=wire) as agent:
        assert (await agent.invoke_async("query key")).state == "completed"
    async with serve_agent(api_key_agent("cookie")) as url, agent_for(url, store, wire=wire) as agent:
        assert (await agent.invoke_async("cookie key")).state == "completed"
    basic = MemoryCredentialStore()
    asker = Asker(InputResponse(data={"username": BASIC_USER, "password": BASIC_PASSWORD}))
    async with serve_agent(basic_app) as url, agent_for(url, basic, wire=wire, input_handler=asker) as agent:
        assert (await agent.invoke_async("basic")).state == "completed"
    async with (
        serve_agent(oauth_agent("client-credentials", server)) as url,
        agent_for(url, client_store(), wire=wire) as agent,
    ):
        assert (await agent.invoke_async("token")).state == "completed"
    code_store = MemoryCredentialStore({key("oauth", "client_id"): CLIENT_ID})
    async with (
        serve_agent(oauth_agent("authorization-code", server)) as url,
        agent_for(url, code_store, wire=wire, oauth_opener=follow_redirects) as agent,
    ):
        assert (await agent.invoke_async("code")).state == "completed"
    records = wire.records(CID)
    assert any(r.http and "/oauth/token" in r.http.get("url", "") for r in records)  # the token calls are logged
    text = "\n".join(json.dumps(r.to_dict()) for r in records)
    basic_b64 = base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode()).decode()
    secrets = [API_KEY, BASIC_PASSWORD, basic_b64, CLIENT_SECRET, *server.tokens, *server.refresh_tokens]
    assert len(server.tokens) == 2 and server.refresh_tokens
    for secret in secrets:
        for spelling in spellings(secret):
            assert spelling not in text, f"secret leaked into the wire log ({secret[:3]}…)"


# --------------------------------------------------------------------------- profiles


@pytest.mark.asyncio
async def test_an_a2a_profile_built_with_a_credential_store_keeps_scheme_values_under_its_id() -> None:
    from workbench.core.agent_factory import AgentHandlers, build_agent
    from workbench.core.profiles import A2AProfile

    store = MemoryCredentialStore()
    asker = Asker(InputResponse(text=API_KEY))
    async with serve_agent(api_key_agent("header")) as url:
        profile = A2AProfile(name="keyed", url=url)
        agent = await build_agent(profile, credentials=store, handlers=AgentHandlers(input=asker))
        try:
            result = await agent.invoke_async("hello")
        finally:
            await agent.aclose()
    assert result.state == "completed" and len(asker.asked) == 1
    stored = await store.get(credential_key(profile.id, "apikey", "api_key"))
    assert stored is not None and stored.get_secret_value() == API_KEY
