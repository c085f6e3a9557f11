"""The auth steps of the browser leg, refresh and logout against a real authorization server on 127.0.0.1.

The authorization request is a step of its own, recorded before the browser opens; the redirect back
(or the authorization server's error, or nobody coming back) is the callback step. Each step is a wire
record too, and the browser's legs, on no other record, travel in it (redacted).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import pytest
import pytest_asyncio

from tests.servers.oauth_as import OAuthServers, serve_oauth_protected_mcp
from workbench.core.auth_steps import AuthStage, AuthStep, FailureCode
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import AuthRequiredError, RequestTimeoutError
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.oauth_login import login
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp() as running:
        yield running


def _profile(servers: OAuthServers) -> MCPHTTPProfile:
    return MCPHTTPProfile(name="protected", url=servers.url, auth="oauth")


async def test_the_authorization_request_is_a_step_before_the_browser_opens_and_the_callback_one_after_it(
    servers: OAuthServers,
) -> None:
    steps: list[AuthStep] = []
    seen_when_opened: list[AuthStep] = []
    wire = WireRecorder()

    async def browser(url: str) -> None:
        seen_when_opened.extend(steps)
        await follow_redirects_opener(url)

    await login(_profile(servers), MemoryCredentialStore(), opener=browser, on_step=steps.append, wire=wire)
    assert seen_when_opened[-1].stage is AuthStage.AUTHORIZE and seen_when_opened[-1].status == "ok"
    assert AuthStage.CALLBACK not in [s.stage for s in seen_when_opened]
    request, callback = (s for s in steps if s.stage in (AuthStage.AUTHORIZE, AuthStage.CALLBACK))
    assert [s.stage for s in steps].index(AuthStage.CALLBACK) == [s.stage for s in steps].index(AuthStage.AUTHORIZE) + 1

    (sent,) = request.exchanges
    query = parse_qs(urlsplit(sent.url).query)
    assert sent.via == "browser" and sent.status is None
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"] and query["state"]
    assert "code_verifier" not in query and "client_secret" not in query
    assert {c.name: c.outcome for c in request.checks} == {
        "https": "passed",
        "pkce": "passed",
        "state": "passed",
        "resource": "passed",
    }

    (back,) = callback.exchanges
    assert back.via == "browser" and back.status == 200
    assert parse_qs(urlsplit(back.url).query)["code"] == ["***"]
    assert parse_qs(urlsplit(back.url).query)["state"] == query["state"]
    assert {c.name: c.outcome for c in callback.checks}["state"] == "passed"
    assert callback.status == "ok" and callback.failure is None

    for step, url in ((request, sent.url), (callback, back.url)):
        assert step.record_seq is not None
        record = wire.get(step.record_seq)
        assert record is not None and record.kind is WireKind.AUTH_STEP
        payload = json.loads(record.payload)
        assert payload["step"] == step.stage.value and [e["url"] for e in payload["exchanges"]] == [url]
    codes = servers.provider.issued_codes
    assert codes and not any(code in r.payload + r.summary for r in wire.records() for code in codes)


async def test_a_refused_authorization_is_a_failed_callback_step_with_the_servers_error(servers: OAuthServers) -> None:
    servers.provider.deny = True
    steps: list[AuthStep] = []
    with pytest.raises(AuthRequiredError):
        await login(_profile(servers), MemoryCredentialStore(), opener=follow_redirects_opener, on_step=steps.append)
    request, callback = steps[-2:]
    assert (request.stage, request.status) == (AuthStage.AUTHORIZE, "ok")
    assert (callback.stage, callback.status) == (AuthStage.CALLBACK, "failed")
    assert callback.failure is not None and callback.failure.code is FailureCode.REFUSED
    (back,) = callback.exchanges
    assert parse_qs(urlsplit(back.url).query)["error"] == ["access_denied"] and back.status == 400


async def test_nobody_coming_back_is_a_failed_callback_step_after_the_request_step(servers: OAuthServers) -> None:
    steps: list[AuthStep] = []

    async def shown_to_nobody(url: str) -> None:
        return None

    with pytest.raises(RequestTimeoutError):
        await login(
            _profile(servers), MemoryCredentialStore(), opener=shown_to_nobody, on_step=steps.append, timeout=0.3
        )
    assert [(s.stage, s.status) for s in steps[-2:]] == [(AuthStage.AUTHORIZE, "ok"), (AuthStage.CALLBACK, "failed")]
    failure = steps[-1].failure
    assert failure is not None and failure.code is FailureCode.TIMEOUT and failure.hint
    assert steps[-1].exchanges == ()
