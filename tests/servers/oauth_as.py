"""A real OAuth 2.1 authorization server and the demo MCP server protected by it (tests only).

Both serve on 127.0.0.1 ephemeral ports, on separate origins (so the client must discover the
authorization server through the protected-resource metadata). Built from the MCP SDK's server-side
auth pieces: ``create_auth_routes`` (metadata, ``/authorize``, ``/token``, ``/register``, ``/revoke``)
over ``AutoApproveProvider``, and for the resource server ``BearerAuthBackend`` +
``RequireAuthMiddleware`` + ``create_protected_resource_routes`` around the demo server's app.

The authorize endpoint approves at once: it redirects straight back with a code, so a test's
"browser" is an HTTP client following redirects. Tokens expire by ``clock`` (shared with the
client under test, so a test moves time forward instead of sleeping); refresh tokens rotate;
revocation revokes the access and refresh token of a grant together.

Run it by hand: ``python -m tests.servers.oauth_as`` prints the MCP URL and serves until Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Literal

from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    ProviderTokenVerifier,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_resource_metadata_url, create_auth_routes, create_protected_resource_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Router
from starlette.types import ASGIApp, Receive, Scope, Send

from workbench.core.serving import serve_asgi
from workbench.demo.mcp_server.app import build_server
from workbench.demo.mcp_server.http import GRACEFUL_SHUTDOWN_S, STREAM_GRACE_S, _StoppableApp

SCOPE = "mcp:tools"
TokenAuth = Literal["client_secret_basic", "client_secret_post", "none"]
EXTRA_SCOPE = "mcp:extra"


class TestClock:
    """Wall-clock seconds plus an offset the test moves forward (``advance``)."""

    __test__ = False  # not a pytest test class

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for everyone using this clock."""
        self.offset += seconds


@dataclass
class _Grant:
    """One authorization: its current access token and refresh token (rotated together)."""

    client_id: str
    scopes: list[str]
    resource: str | None
    access: str
    access_expires_at: float
    refresh: str | None
    revoked: bool = False


@dataclass
class Counters:
    """What the authorization server was asked to do (tests assert on these)."""

    registrations: int = 0
    authorizations: int = 0
    code_grants: int = 0
    refresh_grants: int = 0
    revocations: int = 0
    redirect_uris: list[str] = field(default_factory=list)


