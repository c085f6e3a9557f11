"""OAuth 2.0 / OpenID Connect for A2A security schemes: token requests, PKCE, loopback redirect, discovery.

Client authentication at the token endpoint is ``client_secret_post`` (``client_id`` and, when
there is one, ``client_secret`` in the form body). The authorization code flow always uses PKCE
(S256) and the shared loopback redirect receiver (``http://127.0.0.1:<port>/callback``, RFC 8252,
``workbench.core.http.loopback``); the authorization URL is handed to an *opener* (the system
browser by default), which tests replace with an HTTP client that follows the redirects.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

from workbench.core.errors import AuthRequiredError, ProtocolError
from workbench.core.http.browser import BrowserOpener, system_browser_opener
from workbench.core.http.loopback import AuthorizationResponse, LoopbackReceiver
from workbench.core.http.oauth_endpoints import check_oauth_endpoint as check_oauth_endpoint_of
from workbench.core.http.origins import OAUTH_ENDPOINT
from workbench.core.safe_text import neutralise_line

__all__ = [
    "BrowserOpener",
    "TokenSet",
    "authorization_code_flow",
    "client_form",
    "discover_oidc",
    "pkce_pair",
    "request_token",
    "system_browser",
]

system_browser = system_browser_opener
"""The system browser (``workbench.core.http.browser``; raises ``AuthRequiredError`` when none opens)."""

MAX_SKEW = 10.0
"""Seconds before its expiry at which a token is renewed (at most half its lifetime)."""


@dataclass(frozen=True, slots=True)
class TokenSet:
    """An access token with its absolute expiry, as kept in the credential store.

    Attributes:
        access_token: The bearer token.
        obtained_at: When it was issued (epoch seconds).
        expires_at: When it expires (epoch seconds; ``None``: the server did not say).
        refresh_token: For renewing it without the user, if the server gave one.
        scope: The scopes granted, space-separated.
    """

    access_token: str
    obtained_at: float
    expires_at: float | None = None
    refresh_token: str | None = None
    scope: str | None = None

    def valid(self, now: float) -> bool:
        """Whether the token can still be used at ``now`` (renewed a little before its expiry)."""
        if self.expires_at is None:
            return True
        skew = min(MAX_SKEW, max(0.0, self.expires_at - self.obtained_at) / 2)
        return now < self.expires_at - skew

    def to_json(self) -> str:
        """Serialise for the credential store."""
        return json.dumps(
            {
                "access_token": self.access_token,
                "obtained_at": self.obtained_at,
                "expires_at": self.expires_at,
                "refresh_token": self.refresh_token,
                "scope": self.scope,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> TokenSet | None:
        """Read a stored token (``None`` if it is not one)."""
        try:
            data = json.loads(text)
            return cls(
                access_token=str(data["access_token"]),
                obtained_at=float(data["obtained_at"]),
                expires_at=None if data.get("expires_at") is None else float(data["expires_at"]),
                refresh_token=data.get("refresh_token"),
                scope=data.get("scope"),
            )
        except (ValueError, KeyError, TypeError):
            return None

    def __repr__(self) -> str:
        return f"TokenSet(expires_at={self.expires_at}, refresh_token={'set' if self.refresh_token else None})"


def pkce_pair() -> tuple[str, str]:
    """A fresh PKCE code verifier and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
    return verifier, challenge


async def request_token(
    http: httpx.AsyncClient,
    token_url: str,
    form: dict[str, str],
    *,
    scheme: str,
    now: float,
) -> TokenSet:
    """POST a token request and read the answer (RFC 6749 section 5).

    Args:
        http: The client (the request bypasses the client's own auth).
        token_url: The token endpoint.
        form: The form fields (grant type, client credentials, code, ...).
        scheme: The security scheme's name, for errors.
        now: The current time (epoch seconds) for the absolute expiry.

    Raises:
        AuthRequiredError: The server refused (``details["oauth_error"]`` holds its error code).
        ProtocolError: The answer is not a token response.
    """
    check_oauth_endpoint(token_url, what="token endpoint", scheme=scheme)
    # Built apart from the client: its default headers (the connection's credentials) stay off it.
    request = httpx.Request(
        "POST", token_url, data=form, headers={"Accept": "application/json"}, extensions={OAUTH_ENDPOINT: True}
    )
    response = await http.send(request, auth=httpx.Auth(), follow_redirects=False)
    try:
        body: Any = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    details: dict[str, Any] = {"scheme": scheme, "token_url": token_url, "http_status": response.status_code}
    if response.status_code >= 400 or not isinstance(body, dict) or "access_token" not in body:
        error = body.get("error") if isinstance(body, dict) else None
        if response.status_code in (400, 401, 403) and error:
            details["oauth_error"] = str(error)
            raise AuthRequiredError(
                f"The authorization server refused the token request for scheme {scheme!r} ({error}).",
                hint="check the client id and secret (or sign in again)",
                details=details,
            )
        raise ProtocolError(
            f"The token endpoint {token_url} did not return a token (HTTP {response.status_code}).",
            details=details,
        )
    expires_in = body.get("expires_in")
    try:
        expires_at = now + float(expires_in) if expires_in is not None else None
    except (TypeError, ValueError):
        expires_at = None
    scope = body.get("scope")
    return TokenSet(
        access_token=str(body["access_token"]),
        obtained_at=now,
        expires_at=expires_at,
        refresh_token=str(body["refresh_token"]) if body.get("refresh_token") else None,
        scope=str(scope) if scope else None,
    )


