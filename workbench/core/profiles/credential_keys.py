"""The keys under which a saved profile keeps its secrets and OAuth login in the credential store.

A secret's value goes to the credential store and the profile keeps a reference. Keys in the store are
``<profile id>/<kind>[:<name>]`` so one profile's secrets are easy to find and forget together; a
profile that logs in with OAuth (``uses_oauth``) also has its tokens and client registration there,
under ``<profile id>/oauth:tokens`` and ``<profile id>/oauth:client`` (``oauth_keys``).
``parse_secret_spec`` reads the command line's way of naming a secret (``api-key:X-Key``).
"""

from __future__ import annotations

from workbench.core.errors import ConfigError
from workbench.core.profiles.secret_refs import SecretKind

OAUTH_TOKENS_KIND = "oauth:tokens"
"""The ``<kind>`` part of the key under which a profile's OAuth tokens are stored."""

OAUTH_CLIENT_KIND = "oauth:client"
"""The ``<kind>`` part of the key under which a profile's OAuth client registration is stored."""

OAUTH_CLIENT_SECRET_KIND = "oauth:client-secret"
"""The ``<kind>`` part of the key under which a pre-registered OAuth client's secret is stored."""


OAUTH_CLIENT_KEY_KIND = "oauth:client-key"
"""The ``<kind>`` part of the key under which a ``private_key_jwt`` client's private key (PEM) is stored."""

OAUTH_DPOP_KEY_KIND = "oauth:dpop-key"
"""The ``<kind>`` part of the key under which a login's DPoP key pair (PEM) is stored."""

OAUTH_DPOP_BOUND_KIND = "oauth:dpop-bound"
"""The ``<kind>`` part of the key under which the digest of a login's DPoP-bound access token is stored."""


def secret_key(profile_id: str, kind: SecretKind, name: str = "") -> str:
    """The credential-store key for one secret of a profile."""
    return f"{profile_id}/{kind.value}:{name}" if name else f"{profile_id}/{kind.value}"


def oauth_keys(profile_id: str) -> tuple[str, str]:
    """The credential-store keys of a profile's OAuth login: its tokens, then its client registration."""
    return f"{profile_id}/{OAUTH_TOKENS_KIND}", f"{profile_id}/{OAUTH_CLIENT_KIND}"


def oauth_client_secret_key(profile_id: str) -> str:
    """The credential-store key of a profile's pre-registered OAuth client secret (kept across logouts)."""
    return f"{profile_id}/{OAUTH_CLIENT_SECRET_KIND}"


def oauth_client_key_key(profile_id: str) -> str:
    """The credential-store key of a profile's ``private_key_jwt`` client key (kept across logouts)."""
    return f"{profile_id}/{OAUTH_CLIENT_KEY_KIND}"


def oauth_dpop_keys(profile_id: str) -> tuple[str, str]:
    """The credential-store keys of a profile's DPoP key pair and of its bound token's digest."""
    return f"{profile_id}/{OAUTH_DPOP_KEY_KIND}", f"{profile_id}/{OAUTH_DPOP_BOUND_KIND}"


def parse_secret_spec(spec: str) -> tuple[SecretKind, str]:
    """Parse ``bearer`` | ``api-key[:HEADER]`` | ``header:K`` | ``env:K`` | ``query:P`` | ``cookie:C`` (kind, name).

    Raises:
        ConfigError: An unknown kind, or a missing name for ``header``/``env``/``query``/``cookie``.
    """
    kind_text, _, name = spec.partition(":")
    try:
        kind = SecretKind(kind_text)
    except ValueError:
        raise ConfigError(
            f"Unknown secret kind {kind_text!r}.",
            hint="use bearer, api-key[:HEADER], header:NAME, env:NAME, query:PARAM or cookie:NAME",
        ) from None
    if kind in (SecretKind.HEADER, SecretKind.ENV, SecretKind.QUERY, SecretKind.COOKIE) and not name:
        raise ConfigError(f"A {kind.value} secret needs a name: {kind.value}:NAME.")
    return kind, name