class AutoApproveProvider:
    """An in-memory ``OAuthAuthorizationServerProvider`` that approves every authorization request.

    Args:
        clock: Seconds since the epoch (token expiry is judged by it).
        access_ttl: Access token lifetime in seconds (sent as ``expires_in``).
        refresh_tokens: Whether to issue refresh tokens.
        token_auth: The ``token_endpoint_auth_method`` every registration gets, whatever the client
            asked for (as many deployments decide it: ``client_secret_basic`` is common).
    """

    def __init__(
        self,
        *,
        clock: TestClock,
        access_ttl: int = 3600,
        refresh_tokens: bool = True,
        token_auth: TokenAuth | None = None,
    ) -> None:
        self.clock = clock
        self.token_auth = token_auth
        """How registered clients must authenticate at the token endpoint (``None``: as they ask)."""
        self.access_ttl = access_ttl
        self.refresh_tokens = refresh_tokens
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.grants: list[_Grant] = []
        self.issued: list[str] = []
        self.issued_codes: list[str] = []
        self.deny = False
        """When set, the authorize endpoint redirects back with ``error=access_denied``."""
        """Every access and refresh token issued so far (tests scan logs and stores for them)."""
        self.counters = Counters()

    # ---- registration --------------------------------------------------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.counters.registrations += 1
        if self.token_auth is not None:  # the registration response is this object: the client reads it
            client_info.token_endpoint_auth_method = self.token_auth
            if self.token_auth == "none":
                client_info.client_secret = None
                client_info.client_secret_expires_at = None
        self.clients[client_info.client_id] = client_info

    # ---- authorization code -------------------------------------------------------------------

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        self.counters.authorizations += 1
        self.counters.redirect_uris.append(str(params.redirect_uri))
        if self.deny:
            raise AuthorizeError(error="access_denied", error_description="the user declined")
        code = secrets.token_urlsafe(32)
        self.issued_codes.append(code)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + 300,  # the SDK's token endpoint judges codes by the real clock
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull, code: str) -> AuthorizationCode | None:
        return self.codes.get(code)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, code: AuthorizationCode
    ) -> OAuthToken:
        self.counters.code_grants += 1
        self.codes.pop(code.code, None)
        grant = _Grant(client.client_id, code.scopes, code.resource, "", 0.0, None)
        self.grants.append(grant)
        return self._issue(grant)

    # ---- refresh ------------------------------------------------------------------------------

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        grant = self._by_refresh(refresh_token)
        if grant is None or grant.client_id != client.client_id:
            return None
        return RefreshToken(
            token=refresh_token, client_id=grant.client_id, scopes=grant.scopes, resource=grant.resource
        )

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        grant = self._by_refresh(refresh_token.token)
        if grant is None:
            raise TokenError(error="invalid_grant", error_description="refresh token is not valid")
        self.counters.refresh_grants += 1
        return self._issue(grant)  # rotates both tokens

    # ---- access tokens and revocation ---------------------------------------------------------

    async def load_access_token(self, token: str) -> AccessToken | None:
        for grant in self.grants:
            if grant.access == token and not grant.revoked and self.clock() < grant.access_expires_at:
                # expires_at stays None: the middleware would judge it by the real clock.
                return AccessToken(token=token, client_id=grant.client_id, scopes=grant.scopes, resource=grant.resource)
        return None

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        for grant in self.grants:
            if token.token in (grant.access, grant.refresh):
                self.counters.revocations += 1
                grant.revoked = True

    def revoke_everything(self) -> None:
        """Revoke every grant (as an administrator would)."""
        for grant in self.grants:
            grant.revoked = True

    def live_tokens(self) -> list[str]:
        """Access and refresh tokens that still work."""
        out: list[str] = []
        for grant in self.grants:
            if not grant.revoked:
                out.append(grant.access)
                if grant.refresh:
                    out.append(grant.refresh)
        return out

    def _issue(self, grant: _Grant) -> OAuthToken:
        grant.access = f"at-{secrets.token_urlsafe(24)}"
        grant.access_expires_at = self.clock() + self.access_ttl
        grant.refresh = f"rt-{secrets.token_urlsafe(24)}" if self.refresh_tokens else None
        self.issued += [grant.access, *([grant.refresh] if grant.refresh else [])]
        return OAuthToken(
            access_token=grant.access,
            expires_in=self.access_ttl,
            scope=" ".join(grant.scopes),
            refresh_token=grant.refresh,
        )

    def _by_refresh(self, token: str) -> _Grant | None:
        for grant in self.grants:
            if grant.refresh == token and not grant.revoked:
                return grant
        return None


def authorization_server_app(
    provider: AutoApproveProvider, issuer: str, metadata_overrides: dict[str, str] | None = None
) -> ASGIApp:
    """The authorization server: metadata, authorize, token, register (DCR) and revoke.

    ``metadata_overrides``: fields of its RFC 8414 metadata to replace (an endpoint elsewhere).
    """
    routes = create_auth_routes(
        provider,
        issuer_url=AnyHttpUrl(issuer),
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=[SCOPE, EXTRA_SCOPE], default_scopes=[SCOPE]
        ),
        revocation_options=RevocationOptions(enabled=True),
    )
    app = Starlette(routes=routes)
    return _MetadataRewrite(app, metadata_overrides) if metadata_overrides else app


class _MetadataRewrite:
    """ASGI wrapper: the authorization server's metadata document with some fields replaced."""

    def __init__(self, app: ASGIApp, overrides: dict[str, str]) -> None:
        self._app = app
        self._overrides = overrides

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/.well-known/oauth-authorization-server"):
            await self._app(scope, receive, send)
            return
        start: dict[str, object] = {}
        chunks: list[bytes] = []

        async def capture(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            chunks.append(bytes(message.get("body", b"")))  # type: ignore[arg-type]
            if message.get("more_body"):
                return
            body = json.dumps({**json.loads(b"".join(chunks)), **self._overrides}).encode()
            headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]  # type: ignore[attr-defined]
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self._app(scope, receive, capture)


