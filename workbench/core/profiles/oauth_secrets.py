"""An OAuth profile's own secrets in the credential store: which it uses, and storing one (``secret set``).

Besides its tokens, an OAuth profile (an MCP one with ``auth="oauth"``, or an A2A one: only its client's
secret or key) may keep in the credential store: a pre-registered client's
secret, a ``private_key_jwt`` client's key (when no key file is named), a ``jwt_bearer`` workload JWT
(when no file is named), an ``enterprise_managed`` ID token (likewise) and IdP client secret. They
have fixed keys (``credential_keys``) rather than ``SecretRef``s: a ``SecretRef`` says where a value
goes in a request, these go into the login. ``used_oauth_secret_keys`` says which a profile uses, so
that saving a profile forgets the others; ``set_oauth_secret`` stores one and points the profile at it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import SecretStr, ValidationError

from workbench.core.errors import ConfigError
from workbench.core.profiles.credential_keys import (
    oauth_assertion_key,
    oauth_client_key_key,
    oauth_client_secret_key,
    oauth_id_token_key,
    oauth_idp_client_secret_key,
)
from workbench.core.profiles.model import (
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    validation_details,
)
from workbench.core.profiles.oauth_files import check_client_key_pem
from workbench.core.profiles.service import ProfileService, SecretChanges
from workbench.core.shell_quote import command_line


@dataclass(frozen=True, slots=True)
class OAuthSecret:
    """One kind of OAuth secret a profile can keep in the credential store.

    Attributes:
        name: How the command line names it (``workbench secret set NAME <name>``).
        what: What it is, in words.
        grants: The ``oauth_grant`` values it serves (empty: any).
        client: The ``oauth_client`` it needs (``None``: any with a client id).
        file_field: The profile field naming a file instead; storing the secret clears it.
    """

    name: str
    what: str
    grants: tuple[str, ...] = ()
    client: str | None = None
    file_field: str | None = None

    def key(self, profile_id: str) -> str:
        """Its credential-store key for ``profile_id``."""
        return _KEYS[self.name](profile_id)


_KEYS = {
    "oauth-client-secret": oauth_client_secret_key,
    "oauth-client-key": oauth_client_key_key,
    "oauth-assertion": oauth_assertion_key,
    "oauth-id-token": oauth_id_token_key,
    "oauth-idp-client-secret": oauth_idp_client_secret_key,
}

OAUTH_SECRETS: dict[str, OAuthSecret] = {
    s.name: s
    for s in (
        OAuthSecret("oauth-client-secret", "the pre-registered client's secret", client="pre-registered"),
        OAuthSecret(
            "oauth-client-key", "the client's private key", client="private-key-jwt", file_field="oauth_client_key_file"
        ),
        OAuthSecret("oauth-assertion", "the workload's JWT", grants=("jwt_bearer",), file_field="oauth_assertion_file"),
        OAuthSecret("oauth-id-token", "the ID token", grants=("enterprise_managed",), file_field="oauth_id_token_file"),
        OAuthSecret("oauth-idp-client-secret", "the IdP client secret", grants=("enterprise_managed",)),
    )
}
"""The OAuth secrets ``workbench secret set NAME KIND`` stores, by ``KIND``."""


async def set_oauth_secret(
    service: ProfileService,
    profile: ConnectionProfile,
    kind: str,
    value: SecretStr,
    *,
    algorithm: str | None = None,
) -> ConnectionProfile:
    """Store one OAuth secret of ``profile`` and make the profile take it from the store.

    A client key is checked first (it must parse and sign ``algorithm``, else the profile's algorithm
    or the key's usual one); the file field the secret replaces is cleared.

    Args:
        service: Saves the profile with the value (rolled back when either fails).
        profile: A saved OAuth profile, or an A2A profile (its client's secret or key only).
        kind: A key of ``OAUTH_SECRETS``.
        value: The secret.
        algorithm: For a client key: the algorithm it signs.

    Returns:
        The profile as saved.

    Raises:
        ConfigError: An unknown kind, one the profile's client or grant does not use, or a key that
            does not parse or fit (nothing is stored).
        SecureStorageUnavailableError: No secure keyring; nothing was stored or saved.
    """
    secret = OAUTH_SECRETS.get(kind)
    if secret is None:
        raise ConfigError(f"Unknown OAuth secret {kind!r}.", hint=", ".join(OAUTH_SECRETS))
    if isinstance(profile, A2AProfile):
        if secret.grants:
            raise ConfigError(
                f"{secret.what[0].upper()}{secret.what[1:]} is for an MCP profile's {secret.grants[0]} grant; an A2A "
                "agent's card names its own flows.",
                hint="an A2A profile keeps oauth-client-secret or oauth-client-key",
            )
    elif not isinstance(profile, MCPHTTPProfile | MCPSSEProfile) or profile.auth != "oauth":
        raise ConfigError(
            f"The profile {profile.name!r} does not log in with OAuth.", hint="workbench profile edit NAME --oauth"
        )
    changes: dict[str, object] = {secret.file_field: None} if secret.file_field else {}
    if kind == "oauth-client-key":
        if not profile.oauth_client_id:
            raise ConfigError(
                "A private key is for a client registered in advance.", hint="set --oauth-client-id first"
            )
        current = profile.oauth_client_key_algorithm if profile.oauth_client == "private-key-jwt" else None
        wanted = algorithm or current
        try:
            chosen = check_client_key_pem(value.get_secret_value(), wanted)
        except ConfigError:
            if algorithm is not None or wanted is None:
                raise
            chosen = check_client_key_pem(value.get_secret_value(), None)  # the profile's default did not fit
        changes.update(oauth_client="private-key-jwt", oauth_client_key_algorithm=chosen)
        if not isinstance(profile, A2AProfile) and profile.oauth_grant == "authorization_code":
            changes["oauth_grant"] = "client_credentials"
    elif secret.grants and not isinstance(profile, A2AProfile) and profile.oauth_grant not in secret.grants:
        raise ConfigError(
            f"{secret.what[0].upper()}{secret.what[1:]} is for the {' or '.join(secret.grants)} grant; "
            f"{profile.name!r} uses {profile.oauth_grant}.",
            hint=f"{command_line('workbench', 'profile', 'edit', profile.name, '--oauth-grant', secret.grants[0])} …",
        )
    elif secret.client is not None and profile.oauth_client != secret.client:
        raise ConfigError(f"{secret.what[0].upper()}{secret.what[1:]} is for a {secret.client} client.")
    try:
        updated = profile.with_changes(**changes)
    except ValidationError as exc:
        raise ConfigError(
            f"This secret does not fit the profile: {validation_details(exc)[0]['msg']}",
            details={"errors": validation_details(exc)},
        ) from None
    await service.save(updated, SecretChanges(store={secret.key(profile.id): value}))
    return updated
