"""Test-only A2A agents whose cards declare security schemes, and which enforce them.

Unlike the SDK (which publishes schemes but never checks them), every agent here refuses calls
without the right credential: a pure ASGI middleware answers 401 for everything but the well-known
paths. The OAuth agents carry a small real authorization server in the same app:

- ``POST /oauth/token``   grants ``client_credentials``, ``authorization_code`` (PKCE S256
  verified) and ``refresh_token``; opaque tokens with ``expires_in``; client auth by
  ``client_secret_post``; wrong client → 401 ``invalid_client``.
- ``GET /oauth/authorize`` auto-approves: redirects to ``redirect_uri`` with ``code`` and ``state``.
- ``GET /.well-known/openid-configuration`` the OIDC discovery document.
- ``POST /oauth/revoke-all`` (test control) forgets every issued access token.

Agents: ``api_key_agent`` (header / query / cookie), ``basic_app``, ``oauth_agent("client-credentials"
| "authorization-code" | "oidc")``. The API-key agent also has a ``vault`` skill whose own requirement
adds a second key (``X-Vault-Key``), checked in-band: without it the task goes ``auth-required``.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode

from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import (
    AgentCard,
    AgentSkill,
    APIKeySecurityScheme,
    AuthorizationCodeOAuthFlow,
    ClientCredentialsOAuthFlow,
    HTTPAuthSecurityScheme,
    MutualTlsSecurityScheme,
    OAuth2SecurityScheme,
    OAuthFlows,
    OpenIdConnectSecurityScheme,
    Role,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    TaskState,
)
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from workbench.demo.a2a_agents.common import make_app, make_card

API_KEY = "k3y-alpha-7781-zeta"
VAULT_KEY = "vault-key-5512-omega"
BASIC_USER = "ada"
BASIC_PASSWORD = "pa55-word-lovelace"
CLIENT_ID = "workbench-test-client"
CLIENT_SECRET = "client-s3cret-9931-kappa"
SCOPE = "agent:use"
TOKEN_LIFETIME = 60
ECHO = AgentSkill(id="echo", name="Echo", description="Echoes the text", tags=["test"])
VAULT = AgentSkill(id="vault", name="Vault", description="Needs a second key", tags=["test"])
WAITING = (TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED)
Location = Literal["header", "query", "cookie"]
PARAM_NAMES: dict[str, str] = {"header": "X-API-Key", "query": "access", "cookie": "wb_session"}
"""Where the API key goes; ``access`` / ``wb_session`` are names the redactor does not know by name."""


def _requirement(**schemes: list[str]) -> SecurityRequirement:
    return SecurityRequirement(schemes={name: StringList(list=scopes) for name, scopes in schemes.items()})


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}


class CheckMiddleware:
    """Pure ASGI middleware: 401 unless ``check(scope)``; the well-known paths and ``/oauth/`` are open."""

    def __init__(self, app: ASGIApp, check: Callable[[Scope], bool]) -> None:
        self.app = app
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and not path.startswith(("/.well-known/", "/oauth/")) and not self.check(scope):
            response = JSONResponse({"error": "unauthorized"}, status_code=401, headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def api_key_check(location: Location) -> Callable[[Scope], bool]:
    """Checks the API key in the header, query parameter or cookie ``PARAM_NAMES[location]``."""
    name = PARAM_NAMES[location]

    def check(scope: Scope) -> bool:
        if location == "header":
            return _headers(scope).get(name.lower()) == API_KEY
        if location == "query":
            query = parse_qs(bytes(scope.get("query_string", b"")).decode())
            return query.get(name, [""])[0] == API_KEY
        cookies = _headers(scope).get("cookie", "")
        pairs = dict(part.strip().partition("=")[::2] for part in cookies.split(";") if part.strip())
        return pairs.get(name) == API_KEY

    return check


class GuardedExecutor(AgentExecutor):
    """Echoes the text; the ``vault`` skill also needs ``X-Vault-Key`` (else auth-required, in-band)."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        first = next((m for m in task.history if m.role == Role.ROLE_USER), context.message)
        skill = dict(MessageToDict(first.metadata)).get("skill_id", "") if first.HasField("metadata") else ""
        if skill == "vault":
            headers: dict[str, Any] = context.call_context.state.get("headers", {}) if context.call_context else {}
            if headers.get("x-vault-key") != VAULT_KEY:
                await up.requires_auth(up.new_agent_message([new_text_part("The vault needs its key.")]))
                return
            await up.add_artifact([new_text_part("vault opened")], artifact_id="vault", name="vault")
            await up.complete()
            return
        text = "".join(p.text for p in context.message.parts if p.WhichOneof("content") == "text")
        await up.add_artifact([new_text_part(text)], artifact_id="echo", name="echo")
        await up.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        assert task is not None
        await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def _card(base_url: str, name: str, skills: list[AgentSkill], **extra: Any) -> AgentCard:
    return make_card(base_url, name=name, description=f"{name} (test)", skills=skills, **extra)


