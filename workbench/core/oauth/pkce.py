"""PKCE (RFC 7636): a fresh code verifier and its S256 challenge."""

from __future__ import annotations

import base64
import hashlib
import secrets

__all__ = ["CHALLENGE_METHOD", "pkce_pair", "s256_challenge"]

CHALLENGE_METHOD = "S256"
"""The only challenge method sent (``plain`` gives no protection against an intercepted code)."""


def s256_challenge(verifier: str) -> str:
    """The S256 challenge of ``verifier``: base64url (no padding) of its SHA-256 (RFC 7636 §4.2)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def pkce_pair() -> tuple[str, str]:
    """A fresh PKCE code verifier (64 characters of 48 random bytes) and its S256 challenge."""
    verifier = secrets.token_urlsafe(48)
    return verifier, s256_challenge(verifier)