class ProtectedResource:
    """ASGI app: protected-resource metadata in the open, everything else behind a bearer token.

    Lifespan events go to the MCP app (its session manager needs them).
    """

    def __init__(
        self,
        mcp_app: ASGIApp,
        provider: AutoApproveProvider,
        resource_url: str,
        issuer: str,
        claimed_resource: str | None = None,
    ) -> None:
        resource = AnyHttpUrl(resource_url)
        self._metadata_path = str(build_resource_metadata_url(resource).path)
        named = AnyHttpUrl(claimed_resource or resource_url)
        self._metadata = Router(
            routes=create_protected_resource_routes(named, [AnyHttpUrl(issuer)], scopes_supported=[SCOPE])
        )
        self._mcp = mcp_app
        guarded = RequireAuthMiddleware(mcp_app, [SCOPE], build_resource_metadata_url(resource))
        self._guarded = AuthenticationMiddleware(guarded, backend=BearerAuthBackend(ProviderTokenVerifier(provider)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._mcp(scope, receive, send)
        elif scope["type"] == "http" and scope["path"] == self._metadata_path:
            await self._metadata(scope, receive, send)
        else:
            await self._guarded(scope, receive, send)


@dataclass
class OAuthServers:
    """The running pair.

    Attributes:
        url: The protected MCP endpoint.
        issuer: The authorization server's issuer URL.
        provider: The authorization server's state (clients, grants, counters).
        clock: The clock tokens expire by.
    """

    url: str
    issuer: str
    provider: AutoApproveProvider
    clock: TestClock


@contextlib.asynccontextmanager
async def serve_oauth_protected_mcp(
    *,
    transport: Literal["streamable-http", "sse"] = "streamable-http",
    access_ttl: int = 3600,
    refresh_tokens: bool = True,
    clock: TestClock | None = None,
    claimed_issuer: str | None = None,
    token_auth: TokenAuth | None = None,
    metadata_overrides: dict[str, str] | None = None,
    named_authorization_server: str | None = None,
    claimed_resource: str | None = None,
) -> AsyncIterator[OAuthServers]:
    """Serve the authorization server and the protected demo MCP server while the context is open.

    ``claimed_issuer``: the issuer the authorization server's metadata names instead of its own URL
    (a misconfigured or impersonating server; RFC 8414 §3.3 says the client must refuse it).
    ``token_auth``: how every registered client must authenticate at the token endpoint.
    ``metadata_overrides``: fields of the authorization server's metadata to replace.
    ``named_authorization_server``: the authorization server the protected-resource metadata names
    instead of the real one.
    ``claimed_resource``: the resource the protected-resource metadata names instead of the MCP URL
    (RFC 9728 §3.3: the client must refuse it).
    """
    clock = clock or TestClock()
    provider = AutoApproveProvider(
        clock=clock, access_ttl=access_ttl, refresh_tokens=refresh_tokens, token_auth=token_auth
    )
    async with serve_asgi(
        lambda base: authorization_server_app(provider, claimed_issuer or base, metadata_overrides), lifespan="off"
    ) as issuer:
        mcp = build_server()
        path = "/mcp" if transport == "streamable-http" else "/sse"
        inner = _StoppableApp(
            mcp.streamable_http_app(host="127.0.0.1")
            if transport == "streamable-http"
            else mcp.sse_app(host="127.0.0.1")
        )
        async with serve_asgi(
            lambda base: ProtectedResource(
                inner, provider, f"{base}{path}", named_authorization_server or issuer, claimed_resource
            ),
            lifespan="on",
            graceful_timeout=GRACEFUL_SHUTDOWN_S,
            before_stop=lambda: inner.stop(STREAM_GRACE_S),
        ) as base:
            yield OAuthServers(url=f"{base}{path}", issuer=issuer, provider=provider, clock=clock)


async def _main() -> None:
    async with serve_oauth_protected_mcp() as servers:
        print(f"MCP (OAuth-protected): {servers.url}\nauthorization server: {servers.issuer}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main())