def api_key_agent(location: Location = "header") -> Callable[[str], Starlette]:
    """An agent needing an API key at ``location``.

    Its card lists two alternatives, mutual TLS first (which the workbench cannot do), then the
    key; the ``vault`` skill requires the key plus ``X-Vault-Key``.
    """

    def factory(base_url: str) -> Starlette:
        vault = AgentSkill()
        vault.CopyFrom(VAULT)
        vault.security_requirements.append(_requirement(apikey=[], vault=[]))
        card = _card(
            base_url,
            f"Key agent ({location})",
            [ECHO, vault],
            security_schemes={
                "mtls": SecurityScheme(mtls_security_scheme=MutualTlsSecurityScheme(description="client cert")),
                "apikey": SecurityScheme(
                    api_key_security_scheme=APIKeySecurityScheme(
                        location=location, name=PARAM_NAMES[location], description="Your API key"
                    )
                ),
                "vault": SecurityScheme(
                    api_key_security_scheme=APIKeySecurityScheme(location="header", name="X-Vault-Key")
                ),
            },
            security_requirements=[_requirement(mtls=[]), _requirement(apikey=[])],
        )
        return make_app(
            card, GuardedExecutor(), middleware=[Middleware(CheckMiddleware, check=api_key_check(location))]
        )

    return factory


