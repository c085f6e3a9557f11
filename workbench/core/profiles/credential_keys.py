"""The keys under which a saved profile keeps its secrets and OAuth login in the credential store.

A secret's value goes to the credential store and the profile keeps a reference. Keys in the store are
``<profile id>/<kind>[:<name>]`` so one profile's secrets are easy to find and forget together; a
profile that logs in with OAuth (``uses_oauth``) also has its tokens and client registration there,
under ``<profile id>/oauth:tokens`` and ``<profile id>/oauth:client`` (``oauth_keys``).
``parse_secret_spec`` reads the command line's way of naming a secret (``api-key:X-Key``).
"""

from __future__ import annotations

from workbench.core.errors import ConfigError
from workbench.core.profiles.model import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile
from workbench.core.profiles.secret_refs import SecretKind

OAUTH_TOKENS_KIND = "oauth:tokens"
"""The ``<kind>`` part of the key under which a profile's OAuth tokens are stored."""

OAUTH_CLIENT_KIND = "oauth:client"
"""The ``<kind>`` part of the key under which a profile's OAuth client registration is stored."""

OAUTH_CLIENT_SECRET_KIND = "oauth:client-secret"
"""The ``<kind>`` part of the key under which a pre-registered OAuth client's secret is stored."""


OAUTH_CLIENT_KEY_KIND = "oauth:client-key"
"""The ``<kind>`` part of the key under which a ``private_key_jwt`` client's private key (PEM) is stored."""

OAUTH_ASSERTION_KIND = "oauth:assertion"
"""The ``<kind>`` part of the key under which a ``jwt_bearer`` profile's workload JWT is stored (no file named)."""

OAUTH_ID_TOKEN_KIND = "oauth:id-token"
"""The ``<kind>`` part of the key under which an ``enterprise_managed`` profile's ID token is stored (no file named)."""

OAUTH_IDP_CLIENT_SECRET_KIND = "oauth:idp-client-secret"
"""The ``<kind>`` part of the key under which an ``enterprise_managed`` profile's IdP client secret is stored."""

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


def oauth_assertion_key(profile_id: str) -> str:
    """The credential-store key of a ``jwt_bearer`` profile's workload JWT (kept across logouts)."""
    return f"{profile_id}/{OAUTH_ASSERTION_KIND}"


def oauth_id_token_key(profile_id: str) -> str:
    """The credential-store key of an ``enterprise_managed`` profile's ID token (kept across logouts)."""
    return f"{profile_id}/{OAUTH_ID_TOKEN_KIND}"


def oauth_idp_client_secret_key(profile_id: str) -> str:
    """The credential-store key of an ``enterprise_managed`` profile's IdP client secret (kept across logouts)."""
    return f"{profile_id}/{OAUTH_IDP_CLIENT_SECRET_KIND}"


def oauth_grant_keys(profile_id: str) -> tuple[str, str, str]:
    """The credential-store keys of a profile's grant secrets: workload JWT, ID token, IdP client secret."""
    return oauth_assertion_key(profile_id), oauth_id_token_key(profile_id), oauth_idp_client_secret_key(profile_id)


def oauth_secret_keys(profile_id: str) -> tuple[str, ...]:
    """The keys of every OAuth secret a profile can keep: client secret and key, then the grant secrets."""
    return oauth_client_secret_key(profile_id), oauth_client_key_key(profile_id), *oauth_grant_keys(profile_id)


def used_oauth_secret_keys(profile: ConnectionProfile) -> set[str]:
    """The credential-store keys of the OAuth secrets ``profile`` logs in with (none without OAuth).

    An A2A profile's are its client's (a pre-registered client's secret, a private key kept in the store).
    """
    if not isinstance(profile, MCPHTTPProfile | MCPSSEProfile | A2AProfile):
        return set()
    if not isinstance(profile, A2AProfile) and profile.auth != "oauth":
        return set()
    used: set[str] = set()
    if profile.oauth_client == "pre-registered" and profile.oauth_token_auth != "none":
        used.add(oauth_client_secret_key(profile.id))
    if profile.oauth_client == "private-key-jwt" and not profile.oauth_client_key_file:
        used.add(oauth_client_key_key(profile.id))
    if isinstance(profile, A2AProfile):
        return used
    if profile.oauth_grant == "jwt_bearer" and not profile.oauth_assertion_file:
        used.add(oauth_assertion_key(profile.id))
    if profile.oauth_grant == "enterprise_managed":
        used.add(oauth_idp_client_secret_key(profile.id))
        if not profile.oauth_id_token_file:
            used.add(oauth_id_token_key(profile.id))
    return used


def unused_oauth_secret_keys(profile: ConnectionProfile) -> tuple[str, ...]:
    """The keys of the OAuth secrets ``profile`` could keep and does not use (to forget on save)."""
    used = used_oauth_secret_keys(profile)
    return tuple(k for k in oauth_secret_keys(profile.id) if k not in used)


def oauth_dpop_keys(profile_id: str) -> tuple[str, str]:
    """The credential-store keys of a profile's DPoP key pair and of its bound token's digest."""
    return f"{profile_id}/{OAUTH_DPOP_KEY_KIND}", f"{profile_id}/{OAUTH_DPOP_BOUND_KIND}"


def a2a_dpop_key(profile_id: str) -> str:
    """The credential-store key of an A2A profile's DPoP key pair (``<id>/a2a:*:dpop_key``, the A2A adapter's key)."""
    return f"{profile_id}/a2a:*:dpop_key"


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
