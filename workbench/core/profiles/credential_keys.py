"""What a saved profile keeps in the credential store, and under which keys.

A secret's value goes to the credential store and the profile keeps a reference. Keys in the store are
``<profile id>/<kind>[:<name>]`` so one profile's secrets are easy to find and forget together; a
profile that logs in with OAuth (``uses_oauth``) also has its tokens and client registration there,
under ``<profile id>/oauth:tokens`` and ``<profile id>/oauth:client`` (``oauth_keys``).
"""

from __future__ import annotations

from pydantic import SecretStr, ValidationError

from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.profiles import (
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    SecretKind,
    SecretRef,
    validation_details,
)
from workbench.core.settings import ProfileStore

OAUTH_TOKENS_KIND = "oauth:tokens"
"""The ``<kind>`` part of the key under which a profile's OAuth tokens are stored."""

OAUTH_CLIENT_KIND = "oauth:client"
"""The ``<kind>`` part of the key under which a profile's OAuth client registration is stored."""


def secret_key(profile_id: str, kind: SecretKind, name: str = "") -> str:
    """The credential-store key for one secret of a profile."""
    return f"{profile_id}/{kind.value}:{name}" if name else f"{profile_id}/{kind.value}"


def oauth_keys(profile_id: str) -> tuple[str, str]:
    """The credential-store keys of a profile's OAuth login: its tokens, then its client registration."""
    return f"{profile_id}/{OAUTH_TOKENS_KIND}", f"{profile_id}/{OAUTH_CLIENT_KIND}"


def uses_oauth(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` logs in with OAuth (an MCP HTTP/SSE profile with ``auth="oauth"``)."""
    return isinstance(profile, MCPHTTPProfile | MCPSSEProfile) and profile.auth == "oauth"


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


def find_profile(profiles: ProfileStore, name_or_id: str) -> ConnectionProfile:
    """The saved profile whose id or name is ``name_or_id`` (id first).

    Raises:
        NotFoundError: No such profile, or the name is ambiguous.
    """
    saved = profiles.load()
    for profile in saved:
        if profile.id == name_or_id:
            return profile
    named = [p for p in saved if p.name == name_or_id]
    if len(named) == 1:
        return named[0]
    if named:
        raise NotFoundError(
            f"{len(named)} profiles are named {name_or_id!r}.",
            hint="use the profile id instead (workbench profile list)",
        )
    known = ", ".join(p.name for p in saved) or "none saved"
    raise NotFoundError(f"No saved profile is called {name_or_id!r} (profiles: {known}).")


async def set_profile_secret(
    store: CredentialStore,
    profiles: ProfileStore,
    profile: ConnectionProfile,
    kind: SecretKind,
    name: str,
    value: SecretStr,
) -> ConnectionProfile:
    """Store ``value`` and make ``profile`` refer to it (replacing a secret that fills the same target).

    The value is stored first; the profile is saved only once the store accepted it.

    Raises:
        SecureStorageUnavailableError: No secure keyring; nothing was stored or saved.
        ConfigError: The secret does not fit the profile (e.g. ``env`` for an HTTP server).
    """
    try:
        ref = SecretRef(kind=kind, name=name, key=secret_key(profile.id, kind, name))
    except ValidationError as exc:
        raise ConfigError(
            f"Invalid secret: {validation_details(exc)[0]['msg']}", details={"errors": validation_details(exc)}
        ) from None
    kept = [r for r in profile.secrets if r.target.lower() != ref.target.lower()]
    try:
        updated = profile.with_changes(secrets=[*(r.model_dump() for r in kept), ref.model_dump()])
    except ValidationError as exc:
        raise ConfigError(
            f"This secret does not fit the profile: {validation_details(exc)[0]['msg']}",
            details={"errors": validation_details(exc)},
        ) from None
    await store.set(ref.key, value)
    profiles.upsert(updated)
    return updated


async def clear_profile_secrets(
    store: CredentialStore,
    profiles: ProfileStore,
    profile: ConnectionProfile,
    kind: SecretKind | None = None,
    name: str = "",
) -> tuple[ConnectionProfile, int]:
    """Forget the profile's secrets (all, or those of ``kind`` [and ``name``]); returns the profile and a count."""
    gone = [r for r in profile.secrets if (kind is None or r.kind is kind) and (not name or r.name == name)]
    for ref in gone:
        await store.delete(ref.key)
    kept = [r.model_dump() for r in profile.secrets if r not in gone]
    updated = profile.with_changes(secrets=kept)
    profiles.upsert(updated)
    return updated, len(gone)
