"""The shared OAuth loopback receiver (real loopback socket) and the A2A flow that uses it."""

from __future__ import annotations

import anyio
import httpx
import pytest

from workbench.core.errors import AuthRequiredError, RequestTimeoutError
from workbench.core.http.loopback import AuthorizationResponse, LoopbackReceiver, free_port, redirect_uri
from workbench.core.protocols.a2a.security_oauth import authorization_code_flow

BOUND = 10


@pytest.mark.asyncio
async def test_a_get_of_the_callback_delivers_code_state_and_issuer() -> None:
    async with LoopbackReceiver() as rx, httpx.AsyncClient() as browser:
        assert rx.port != 0 and rx.uri == redirect_uri(rx.port)
        page = await browser.get(rx.uri, params={"code": "c1", "state": "s1", "iss": "https://as.test"})
        with anyio.fail_after(BOUND):
            got = await rx.wait(BOUND)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert got == AuthorizationResponse(code="c1", state="s1", iss="https://as.test")


@pytest.mark.asyncio
async def test_other_methods_and_paths_get_404_and_do_not_end_the_wait() -> None:
    async with LoopbackReceiver() as rx, httpx.AsyncClient() as browser:
        assert (await browser.post(rx.uri, params={"code": "forged"})).status_code == 404
        assert (await browser.get(rx.uri.replace("/callback", "/other"), params={"code": "x"})).status_code == 404
        assert (await browser.get(rx.uri, params={"code": "real", "state": "s"})).status_code == 200
        with anyio.fail_after(BOUND):
            assert (await rx.wait(BOUND)).code == "real"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("query", "oauth_error"), [({"error": "access_denied"}, "access_denied"), ({}, "invalid_response")]
)
async def test_a_redirect_without_a_code_is_an_auth_required_error(query: dict[str, str], oauth_error: str) -> None:
    async with LoopbackReceiver() as rx, httpx.AsyncClient() as browser:
        page = await browser.get(rx.uri, params=query)
        with anyio.fail_after(BOUND), pytest.raises(AuthRequiredError) as info:
            await rx.wait(BOUND)
    assert page.status_code == 400
    assert info.value.details == {"oauth": "authorization-refused", "oauth_error": oauth_error}


@pytest.mark.asyncio
async def test_nothing_arriving_is_a_timeout() -> None:
    async with LoopbackReceiver() as rx:
        with anyio.fail_after(BOUND), pytest.raises(RequestTimeoutError):
            await rx.wait(0.01)


@pytest.mark.asyncio
async def test_a_busy_registered_port_is_an_auth_required_error() -> None:
    port = free_port()
    async with LoopbackReceiver(port):
        with pytest.raises(AuthRequiredError) as info:
            await LoopbackReceiver(port).start()
    assert info.value.details == {"oauth": "redirect-port-busy", "port": port}


@pytest.mark.asyncio
async def test_a2a_authorization_code_flow_ignores_a_post_and_reports_the_refusal_with_its_scheme() -> None:
    async def opener(url: str) -> None:
        redirect = httpx.URL(url).params["redirect_uri"]
        async with httpx.AsyncClient() as browser:
            assert (await browser.post(redirect, params={"code": "forged"})).status_code == 404
            await browser.get(redirect, params={"error": "access_denied"})

    async with httpx.AsyncClient() as http:
        with anyio.fail_after(BOUND), pytest.raises(AuthRequiredError) as info:
            await authorization_code_flow(
                http,
                scheme="oauth",
                authorization_url="https://as.test/authorize",
                token_url="https://as.test/token",
                client_id="cid",
                client_secret=None,
                scopes=(),
                opener=opener,
                timeout=BOUND,
            )
    assert info.value.details["oauth_error"] == "access_denied"
    assert info.value.details["scheme"] == "oauth"


@pytest.mark.asyncio
async def test_a2a_authorization_code_flow_rejects_a_wrong_state() -> None:
    async def opener(url: str) -> None:
        redirect = httpx.URL(url).params["redirect_uri"]
        async with httpx.AsyncClient() as browser:
            await browser.get(redirect, params={"code": "c", "state": "not-the-one"})

    async with httpx.AsyncClient() as http:
        with anyio.fail_after(BOUND), pytest.raises(AuthRequiredError) as info:
            await authorization_code_flow(
                http,
                scheme="oauth",
                authorization_url="https://as.test/authorize?tenant=1",
                token_url="https://as.test/token",
                client_id="cid",
                client_secret=None,
                scopes=("read",),
                opener=opener,
                timeout=BOUND,
            )
    assert info.value.details["oauth_error"] == "state_mismatch"
