"""MCP's authorization code grant and refresh are built and read by the shared OAuth layer (``core.oauth``).

A loopback authorization server (and a resource behind it) records each token request's form and
``Authorization`` header as it arrived; the MCP provider runs its whole flow against it through a
plain HTTP client, the browser leg followed by ``follow_redirects_opener``. What the server receives
is compared with what ``core.oauth`` builds from the same values, and each bad token response ends
the login with ``core.oauth.tokens``' typed refusal at the step it happened in.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx2
import pytest
import pytest_asyncio
from mcp.client.auth import OAuthTokenError
from mcp.shared.auth import OAuthClientInformationFull
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from workbench.core.auth_steps import AuthStage, AuthStep, FailureCode
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import OAuthRefusedError
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.oauth.client_auth import authenticate, basic_credentials
from workbench.core.oauth.forms import authorization_code_form, refresh_token_form
from workbench.core.oauth.pkce import s256_challenge
from workbench.core.oauth_options import OAuth, PreRegisteredClient, TokenEndpointAuthMethod
from workbench.core.protocols.mcp._oauth_code_flow import client_of
from workbench.core.protocols.mcp._oauth_provider import WorkbenchOAuthProvider
from workbench.core.protocols.mcp.oauth import oauth_provider
from workbench.core.protocols.mcp.oauth_storage import tokens_key
from workbench.core.serving import serve_asgi
from workbench.core.wire.recorder import WireRecorder

CLIENT_ID = "mcp client"
SECRET = "s3cret:with spaces&symbols"
TTL = 3600


@dataclass
class TokenCall:
    """One token request as the authorization server received it."""

    form: dict[str, str]
    authorization: str | None


@dataclass
class LoopbackAuthorizationServer:
    """An authorization server and an MCP-like resource on one loopback origin, recording token requests.

    ``answers`` are the token endpoint's next answers (status, body), in order; when none is left it
    issues an access token and a refresh token.
    """

    base: str = ""
    answers: list[tuple[int, Any]] = field(default_factory=list)
    calls: list[TokenCall] = field(default_factory=list)
    challenges: list[str] = field(default_factory=list)
    issued: list[str] = field(default_factory=list)

    @property
    def resource(self) -> str:
        return f"{self.base}/mcp"

    def grants(self) -> list[str]:
        return [call.form.get("grant_type", "") for call in self.calls]

    def app(self, base: str) -> Starlette:
        self.base = base
        return Starlette(
            routes=[
                Route("/.well-known/oauth-protected-resource/mcp", self._resource_metadata),
                Route("/.well-known/oauth-authorization-server", self._metadata),
                Route("/authorize", self._authorize),
                Route("/token", self._token, methods=["POST"]),
                Route("/mcp", self._mcp),
            ]
        )

    async def _resource_metadata(self, request: Request) -> Response:
        return JSONResponse({"resource": self.resource, "authorization_servers": [self.base]})

    async def _metadata(self, request: Request) -> Response:
        return JSONResponse(
            {
                "issuer": self.base,
                "authorization_endpoint": f"{self.base}/authorize",
                "token_endpoint": f"{self.base}/token",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            }
        )

    async def _authorize(self, request: Request) -> Response:
        query = request.query_params
        self.challenges.append(query["code_challenge"])
        back = urlencode({"code": f"code-{len(self.challenges)}", "state": query["state"]})
        return RedirectResponse(f"{query['redirect_uri']}?{back}", status_code=302)

    async def _token(self, request: Request) -> Response:
        form = {key: str(value) for key, value in (await request.form()).items()}
        self.calls.append(TokenCall(form, request.headers.get("authorization")))
        if self.answers:
            status, body = self.answers.pop(0)
            return JSONResponse(body, status_code=status)
        access = f"at-{len(self.calls)}"
        self.issued.append(access)
        refresh = f"rt-{len(self.calls)}"
        body = {"access_token": access, "token_type": "Bearer", "expires_in": TTL, "refresh_token": refresh}
        return JSONResponse(body)

    async def _mcp(self, request: Request) -> Response:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme == "Bearer" and token in self.issued:
            return JSONResponse({"ok": True})
        metadata = f"{self.base}/.well-known/oauth-protected-resource/mcp"
        return Response(status_code=401, headers={"WWW-Authenticate": f'Bearer resource_metadata="{metadata}"'})


class Login:
    """One MCP provider logging in to the loopback server: its store, steps and clock."""

    def __init__(self, server: LoopbackAuthorizationServer, client: PreRegisteredClient) -> None:
        self.server = server
        self.options = OAuth(client=client)
        self.store = MemoryCredentialStore()
        self.steps: list[AuthStep] = []
        self.offset = 0.0
        self.clock: Callable[[], float] = lambda: time.time() + self.offset

    async def provider(self) -> WorkbenchOAuthProvider:
        return await oauth_provider(
            self.server.resource,
            self.options,
            self.store,
            wire=WireRecorder(),
            connection_id="code-flow",
            opener=follow_redirects_opener,
            on_step=self.steps.append,
            clock=self.clock,
        )

    async def get(self, provider: WorkbenchOAuthProvider) -> httpx2.Response:
        async with httpx2.AsyncClient(auth=provider, timeout=20) as http:
            return await http.get(self.server.resource)

    async def tokens_stored(self) -> bool:
        return await self.store.get(tokens_key(self.options.key_for(self.server.resource))) is not None

    def last(self, stage: AuthStage) -> AuthStep:
        return [step for step in self.steps if step.stage is stage][-1]


@pytest_asyncio.fixture
async def server() -> AsyncIterator[LoopbackAuthorizationServer]:
    running = LoopbackAuthorizationServer()
    async with serve_asgi(running.app, lifespan="off"):
        yield running


def secret_client(method: TokenEndpointAuthMethod) -> PreRegisteredClient:
    if method == "none":
        return PreRegisteredClient(CLIENT_ID, token_endpoint_auth_method="none")
    return PreRegisteredClient(CLIENT_ID, SECRET, token_endpoint_auth_method=method)


@pytest.mark.asyncio
@pytest.mark.parametrize("method", ["client_secret_post", "client_secret_basic", "none"])
async def test_the_code_exchange_is_core_oauths_form_with_its_pkce_verifier_and_client_authentication(
    server: LoopbackAuthorizationServer, method: TokenEndpointAuthMethod
) -> None:
    login = Login(server, secret_client(method))
    provider = await login.provider()
    assert (await login.get(provider)).status_code == 200
    [call] = server.calls
    verifier = call.form["code_verifier"]
    # core.oauth.pkce: 48 random bytes, 64 characters (the SDK's own pair has 128), S256 of it sent.
    assert len(verifier) == 64 and server.challenges == [s256_challenge(verifier)]
    redirect = f"http://127.0.0.1:{provider.redirect_port}/callback"
    form = authorization_code_form(
        f"{server.base}/token", code="code-1", redirect_uri=redirect, code_verifier=verifier, resource=server.resource
    )
    expected = authenticate(form, secret_client(method), audience=server.base, client_id_in_form=True)
    assert call.form == dict(expected.form) and call.authorization == expected.headers.get("Authorization")
    assert call.form["client_id"] == CLIENT_ID and call.form["resource"] == server.resource
    if method == "client_secret_basic":
        assert call.authorization == basic_credentials(CLIENT_ID, SECRET) and "client_secret" not in call.form
    elif method == "client_secret_post":
        assert call.authorization is None and call.form["client_secret"] == SECRET
    else:
        assert call.authorization is None and "client_secret" not in call.form
    assert (login.last(AuthStage.TOKEN).status, await login.tokens_stored()) == ("ok", True)


@pytest.mark.asyncio
@pytest.mark.parametrize("method", ["client_secret_post", "client_secret_basic"])
async def test_the_refresh_is_core_oauths_form_with_the_clients_authentication(
    server: LoopbackAuthorizationServer, method: TokenEndpointAuthMethod
) -> None:
    login = Login(server, secret_client(method))
    provider = await login.provider()
    assert (await login.get(provider)).status_code == 200
    login.offset += 2 * TTL  # the access token has expired: the flow refreshes before the request
    assert (await login.get(provider)).status_code == 200
    assert server.grants() == ["authorization_code", "refresh_token"]
    call = server.calls[-1]
    form = refresh_token_form(f"{server.base}/token", refresh_token="rt-1", resource=server.resource)
    expected = authenticate(form, secret_client(method), audience=server.base, client_id_in_form=True)
    assert call.form == dict(expected.form) and call.authorization == expected.headers.get("Authorization")
    assert login.last(AuthStage.REFRESH).status == "ok"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "body", "reason", "failure"),
    [
        (200, {"token_type": "Bearer", "expires_in": 60}, "token-response-invalid", FailureCode.INVALID_RESPONSE),
        (200, ["not", "an", "object"], "token-response-invalid", FailureCode.INVALID_RESPONSE),
        (400, {"error": "invalid_grant"}, "token-refused", FailureCode.HTTP_ERROR),
        (200, {"access_token": "at-mac", "token_type": "mac"}, "token-type-unsupported", None),
    ],
)
async def test_a_bad_token_response_is_refused_with_core_oauths_typed_code_at_the_token_step_and_nothing_is_stored(
    server: LoopbackAuthorizationServer, status: int, body: Any, reason: str, failure: FailureCode | None
) -> None:
    server.answers.append((status, body))
    login = Login(server, secret_client("client_secret_post"))
    with pytest.raises(OAuthRefusedError) as refused:
        await login.get(await login.provider())
    assert (refused.value.details["oauth"], refused.value.details["step"]) == (reason, "token")
    if reason == "token-refused":
        assert refused.value.details["oauth_error"] == "invalid_grant"
    assert SECRET not in str(refused.value) and "at-mac" not in str(refused.value)
    step = login.last(AuthStage.TOKEN)
    assert step.status == "failed"
    if failure is not None:
        assert step.failure is not None and step.failure.code is failure
    else:  # the answer passed the exchange's checks: the refusal is a step of its own
        assert step.detail.startswith(reason)
    assert not await login.tokens_stored()


@pytest.mark.asyncio
async def test_a_refresh_answered_without_an_access_token_fails_the_refresh_step_and_a_login_follows(
    server: LoopbackAuthorizationServer,
) -> None:
    login = Login(server, secret_client("client_secret_basic"))
    provider = await login.provider()
    assert (await login.get(provider)).status_code == 200
    login.offset += 2 * TTL
    server.answers.append((200, {"token_type": "Bearer", "expires_in": 60}))
    assert (await login.get(provider)).status_code == 200
    assert server.grants() == ["authorization_code", "refresh_token", "authorization_code"]
    refresh = login.last(AuthStage.REFRESH)
    assert refresh.status == "failed" and refresh.failure is not None
    assert refresh.failure.code is FailureCode.INVALID_RESPONSE
    assert login.last(AuthStage.TOKEN).status == "ok"


def _info(method: str | None, secret: str | None) -> OAuthClientInformationFull:
    return OAuthClientInformationFull(
        client_id="c", client_secret=secret, token_endpoint_auth_method=method, redirect_uris=None
    )


def test_a_registration_record_authenticates_as_the_sdk_would_and_an_unknown_method_is_refused() -> None:
    assert client_of(_info("client_secret_basic", "s")) == PreRegisteredClient("c", "s", "client_secret_basic")
    assert client_of(_info("client_secret_post", "s")) == PreRegisteredClient("c", "s", "client_secret_post")
    for method, secret in [("client_secret_basic", None), (None, "s"), ("private_key_jwt", None), ("none", None)]:
        assert client_of(_info(method, secret)) == PreRegisteredClient("c", None, "none")
    with pytest.raises(OAuthTokenError):
        client_of(None)
    with pytest.raises(OAuthTokenError):
        client_of(OAuthClientInformationFull.model_construct(client_id="c", token_endpoint_auth_method="tls"))
