"""Each OAuth exchange described as an auth step: which stage it is, and one line from fields that are never secret."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

import httpx2

from workbench.core.auth_steps import AuthStage


def classify(request: httpx2.Request) -> tuple[AuthStage, str]:
    """The auth stage of an OAuth request, and what it is about (``protected-resource``, a grant type …)."""
    path = request.url.path
    if "/.well-known/oauth-protected-resource" in path:
        return AuthStage.DISCOVERY, "protected-resource"
    if "/.well-known/oauth-authorization-server" in path or "/.well-known/openid-configuration" in path:
        return AuthStage.DISCOVERY, "authorization-server"
    if request.method == "POST" and "x-www-form-urlencoded" in request.headers.get("content-type", ""):
        form = parse_qs(request.content.decode("utf-8", "replace"))
        grant = (form.get("grant_type") or [""])[0]
        if grant == "refresh_token":
            return AuthStage.REFRESH, grant
        return AuthStage.TOKEN, grant
    if request.method == "POST":
        return AuthStage.REGISTRATION, "client"
    return AuthStage.DISCOVERY, "other"


def _json(response: httpx2.Response) -> dict[str, Any]:
    try:
        data = json.loads(response.content)
    except (ValueError, httpx2.ResponseNotRead):
        return {}
    return data if isinstance(data, dict) else {}


def describe_exchange(stage: AuthStage, subject: str, request: httpx2.Request, response: httpx2.Response) -> str:
    """One line about an exchange, from fields that are never secret (no tokens, no client secret)."""
    where = str(request.url.copy_with(query=None))
    body = _json(response)
    if response.status_code >= 400:
        error = body.get("error")
        return f"{request.method} {where} → HTTP {response.status_code}" + (f" ({error})" if error else "")
    if subject == "protected-resource":
        servers = ", ".join(map(str, body.get("authorization_servers") or []))
        scopes = " ".join(map(str, body.get("scopes_supported") or []))
        return f"protected resource {body.get('resource')} → authorization server {servers}" + (
            f" (scopes {scopes})" if scopes else ""
        )
    if subject == "authorization-server":
        parts = [f"issuer {body.get('issuer')}"]
        for name in ("registration_endpoint", "token_endpoint", "revocation_endpoint"):
            if body.get(name):
                parts.append(f"{name.removesuffix('_endpoint')} {body[name]}")
        return "; ".join(parts)
    if stage is AuthStage.REGISTRATION:
        return (
            f"registered client {body.get('client_id')} at {where} "
            f"(token endpoint auth: {body.get('token_endpoint_auth_method') or 'unspecified'})"
        )
    if stage in (AuthStage.TOKEN, AuthStage.REFRESH):
        what = "tokens issued" if stage is AuthStage.TOKEN else "tokens refreshed"
        expires = body.get("expires_in")
        extras = [f"expires in {expires} s" if expires is not None else "no expiry given"]
        if body.get("scope"):
            extras.append(f"scope {body['scope']}")
        extras.append("refresh token" if body.get("refresh_token") else "no refresh token")
        return f"{what} by {where} ({', '.join(extras)})"
    return f"{request.method} {where} → HTTP {response.status_code}"


_SDK_FAILURES: tuple[tuple[str, AuthStage, str], ...] = (
    # Matched on the words of mcp 2.3.0's OAuthFlowError messages (mcp/client/auth/oauth2.py, utils.py).
    ("Protected resource ", AuthStage.DISCOVERY, "resource-mismatch"),
    ("metadata issuer mismatch", AuthStage.DISCOVERY, "issuer-mismatch"),
    ("response iss mismatch", AuthStage.CALLBACK, "iss-mismatch"),
    ("missing iss parameter", AuthStage.CALLBACK, "iss-mismatch"),
    ("State parameter mismatch", AuthStage.CALLBACK, "state-mismatch"),
)


def failure_of(exc: Exception, last_stage: AuthStage | None) -> tuple[AuthStage, str]:
    """The step an SDK OAuth error stopped the login at, and why (a ``OAuthRefusedError`` reason code)."""
    from mcp.client.auth import OAuthRegistrationError, OAuthTokenError

    text = str(exc)
    for words, stage, reason in _SDK_FAILURES:
        if words in text and (reason != "resource-mismatch" or "does not match" in text):
            return stage, reason
    if isinstance(exc, OAuthRegistrationError):
        return AuthStage.REGISTRATION, "registration-failed"
    if isinstance(exc, OAuthTokenError):
        return (last_stage if last_stage is AuthStage.REFRESH else AuthStage.TOKEN), "token-refused"
    return last_stage or AuthStage.DISCOVERY, "flow-failed"
