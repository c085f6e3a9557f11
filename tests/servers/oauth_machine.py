"""An authorization server for the grants without a browser, with DPoP, and the demo MCP server behind it (tests only).

The authorization server (its own origin) publishes RFC 8414 metadata and a token endpoint for
``client_credentials`` (``client_secret_basic`` or a ``private_key_jwt`` assertion it verifies with
the client's public key), the JWT bearer grant (a workload JWT it verifies with the workload IdP's
public key) and ``refresh_token``. With a DPoP proof (verified with PyJWT against the key in its
header: ``typ``, ``htm``, ``htu``, ``iat``, a fresh ``jti``) it issues ``token_type: DPoP`` tokens bound
to the key's thumbprint. The resource server in front of the demo MCP server accepts ``Bearer``
tokens that were issued as such, and ``DPoP`` tokens only with a valid proof of the bound key whose
``ath`` matches. ``Behaviour`` says how either misbehaves: nonces demanded or never accepted (an
expired or replayed nonce), a JWT bearer grant refused, a refresh refused. ``Seen`` counts what
arrived, so a test can assert what was (not) sent.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from tests.servers.oauth_as import TestClock
from workbench.core.serving import serve_asgi
from workbench.demo.mcp_server.app import build_server
from workbench.demo.mcp_server.http import GRACEFUL_SHUTDOWN_S, STREAM_GRACE_S, _StoppableApp

CLIENT_ID = "machine-client"
CLIENT_SECRET = "machine-secret-7f3a9c"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTEifQ.id-token-of-user-1"
"""The user's ID token at the IdP (the IdP only compares it)."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_key_pem() -> tuple[str, ec.EllipticCurvePublicKey]:
    """A P-256 private key as PKCS#8 PEM, and its public key."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")
    return pem, key.public_key()


@dataclass
class Behaviour:
    """How the servers (mis)behave.

    Attributes:
        as_nonce: The authorization server demands a DPoP nonce.
        rs_nonce: The resource server demands a DPoP nonce.
        nonces_expire: Every nonce presented is refused with a fresh one (expired or replayed).
        jwt_bearer_error: The JWT bearer grant is refused with this OAuth error.
        refresh_error: Refresh requests are refused with this OAuth error.
        refresh_tokens: Issue refresh tokens with client_credentials.
        access_ttl: Seconds an access token lives.
        access_token_audience: Issue JWT access tokens for this audience (another resource's).
        id_jag_audience: The IdP's ID-JAGs name this audience instead of the authorization server.
    """

    as_nonce: bool = False
    rs_nonce: bool = False
    nonces_expire: bool = False
    jwt_bearer_error: str | None = None
    refresh_error: str | None = None
    refresh_tokens: bool = False
    access_ttl: int = 3600
    access_token_audience: str | None = None
    id_jag_audience: str | None = None


@dataclass
class Seen:
    """What arrived: token requests by grant type, proofs, the schemes tokens were presented with."""

    grants: list[str] = field(default_factory=list)
    token_proofs: int = 0
    schemes: list[str] = field(default_factory=list)
    jtis: set[str] = field(default_factory=set)
    replayed: int = 0


@dataclass
class _Token:
    jkt: str | None
    expires_at: float


class MachineAuthorizationServer:
    """The authorization server's state and its token endpoint."""

    def __init__(
        self,
        behaviour: Behaviour,
        clock: TestClock,
        client_key: ec.EllipticCurvePublicKey,
        workload_key: ec.EllipticCurvePublicKey,
        workload_pem: str,
    ) -> None:
        self.behaviour = behaviour
        self.clock = clock
        self.client_key = client_key
        self.workload_key = workload_key
        self.workload_pem = workload_pem
        self.signing_pem, _ = new_key_pem()
        self.issuer = ""
        self.seen = Seen()
        self.tokens: dict[str, _Token] = {}
        self.refresh: dict[str, str | None] = {}  # refresh token -> jkt
        self.last_nonce: str | None = None
        self._nonce = secrets.token_urlsafe(8)

    def app(self, base: str) -> ASGIApp:
        self.issuer = base
        return Starlette(
            routes=[
                Route("/.well-known/oauth-authorization-server", self.metadata),
                Route("/token", self.token, methods=["POST"]),
                Route("/idp/token", self.idp_token, methods=["POST"]),
            ]
        )

    async def metadata(self, request: Request) -> Response:
        return JSONResponse(
            {
                "issuer": self.issuer,
                "authorization_endpoint": f"{self.issuer}/authorize",
                "token_endpoint": f"{self.issuer}/token",
                "grant_types_supported": ["client_credentials", JWT_BEARER, "refresh_token"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt", "none"],
                "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
                "dpop_signing_alg_values_supported": ["ES256"],
                "response_types_supported": ["code"],
            }
        )

    def check_proof(self, proof: str, method: str, url: str, seen: Seen, *, ath: str | None = None) -> str:
        """The proof key's thumbprint; raises ``ValueError`` for a proof that does not verify."""
        header = jwt.get_unverified_header(proof)
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256" or "d" in header.get("jwk", {"d": 1}):
            raise ValueError("bad header")
        jwk = header["jwk"]
        claims = jwt.decode(proof, jwt.PyJWK(jwk).key, algorithms=["ES256"])
        if claims.get("htm") != method or claims.get("htu") != url or abs(claims.get("iat", 0) - time.time()) > 60:
            raise ValueError("bad claims")
        if ath is not None and claims.get("ath") != ath:
            raise ValueError("bad ath")
        if claims["jti"] in seen.jtis:
            seen.replayed += 1
            raise ValueError("replayed")
        seen.jtis.add(claims["jti"])
        canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, sort_keys=True, separators=(",", ":"))
        self.last_nonce = claims.get("nonce")
        return _b64url(hashlib.sha256(canonical.encode()).digest())

    def nonce_refusal(self, status: int, www_authenticate: bool) -> Response | None:
        """A ``use_dpop_nonce`` answer, unless the last proof carried the current nonce."""
        if self.last_nonce == self._nonce and not self.behaviour.nonces_expire:
            return None
        self._nonce = secrets.token_urlsafe(8)
        headers = {"DPoP-Nonce": self._nonce}
        if www_authenticate:
            headers["WWW-Authenticate"] = 'DPoP error="use_dpop_nonce"'
        return JSONResponse({"error": "use_dpop_nonce"}, status_code=status, headers=headers)

    async def token(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        grant = form.get("grant_type", "")
        self.seen.grants.append(grant)
        jkt = None
        proof = request.headers.get("dpop")
        if proof:
            self.seen.token_proofs += 1
            try:
                jkt = self.check_proof(proof, "POST", f"{self.issuer}/token", self.seen)
            except (ValueError, KeyError, jwt.PyJWTError):
                return JSONResponse({"error": "invalid_dpop_proof"}, status_code=400)
            if self.behaviour.as_nonce and (refusal := self.nonce_refusal(400, False)) is not None:
                return refusal
        if grant == "client_credentials":
            if not self._client_authenticated(request, form):
                return JSONResponse({"error": "invalid_client"}, status_code=401)
        elif grant == JWT_BEARER:
            if self.behaviour.jwt_bearer_error:
                return JSONResponse({"error": self.behaviour.jwt_bearer_error}, status_code=400)
            try:
                jwt.decode(form.get("assertion", ""), self.workload_key, algorithms=["ES256"], audience=self.issuer)
            except jwt.PyJWTError:
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
        elif grant == "refresh_token":
            if self.behaviour.refresh_error or form.get("refresh_token") not in self.refresh:
                return JSONResponse({"error": self.behaviour.refresh_error or "invalid_grant"}, status_code=400)
            jkt = self.refresh.pop(form["refresh_token"])
        else:
            return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
        return JSONResponse(self._issue(jkt, refresh=self.behaviour.refresh_tokens))

    async def idp_token(self, request: Request) -> Response:
        """The enterprise IdP's token exchange (RFC 8693): the user's ID token for an ID-JAG."""
        form = {k: str(v) for k, v in (await request.form()).items()}
        self.seen.grants.append(form.get("grant_type", ""))
        if form.get("grant_type") != TOKEN_EXCHANGE or form.get("subject_token") != ID_TOKEN:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        now = int(time.time())
        claims = {
            "iss": f"{self.issuer}/idp",
            "sub": "user-1",
            "aud": self.behaviour.id_jag_audience or form.get("audience"),
            "resource": form.get("resource"),
            "client_id": CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            "jti": secrets.token_urlsafe(8),
        }
        id_jag = jwt.encode(claims, self.workload_pem, algorithm="ES256", headers={"typ": "oauth-id-jag+jwt"})
        return JSONResponse({"access_token": id_jag, "issued_token_type": ID_JAG, "token_type": "N_A"})

    def _client_authenticated(self, request: Request, form: dict[str, str]) -> bool:
        basic = request.headers.get("authorization", "")
        if basic.startswith("Basic "):
            return base64.b64decode(basic[6:]).decode() == f"{CLIENT_ID}:{CLIENT_SECRET}"
        if form.get("client_assertion_type") == CLIENT_ASSERTION_TYPE:
            try:
                claims = jwt.decode(
                    form.get("client_assertion", ""), self.client_key, algorithms=["ES256"], audience=self.issuer
                )
            except jwt.PyJWTError:
                return False
            return bool(claims.get("iss") == claims.get("sub") == CLIENT_ID)
        return False

    def _issue(self, jkt: str | None, *, refresh: bool) -> dict[str, Any]:
        access = secrets.token_urlsafe(24)
        if self.behaviour.access_token_audience:
            claims = {"aud": self.behaviour.access_token_audience, "sub": CLIENT_ID, "jti": access}
            access = jwt.encode(claims, self.signing_pem, algorithm="ES256")
        self.tokens[access] = _Token(jkt, self.clock() + self.behaviour.access_ttl)
        body: dict[str, Any] = {
            "access_token": access,
            "token_type": "DPoP" if jkt else "Bearer",
            "expires_in": self.behaviour.access_ttl,
        }
        if refresh:
            token = secrets.token_urlsafe(24)
            self.refresh[token] = jkt
            body["refresh_token"] = token
        return body


class MachineProtectedResource:
    """The demo MCP server behind ``Bearer`` and ``DPoP`` tokens of ``MachineAuthorizationServer``."""

    def __init__(self, mcp: ASGIApp, server: MachineAuthorizationServer, base: str) -> None:
        self._mcp = mcp
        self._as = server
        self._url = f"{base}/mcp"
        self._prm_path = "/.well-known/oauth-protected-resource/mcp"
        self.seen = Seen()
        self._prm = f"{base}{self._prm_path}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._mcp(scope, receive, send)
            return
        if scope["path"] == self._prm_path:
            body = {"resource": self._url, "authorization_servers": [self._as.issuer]}
            await JSONResponse(body)(scope, receive, send)
            return
        refusal = self._check(Request(scope))
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self._mcp(scope, receive, send)

    def _check(self, request: Request) -> Response | None:
        challenge = {"WWW-Authenticate": f'Bearer resource_metadata="{self._prm}"'}
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        issued = self._as.tokens.get(token)
        if not scheme or issued is None or issued.expires_at <= self._as.clock():
            return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
        self.seen.schemes.append(scheme)
        if issued.jkt is None:
            return None if scheme == "Bearer" else JSONResponse({"error": "invalid_token"}, status_code=401)
        ath = _b64url(hashlib.sha256(token.encode()).digest())
        try:
            jkt = self._as.check_proof(request.headers.get("dpop", ""), request.method, self._url, self.seen, ath=ath)
        except (ValueError, KeyError, jwt.PyJWTError):
            return JSONResponse({"error": "invalid_dpop_proof"}, status_code=401, headers=challenge)
        if scheme != "DPoP" or jkt != issued.jkt:
            return JSONResponse({"error": "invalid_token"}, status_code=401, headers=challenge)
        if self._as.behaviour.rs_nonce:
            return self._as.nonce_refusal(401, True)
        return None


@dataclass
class MachineServers:
    """The running pair: the MCP URL, the authorization server and the resource server, their keys and clock."""

    url: str
    authorization_server: MachineAuthorizationServer
    resource: MachineProtectedResource
    client_key_pem: str
    workload_key_pem: str
    clock: TestClock

    @property
    def idp_token_endpoint(self) -> str:
        """The enterprise IdP's token endpoint (token exchange for ID-JAGs)."""
        return f"{self.authorization_server.issuer}/idp/token"

    def workload_jwt(self, *, audience: str | None = None, expires_in: int = 300) -> str:
        """A workload JWT signed by the workload IdP (audience: the authorization server by default)."""
        now = int(time.time())
        claims = {
            "iss": "https://workload-idp.test",
            "sub": "workload-1",
            "aud": audience or self.authorization_server.issuer,
            "iat": now,
            "exp": now + expires_in,
            "jti": secrets.token_urlsafe(8),
        }
        return jwt.encode(claims, self.workload_key_pem, algorithm="ES256")


@contextlib.asynccontextmanager
async def serve_machine_oauth(behaviour: Behaviour | None = None) -> AsyncIterator[MachineServers]:
    """Serve the authorization server and the protected demo MCP server while the context is open."""
    clock = TestClock()
    client_pem, client_public = new_key_pem()
    workload_pem, workload_public = new_key_pem()
    server = MachineAuthorizationServer(behaviour or Behaviour(), clock, client_public, workload_public, workload_pem)
    async with serve_asgi(server.app, lifespan="off"):
        inner = _StoppableApp(build_server().streamable_http_app(host="127.0.0.1"))
        holder: list[MachineProtectedResource] = []

        def resource(base: str) -> ASGIApp:
            holder.append(MachineProtectedResource(inner, server, base))
            return holder[0]

        async with serve_asgi(
            resource,
            lifespan="on",
            graceful_timeout=GRACEFUL_SHUTDOWN_S,
            before_stop=lambda: inner.stop(STREAM_GRACE_S),
        ) as base:
            yield MachineServers(f"{base}/mcp", server, holder[0], client_pem, workload_pem, clock)
