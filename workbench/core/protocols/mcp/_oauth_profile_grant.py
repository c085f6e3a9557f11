"""A saved profile's OAuth grant as the library's grant options, its tokens and secrets from files or the keyring.

``jwt_bearer`` becomes ``JWTBearer`` and ``enterprise_managed`` ``EnterpriseManaged``. A token named by
a file (``oauth_assertion_file``, ``oauth_id_token_file``) is read at each token request, so a rotated
file is picked up; otherwise it comes from the credential store (``workbench secret set NAME
oauth-assertion`` / ``oauth-id-token``), read when the agent is built.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio

from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError
from workbench.core.oauth_grant_options import ClientCredentials, EnterpriseManaged, JWTBearer
from workbench.core.oauth_options import AuthorizationCode, OAuthGrant
from workbench.core.profiles.credential_keys import (
    oauth_assertion_key,
    oauth_id_token_key,
    oauth_idp_client_secret_key,
)
from workbench.core.profiles.oauth_files import read_token_file
from workbench.core.shell_quote import command_line

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = ["profile_grant"]


def _file_reader(path: str, field: str) -> Callable[[], Awaitable[str]]:
    """Reads the token file now, off the event loop (``ConfigError`` when it cannot)."""

    async def read() -> str:
        return await anyio.to_thread.run_sync(read_token_file, path, field)

    return read


async def _stored(store: CredentialStore, key: str, profile_name: str, what: str, kind: str, code: str) -> str:
    value = await store.get(key)
    if value is None or not value.get_secret_value():
        raise ConfigError(
            f"The profile {profile_name!r} takes {what} from the keyring, and none is stored.",
            hint=command_line("workbench", "secret", "set", profile_name, kind)
            + " < FILE (or name a file in the profile)",
            details={"oauth": code},
        )
    return value.get_secret_value()


async def profile_grant(profile: MCPHTTPProfile | MCPSSEProfile, store: CredentialStore) -> OAuthGrant:
    """The grant a profile's ``oauth_grant`` names, with what it needs.

    Raises:
        ConfigError: A token or secret the profile takes from the keyring is not there
            (``assertion-missing``, ``id-token-missing``).
        SecureStorageUnavailableError: The credential store cannot be read.
    """
    grant = profile.oauth_grant
    if grant == "client_credentials":
        return ClientCredentials()
    if grant == "jwt_bearer":
        if profile.oauth_assertion_file:
            read = _file_reader(profile.oauth_assertion_file, "oauth_assertion_file")

            async def assertion(audience: str) -> str:
                return await read()

            return JWTBearer(assertion)
        key = oauth_assertion_key(profile.id)
        return JWTBearer(
            await _stored(store, key, profile.name, "the workload's JWT", "oauth-assertion", "assertion-missing")
        )
    if grant == "enterprise_managed":
        id_token: str | Callable[[], Awaitable[str]]
        if profile.oauth_id_token_file:
            id_token = _file_reader(profile.oauth_id_token_file, "oauth_id_token_file")
        else:
            key = oauth_id_token_key(profile.id)
            id_token = await _stored(store, key, profile.name, "the ID token", "oauth-id-token", "id-token-missing")
        secret = await store.get(oauth_idp_client_secret_key(profile.id))
        return EnterpriseManaged(
            idp_token_endpoint=str(profile.oauth_idp_token_endpoint),
            idp_client_id=str(profile.oauth_idp_client_id),
            id_token=id_token,
            idp_client_secret=secret.get_secret_value() if secret is not None else None,
        )
    return AuthorizationCode(redirect_port=profile.oauth_redirect_port)
