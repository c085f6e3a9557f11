"""The JWTs of RFC 7523: a client's signed assertion (``private_key_jwt``), and the checks before one is sent."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

import jwt

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.oauth.refusal import refuse
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.safe_text import neutralise_line

__all__ = ["ASSERTION_LIFETIME", "check_assertion", "sign_client_assertion"]

ASSERTION_LIFETIME = 300
"""Seconds a client assertion lives: long enough for one token request, short if it leaks."""


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def sign_client_assertion(
    client: PrivateKeyJWTClient,
    audience: str,
    steps: StepLog | None = None,
    *,
    clock: Callable[[], float] = time.time,
) -> str:
    """A ``private_key_jwt`` client assertion (RFC 7523 §2.2) for the authorization server ``audience``.

    ``iss`` and ``sub`` are the client id, ``aud`` the audience (the issuer, or the token endpoint
    where no issuer is known), a fresh ``jti``, ``ASSERTION_LIFETIME`` seconds of life.

    Args:
        client: The client and its private key.
        audience: Who the assertion is for.
        steps: Where a refusal is recorded.
        clock: Seconds since the epoch (``iat``, ``exp``).

    Raises:
        OAuthRefusedError: The client's key cannot sign with its algorithm (the token step fails).
    """
    now = int(clock())
    claims = {
        "iss": client.client_id,
        "sub": client.client_id,
        "aud": audience,
        "exp": now + ASSERTION_LIFETIME,
        "iat": now,
        "jti": secrets.token_urlsafe(16),
    }
    try:
        return jwt.encode(claims, client.private_key_pem, algorithm=client.algorithm)
    except (ValueError, TypeError, jwt.PyJWTError) as exc:
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "client-key-unusable",
            f"the client's private key cannot sign {client.algorithm} ({type(exc).__name__})",
            "give a private key of the algorithm's type (an EC P-256 key for ES256, RSA for RS256)",
        ) from None


def check_assertion(
    steps: StepLog | None,
    clock: Callable[[], float],
    token: str,
    *,
    audience: str,
    what: str,
    resource: str | None = None,
) -> None:
    """Refuse, before sending it, an assertion for another audience or resource, or one that has expired.

    Args:
        steps: Where a refusal is recorded.
        clock: Seconds since the epoch.
        token: The JWT.
        audience: The authorization server's issuer, which ``aud`` must name.
        what: The assertion's name in the error ("the ID-JAG").
        resource: The protected resource, which a ``resource`` claim must name, if given.

    Raises:
        OAuthRefusedError: Not a JWT, another audience or resource, or expired.
    """
    try:
        claims = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "assertion-malformed",
            f"{what} is not a JWT",
            "the assertion must be a signed JWT",
        ) from None
    aud = claims.get("aud")
    audiences = (
        [aud] if isinstance(aud, str) else [a for a in aud if isinstance(a, str)] if isinstance(aud, list) else []
    )
    if not any(_same_url(candidate, audience) for candidate in audiences):
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "assertion-audience",
            f"{what} is for another audience ({neutralise_line(', '.join(audiences) or 'none')}), "
            f"not the authorization server {audience}",
            "get a JWT whose aud is the authorization server's issuer",
        )
    claimed = claims.get("resource")
    if resource is not None and isinstance(claimed, str) and not _same_url(claimed, resource):
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "assertion-audience",
            f"{what} is for another resource ({neutralise_line(claimed)}), not {resource}",
            "ask the identity provider for a grant for this server",
        )
    exp = claims.get("exp")
    if isinstance(exp, int | float) and exp <= clock():
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "assertion-expired",
            f"{what} expired {int(clock() - exp)} s ago",
            "get a fresh JWT from the identity provider",
        )
