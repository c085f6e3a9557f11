"""Credentials bound to origins: what counts as a credential, which origins may get it, approvals."""

from __future__ import annotations

import httpx
import pytest

from workbench.core.http.httpx_transport import HttpxCredentialGuard
from workbench.core.http.origins import (
    OAUTH_ENDPOINT,
    CredentialBoundary,
    CredentialOriginError,
    InsecureCredentialError,
    OriginApproval,
    is_loopback_host,
    origin_of,
)
from workbench.core.wire.redaction import Redactor

SECRET = "s3cr3t-value-123"


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://A.example/x?y=1", "https://a.example:443"),
        ("https://a.example:443/", "https://a.example:443"),
        ("http://a.example", "http://a.example:80"),
        ("http://127.0.0.1:8080/p", "http://127.0.0.1:8080"),
        ("http://[::1]:9/", "http://[::1]:9"),
    ],
)
def test_origins_spell_out_the_default_port_and_ignore_path_and_case(url: str, origin: str) -> None:
    assert origin_of(url) == origin


def test_a_relative_url_has_no_origin() -> None:
    with pytest.raises(ValueError):
        origin_of("/relative/path")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("[::1]", True),
        ("127.5.0.1", True),
        ("example.com", False),
        ("10.0.0.1", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("https://evil.example/a", [("Authorization", "Bearer anything")]),
        ("https://evil.example/a", [("X-API-Key", "k")]),
        ("https://evil.example/a", [("X-Custom", f"prefix {SECRET}")]),
        ("https://evil.example/a", [("Cookie", f"session={SECRET}")]),
        (f"https://evil.example/a?x={SECRET}", []),
        ("https://evil.example/a?api_key=zzz", []),
    ],
)
def test_a_credential_in_any_form_does_not_go_to_another_origin(url: str, headers: list[tuple[str, str]]) -> None:
    boundary = CredentialBoundary(["https://agent.example"], [SECRET])
    with pytest.raises(CredentialOriginError) as refused:
        boundary.check(url, headers)
    assert refused.value.origin == "https://evil.example:443"
    assert refused.value.details["allowed"] == ["https://agent.example:443"]
    assert SECRET not in str(refused.value.to_dict())
    boundary.check(url.replace("evil.example", "agent.example"), headers)  # the configured origin gets it


@pytest.mark.parametrize("other", ["http://agent.example", "https://agent.example:8443", "https://sub.agent.example"])
def test_another_scheme_port_or_host_is_another_origin(other: str) -> None:
    boundary = CredentialBoundary(["https://agent.example/base"])
    with pytest.raises(CredentialOriginError):
        boundary.check(other + "/rpc", [("Authorization", "Bearer t0k3n")])


def test_requests_without_credentials_go_anywhere() -> None:
    boundary = CredentialBoundary(["https://agent.example"], [SECRET])
    boundary.check("https://elsewhere.example/rpc", [("Accept", "application/json"), ("Cookie", "theme=dark")])


def test_values_the_redactor_learned_count_as_credentials() -> None:
    redactor = Redactor()
    redactor.add_secret("token-from-the-keyring")
    boundary = CredentialBoundary(["https://agent.example"], redactor=redactor)
    with pytest.raises(CredentialOriginError):
        boundary.check("https://evil.example/", [("X-Thing", "token-from-the-keyring")])


def test_plain_http_credentials_only_to_loopback_unless_allowed() -> None:
    boundary = CredentialBoundary(["http://agent.example", "http://127.0.0.1:9000"])
    with pytest.raises(InsecureCredentialError):
        boundary.check("http://agent.example/rpc", [("Authorization", "Bearer t0k3n")])
    boundary.check("http://127.0.0.1:9000/rpc", [("Authorization", "Bearer t0k3n")])
    boundary.allow_insecure = True
    boundary.check("http://agent.example/rpc", [("Authorization", "Bearer t0k3n")])


def _guarded(boundary: CredentialBoundary, seen: list[str]) -> httpx.AsyncClient:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        if request.url.path == "/moved":
            return httpx.Response(302, headers={"Location": "https://evil.example/landing"})
        return httpx.Response(200, json={"ok": True})

    guard = HttpxCredentialGuard(boundary, httpx.MockTransport(answer))
    return httpx.AsyncClient(transport=guard, headers={"X-Api-Key": SECRET})


