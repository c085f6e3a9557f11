"""OAuth 2.0 / OpenID Connect for A2A security schemes: the shared OAuth layer's requests sent with httpx.

What goes into a token request and what comes back is ``workbench.core.oauth``'s, as for MCP:
the grant forms, the client's authentication at the token endpoint (``none``,
``client_secret_basic``, ``client_secret_post``, ``private_key_jwt``), the token response read into
a ``TokenSet``. This module sends them with the agent's httpx client (``TokenEndpoint``; with DPoP
proofs and one nonce retry when a ``DPoPKey`` is given) and runs the authorization code flow with
PKCE (S256) and the shared loopback redirect receiver (``http://127.0.0.1:<port>/callback``,
RFC 8252, ``workbench.core.http.loopback``). The authorization URL is handed to an *opener* (the
system browser by default), which tests replace with an HTTP client that follows the redirects.
The discovery documents are ``security_discovery``'s (``discover_oidc`` stays importable here).

With a ``StepLog`` each exchange is an auth step, under the stage names MCP logins use:
``discovery`` (authorization-server metadata), ``authorize`` (the authorization request),
``callback``, ``token`` and ``refresh``; each names its wire records.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx

from workbench.core.auth_steps import AuthCheck, AuthExchange, AuthFailure, AuthStage, FailureCode, StepLog
from workbench.core.errors import AuthRequiredError, OAuthRefusedError, ProtocolError, WorkbenchError
from workbench.core.http.browser import BrowserOpener, system_browser_opener
from workbench.core.http.dpop import DPoPKey, DPoPNonces, nonce_challenge
from workbench.core.http.loopback import AuthorizationResponse, LoopbackReceiver
from workbench.core.oauth import forms, pkce, tokens
from workbench.core.oauth.client_auth import authenticate
from workbench.core.oauth.forms import TokenRequest, authorization_code_form
from workbench.core.oauth.tokens import read_token_response
from workbench.core.oauth_options import OAuthClient, PreRegisteredClient
from workbench.core.protocols.a2a.security_discovery import (
    authorization_server_issuer,
    check_oauth_endpoint,
    discover_oidc,
    outside_request,
)
from workbench.core.protocols.deprecated import moved_module_name
from workbench.core.safe_text import neutralise_line

__all__ = [
    "BrowserOpener",
    "TokenEndpoint",
    "authorization_code_flow",
    "authorization_server_issuer",
    "check_oauth_endpoint",
    "client_form",
    "discover_oidc",
    "request_token",
    "secret_client",
    "system_browser",
]

system_browser = system_browser_opener
"""The system browser (``workbench.core.http.browser``; raises ``AuthRequiredError`` when none opens)."""

MOVED = {"TokenSet": "workbench.core.oauth.tokens", "pkce_pair": "workbench.core.oauth.pkce"}
"""Names this module had that live in the shared OAuth layer now (importable here, with a warning)."""


def __getattr__(name: str) -> Any:
    return moved_module_name(__name__, name, MOVED)


def secret_client(client_id: str, client_secret: str | None) -> PreRegisteredClient:
    """The client a scheme's stored id and secret make: ``client_secret_post`` with a secret, else public."""
    return PreRegisteredClient(client_id, client_secret or None, "client_secret_post" if client_secret else "none")


def client_form(client_id: str, client_secret: str | None) -> dict[str, str]:
    """The client-authentication fields of ``client_secret_post`` (just ``client_id`` for a public client)."""
    return dict(authenticate(TokenRequest(""), secret_client(client_id, client_secret), audience="").form)


def _describe_tokens(stage: AuthStage, url: str, issued: tokens.TokenSet, now: float) -> str:
    what = "tokens issued" if stage is AuthStage.TOKEN else "tokens refreshed"
    extras = [f"expires in {int(issued.expires_at - now)} s" if issued.expires_at is not None else "no expiry given"]
    if issued.scope:
        extras.append(f"scope {neutralise_line(issued.scope)}")
    extras.append(f"{issued.token_type} token")
    extras.append("refresh token" if issued.refresh_token else "no refresh token")
    return f"{what} by {url} ({', '.join(extras)})"


def _failure_of(error: WorkbenchError) -> AuthFailure:
    reason = str(error.details.get("oauth", ""))
    code = FailureCode.HTTP_ERROR if reason == "token-refused" else FailureCode.INVALID_RESPONSE
    if reason == "dpop-nonce-refused":
        code = FailureCode.OTHER
    return AuthFailure(code, error.message, error.hint or "see the response in the wire log")


