"""OAuth tokens and client registration of one profile, kept in the credential store.

Two entries per profile (keys from ``profile_secrets.oauth_keys``: ``<profile id>/<kind>``)::

    <id>/oauth:tokens   {"token": {access_token, refresh_token, expires_in, scope, ...}, "expires_at": 1763721234.5}
    <id>/oauth:client   {"client": {client_id, client_secret, redirect_uris, ...}, "redirect_port": 38123,
                         "authorization_server": {issuer, token_endpoint, revocation_endpoint, ...},
                         "protected_resource": {resource, authorization_servers, ...}}

``expires_at`` is absolute (the SDK's ``expires_in`` is relative to when the token was issued), so a
new session knows an old token has expired and refreshes it instead of sending it and logging in
again. The redirect port is kept with the registration because the registered ``redirect_uris``
name it. The discovered metadata is kept so a new session can refresh (token endpoint) and logout
can revoke (revocation endpoint) without discovering first.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken, ProtectedResourceMetadata
from pydantic import ValidationError

from workbench.core.auth_steps import AuthStep
from workbench.core.credentials import CredentialStore
from workbench.core.errors import AuthRequiredError
from workbench.core.oauth.results import LoginResult
from workbench.core.profiles.credential_keys import oauth_client_secret_key, oauth_keys
from workbench.core.wire.redaction import Redactor

MetadataSource = Callable[[], tuple[OAuthMetadata | None, ProtectedResourceMetadata | None]]


def tokens_key(profile_id: str) -> str:
    """The credential-store key of a profile's OAuth tokens."""
    return oauth_keys(profile_id)[0]


def client_secret_key(profile_id: str) -> str:
    """The credential-store key of a profile's pre-registered OAuth client secret."""
    return oauth_client_secret_key(profile_id)


def client_key(profile_id: str) -> str:
    """The credential-store key of a profile's OAuth client registration."""
    return oauth_keys(profile_id)[1]


@dataclass(slots=True)
class StoredOAuth:
    """What the store holds for one profile (every part may be missing).

    Attributes:
        tokens: The last tokens issued.
        expires_at: When the access token expires (seconds since the epoch), if the server said.
        client: The dynamic client registration.
        redirect_port: The loopback port registered in the client's redirect URI.
        authorization_server: The authorization server's metadata, as discovered.
        protected_resource: The MCP server's protected-resource metadata, as discovered.
    """

    tokens: OAuthToken | None = None
    expires_at: float | None = None
    client: OAuthClientInformationFull | None = None
    redirect_port: int | None = None
    authorization_server: OAuthMetadata | None = None
    protected_resource: ProtectedResourceMetadata | None = None

    def login_result(self, steps: Sequence[AuthStep], not_stored: str, hint: str) -> LoginResult:
        """What a login that stored this state did.

        Args:
            steps: The login's steps, in order.
            not_stored: What failed when no tokens were stored (the server let the client in without a login).
            hint: What to do about it.

        Raises:
            AuthRequiredError: No tokens are stored (``details["oauth"] == "not-required"``).
        """
        if self.tokens is None:
            raise AuthRequiredError(not_stored, hint=hint, details={"oauth": "not-required"})
        return LoginResult(tuple(steps), self.expires_at, self.tokens.scope, self.redirect_port or 0)


