"""JWT assertions of the logins without a browser: the client's signed assertion, and the checks before one is sent."""

from __future__ import annotations

from collections.abc import Callable

import jwt
from mcp.client.auth.extensions.client_credentials import SignedJWTParameters

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.errors import OAuthRefusedError
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.safe_text import neutralise_line

__all__ = ["check_assertion", "refuse", "sign_client_assertion"]


def refuse(steps: StepLog, stage: AuthStage, reason: str, why: str, hint: str) -> OAuthRefusedError:
    """Record a failed ``stage`` in ``steps`` and return the error that says why (for the caller to raise)."""
    steps.step(stage, "failed", f"{reason}: {why}")
    return OAuthRefusedError(
        f"The OAuth login stopped at the {stage.value} step: {why}.",
        hint=hint,
        details={"oauth": reason, "step": stage.value},
    )


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


async def sign_client_assertion(client: PrivateKeyJWTClient, issuer: str, steps: StepLog) -> str:
    """A ``private_key_jwt`` client assertion (RFC 7523 §2.2) for the authorization server ``issuer``.

    Raises:
        OAuthRefusedError: The client's key cannot sign with its algorithm (the token step fails).
    """
    signer = SignedJWTParameters(
        issuer=client.client_id,
        subject=client.client_id,
        signing_key=client.private_key_pem,
        signing_algorithm=client.algorithm,
    ).create_assertion_provider()
    try:
        return await signer(issuer)
    except (ValueError, TypeError, jwt.PyJWTError) as exc:
        raise refuse(
            steps,
            AuthStage.TOKEN,
            "client-key-unusable",
            f"the client's private key cannot sign {client.algorithm} ({type(exc).__name__})",
            "give a private key of the algorithm's type (an EC P-256 key for ES256, RSA for RS256)",
        ) from None


def check_assertion(
    steps: StepLog,
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
        resource: The MCP server, which a ``resource`` claim must name, if given.

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
            "ask the identity provider for a grant for this MCP server",
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