class TokenEndpoint:
    """Sends one security scheme's token requests with the agent's httpx client, and reads the answers.

    Args:
        http: The agent's client (the request bypasses its auth and default headers).
        scheme: The security scheme's name (in errors and their details).
        steps: Where each request is recorded as a ``token`` / ``refresh`` step (``None``: not recorded).
        dpop: Proofs for DPoP-bound tokens (RFC 9449); ``None``: bearer tokens.
        nonces: The DPoP nonces servers handed out (shared with the resource requests).
        clock: Epoch seconds (expiries, assertion lifetimes).
        on_secret: Told every client assertion signed (the wire redactor masks it).
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        scheme: str,
        steps: StepLog | None = None,
        dpop: DPoPKey | None = None,
        nonces: DPoPNonces | None = None,
        clock: Callable[[], float] = time.time,
        on_secret: Callable[[str], None] | None = None,
    ) -> None:
        self.http = http
        self.scheme = scheme
        self.steps = steps
        self.dpop = dpop
        self.nonces = nonces if nonces is not None else DPoPNonces()
        self.clock = clock
        self.on_secret = on_secret

    async def request(
        self,
        request: TokenRequest,
        client: OAuthClient,
        *,
        audience: str | None = None,
        stage: AuthStage = AuthStage.TOKEN,
    ) -> tokens.TokenSet:
        """Authenticate ``request`` as ``client``, send it, and read the tokens.

        Args:
            request: The grant's token request.
            client: Who the client is.
            audience: The authorization server's issuer, when known (a ``private_key_jwt``
                assertion's ``aud``; the token endpoint otherwise).
            stage: ``token``, or ``refresh`` for a refresh token's request.

        Raises:
            InsecureEndpointError: The token endpoint is plain http off loopback.
            AuthRequiredError: The server refused (``details["oauth_error"]`` its error code).
            OAuthRefusedError: Not a token response, a token type the client cannot present, a
                private key that cannot sign, or a DPoP nonce refused twice.
        """
        check_oauth_endpoint(request.url, what="token endpoint", scheme=self.scheme)
        subject = request.grant_type
        seqs: list[int] = []
        try:
            request = authenticate(
                request,
                client,
                audience=audience or request.url,
                clock=self.clock,
                on_secret=self.on_secret,
            )
            if self.steps is not None:
                with self.steps.capture() as seqs:
                    response = await self._send(request)
            else:
                response = await self._send(request)
            issued = read_token_response(
                response.status_code,
                response.content,
                now=self.clock(),
                token_url=request.url,
                dpop=self.dpop is not None,
                stage=stage,
                details={"scheme": self.scheme},
            )
        except (AuthRequiredError, ProtocolError) as exc:
            if self.steps is not None:
                detail = f"{exc.details.get('oauth', 'failed')}: {exc.message}"
                self.steps.step(stage, "failed", detail, tuple(seqs), subject=subject, failure=_failure_of(exc))
            raise
        if self.steps is not None:
            detail = _describe_tokens(stage, request.url, issued, issued.obtained_at)
            self.steps.step(stage, "ok", detail, tuple(seqs), subject=subject)
        return issued

    async def _send(self, request: TokenRequest) -> httpx.Response:
        """POST the request (with a DPoP proof, answering one ``use_dpop_nonce``)."""
        url = request.url
        for attempt in range(2):
            headers = request.all_headers()
            if self.dpop is not None:
                headers["DPoP"] = self.dpop.proof("POST", url, nonce=self.nonces.get(url))
            outgoing = outside_request("POST", url, data=dict(request.form), headers=headers)
            response = await self.http.send(outgoing, auth=httpx.Auth(), follow_redirects=False)
            await response.aread()
            if self.dpop is None:
                return response
            self.nonces.learn(url, response.headers)
            if not nonce_challenge(response.status_code, response.headers, response.content):
                return response
            if attempt == 1:
                raise OAuthRefusedError(
                    f"The OAuth login stopped at the token step: {url} refused the DPoP proof again "
                    "with the nonce it had just sent.",
                    hint="the server's DPoP nonces expire too soon, or it keeps refusing them; see the wire log",
                    details={"oauth": "dpop-nonce-refused", "step": "token", "scheme": self.scheme},
                )
        raise AssertionError("unreachable")  # pragma: no cover


async def request_token(
    http: httpx.AsyncClient,
    token_url: str,
    form: dict[str, str],
    *,
    scheme: str,
    now: float,
) -> tokens.TokenSet:
    """POST a token request whose form already authenticates the client, and read the answer (RFC 6749 §5).

    Raises:
        AuthRequiredError: The server refused (``details["oauth_error"]`` holds its error code).
        OAuthRefusedError: The answer is not a usable token response.
    """
    check_oauth_endpoint(token_url, what="token endpoint", scheme=scheme)
    response = await TokenEndpoint(http, scheme=scheme)._send(TokenRequest(token_url, form))
    return read_token_response(
        response.status_code, response.content, now=now, token_url=token_url, details={"scheme": scheme}
    )


def _redacted_authorization_url(url: str) -> str:
    """The authorization URL as the step shows it: the state masked (the PKCE challenge is public)."""
    parts = urlsplit(url)
    params = [(k, "***" if k == "state" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(params, safe="*")))


async def authorization_code_flow(
    http: httpx.AsyncClient,
    *,
    scheme: str,
    authorization_url: str,
    token_url: str,
    client_id: str,
    client_secret: str | None,
    scopes: tuple[str, ...],
    opener: BrowserOpener,
    timeout: float,
    clock: Callable[[], float] = time.time,
    redirect_port: int = 0,
    client: OAuthClient | None = None,
    endpoint: TokenEndpoint | None = None,
    issuer: str | None = None,
) -> tokens.TokenSet:
    """Run the OAuth 2.0 authorization code flow with PKCE and a loopback redirect.

    Args:
        http: The agent's client.
        scheme: The security scheme's name.
        authorization_url: The authorization endpoint.
        token_url: The token endpoint.
        client_id: The client id sent in the authorization request.
        client_secret: The client secret, if the client has one.
        scopes: The scopes asked for.
        opener: Opens the authorization URL (the system browser, or a test's redirect follower).
        timeout: Seconds to wait for the redirect back.
        clock: Epoch seconds.
        redirect_port: The loopback port of the redirect URI (0: a free one).
        client: Who the client is at the token endpoint (default: ``client_id`` with
            ``client_secret`` sent as ``client_secret_post``, or a public client).
        endpoint: Sends the token request (default: one without steps or DPoP); its steps record
            the authorization request and the callback too.
        issuer: The authorization server's issuer when known: an ``iss`` in the callback (RFC 9207)
            must name it.

    Raises:
        AuthRequiredError: The user or server refused (``details["oauth_error"]``), or the
            ``state`` or ``iss`` did not match.
        RequestTimeoutError: The redirect did not arrive in time.
    """
    check_oauth_endpoint(authorization_url, what="authorization endpoint", scheme=scheme)
    check_oauth_endpoint(token_url, what="token endpoint", scheme=scheme)
    endpoint = endpoint or TokenEndpoint(http, scheme=scheme, clock=clock)
    steps = endpoint.steps
    client = client or secret_client(client_id, client_secret)
    verifier, challenge = pkce.pkce_pair()
    state = secrets.token_urlsafe(16)
    details: dict[str, Any] = {"scheme": scheme, "authorization_url": authorization_url}
    async with LoopbackReceiver(redirect_port) as rx:
        url = forms.authorization_url(
            authorization_url,
            client_id=client_id,
            redirect_uri=rx.uri,
            state=state,
            code_challenge=challenge,
            scope=scopes,
        )
        if steps is not None:
            shown = _redacted_authorization_url(url)
            checks = (
                AuthCheck("pkce", "passed", f"code_challenge_method {pkce.CHALLENGE_METHOD}"),
                AuthCheck("state", "passed", "a fresh random state"),
            )
            leg = AuthExchange("GET", shown, via="browser")
            steps.step(
                AuthStage.AUTHORIZE, "ok", f"browser sent to {authorization_url}", checks=checks, exchanges=(leg,)
            )
        await opener(url)
        try:
            response: AuthorizationResponse = await rx.wait(timeout)
        except WorkbenchError as exc:
            error = exc.details.get("oauth_error", "no_code")
            refused = AuthRequiredError(
                f"The sign-in for scheme {scheme!r} was not completed ({neutralise_line(str(error))}).",
                hint="sign in again",
                details={**exc.details, **details},
            )
            if steps is not None:
                code = FailureCode.TIMEOUT if not isinstance(exc, AuthRequiredError) else FailureCode.REFUSED
                failure = AuthFailure(code, refused.message, "sign in again")
                steps.step(AuthStage.CALLBACK, "failed", refused.message, failure=failure)
            if isinstance(exc, AuthRequiredError):
                raise refused from None
            raise
    mismatch = "state" if response.state != state else None
    if mismatch is None and issuer is not None and response.iss is not None and response.iss != issuer:
        mismatch = "iss"
    if mismatch is not None:
        refused = AuthRequiredError(
            f"The sign-in for scheme {scheme!r} came back with the wrong {mismatch}; it was ignored.",
            hint="sign in again",
            details={**details, "oauth_error": f"{mismatch}_mismatch"},
        )
        if steps is not None:
            code = FailureCode.STATE_MISMATCH if mismatch == "state" else FailureCode.ISSUER_MISMATCH
            check = AuthCheck(mismatch, "failed", f"the callback's {mismatch} is not the one expected")
            failure = AuthFailure(code, refused.message, "sign in again")
            steps.step(AuthStage.CALLBACK, "failed", refused.message, checks=(check,), failure=failure)
        raise refused
    if steps is not None:
        came_back = [AuthCheck("state", "passed", "the state sent came back")]
        if issuer is not None and response.iss is not None:
            came_back.append(AuthCheck("iss", "passed", "the callback names the issuer"))
        leg = AuthExchange("GET", f"{rx.uri}?code=***&state=***", via="browser")
        steps.step(AuthStage.CALLBACK, "ok", "authorization code received", checks=came_back, exchanges=(leg,))
    form = authorization_code_form(token_url, code=response.code, redirect_uri=rx.uri, code_verifier=verifier)
    return await endpoint.request(form, client, audience=issuer)