def client_form(client_id: str, client_secret: str | None) -> dict[str, str]:
    """The client-authentication fields (``client_secret_post``)."""
    form = {"client_id": client_id}
    if client_secret:
        form["client_secret"] = client_secret
    return form


async def discover_oidc(http: httpx.AsyncClient, url: str, *, scheme: str) -> dict[str, Any]:
    """Fetch an OpenID Connect discovery document.

    Returns:
        The document (``authorization_endpoint`` and ``token_endpoint`` are checked to be present).

    Raises:
        ProtocolError: No usable document at ``url``.
    """
    check_oauth_endpoint(url, what="OpenID Connect discovery URL", scheme=scheme)
    request = httpx.Request("GET", url, headers={"Accept": "application/json"}, extensions={OAUTH_ENDPOINT: True})
    response = await http.send(request, auth=httpx.Auth(), follow_redirects=False)
    try:
        doc = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        doc = None
    if response.status_code != 200 or not isinstance(doc, dict):
        raise ProtocolError(
            f"No OpenID Connect discovery document at {url} (HTTP {response.status_code}).",
            details={"scheme": scheme, "url": url, "http_status": response.status_code},
        )
    missing = [k for k in ("authorization_endpoint", "token_endpoint") if not isinstance(doc.get(k), str)]
    if missing:
        raise ProtocolError(
            f"The OpenID Connect document at {url} lacks {', '.join(missing)}.",
            details={"scheme": scheme, "url": url, "missing": missing},
        )
    suffix = "/.well-known/openid-configuration"
    expected_issuer = url[: -len(suffix)] if url.endswith(suffix) else None
    issuer = doc.get("issuer")
    issuer_ok = isinstance(issuer, str) and issuer.rstrip("/") == (expected_issuer or "").rstrip("/")
    if expected_issuer is not None and not issuer_ok:
        # OpenID Connect Discovery 1.0 §4.3: the issuer MUST be the URL the document was fetched under.
        raise AuthRequiredError(
            f"The OpenID Connect document at {neutralise_line(url)} names issuer "
            f"{neutralise_line(str(issuer))!s}, not {neutralise_line(expected_issuer)}; refused.",
            hint="the agent's OpenID Connect configuration is wrong or was tampered with",
            details={"scheme": scheme, "url": url, "issuer": str(issuer), "expected_issuer": expected_issuer},
        )
    for key in ("authorization_endpoint", "token_endpoint"):
        check_oauth_endpoint(str(doc[key]), what=key.replace("_", " "), scheme=scheme)
    return doc


def check_oauth_endpoint(url: str, *, what: str, scheme: str) -> None:
    """Refuse an OAuth endpoint of security scheme ``scheme`` that is not ``https`` (loopback excepted).

    Raises:
        InsecureEndpointError: The endpoint is not an absolute ``https`` URL (or ``http`` on loopback).
    """
    context = f"security scheme {neutralise_line(scheme)!r}"
    check_oauth_endpoint_of(url, endpoint=what.replace(" ", "_"), context=context, details={"scheme": scheme})


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
) -> TokenSet:
    """Run the OAuth 2.0 authorization code flow with PKCE and a loopback redirect.

    Raises:
        AuthRequiredError: The user or server refused (``details["oauth_error"]``), or the
            ``state`` did not match.
        RequestTimeoutError: The redirect did not arrive in time.
    """
    check_oauth_endpoint(authorization_url, what="authorization endpoint", scheme=scheme)
    check_oauth_endpoint(token_url, what="token endpoint", scheme=scheme)
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)
    details: dict[str, Any] = {"scheme": scheme, "authorization_url": authorization_url}
    async with LoopbackReceiver(redirect_port) as rx:
        query: dict[str, str] = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": rx.uri,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        if scopes:
            query["scope"] = " ".join(scopes)
        sep = "&" if urlsplit(authorization_url).query else "?"
        await opener(authorization_url + sep + urlencode(query))
        try:
            response: AuthorizationResponse = await rx.wait(timeout)
        except AuthRequiredError as exc:
            error = exc.details.get("oauth_error", "no_code")
            raise AuthRequiredError(
                f"The sign-in for scheme {scheme!r} was not completed ({error}).",
                hint="sign in again",
                details={**exc.details, **details},
            ) from None
    if response.state != state:
        raise AuthRequiredError(
            f"The sign-in for scheme {scheme!r} came back with the wrong state; it was ignored.",
            hint="sign in again",
            details={**details, "oauth_error": "state_mismatch"},
        )
    form = {
        "grant_type": "authorization_code",
        "code": response.code,
        "redirect_uri": rx.uri,
        "code_verifier": verifier,
        **client_form(client_id, client_secret),
    }
    return await request_token(http, token_url, form, scheme=scheme, now=clock())
