"""What each OAuth exchange is checked for, and the typed failure with its reason and the change to make.

Pure functions over requests and answers as the HTTP client holds them (no server needed); the flows
that produce them run against real servers in tests/integration/mcp/test_mcp_oauth.py and tests/e2e.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx2
import pytest

from workbench.core.auth_steps import AuthStage, FailureCode
from workbench.core.http.loopback import AuthorizationResponse
from workbench.core.protocols.mcp._oauth_checks import (
    authorization_request_checks,
    callback_checks,
    exchange_checks,
)

SERVER = "https://files.example.com/mcp"
ISSUER = "https://login.example.com/"


def _outcomes(checks: list[Any]) -> dict[str, str]:
    return {check.name: check.outcome for check in checks}


def _get(url: str, status: int, body: dict[str, Any]) -> tuple[httpx2.Request, httpx2.Response]:
    request = httpx2.Request("GET", url)
    return request, httpx2.Response(status, json=body, request=request)


def _jwt(claims: dict[str, Any]) -> str:
    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none'})}.{part(claims)}.sig"


def _token(access_token: str, resource: str = SERVER) -> tuple[httpx2.Request, httpx2.Response]:
    request = httpx2.Request(
        "POST",
        "https://login.example.com/token",
        content=f"grant_type=authorization_code&code=c&resource={resource}".encode(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    body = {"access_token": access_token, "token_type": "Bearer", "expires_in": 60}
    return request, httpx2.Response(200, json=body, request=request)


def test_resource_metadata_naming_another_resource_fails_with_resource_mismatch_and_says_what_to_change() -> None:
    request, response = _get(
        "https://files.example.com/.well-known/oauth-protected-resource/mcp",
        200,
        {"resource": "https://other.example.com/mcp", "authorization_servers": [ISSUER]},
    )
    checks, failure = exchange_checks(
        AuthStage.DISCOVERY, "protected-resource", request, response, server_url=SERVER, expected_issuer=None
    )
    assert _outcomes(checks) == {"resource": "failed", "https": "passed"}
    assert failure is not None and failure.code is FailureCode.RESOURCE_MISMATCH
    assert "https://other.example.com/mcp" in failure.hint


def test_authorization_server_metadata_naming_another_issuer_fails_with_issuer_mismatch() -> None:
    metadata = {
        "issuer": "https://impostor.example/",
        "authorization_endpoint": "https://login.example.com/authorize",
        "token_endpoint": "http://login.example.com/token",
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    }
    request, response = _get("https://login.example.com/.well-known/oauth-authorization-server", 200, metadata)
    checks, failure = exchange_checks(
        AuthStage.DISCOVERY, "authorization-server", request, response, server_url=SERVER, expected_issuer=ISSUER
    )
    assert [(c.name, c.outcome) for c in checks] == [
        ("https", "passed"),
        ("issuer", "failed"),
        ("https", "passed"),
        ("https", "failed"),  # the token endpoint is plain http off this machine
        ("pkce", "passed"),
    ]
    assert failure is not None and failure.code is FailureCode.ISSUER_MISMATCH


def test_an_error_answer_fails_the_step_with_the_servers_error_code_in_the_reason() -> None:
    request, response = _get("https://login.example.com/register", 400, {"error": "invalid_client_metadata"})
    checks, failure = exchange_checks(
        AuthStage.REGISTRATION, "client", request, response, server_url=SERVER, expected_issuer=ISSUER
    )
    assert _outcomes(checks)["status"] == "failed"
    assert (
        failure is not None and failure.code is FailureCode.HTTP_ERROR and "invalid_client_metadata" in failure.reason
    )


def test_a_token_for_another_audience_fails_and_an_opaque_one_leaves_the_audience_to_the_server() -> None:
    request, response = _token(_jwt({"aud": "https://elsewhere.example/mcp"}))
    checks, failure = exchange_checks(
        AuthStage.TOKEN, "authorization_code", request, response, server_url=SERVER, expected_issuer=ISSUER
    )
    assert _outcomes(checks)["audience"] == "failed"
    assert failure is not None and failure.code is FailureCode.AUDIENCE_MISMATCH
    assert "eyJ" not in failure.reason + failure.hint + "".join(c.detail for c in checks)

    request, response = _token(_jwt({"aud": [SERVER, "other"]}))
    checks, failure = exchange_checks(
        AuthStage.TOKEN, "authorization_code", request, response, server_url=SERVER, expected_issuer=ISSUER
    )
    assert _outcomes(checks) == {"https": "passed", "resource": "passed", "token_type": "passed", "audience": "passed"}
    assert failure is None

    request, response = _token("opaque-token-value")
    checks, failure = exchange_checks(
        AuthStage.TOKEN, "authorization_code", request, response, server_url=SERVER, expected_issuer=ISSUER
    )
    assert _outcomes(checks)["audience"] == "skipped" and failure is None


def test_the_authorization_request_is_checked_for_pkce_s256_and_the_callback_for_its_state() -> None:
    url = (
        "https://login.example.com/authorize?response_type=code&client_id=c&state=s1"
        "&code_challenge=abc&code_challenge_method=S256&resource=https%3A%2F%2Ffiles.example.com%2Fmcp"
    )
    assert _outcomes(authorization_request_checks(url)) == {
        "https": "passed",
        "pkce": "passed",
        "state": "passed",
        "resource": "passed",
    }
    assert _outcomes(authorization_request_checks(url.replace("&state=s1", "")))["state"] == "failed"
    plain = url.replace("code_challenge_method=S256", "code_challenge_method=plain")
    assert _outcomes(authorization_request_checks(plain))["pkce"] == "failed"

    checks, failure = callback_checks(url, AuthorizationResponse("code", "s1", ISSUER), ISSUER)
    assert _outcomes(checks) == {"code": "passed", "state": "passed", "iss": "passed"} and failure is None
    checks, failure = callback_checks(url, AuthorizationResponse("code", "s2", None), ISSUER)
    assert _outcomes(checks)["state"] == "failed"
    assert failure is not None and failure.code is FailureCode.STATE_MISMATCH


@pytest.mark.parametrize(
    ("iss", "required"),
    [("https://other.example", False), (ISSUER.rstrip("/"), False), (None, True)],
    ids=["another-issuer", "normalised-issuer", "missing-but-advertised"],
)
def test_a_callback_whose_iss_is_not_the_issuer_fails_with_issuer_mismatch(iss: str | None, required: bool) -> None:
    url = "https://login.example.com/authorize?state=s1&code_challenge=abc&code_challenge_method=S256"
    checks, failure = callback_checks(url, AuthorizationResponse("code", "s1", iss), ISSUER, iss_required=required)
    assert _outcomes(checks)["iss"] == "failed"
    assert failure is not None and failure.code is FailureCode.ISSUER_MISMATCH
