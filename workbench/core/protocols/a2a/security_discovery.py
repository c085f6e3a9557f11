"""Where an A2A security scheme's authorization server is: its OpenID Connect or RFC 8414 metadata, checked.

Each document read is the ``discovery`` step (``Authorization-server metadata``) of the login's
``StepLog`` when one is given, with what was checked (issuer, https) and its wire records. The
requests bypass the agent client's auth and default headers (its credentials stay off them).
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from workbench.core.auth_steps import AuthCheck, AuthFailure, AuthStage, FailureCode, StepLog
from workbench.core.errors import AuthRequiredError, ProtocolError, WorkbenchError
from workbench.core.http.oauth_endpoints import check_oauth_endpoint as check_oauth_endpoint_of
from workbench.core.http.origins import OAUTH_ENDPOINT
from workbench.core.safe_text import neutralise_line

__all__ = ["authorization_server_issuer", "check_oauth_endpoint", "discover_oidc", "outside_request"]


def check_oauth_endpoint(url: str, *, what: str, scheme: str) -> None:
    """Refuse an OAuth endpoint of security scheme ``scheme`` that is not ``https`` (loopback excepted).

    Raises:
        InsecureEndpointError: The endpoint is not an absolute ``https`` URL (or ``http`` on loopback).
    """
    context = f"security scheme {neutralise_line(scheme)!r}"
    check_oauth_endpoint_of(url, endpoint=what.replace(" ", "_"), context=context, details={"scheme": scheme})


def outside_request(method: str, url: str, **kw: Any) -> httpx.Request:
    """A request to an OAuth endpoint, flagged as one for the credential guard (sent with ``auth=httpx.Auth()``)."""
    # Built apart from the client: its default headers (the connection's credentials) stay off it.
    return httpx.Request(method, url, extensions={OAUTH_ENDPOINT: True}, **kw)


async def _metadata(
    http: httpx.AsyncClient, url: str, *, scheme: str, steps: StepLog | None, what: str
) -> tuple[httpx.Response, list[int]]:
    check_oauth_endpoint(url, what=what, scheme=scheme)
    request = outside_request("GET", url, headers={"Accept": "application/json"})
    seqs: list[int] = []
    if steps is not None:
        with steps.capture() as seqs:
            response = await http.send(request, auth=httpx.Auth(), follow_redirects=False)
    else:
        response = await http.send(request, auth=httpx.Auth(), follow_redirects=False)
    await response.aread()
    return response, seqs


def _document(response: httpx.Response) -> dict[str, Any] | None:
    try:
        doc = json.loads(response.content)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return doc if response.status_code == 200 and isinstance(doc, dict) else None


async def discover_oidc(
    http: httpx.AsyncClient, url: str, *, scheme: str, steps: StepLog | None = None
) -> dict[str, Any]:
    """Fetch an OpenID Connect discovery document (the authorization server's metadata step).

    Returns:
        The document (``authorization_endpoint`` and ``token_endpoint`` are checked to be present,
        https off loopback, and the issuer to be the URL it was fetched under).

    Raises:
        ProtocolError: No usable document at ``url``.
        AuthRequiredError: The document names another issuer.
        InsecureEndpointError: An endpoint is plain http off loopback.
    """
    response, seqs = await _metadata(http, url, scheme=scheme, steps=steps, what="OpenID Connect discovery URL")
    checks: list[AuthCheck] = []

    def failed(error: WorkbenchError, code: FailureCode) -> WorkbenchError:
        if steps is not None:
            failure = AuthFailure(code, error.message, error.hint or "check the agent's OpenID Connect URL")
            steps.step(
                AuthStage.DISCOVERY,
                "failed",
                error.message,
                tuple(seqs),
                subject="authorization-server",
                checks=checks,
                failure=failure,
            )
        return error

    doc = _document(response)
    if doc is None:
        raise failed(
            ProtocolError(
                f"No OpenID Connect discovery document at {url} (HTTP {response.status_code}).",
                details={"scheme": scheme, "url": url, "http_status": response.status_code},
            ),
            FailureCode.INVALID_RESPONSE,
        )
    missing = [k for k in ("authorization_endpoint", "token_endpoint") if not isinstance(doc.get(k), str)]
    if missing:
        raise failed(
            ProtocolError(
                f"The OpenID Connect document at {url} lacks {', '.join(missing)}.",
                details={"scheme": scheme, "url": url, "missing": missing},
            ),
            FailureCode.INVALID_RESPONSE,
        )
    suffix = "/.well-known/openid-configuration"
    expected_issuer = url[: -len(suffix)] if url.endswith(suffix) else None
    issuer = doc.get("issuer")
    issuer_ok = isinstance(issuer, str) and issuer.rstrip("/") == (expected_issuer or "").rstrip("/")
    if expected_issuer is not None and not issuer_ok:
        # OpenID Connect Discovery 1.0 §4.3: the issuer MUST be the URL the document was fetched under.
        checks.append(AuthCheck("issuer", "failed", f"{neutralise_line(str(issuer))} is not {expected_issuer}"))
        raise failed(
            AuthRequiredError(
                f"The OpenID Connect document at {neutralise_line(url)} names issuer "
                f"{neutralise_line(str(issuer))!s}, not {neutralise_line(expected_issuer)}; refused.",
                hint="the agent's OpenID Connect configuration is wrong or was tampered with",
                details={"scheme": scheme, "url": url, "issuer": str(issuer), "expected_issuer": expected_issuer},
            ),
            FailureCode.ISSUER_MISMATCH,
        )
    if expected_issuer is not None:
        checks.append(AuthCheck("issuer", "passed", f"{expected_issuer} (the URL the document was fetched under)"))
    try:
        for key in ("authorization_endpoint", "token_endpoint"):
            check_oauth_endpoint(str(doc[key]), what=key.replace("_", " "), scheme=scheme)
    except WorkbenchError as exc:
        checks.append(AuthCheck("https", "failed", exc.message))
        raise failed(exc, FailureCode.INSECURE_ENDPOINT) from None
    checks.append(AuthCheck("https", "passed", "the authorization and token endpoints are https (or loopback)"))
    if steps is not None:
        detail = f"issuer {neutralise_line(str(issuer))}; token {neutralise_line(str(doc['token_endpoint']))}"
        steps.step(AuthStage.DISCOVERY, "ok", detail, tuple(seqs), subject="authorization-server", checks=checks)
    return doc


async def authorization_server_issuer(
    http: httpx.AsyncClient, token_url: str, *, scheme: str, steps: StepLog | None = None
) -> str | None:
    """The issuer of the authorization server whose token endpoint is ``token_url``, from its RFC 8414 metadata.

    The metadata is looked for at ``<origin>/.well-known/oauth-authorization-server``; it counts only
    when it names ``token_url`` as its token endpoint and an issuer on the same origin.

    Returns:
        The issuer, or ``None`` when there is no such metadata (the step is recorded as skipped).
    """
    origin = httpx.URL(token_url).copy_with(path="/", query=None, fragment=None)
    url = str(origin.join("/.well-known/oauth-authorization-server"))
    response, seqs = await _metadata(http, url, scheme=scheme, steps=steps, what="authorization server metadata URL")
    doc = _document(response)
    issuer = doc.get("issuer") if doc is not None else None
    usable = (
        doc is not None
        and isinstance(issuer, str)
        and str(doc.get("token_endpoint", "")).rstrip("/") == token_url.rstrip("/")
        and httpx.URL(issuer).copy_with(path="/", query=None, fragment=None) == origin
    )
    if steps is not None:
        if usable:
            checks = (AuthCheck("issuer", "passed", f"{neutralise_line(str(issuer))}, on the token endpoint's origin"),)
            detail = f"issuer {neutralise_line(str(issuer))}; token {token_url}"
            steps.step(AuthStage.DISCOVERY, "ok", detail, tuple(seqs), subject="authorization-server", checks=checks)
        else:
            detail = f"no authorization server metadata naming {token_url} (HTTP {response.status_code})"
            steps.step(AuthStage.DISCOVERY, "skipped", detail, tuple(seqs), subject="authorization-server")
    return str(issuer) if usable else None
