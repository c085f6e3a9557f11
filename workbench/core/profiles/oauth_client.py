"""An A2A profile's OAuth client and DPoP as the agent takes them: its secret or key read from the store or a file.

``a2a_oauth_options`` reads what the profile names (``A2AProfile.oauth_client``): ``per-scheme`` gives no
client (the agent uses each scheme's stored id and secret), ``pre-registered`` a ``PreRegisteredClient``
with its secret from the credential store, ``private-key-jwt`` a ``PrivateKeyJWTClient`` with its key from
the key file or the store. Errors are ``ConfigError``s with ``details["oauth"]`` (``client-secret-missing``,
``client-key-missing``, ``client-key-unreadable``, ``credential-store-missing``) that never carry a secret.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.errors import ConfigError
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import DPoP, OAuthClient, PreRegisteredClient
from workbench.core.profiles.credential_keys import oauth_client_key_key, oauth_client_secret_key
from workbench.core.profiles.model import A2AProfile

if TYPE_CHECKING:
    from workbench.core.credentials import CredentialStore


async def a2a_oauth_options(
    profile: A2AProfile, store: CredentialStore | None
) -> tuple[OAuthClient | None, DPoP | None]:
    """The OAuth client and DPoP options ``profile`` names, its secret or key read now.

    Args:
        profile: The A2A profile.
        store: The credential store holding the client secret or key (needed for those clients only).

    Returns:
        The client (``None``: each scheme's own), and ``DPoP()`` when the profile binds its tokens.

    Raises:
        ConfigError: No store for a client that needs one, no stored secret for a client with a
            secret method, or no key (file unreadable, nothing stored).
        SecureStorageUnavailableError: The store cannot be read.
    """
    dpop = DPoP() if profile.oauth_dpop else None
    if profile.oauth_client == "per-scheme":
        return None, dpop
    client_id = str(profile.oauth_client_id)
    needs_store = profile.oauth_client == "private-key-jwt" and not profile.oauth_client_key_file
    needs_store = needs_store or (profile.oauth_client == "pre-registered" and profile.oauth_token_auth != "none")
    if needs_store and store is None:
        raise ConfigError(
            f"The profile {profile.name!r} names an OAuth client whose secret is in the credential store; "
            "no store was given.",
            hint="pass credentials= (the keyring store) when building the agent",
            details={"oauth": "credential-store-missing"},
        )
    if profile.oauth_client == "pre-registered":
        if profile.oauth_token_auth == "none":
            return PreRegisteredClient(client_id, token_endpoint_auth_method="none"), dpop
        assert store is not None
        secret = await store.get(oauth_client_secret_key(profile.id))
        if secret is None:
            raise ConfigError(
                f"The profile {profile.name!r} names a pre-registered OAuth client, and no client secret is stored.",
                hint="store it: workbench secret set NAME oauth-client-secret (or make the client public: "
                "--oauth-token-auth none)",
                details={"oauth": "client-secret-missing"},
            )
        method = profile.oauth_token_auth
        return PreRegisteredClient(client_id, secret.get_secret_value(), token_endpoint_auth_method=method), dpop
    if profile.oauth_client_key_file:
        algorithm = profile.oauth_client_key_algorithm
        return PrivateKeyJWTClient.from_file(client_id, profile.oauth_client_key_file, algorithm), dpop
    assert store is not None
    stored = await store.get(oauth_client_key_key(profile.id))
    if stored is None:
        raise ConfigError(
            f"The profile {profile.name!r} names a private_key_jwt client, and neither a key file nor a key "
            "in the keyring.",
            hint="name its key file (workbench profile edit NAME --oauth-client-key-file FILE) or store the key "
            "(workbench secret set NAME oauth-client-key --file FILE)",
            details={"oauth": "client-key-missing"},
        )
    return PrivateKeyJWTClient(client_id, stored.get_secret_value(), profile.oauth_client_key_algorithm), dpop
