"""DPoP (RFC 9449): a proof-of-possession key, the proofs it signs, and the nonces servers hand out.

A DPoP-bound access token is only usable with proofs signed by the key it was issued for: each
HTTP request carries a fresh proof (a JWS of type ``dpop+jwt`` whose header holds the public key)
naming the request's method and URL, and, for a resource request, a hash of the access token
(``ath``). A server may demand a nonce of its choosing (``use_dpop_nonce`` with a ``DPoP-Nonce``
header): the client keeps the latest nonce per server origin and signs it into later proofs.

Signing is PyJWT's (over ``cryptography``): ES256 on a P-256 key. Nothing here imports an SDK of a
protocol; the MCP OAuth provider attaches proofs to its requests.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from jwt.algorithms import ECAlgorithm

from workbench.core.errors import ConfigError
from workbench.core.http.origins import origin_of

__all__ = ["DPOP_ALGORITHM", "DPoPKey", "DPoPNonces", "access_token_hash", "nonce_challenge"]

DPOP_ALGORITHM = "ES256"
"""The proof signature algorithm (P-256 ECDSA with SHA-256), the one every DPoP server must accept."""
PROOF_TYPE = "dpop+jwt"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def access_token_hash(access_token: str) -> str:
    """The ``ath`` claim: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2)."""
    return _b64url(hashlib.sha256(access_token.encode("ascii")).digest())


def _htu(url: str) -> str:
    """The ``htu`` claim: the request URL without query and fragment (RFC 9449 §4.2)."""
    return url.split("#", 1)[0].split("?", 1)[0]


class DPoPKey:
    """An ES256 (P-256) key pair that signs DPoP proofs.

    Make one with ``generate()`` or read one with ``from_pem()``; ``to_pem()`` gives the private key
    as PKCS#8 PEM to keep it (the credential store holds it for a profile). ``repr`` shows the
    thumbprint only, never the private key.

    Args:
        private_key: The P-256 private key.
    """

    def __init__(self, private_key: ec.EllipticCurvePrivateKey) -> None:
        if not isinstance(private_key, ec.EllipticCurvePrivateKey) or private_key.curve.name != "secp256r1":
            raise ConfigError("A DPoP key must be a P-256 (ES256) private key.", details={"oauth": "dpop-key"})
        self._private_key = private_key
        jwk = json.loads(ECAlgorithm.to_jwk(private_key.public_key()))
        self.public_jwk: dict[str, str] = {name: jwk[name] for name in ("kty", "crv", "x", "y")}
        """The public key as a JWK (``kty``, ``crv``, ``x``, ``y``): what each proof's header carries."""

    @classmethod
    def generate(cls) -> DPoPKey:
        """A new random P-256 key pair."""
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: str | bytes) -> DPoPKey:
        """Read a PEM private key (PKCS#8 or SEC1, unencrypted).

        Raises:
            ConfigError: It is not a readable P-256 private key.
        """
        data = pem.encode("ascii") if isinstance(pem, str) else pem
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as exc:
            raise ConfigError(
                "The DPoP key is not a readable unencrypted PEM private key.", details={"oauth": "dpop-key"}
            ) from exc
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ConfigError("A DPoP key must be a P-256 (ES256) private key.", details={"oauth": "dpop-key"})
        return cls(key)

    def to_pem(self) -> str:
        """The private key as unencrypted PKCS#8 PEM (a secret: keep it in the credential store)."""
        return self._private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode("ascii")

    def thumbprint(self) -> str:
        """The JWK SHA-256 thumbprint (RFC 7638): what a bound token's ``cnf.jkt`` names."""
        canonical = json.dumps(self.public_jwk, sort_keys=True, separators=(",", ":"))
        return _b64url(hashlib.sha256(canonical.encode("ascii")).digest())

    def proof(
        self,
        method: str,
        url: str,
        *,
        access_token: str | None = None,
        nonce: str | None = None,
        now: float | None = None,
    ) -> str:
        """A fresh proof for one HTTP request (a new ``jti`` each time).

        Args:
            method: The request's method (``htm``).
            url: The request's URL; query and fragment are left out (``htu``).
            access_token: The DPoP-bound token the request presents (adds ``ath``).
            nonce: The server's latest ``DPoP-Nonce`` for this origin.
            now: Seconds since the epoch (``iat``); the wall clock by default.

        Returns:
            The compact JWS for the request's ``DPoP`` header.
        """
        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(24),
            "htm": method.upper(),
            "htu": _htu(url),
            "iat": int(time.time() if now is None else now),
        }
        if access_token is not None:
            claims["ath"] = access_token_hash(access_token)
        if nonce is not None:
            claims["nonce"] = nonce
        headers = {"typ": PROOF_TYPE, "jwk": self.public_jwk}
        return jwt.encode(claims, self._private_key, algorithm=DPOP_ALGORITHM, headers=headers)

    def __repr__(self) -> str:
        return f"DPoPKey(thumbprint={self.thumbprint()!r})"


class DPoPNonces:
    """The latest nonce each server origin asked for (RFC 9449 §8 for the AS, §9 for the resource).

    Args:
        clock: Seconds since the epoch (kept for when a nonce was learnt).
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._by_origin: dict[str, tuple[str, float]] = {}

    def get(self, url: str) -> str | None:
        """The nonce to sign into a proof for ``url``, if its origin gave one."""
        entry = self._by_origin.get(_origin(url))
        return entry[0] if entry else None

    def learn(self, url: str, headers: Mapping[str, str]) -> str | None:
        """Keep the ``DPoP-Nonce`` a response from ``url`` carries; returns it (or ``None``)."""
        nonce = headers.get("dpop-nonce")
        if nonce:
            self._by_origin[_origin(url)] = (nonce, self._clock())
        return nonce or None

    def forget(self, url: str) -> None:
        """Drop the nonce of ``url``'s origin (it was refused)."""
        self._by_origin.pop(_origin(url), None)


def _origin(url: str) -> str:
    try:
        return origin_of(url)
    except ValueError:
        return url


def nonce_challenge(status: int, headers: Mapping[str, str], body: bytes) -> bool:
    """Whether a response demands a (new) DPoP nonce: ``use_dpop_nonce`` with a ``DPoP-Nonce`` header.

    An authorization server says so with HTTP 400 and ``{"error": "use_dpop_nonce"}`` (RFC 9449 §8),
    a resource server with HTTP 401 and ``WWW-Authenticate: DPoP error="use_dpop_nonce"`` (§9).
    """
    if not headers.get("dpop-nonce"):
        return False
    if status == 401:
        return 'error="use_dpop_nonce"' in headers.get("www-authenticate", "").replace(" ", "")
    if status == 400:
        try:
            data = json.loads(body)
        except ValueError:
            return False
        return isinstance(data, dict) and data.get("error") == "use_dpop_nonce"
    return False