@pytest.mark.asyncio
async def test_a_redirect_to_another_origin_never_carries_the_key() -> None:
    seen: list[str] = []
    async with _guarded(CredentialBoundary(["https://agent.example"], [SECRET]), seen) as client:
        with pytest.raises(CredentialOriginError):
            await client.get("https://agent.example/moved", follow_redirects=True)
    assert seen == ["https://agent.example/moved"]  # the second hop never left


@pytest.mark.asyncio
async def test_an_oauth_endpoint_request_carries_the_oauth_clients_authentication_never_the_connections() -> None:
    seen: list[str] = []
    basic = {"Authorization": "Basic Y2xpZW50OnNlY3JldA=="}  # the OAuth client's id and secret

    def client_authenticated(url: str) -> httpx.Request:
        request = client.build_request("POST", url, extensions={OAUTH_ENDPOINT: True})
        del request.headers["X-Api-Key"]
        request.headers.update(basic)
        return request

    async with _guarded(CredentialBoundary(["https://agent.example"], [SECRET]), seen) as client:
        await client.send(client_authenticated("https://login.example/token"))
        with pytest.raises(CredentialOriginError):  # the connection's key is not the OAuth client's
            await client.post("https://login.example/token", extensions={OAUTH_ENDPOINT: True})
        insecure = client_authenticated("http://login.example/token")
        with pytest.raises(InsecureCredentialError):
            await client.send(insecure)
    assert seen == ["https://login.example/token"]


@pytest.mark.asyncio
async def test_the_user_is_asked_once_per_origin_and_a_yes_sticks() -> None:
    asked: list[OriginApproval] = []

    async def approve(question: OriginApproval) -> bool:
        asked.append(question)
        return True

    boundary = CredentialBoundary(["https://agent.example"], [SECRET], approver=approve, profile_name="Work agent")
    seen: list[str] = []
    async with _guarded(boundary, seen) as client:
        for _ in range(3):
            await client.get("https://api.agent-cdn.example/rpc")
    assert [(q.origin, q.allowed, q.profile_name) for q in asked] == [
        ("https://api.agent-cdn.example:443", ("https://agent.example:443",), "Work agent")
    ]
    assert len(seen) == 3 and "https://api.agent-cdn.example:443" in boundary.allowed


@pytest.mark.asyncio
async def test_a_no_refuses_and_is_not_asked_again_this_session() -> None:
    asked: list[str] = []

    async def deny(question: OriginApproval) -> bool:
        asked.append(question.origin)
        return False

    seen: list[str] = []
    async with _guarded(CredentialBoundary(["https://agent.example"], [SECRET], approver=deny), seen) as client:
        for _ in range(2):
            with pytest.raises(CredentialOriginError):
                await client.get("https://evil.example/rpc")
    assert asked == ["https://evil.example:443"] and seen == []


@pytest.mark.asyncio
async def test_the_httpx2_guard_the_mcp_adapter_uses_refuses_the_same_way() -> None:
    import httpx2

    from workbench.core.http.httpx2_transport import Httpx2CredentialGuard

    seen: list[str] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        seen.append(str(request.url))
        if request.url.path == "/moved":
            return httpx2.Response(307, headers={"Location": "https://evil.example/mcp"})
        return httpx2.Response(200, json={"ok": True})

    guard = Httpx2CredentialGuard(CredentialBoundary(["https://mcp.example"], [SECRET]), httpx2.MockTransport(answer))
    async with httpx2.AsyncClient(transport=guard, headers={"X-Api-Key": SECRET}) as client:
        assert (await client.get("https://mcp.example/mcp")).status_code == 200
        with pytest.raises(CredentialOriginError):
            await client.get("https://mcp.example/moved", follow_redirects=True)
    assert seen == ["https://mcp.example/mcp", "https://mcp.example/moved"]


@pytest.mark.asyncio
async def test_an_mcp_profile_is_built_with_its_credentials_bound_to_its_origin() -> None:
    from workbench.core.agent_factory import build_agent
    from workbench.core.profiles import MCPHTTPProfile, SecretRef

    async def resolve(ref: SecretRef) -> str | None:
        return SECRET

    profile = MCPHTTPProfile(
        name="m", url="https://mcp.example/mcp", secrets=[SecretRef(kind="bearer", key="k")],
        allowed_origins=["https://backup.example"],
    )  # fmt: skip
    agent = await build_agent(profile, resolve_secret=resolve)
    boundary = agent.config.http_transport.boundary  # type: ignore[attr-defined]  # the seam under test
    assert boundary.allowed == ["https://mcp.example:443", "https://backup.example:443"]
    assert boundary.carries_credential("https://x.example/", [("X-Echo", SECRET)])
    await agent.aclose()
