"""A token response read and checked (RFC 6749 §5) into a ``TokenSet``, the tokens as a credential store keeps them.

``read_token_response`` takes what came back from a token endpoint (status and body, from whichever
HTTP client sent it) and either returns the tokens or raises a typed error; no message names a
token, a secret or the body (the wire log keeps the raw answer, redacted):

- the server refused (HTTP 400/401/403 with an OAuth ``error``): ``AuthRequiredError`` with
  ``details["oauth"] == "token-refused"`` and ``details["oauth_error"]`` its error code;
- the answer is no token response (not JSON, no ``access_token``, another HTTP error):
  ``OAuthRefusedError`` with ``details["oauth"] == "token-response-invalid"``;
- a ``token_type`` the client cannot present (neither ``Bearer`` nor, when proofs were sent,
  ``DPoP``): ``OAuthRefusedError`` with ``details["oauth"] == "token-type-unsupported"``.

``read_token_exchange_response`` reads the answer of an RFC 8693 token exchange, whose token is a
grant for another server rather than an access token (``token_type`` ``N_A``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from workbench.core.auth_steps import AuthStage, FailureCode, StepLog
from workbench.core.errors import AuthRequiredError
from workbench.core.oauth.refusal import refuse
from workbench.core.safe_text import neutralise_line

__all__ = ["MAX_SKEW", "TokenSet", "read_token_exchange_response", "read_token_response"]

MAX_SKEW = 10.0
"""Seconds before its expiry at which a token is renewed (at most half its lifetime)."""
_REFUSALS = (400, 401, 403)
_ERROR_CODE_LIMIT = 80


@dataclass(frozen=True, slots=True)
class TokenSet:
    """An access token with its absolute expiry, as kept in the credential store.

    Attributes:
        access_token: The token presented to the resource.
        obtained_at: When it was issued (epoch seconds).
        expires_at: When it expires (epoch seconds; ``None``: the server did not say).
        refresh_token: For renewing it without the user, if the server gave one.
        scope: The scopes granted, space-separated.
        token_type: ``Bearer``, or ``DPoP`` for a token bound to the client's proof key (RFC 9449).
    """

    access_token: str
    obtained_at: float
    expires_at: float | None = None
    refresh_token: str | None = None
    scope: str | None = None
    token_type: str = "Bearer"

    @property
    def dpop_bound(self) -> bool:
        """Whether the token is presented as ``Authorization: DPoP`` with a proof of the key."""
        return self.token_type.lower() == "dpop"

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
                "token_type": self.token_type,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> TokenSet | None:
        """Read a stored token (``None`` if it is not one; ``Bearer`` when the record names no type)."""
        try:
            data = json.loads(text)
            return cls(
                access_token=str(data["access_token"]),
                obtained_at=float(data["obtained_at"]),
                expires_at=None if data.get("expires_at") is None else float(data["expires_at"]),
                refresh_token=data.get("refresh_token"),
                scope=data.get("scope"),
                token_type=str(data.get("token_type") or "Bearer"),
            )
        except (ValueError, KeyError, TypeError):
            return None

    def __repr__(self) -> str:
        refresh = "set" if self.refresh_token else None
        return f"TokenSet(token_type={self.token_type!r}, expires_at={self.expires_at}, refresh_token={refresh})"


def _body(content: bytes | str) -> Any:
    try:
        return json.loads(content)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def read_token_response(
    status: int,
    content: bytes | str,
    *,
    now: float,
    token_url: str,
    dpop: bool = False,
    steps: StepLog | None = None,
    stage: AuthStage = AuthStage.TOKEN,
    details: dict[str, Any] | None = None,
) -> TokenSet:
    """The tokens of a token endpoint's answer, checked.

    Args:
        status: The HTTP status.
        content: The body.
        now: The current time (epoch seconds), for the absolute expiry.
        token_url: The token endpoint (named in errors).
        dpop: Proofs were sent, so a ``DPoP`` token type is expected (a ``Bearer`` one is accepted too:
            the server chose not to bind it).
        steps: Where a refusal is recorded (``None``: not recorded).
        stage: The step being run (``token`` or ``refresh``).
        details: Added to the error's details (e.g. the security scheme's name).

    Returns:
        The tokens; a missing ``token_type`` is read as ``Bearer``.

    Raises:
        AuthRequiredError: The server refused (``details["oauth_error"]``).
        OAuthRefusedError: Not a token response, or a token type the client cannot present.
    """
    body = _body(content)
    extra = {"token_url": token_url, "http_status": status, **(details or {})}
    if not isinstance(body, dict) or status >= 400 or not isinstance(body.get("access_token"), str):
        error = body.get("error") if isinstance(body, dict) else None
        if status in _REFUSALS and isinstance(error, str) and error:
            code = neutralise_line(error)[:_ERROR_CODE_LIMIT]
            if steps is not None:
                refuse(
                    steps,
                    stage,
                    "token-refused",
                    f"the authorization server refused the request ({code})",
                    "check the client id and its credential (or sign in again)",
                    code=FailureCode.HTTP_ERROR,
                )
            raise AuthRequiredError(
                f"The authorization server refused the token request ({code}).",
                hint="check the client id and its credential (or sign in again)",
                details={**extra, "oauth": "token-refused", "step": stage.value, "oauth_error": code},
            )
        missing = "" if status >= 400 or not isinstance(body, dict) else " (no access_token)"
        error = refuse(
            steps,
            stage,
            "token-response-invalid",
            f"the token endpoint {neutralise_line(token_url)} did not return a token (HTTP {status}){missing}",
            "the token endpoint must answer with a JSON token response (RFC 6749 §5.1); see the wire log",
            code=FailureCode.INVALID_RESPONSE,
        )
        error.details.update(extra)
        raise error
    token_type = body.get("token_type")
    accepted = ("bearer", "dpop") if dpop else ("bearer",)
    if token_type is not None and (not isinstance(token_type, str) or token_type.lower() not in accepted):
        error = refuse(
            steps,
            stage,
            "token-type-unsupported",
            f"the token endpoint issued a token of type {neutralise_line(str(token_type))[:40]!r}, "
            f"which this client cannot present ({' or '.join(t.capitalize() for t in accepted)} expected)",
            "ask for a Bearer token, or turn DPoP on when the server binds its tokens",
            code=FailureCode.INVALID_RESPONSE,
        )
        error.details.update(extra)
        raise error
    expires_in = body.get("expires_in")
    try:
        expires_at = now + float(expires_in) if expires_in is not None else None
    except (TypeError, ValueError):
        expires_at = None
    scope = body.get("scope")
    refresh = body.get("refresh_token")
    return TokenSet(
        access_token=body["access_token"],
        obtained_at=now,
        expires_at=expires_at,
        refresh_token=refresh if isinstance(refresh, str) and refresh else None,
        scope=str(scope) if scope else None,
        token_type="DPoP" if isinstance(token_type, str) and token_type.lower() == "dpop" else "Bearer",
    )


def read_token_exchange_response(
    status: int, content: bytes | str, *, requested_token_type: str, steps: StepLog | None = None
) -> str:
    """The token an RFC 8693 token exchange issued (RFC 8693 §2.2.1), of the type requested.

    Args:
        status: The HTTP status.
        content: The body.
        requested_token_type: The ``requested_token_type`` sent; an ``issued_token_type`` naming
            another type is refused.
        steps: Where a refusal is recorded (the token step).

    Raises:
        OAuthRefusedError: Refused or no token (``details["oauth"] == "token-exchange-refused"``), or a
            token of another type.
    """
    body = _body(content)
    if status != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
        error = body.get("error") if isinstance(body, dict) else None
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "token-exchange-refused",
            f"the identity provider refused the token exchange (HTTP {status}"
            + (f", {neutralise_line(str(error))[:_ERROR_CODE_LIMIT]})" if error else ")"),
            "check the IdP client id and that the ID token is current",
        )
    issued = body.get("issued_token_type")
    if issued is not None and issued != requested_token_type:
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "token-exchange-refused",
            f"the identity provider issued a {neutralise_line(str(issued))}, not the {requested_token_type} asked for",
            "the IdP must support identity assertion grants (SEP-990)",
        )
    token: str = body["access_token"]
    return token