def basic_app(base_url: str) -> Starlette:
    """An agent needing HTTP Basic (``BASIC_USER`` / ``BASIC_PASSWORD``)."""
    expected = "Basic " + base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode()).decode()
    card = _card(
        base_url,
        "Basic agent",
        [ECHO],
        security_schemes={"basic": SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Basic"))},
        security_requirements=[_requirement(basic=[])],
    )

    def check(scope: Scope) -> bool:
        return _headers(scope).get("authorization") == expected

    return make_app(card, GuardedExecutor(), middleware=[Middleware(CheckMiddleware, check=check)])


@dataclass
class OAuthServer:
    """The authorization server's state (inspect it in tests)."""

    client_secret: str = CLIENT_SECRET
    lifetime: int = TOKEN_LIFETIME
    tokens: dict[str, float] = field(default_factory=dict)
    refresh_tokens: set[str] = field(default_factory=set)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    grants: list[str] = field(default_factory=list)
    """Grant type of every token request that succeeded, in order."""
    refused: list[str] = field(default_factory=list)
    """OAuth error code of every refused token request."""
    authorizations: int = 0

    def valid(self, scope: Scope) -> bool:
        """Whether the request carries a live access token."""
        auth = _headers(scope).get("authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else ""
        return self.tokens.get(token, 0) > time.time()

    def _issue(self, grant: str, *, refresh: bool) -> JSONResponse:
        token = "at-" + secrets.token_urlsafe(24)
        self.tokens[token] = time.time() + self.lifetime
        self.grants.append(grant)
        body: dict[str, Any] = {"access_token": token, "token_type": "Bearer", "expires_in": self.lifetime}
        if refresh:
            rt = "rt-" + secrets.token_urlsafe(24)
            self.refresh_tokens.add(rt)
            body["refresh_token"] = rt
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    def _refuse(self, error: str, status: int = 400) -> JSONResponse:
        self.refused.append(error)
        return JSONResponse({"error": error}, status_code=status)

    async def token(self, request: Request) -> JSONResponse:
        """The token endpoint."""
        form = await request.form()
        values = {k: str(v) for k, v in form.items()}
        if values.get("client_id") != CLIENT_ID:
            return self._refuse("invalid_client", 401)
        grant = values.get("grant_type", "")
        if grant == "client_credentials":
            if values.get("client_secret") != self.client_secret:
                return self._refuse("invalid_client", 401)
            return self._issue(grant, refresh=False)
        if grant == "authorization_code":
            code = self.codes.pop(values.get("code", ""), None)
            if code is None or code["redirect_uri"] != values.get("redirect_uri"):
                return self._refuse("invalid_grant")
            digest = hashlib.sha256(values.get("code_verifier", "").encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != code["challenge"]:
                return self._refuse("invalid_grant")  # PKCE verifier does not match the challenge
            return self._issue(grant, refresh=True)
        if grant == "refresh_token":
            if values.get("refresh_token") not in self.refresh_tokens:
                return self._refuse("invalid_grant")
            return self._issue(grant, refresh=False)
        return self._refuse("unsupported_grant_type")

    async def authorize(self, request: Request) -> Response:
        """Auto-approving authorization endpoint (PKCE S256 required)."""
        q = request.query_params
        if q.get("client_id") != CLIENT_ID or q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        redirect_uri = q.get("redirect_uri", "")
        if not redirect_uri.startswith("http://127.0.0.1:"):
            return JSONResponse({"error": "invalid_redirect_uri"}, status_code=400)
        self.authorizations += 1
        code = "code-" + secrets.token_urlsafe(16)
        self.codes[code] = {"redirect_uri": redirect_uri, "challenge": q["code_challenge"]}
        return RedirectResponse(f"{redirect_uri}?{urlencode({'code': code, 'state': q.get('state', '')})}", 302)

    async def revoke_all(self, request: Request) -> Response:
        """Test control: every access token stops working."""
        self.tokens.clear()
        return Response(status_code=204)

    def routes(self, base_url: str) -> list[Route]:
        """The authorization server's routes, including the OIDC discovery document."""

        async def discovery(request: Request) -> JSONResponse:
            return JSONResponse(
                {
                    "issuer": base_url,
                    "authorization_endpoint": f"{base_url}/oauth/authorize",
                    "token_endpoint": f"{base_url}/oauth/token",
                    "response_types_supported": ["code"],
                    "code_challenge_methods_supported": ["S256"],
                }
            )

        return [
            Route("/oauth/token", self.token, methods=["POST"]),
            Route("/oauth/authorize", self.authorize),
            Route("/oauth/revoke-all", self.revoke_all, methods=["POST"]),
            Route("/.well-known/openid-configuration", discovery),
        ]


OAuthKind = Literal["client-credentials", "authorization-code", "oidc"]


def oauth_agent(kind: OAuthKind, server: OAuthServer) -> Callable[[str], Starlette]:
    """An agent requiring an OAuth 2.0 token of ``kind``, issued by ``server`` (in the same app)."""

    def factory(base_url: str) -> Starlette:
        token_url, authorize_url = f"{base_url}/oauth/token", f"{base_url}/oauth/authorize"
        if kind == "client-credentials":
            flows = OAuthFlows(
                client_credentials=ClientCredentialsOAuthFlow(token_url=token_url, scopes={SCOPE: "use the agent"})
            )
            scheme = SecurityScheme(oauth2_security_scheme=OAuth2SecurityScheme(flows=flows))
        elif kind == "authorization-code":
            flow = AuthorizationCodeOAuthFlow(
                authorization_url=authorize_url, token_url=token_url, scopes={SCOPE: "use"}, pkce_required=True
            )
            scheme = SecurityScheme(
                oauth2_security_scheme=OAuth2SecurityScheme(flows=OAuthFlows(authorization_code=flow))
            )
        else:
            scheme = SecurityScheme(
                open_id_connect_security_scheme=OpenIdConnectSecurityScheme(
                    open_id_connect_url=f"{base_url}/.well-known/openid-configuration"
                )
            )
        card = _card(
            base_url,
            f"OAuth agent ({kind})",
            [ECHO],
            security_schemes={"oauth": scheme},
            security_requirements=[_requirement(oauth=[SCOPE])],
        )
        return make_app(
            card,
            GuardedExecutor(),
            middleware=[Middleware(CheckMiddleware, check=server.valid)],
            extra_routes=server.routes(base_url),
        )

    return factory