def _load_json(raw: str | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


# Only what a later session needs of the metadata (keyring entries are small on some systems:
# Windows Credential Manager holds 2560 bytes per entry).
_KEPT_AS_FIELDS = {
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "registration_endpoint",
    "revocation_endpoint",
    "scopes_supported",
    "code_challenge_methods_supported",
    "authorization_response_iss_parameter_supported",
    "client_id_metadata_document_supported",
}
_KEPT_PRM_FIELDS = {"resource", "authorization_servers", "scopes_supported"}


def _read_metadata(state: StoredOAuth, data: dict[str, Any]) -> None:
    """Take the discovered metadata an entry holds (unreadable metadata is treated as missing)."""
    asm, prm = data.get("authorization_server"), data.get("protected_resource")
    if not asm and not prm:
        return
    try:
        state.authorization_server = OAuthMetadata.model_validate(asm) if asm else None
        state.protected_resource = ProtectedResourceMetadata.model_validate(prm) if prm else None
    except ValidationError:
        state.authorization_server = state.protected_resource = None


def _dump(model: Any, keep: set[str] | None = None) -> Any:
    return None if model is None else model.model_dump(mode="json", exclude_none=True, include=keep)


class CredentialTokenStorage:
    """The SDK's ``TokenStorage`` backed by a ``CredentialStore`` (the OS keyring in the app).

    Args:
        store: Where the values live.
        profile_id: Whose tokens these are.
        clock: Seconds since the epoch (``time.time``; tests move it forward).
        redactor: Told every token and client secret, so the wire log never shows them.
    """

    def __init__(
        self,
        store: CredentialStore,
        profile_id: str,
        *,
        clock: Callable[[], float] = time.time,
        redactor: Redactor | None = None,
    ) -> None:
        self._store = store
        self._profile_id = profile_id
        self._clock = clock
        self._redactor = redactor
        self.state = StoredOAuth()
        self.metadata_source: MetadataSource | None = None
        """Set by the provider: the metadata discovered so far, saved with the registration."""

    async def load(self) -> StoredOAuth:
        """Read both entries (unreadable parts are treated as missing) and return them."""
        state = StoredOAuth()
        tokens = await self._store.get(tokens_key(self._profile_id))
        data = _load_json(tokens.get_secret_value() if tokens is not None else None)
        if data is not None:
            try:
                state.tokens = OAuthToken.model_validate(data.get("token"))
                expires_at = data.get("expires_at")
                state.expires_at = float(expires_at) if isinstance(expires_at, int | float) else None
            except ValidationError:
                state.tokens = None
            _read_metadata(state, data)
        client = await self._store.get(client_key(self._profile_id))
        data = _load_json(client.get_secret_value() if client is not None else None)
        if data is not None:
            try:
                state.client = OAuthClientInformationFull.model_validate(data.get("client"))
            except ValidationError:
                state.client = None
            port = data.get("redirect_port")
            state.redirect_port = port if isinstance(port, int) else None
            _read_metadata(state, data)
        if state.redirect_port is None:
            state.redirect_port = self.state.redirect_port  # chosen for a registration not made yet
        self.state = state
        self._learn(state.tokens, state.client)
        return state

    # ---- the SDK's TokenStorage protocol ------------------------------------------------------

    async def get_tokens(self) -> OAuthToken | None:
        """The stored tokens (as last loaded or set)."""
        return self.state.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        """Store new tokens with their absolute expiry (and the metadata, if it changed)."""
        expires_at = self._clock() + tokens.expires_in if tokens.expires_in is not None else None
        self.state.tokens, self.state.expires_at = tokens, expires_at
        self._learn(tokens, None)
        value: dict[str, Any] = {"token": _dump(tokens), "expires_at": expires_at}
        changed = self._take_metadata()
        if self.state.client is None:
            # A client that is never stored (pre-registered, client credentials): the metadata stays
            # with the tokens, so a later session refreshes at the discovered token endpoint, not at
            # the server's root.
            value.update(self._metadata())
        await self._store.set(tokens_key(self._profile_id), json.dumps(value))
        if self.state.client is not None and changed:
            await self._save_client()

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        """The stored client registration."""
        return self.state.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        """Store a new client registration with the redirect port and the metadata discovered so far."""
        self.state.client = client_info
        self._learn(None, client_info)
        self._take_metadata()
        await self._save_client()

    # ---- beyond the protocol ------------------------------------------------------------------

    async def forget_tokens(self) -> bool:
        """Forget the tokens only (the registration stays); returns whether any were stored."""
        self.state.tokens = None
        self.state.expires_at = None
        return await self._store.delete(tokens_key(self._profile_id))

    async def forget(self) -> int:
        """Forget tokens and registration; returns how many entries were stored."""
        self.state = StoredOAuth()
        gone = 0
        for key in oauth_keys(self._profile_id):
            gone += int(await self._store.delete(key))
        return gone

    def _take_metadata(self) -> bool:
        """Copy the provider's discovered metadata into the state; returns whether it changed."""
        if self.metadata_source is None:
            return False
        asm, prm = self.metadata_source()
        changed = False
        if asm is not None and asm != self.state.authorization_server:
            self.state.authorization_server, changed = asm, True
        if prm is not None and prm != self.state.protected_resource:
            self.state.protected_resource, changed = prm, True
        return changed

    def _metadata(self) -> dict[str, Any]:
        return {
            "authorization_server": _dump(self.state.authorization_server, _KEPT_AS_FIELDS),
            "protected_resource": _dump(self.state.protected_resource, _KEPT_PRM_FIELDS),
        }

    async def _save_client(self) -> None:
        state = self.state
        value = {"client": _dump(state.client), "redirect_port": state.redirect_port, **self._metadata()}
        await self._store.set(client_key(self._profile_id), json.dumps(value))

    def _learn(self, tokens: OAuthToken | None, client: OAuthClientInformationFull | None) -> None:
        if self._redactor is None:
            return
        for value in (
            tokens.access_token if tokens else None,
            tokens.refresh_token if tokens else None,
            client.client_secret if client else None,
        ):
            if value:
                self._redactor.add_secret(value)
