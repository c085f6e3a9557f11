"""An A2A agent behind the loopback authorization server of ``tests.servers.oauth_machine`` (tests only).

The agent's card declares one OAuth 2.0 scheme with a ``clientCredentials`` flow whose token URL is
``MachineAuthorizationServer``'s (which authenticates the client by ``client_secret_basic`` or a
``private_key_jwt`` assertion, publishes RFC 8414 metadata and binds tokens to DPoP proofs). A pure
ASGI middleware in front of the agent accepts the tokens that server issued: a ``Bearer`` token as
such, a DPoP-bound one only as ``Authorization: DPoP`` with a valid proof of its key (and, when the
server's ``Behaviour.rs_nonce`` says so, with the agent's current nonce). ``serve_machine_agent``
serves both and yields what a test needs.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import jwt
from a2a.types import (
    ClientCredentialsOAuthFlow,
    OAuth2SecurityScheme,
    OAuthFlows,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tests.servers.oauth_as import TestClock
from tests.servers.oauth_machine import Behaviour, MachineAuthorizationServer, Seen, new_key_pem
from tests.support.a2a_security_agents import ECHO, SCOPE, GuardedExecutor
from workbench.core.serving import serve_asgi
from workbench.demo.a2a_agents import serve_agent
from workbench.demo.a2a_agents.common import make_app, make_card


def _ath(token: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()


@dataclass
class AgentSeen:
    """What reached the agent: the scheme each token came with."""

    schemes: list[str] = field(default_factory=list)
    proofs: Seen = field(default_factory=Seen)


class TokenCheck:
    """Pure ASGI middleware: the agent's calls need a live token of ``server``; the well-known paths are open."""

    def __init__(self, app: ASGIApp, server: MachineAuthorizationServer, seen: AgentSeen) -> None:
        self.app = app
        self.server = server
        self.seen = seen

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("path", "").startswith("/.well-known/"):
            refusal = self._check(Request(scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _check(self, request: Request) -> Response | None:
        challenge = {"WWW-Authenticate": 'DPoP error="invalid_token"'}
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        issued = self.server.tokens.get(token)
        if issued is None or issued.expires_at <= self.server.clock():
            return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
        self.seen.schemes.append(scheme)
        if issued.jkt is None:
            return None if scheme == "Bearer" else JSONResponse({"error": "invalid_token"}, status_code=401)
        url = str(request.url.replace(query=""))
        try:
            jkt = self.server.check_proof(
                request.headers.get("dpop", ""), request.method, url, self.seen.proofs, ath=_ath(token)
            )
        except (ValueError, KeyError, jwt.PyJWTError):
            return JSONResponse({"error": "invalid_dpop_proof"}, status_code=401, headers=challenge)
        if scheme != "DPoP" or jkt != issued.jkt:
            return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
        if self.server.behaviour.rs_nonce:
            return self.server.nonce_refusal(401, True)
        return None


def machine_agent(server: MachineAuthorizationServer, seen: AgentSeen) -> Callable[[str], Starlette]:
    """An echo agent whose card asks for a client-credentials token of ``server`` (scheme ``oauth``)."""

    def factory(base_url: str) -> Starlette:
        flow = ClientCredentialsOAuthFlow(token_url=f"{server.issuer}/token", scopes={SCOPE: "use the agent"})
        scheme = SecurityScheme(oauth2_security_scheme=OAuth2SecurityScheme(flows=OAuthFlows(client_credentials=flow)))
        card = make_card(
            base_url,
            name="Machine OAuth agent",
            description="An agent behind a loopback authorization server (test)",
            skills=[ECHO],
            security_schemes={"oauth": scheme},
            security_requirements=[SecurityRequirement(schemes={"oauth": StringList(list=[SCOPE])})],
        )
        return make_app(card, GuardedExecutor(), middleware=[Middleware(TokenCheck, server=server, seen=seen)])

    return factory


@dataclass
class MachineAgent:
    """The running pair: the agent's URL, the authorization server, the client's private key, what arrived."""

    url: str
    authorization_server: MachineAuthorizationServer
    client_key_pem: str
    seen: AgentSeen


@contextlib.asynccontextmanager
async def serve_machine_agent(behaviour: Behaviour | None = None) -> AsyncIterator[MachineAgent]:
    """Serve the authorization server and the agent behind it while the context is open."""
    client_pem, client_public = new_key_pem()
    workload_pem, workload_public = new_key_pem()
    server = MachineAuthorizationServer(
        behaviour or Behaviour(), TestClock(), client_public, workload_public, workload_pem
    )
    seen = AgentSeen()
    async with serve_asgi(server.app, lifespan="off"), serve_agent(machine_agent(server, seen)) as url:
        yield MachineAgent(url, server, client_pem, seen)
