"""What each OAuth exchange is checked for (issuer, resource, https, audience, PKCE, state), as ``AuthCheck`` data.

The checks mirror what the SDK's flow refuses (RFC 8414 §3.3 issuer, RFC 9728 / RFC 8707 resource,
the callback's ``state``) so a step can say which check failed, why, and what to change, before the
SDK raises its own words. Tokens are read here only to look at an access token's audience; nothing
from a token leaves this module.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp.client.auth.utils import issuers_match
from mcp.shared.auth import OAuthMetadata
from mcp.shared.auth_utils import check_resource_allowed, resource_url_from_server_url
from pydantic import ValidationError

from workbench.core.auth_steps import AuthCheck, AuthExchange, AuthFailure, AuthStage, CheckOutcome, FailureCode
from workbench.core.errors import AuthRequiredError, WorkbenchError
from workbench.core.http.loopback import AuthorizationResponse
from workbench.core.http.oauth_endpoints import is_secure_endpoint
from workbench.core.wire.redaction import Redactor

REFUSED_BY_CHECK = frozenset(
    {FailureCode.ISSUER_MISMATCH, FailureCode.RESOURCE_MISMATCH, FailureCode.AUDIENCE_MISMATCH}
)
"""Failures that end the login at once (nothing more is sent; nothing is stored)."""

_BROWSER_FAILURES = {
    "login-timeout": FailureCode.TIMEOUT,
    "authorization-refused": FailureCode.REFUSED,
    "login-required": FailureCode.LOGIN_REQUIRED,
    "insecure-endpoint": FailureCode.INSECURE_ENDPOINT,
}


def _json(response: httpx2.Response) -> dict[str, Any]:
    try:
        data = json.loads(response.content)
    except (ValueError, httpx2.ResponseNotRead):
        return {}
    return data if isinstance(data, dict) else {}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def https_check(url: str, what: str) -> AuthCheck:
    """Whether ``url`` is https (or plain http on this machine)."""
    scheme = urlsplit(url).scheme
    if not is_secure_endpoint(url):
        return AuthCheck("https", "failed", f"{what} {url} is plain http off this machine")
    return AuthCheck("https", "passed", f"{what} is https" if scheme == "https" else f"{what} is http on loopback")


def _http_failure(stage: AuthStage, request: httpx2.Request, response: httpx2.Response) -> AuthFailure:
    body = _json(response)
    error = body.get("error")
    described = body.get("error_description")
    reason = f"{request.method} {request.url.copy_with(query=None)} answered HTTP {response.status_code}"
    if error:
        reason += f" ({error}" + (f": {described})" if described else ")")
    hints = {
        AuthStage.DISCOVERY: "check the profile's URL: the server must publish its OAuth metadata there",
        AuthStage.REGISTRATION: "the authorization server refused dynamic registration; register a client "
        "there and give the profile its client id",
        AuthStage.TOKEN: "log out (it forgets the registration) and log in again; if it repeats, the "
        "authorization server refuses this client",
        AuthStage.REFRESH: "log in again: the refresh token was refused (revoked or expired)",
    }
    return AuthFailure(FailureCode.HTTP_ERROR, reason, hints.get(stage, "see the response in the wire log"))


def _protected_resource(server_url: str, body: dict[str, Any]) -> tuple[list[AuthCheck], AuthFailure | None]:
    expected = resource_url_from_server_url(server_url)
    named = body.get("resource")
    checks: list[AuthCheck] = []
    failure = None
    if not isinstance(named, str) or not named:
        checks.append(AuthCheck("resource", "skipped", "the metadata names no resource"))
    elif check_resource_allowed(requested_resource=expected, configured_resource=named):
        checks.append(AuthCheck("resource", "passed", f"resource {named} covers {expected}"))
    else:
        checks.append(AuthCheck("resource", "failed", f"resource {named} is not {expected}"))
        failure = AuthFailure(
            FailureCode.RESOURCE_MISMATCH,
            f"the protected-resource metadata names the resource {named}, not this server ({expected})",
            f"set the profile's URL to the server's resource ({named}), or fix the resource the server "
            "publishes in /.well-known/oauth-protected-resource",
        )
    servers = [str(url) for url in body.get("authorization_servers") or []]
    if servers:
        checks.append(https_check(servers[0], "authorization server"))
    else:
        checks.append(AuthCheck("authorization_servers", "failed", "the metadata names no authorization server"))
    return checks, failure


def _authorization_server(
    expected_issuer: str | None, server_url: str, body: dict[str, Any]
) -> tuple[list[AuthCheck], AuthFailure | None]:
    checks: list[AuthCheck] = []
    failure = None
    try:
        issuer = str(OAuthMetadata.model_validate(body).issuer)
    except ValidationError:
        issuer = str(body.get("issuer") or "")
    if expected_issuer is not None:
        matches = issuer == expected_issuer
        expected = expected_issuer
    else:  # the legacy path (no resource metadata): the issuer is the server's origin
        expected = _origin(server_url)
        matches = issuers_match(issuer, expected)
    if matches:
        checks.append(AuthCheck("issuer", "passed", f"issuer {issuer} is the server discovered"))
    else:
        checks.append(AuthCheck("issuer", "failed", f"issuer {issuer or '(none)'} is not {expected}"))
        failure = AuthFailure(
            FailureCode.ISSUER_MISMATCH,
            f"the authorization server's metadata names the issuer {issuer or '(none)'}, "
            f"not {expected} where it was found (RFC 8414 §3.3)",
            f"make the authorization server's issuer {expected} (its metadata's issuer field), or make the "
            "protected resource name the issuer it really has in authorization_servers",
        )
    for name in ("authorization_endpoint", "token_endpoint", "registration_endpoint"):
        if body.get(name):
            checks.append(https_check(str(body[name]), name.replace("_", " ")))
    methods = body.get("code_challenge_methods_supported") or []
    if "S256" in methods:
        checks.append(AuthCheck("pkce", "passed", "the server supports PKCE S256"))
    else:
        checks.append(AuthCheck("pkce", "skipped", "code_challenge_methods_supported does not list S256"))
    return checks, failure


def _audiences(access_token: str) -> list[str] | None:
    """The ``aud`` claim of a JWT access token (unverified: only for the audience check), None for an opaque one."""
    parts = access_token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except ValueError:
        return None
    aud = claims.get("aud") if isinstance(claims, dict) else None
    if isinstance(aud, str):
        return [aud]
    if isinstance(aud, list):
        return [str(a) for a in aud]
    return None


def _tokens(
    server_url: str, request: httpx2.Request, body: dict[str, Any]
) -> tuple[list[AuthCheck], AuthFailure | None]:
    checks: list[AuthCheck] = []
    failure = None
    expected = resource_url_from_server_url(server_url)
    form = parse_qs(request.content.decode("utf-8", "replace"))
    sent = (form.get("resource") or [""])[0]
    if sent:
        checks.append(AuthCheck("resource", "passed", f"the token request names the resource {sent} (RFC 8707)"))
    else:
        checks.append(AuthCheck("resource", "skipped", "the token request names no resource"))
    if not body.get("access_token"):
        checks.append(AuthCheck("access_token", "failed", "the answer has no access_token"))
        failure = AuthFailure(
            FailureCode.INVALID_RESPONSE,
            "the token endpoint answered without an access_token",
            "check the authorization server's token endpoint",
        )
        return checks, failure
    token_type = str(body.get("token_type") or "")
    outcome: CheckOutcome = "passed" if token_type.lower() in ("bearer", "dpop") else "failed"
    checks.append(AuthCheck("token_type", outcome, f"token type {token_type or '(none)'}"))
    audiences = _audiences(str(body["access_token"]))
    if audiences is None:
        checks.append(AuthCheck("audience", "skipped", "opaque access token: its audience is the server's to check"))
    elif any(check_resource_allowed(requested_resource=expected, configured_resource=aud) for aud in audiences):
        checks.append(AuthCheck("audience", "passed", f"the token's audience {', '.join(audiences)} covers {expected}"))
    else:
        checks.append(AuthCheck("audience", "failed", f"the token's audience {', '.join(audiences)} is not {expected}"))
        failure = AuthFailure(
            FailureCode.AUDIENCE_MISMATCH,
            f"the access token is for {', '.join(audiences)}, not this server ({expected})",
            "the authorization server must issue tokens for the resource it was asked for (RFC 8707); "
            "check its resource/audience settings",
        )
    return checks, failure


TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"


def exchange_checks(
    stage: AuthStage,
    subject: str,
    request: httpx2.Request,
    response: httpx2.Response,
    *,
    server_url: str,
    expected_issuer: str | None,
) -> tuple[list[AuthCheck], AuthFailure | None]:
    """What one exchange of the flow is checked for, and the failure when a check (or the answer) fails.

    Args:
        stage: The exchange's stage (``classify``).
        subject: What it is about (``protected-resource``, ``authorization-server``, a grant type …).
        request: The request sent.
        response: Its answer (read).
        server_url: The MCP server's URL (the resource the tokens are for).
        expected_issuer: The authorization server the protected resource named (``None`` on the legacy
            path, where the server's origin is the issuer).
    """
    url = str(request.url.copy_with(query=None))
    status = response.status_code
    checks = [] if subject == "protected-resource" else [https_check(url, "endpoint")]
    if status == 404 and stage is AuthStage.DISCOVERY:
        checks.append(AuthCheck("status", "skipped", f"HTTP 404 at {url}: the next well-known URL is tried"))
        return checks, None
    if status >= 400:
        checks.append(AuthCheck("status", "failed", f"HTTP {status}"))
        return checks, _http_failure(stage, request, response)
    body = _json(response)
    if subject == "protected-resource":
        more, failure = _protected_resource(server_url, body)
    elif subject == "authorization-server":
        more, failure = _authorization_server(expected_issuer, server_url, body)
    elif stage is AuthStage.REGISTRATION:
        ok = bool(body.get("client_id"))
        more = [
            AuthCheck("client_id", "passed" if ok else "failed", "a client id was issued" if ok else "no client id")
        ]
        failure = None
    elif subject == TOKEN_EXCHANGE_GRANT:
        # An IdP's token exchange (SEP-990): its token is an assertion for the authorization server,
        # whose audience and resource the grant checks (oauth_grants), not an access token for this server.
        more, failure = [], None
    elif stage in (AuthStage.TOKEN, AuthStage.REFRESH):
        more, failure = _tokens(server_url, request, body)
    else:
        more, failure = [], None
    return [*checks, *more], failure


def authorization_request_checks(authorization_url: str) -> list[AuthCheck]:
    """What the authorization request the browser is sent to was checked for: https, PKCE S256, state, resource."""
    query = parse_qs(urlsplit(authorization_url).query)
    endpoint = authorization_url.split("?", 1)[0]
    checks = [https_check(endpoint, "authorization endpoint")]
    method = (query.get("code_challenge_method") or [""])[0]
    if method == "S256" and query.get("code_challenge"):
        checks.append(AuthCheck("pkce", "passed", "PKCE code challenge sent with S256"))
    else:
        checks.append(AuthCheck("pkce", "failed", f"PKCE method {method or '(none)'}"))
    if query.get("state"):
        checks.append(AuthCheck("state", "passed", "a state is sent, to be matched on the way back"))
    else:
        checks.append(AuthCheck("state", "failed", "no state is sent"))
    resource = (query.get("resource") or [""])[0]
    if resource:
        checks.append(AuthCheck("resource", "passed", f"the request names the resource {resource} (RFC 8707)"))
    else:
        checks.append(AuthCheck("resource", "skipped", "the request names no resource"))
    return checks


def callback_checks(
    authorization_url: str, response: AuthorizationResponse, issuer: str | None, *, iss_required: bool = False
) -> tuple[list[AuthCheck], AuthFailure | None]:
    """What the redirect back was checked for: the ``state`` sent, and the ``iss`` (RFC 9207 §2.4).

    ``iss`` is compared as a plain string with the metadata's issuer (no URL normalisation); its
    absence fails only when the authorization server advertised it (``iss_required``).
    """
    sent = (parse_qs(urlsplit(authorization_url).query).get("state") or [""])[0]
    checks: list[AuthCheck] = [AuthCheck("code", "passed", "an authorization code arrived")]
    failure = None
    if response.state is not None and response.state == sent:
        checks.append(AuthCheck("state", "passed", "state matches the request's"))
    else:
        checks.append(AuthCheck("state", "failed", "state does not match the request's"))
        failure = AuthFailure(
            FailureCode.STATE_MISMATCH,
            "the redirect back carries another state than the authorization request sent",
            "start the login again from the workbench; a redirect from an older login tab cannot be used",
        )
    if response.iss is None and not iss_required:
        checks.append(AuthCheck("iss", "skipped", "the redirect names no issuer"))
    elif response.iss is not None and response.iss == issuer:
        checks.append(AuthCheck("iss", "passed", f"issuer {response.iss} (RFC 9207)"))
    else:
        named = response.iss if response.iss is not None else "no issuer"
        checks.append(AuthCheck("iss", "failed", f"the redirect names {named}, not {issuer} (RFC 9207)"))
        failure = failure or AuthFailure(
            FailureCode.ISSUER_MISMATCH,
            f"the redirect back names {named} as its issuer, not the authorization server {issuer} (RFC 9207)",
            "the authorization server must put its own issuer in the redirect's iss parameter; if it does, "
            "another server answered this login: start it again",
        )
    return checks, failure


def authorization_exchange(redactor: Redactor, authorization_url: str) -> AuthExchange:
    """The browser's request to the authorization endpoint, redacted (the PKCE challenge and state are not secret)."""
    return AuthExchange("GET", redactor.url(authorization_url), via="browser")


def callback_url(redirect_uri: str, response: AuthorizationResponse) -> str:
    """The redirect as it arrived (the code stays in it only until ``Redactor.url`` masks it)."""
    parts = [f"code={response.code}"]
    if response.state is not None:
        parts.append(f"state={response.state}")
    if response.iss is not None:
        parts.append(f"iss={response.iss}")
    return f"{redirect_uri}?{'&'.join(parts)}"


def browser_failure(exc: WorkbenchError) -> AuthFailure:
    """A failure of the browser leg (timeout, refusal, no browser allowed) as step data."""
    code = _BROWSER_FAILURES.get(str(exc.details.get("oauth")), FailureCode.OTHER)
    return AuthFailure(code, exc.message, exc.hint or "try the login again")


def refused(step_title: str, failure: AuthFailure) -> AuthRequiredError:
    """The error that ends a login at a failed check: ``details["oauth"]`` is the failure's code."""
    return AuthRequiredError(
        f"The OAuth login stopped at {step_title}: {failure.reason}.",
        hint=failure.hint,
        details={"oauth": failure.code.value, "step": step_title},
    )
