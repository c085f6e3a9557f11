"""OAuth 2.0 / OpenID Connect for A2A security schemes: token requests, PKCE, loopback redirect, discovery.

Client authentication at the token endpoint is ``client_secret_post`` (``client_id`` and, when
there is one, ``client_secret`` in the form body). The authorization code flow always uses PKCE
(S256) and a loopback redirect (``http://127.0.0.1:<port>/callback``, RFC 8252); the authorization
URL is handed to an *opener* (the system browser by default), which tests replace with an HTTP
client that follows the redirects.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import time
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import anyio
import httpx

from workbench.core.errors import AuthRequiredError, ProtocolError, RequestTimeoutError

log = logging.getLogger(__name__)

BrowserOpener = Callable[[str], Awaitable[None]]
"""Opens an authorization URL for the user (the system browser; tests follow it with an HTTP client)."""

CALLBACK_PATH = "/callback"
MAX_SKEW = 10.0
"""Seconds before its expiry at which a token is renewed (at most half its lifetime)."""


async def system_browser(url: str) -> None:
    """Open ``url`` in the system browser (in a worker thread: ``webbrowser`` may block)."""
    opened = await anyio.to_thread.run_sync(webbrowser.open, url)
    if not opened:
        # The URL carries only public values (client id, PKCE challenge, state), never a secret.
        log.warning("no browser could be opened; open this URL to sign in: %s", url)


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
    response = await http.post(
        token_url, data=form, headers={"Accept": "application/json"}, auth=httpx.Auth(), follow_redirects=False
    )
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
    response = await http.get(url, headers={"Accept": "application/json"}, auth=httpx.Auth(), follow_redirects=True)
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
    return doc


class LoopbackReceiver:
    """A one-shot HTTP listener on 127.0.0.1 that receives the authorization redirect.

    Use as ``async with LoopbackReceiver() as rx``; ``rx.redirect_uri`` goes into the
    authorization request, ``await rx.wait()`` returns the redirect's query parameters.
    """

    def __init__(self, port: int = 0) -> None:
        self._port = port
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[dict[str, str]] | None = None
        self.redirect_uri = ""

    async def __aenter__(self) -> LoopbackReceiver:
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self._port)
        port = self._server.sockets[0].getsockname()[1]
        self.redirect_uri = f"http://127.0.0.1:{port}{CALLBACK_PATH}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        if self._result is not None and not self._result.done():
            self._result.cancel()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1")
            while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                pass  # headers: not needed
            _, target, *_ = [*line.split(" "), "", ""]
            parts = urlsplit(target)
            if parts.path != CALLBACK_PATH:
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            params = {k: v[0] for k, v in parse_qs(parts.query).items()}
            ok = "code" in params
            text = b"Signed in. You can close this window." if ok else b"Sign-in failed. You can close this window."
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
                + f"Content-Length: {len(text)}\r\n\r\n".encode()
                + text
            )
            if self._result is not None and not self._result.done():
                self._result.set_result(params)
        except (TimeoutError, ConnectionError, ValueError):
            pass
        finally:
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            writer.close()

    async def wait(self, timeout: float) -> dict[str, str]:
        """The redirect's query parameters.

        Raises:
            RequestTimeoutError: No redirect arrived within ``timeout`` seconds.
        """
        assert self._result is not None, "use 'async with'"
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise RequestTimeoutError(
                f"No sign-in arrived within {timeout:.0f} s.",
                hint="finish signing in in the browser, or try again",
            ) from None


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
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)
    async with LoopbackReceiver(redirect_port) as rx:
        query: dict[str, str] = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": rx.redirect_uri,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        if scopes:
            query["scope"] = " ".join(scopes)
        sep = "&" if urlsplit(authorization_url).query else "?"
        await opener(authorization_url + sep + urlencode(query))
        params = await rx.wait(timeout)
    details: dict[str, Any] = {"scheme": scheme, "authorization_url": authorization_url}
    if params.get("state") != state:
        raise AuthRequiredError(
            f"The sign-in for scheme {scheme!r} came back with the wrong state; it was ignored.",
            hint="sign in again",
            details={**details, "oauth_error": "state_mismatch"},
        )
    if "code" not in params:
        error = params.get("error", "no_code")
        raise AuthRequiredError(
            f"The sign-in for scheme {scheme!r} was not completed ({error}).",
            hint="sign in again",
            details={**details, "oauth_error": error},
        )
    form = {
        "grant_type": "authorization_code",
        "code": params["code"],
        "redirect_uri": rx.redirect_uri,
        "code_verifier": verifier,
        **client_form(client_id, client_secret),
    }
    return await request_token(http, token_url, form, scheme=scheme, now=clock())
