"""OAuth options for logins without a browser: client credentials, JWT bearer, enterprise-managed (plain data, no SDK).

They plug into ``OAuth`` (``workbench.core.oauth_options``)::

    OAuth(client=PreRegisteredClient(id, secret), grant=ClientCredentials())        # client_secret_basic/_post
    OAuth(client=PrivateKeyJWTClient(id, private_key_pem=pem, algorithm="ES256"),
          grant=ClientCredentials())                                                 # private_key_jwt (RFC 7523 §2.2)
    OAuth(client=PreRegisteredClient(id), grant=JWTBearer(workload_jwt))            # workload identity (SEP-1933)
    OAuth(client=PreRegisteredClient(id, secret),
          grant=EnterpriseManaged(idp_token_endpoint, idp_client_id, id_token))       # SEP-990: RFC 8693, then RFC 7523

Secrets (client secrets, private keys, ID tokens, assertions) stay out of ``repr``. The MCP login
that runs them is ``workbench.core.protocols.mcp.oauth_grants``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from workbench.core.errors import ConfigError
from workbench.core.oauth_names import SIGNING_ALGORITHMS
from workbench.core.oauth_options import OAuthClient, OAuthGrant

SigningAlgorithm = Literal["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"]
"""The JWS algorithms a ``private_key_jwt`` client assertion may be signed with."""


AssertionSource = Callable[[str], Awaitable[str]]
"""Returns a JWT for the given audience (the authorization server's issuer), e.g. from the workload's IdP."""


@dataclass(frozen=True, slots=True)
class PrivateKeyJWTClient(OAuthClient):
    """A client that authenticates with a JWT it signs with its private key (``private_key_jwt``, RFC 7523 §2.2).

    Each token request carries a fresh assertion: ``iss`` and ``sub`` the client id, ``aud`` the
    authorization server's issuer, a new ``jti``, five minutes of life.

    Attributes:
        client_id: The client id the authorization server knows (with this key's public half).
        private_key_pem: The private key, PEM (PKCS#8 or the algorithm's own format); never shown in ``repr``.
        algorithm: The signature algorithm (``RS256`` by default; ``ES256`` for a P-256 key).

    Raises:
        ConfigError: No client id, no key, or an unknown algorithm.
    """

    client_id: str
    private_key_pem: str = field(repr=False)
    algorithm: SigningAlgorithm = "RS256"

    def __post_init__(self) -> None:
        if not self.client_id:
            raise ConfigError("A private_key_jwt client needs its client id.", details={"oauth": "client-id-missing"})
        if "PRIVATE KEY" not in self.private_key_pem:
            raise ConfigError(
                "The client's private key is not a PEM private key.",
                hint="give the key as PEM text ('-----BEGIN PRIVATE KEY-----' …) or read it with from_file()",
                details={"oauth": "client-key-unreadable"},
            )
        if self.algorithm not in SIGNING_ALGORITHMS:
            raise ConfigError(
                f"Unknown client assertion algorithm {self.algorithm!r}.",
                hint=", ".join(SIGNING_ALGORITHMS),
                details={"oauth": "client-key-algorithm"},
            )

    @classmethod
    def from_file(cls, client_id: str, path: str | Path, algorithm: SigningAlgorithm = "RS256") -> PrivateKeyJWTClient:
        """The client with its private key read from a PEM file.

        Raises:
            ConfigError: The file cannot be read, or holds no PEM private key.
        """
        try:
            pem = Path(path).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"Cannot read the client's private key file {str(path)!r}.",
                hint="check the path and that it is a PEM file",
                details={"oauth": "client-key-unreadable"},
            ) from exc
        return cls(client_id, pem, algorithm)


_EC_ALGORITHMS: dict[str, SigningAlgorithm] = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}


def key_algorithms(private_key_pem: str) -> tuple[SigningAlgorithm, ...]:
    """The signature algorithms a PEM private key can sign client assertions with, the usual one first.

    An RSA key signs ``RS256`` … ``PS512`` (``RS256`` first); an EC key the one algorithm of its curve
    (P-256 ``ES256``, P-384 ``ES384``, P-521 ``ES512``). Used to check a key against the algorithm a
    profile names before a login finds out, and to choose one when none is named.

    Raises:
        ConfigError: Not an unencrypted PEM private key of those types (``client-key-unreadable``).
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    try:
        key = serialization.load_pem_private_key(private_key_pem.encode("ascii", "replace"), password=None)
    except (ValueError, TypeError):
        key = None
    if isinstance(key, rsa.RSAPrivateKey):
        return ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
    if isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name in _EC_ALGORITHMS:
        return (_EC_ALGORITHMS[key.curve.name],)
    raise ConfigError(
        "The client's private key is not an unencrypted RSA or EC (P-256, P-384, P-521) PEM private key.",
        hint="give the PEM file of the key whose public half the authorization server knows",
        details={"oauth": "client-key-unreadable"},
    )


@dataclass(frozen=True, slots=True)
class ClientCredentials(OAuthGrant):
    """The ``client_credentials`` grant: the client gets tokens for itself, no person and no browser.

    The client is a ``PreRegisteredClient`` with a secret (``client_secret_basic`` or
    ``client_secret_post``) or a ``PrivateKeyJWTClient``.
    """


@dataclass(frozen=True, slots=True)
class JWTBearer(OAuthGrant):
    """The JWT bearer grant (RFC 7523 §2.1) with a JWT the client was given: workload identity (SEP-1933).

    The JWT (from the workload's platform: a Kubernetes service account, a cloud instance identity …)
    is the ``assertion``; the client, usually ``PreRegisteredClient(id)`` without a secret, sends
    ``client_id`` only. Before anything is sent the JWT's ``aud`` must name the authorization server
    and its ``exp`` lie ahead, else the login stops (``OAuthRefusedError``, ``details["oauth"]``
    ``assertion-audience`` / ``assertion-expired``). A refusal by the server is final: no retry,
    no other grant.

    Attributes:
        assertion: The JWT, or an async callable that returns one for an audience (the issuer).
    """

    assertion: str | AssertionSource = field(repr=False)


@dataclass(frozen=True, slots=True)
class EnterpriseManaged(OAuthGrant):
    """Enterprise-managed authorization (SEP-990): an identity assertion grant from the enterprise's IdP.

    First, at the IdP's token endpoint, the user's ID token is exchanged (RFC 8693) for an Identity
    Assertion JWT Authorization Grant (ID-JAG) whose audience is the MCP server's authorization
    server and whose resource is the MCP server; then the ID-JAG is the assertion of a JWT bearer
    grant (RFC 7523) at that authorization server, with the client's own authentication (a
    ``PreRegisteredClient`` with its secret). An ID-JAG for another audience or resource is refused
    before it is sent (``details["oauth"] == "assertion-audience"``).

    Attributes:
        idp_token_endpoint: The IdP's token endpoint (https, or http on this machine).
        idp_client_id: This client's id at the IdP.
        id_token: The user's ID token from the IdP (or an async callable returning a current one).
        idp_client_secret: This client's secret at the IdP, if it has one (sent as ``client_secret_post``).
    """

    idp_token_endpoint: str
    idp_client_id: str
    id_token: str | Callable[[], Awaitable[str]] = field(repr=False)
    idp_client_secret: str | None = field(default=None, repr=False)
