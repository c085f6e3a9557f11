"""The SDK's OAuth pieces fitted to the workbench: early-refresh context, extra scopes, quiet login signals."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcp.client.auth import OAuthFlowError
from mcp.client.auth.oauth2 import OAuthContext
from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl, PrivateAttr

from workbench.core.auth_steps import AuthStage
from workbench.core.errors import WorkbenchError
from workbench.core.http.loopback import redirect_uri
from workbench.core.oauth_options import PreRegisteredClient
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT

__all__ = [
    "CLIENT_NAME",
    "ENDPOINT_OF",
    "LOGIN_TIMEOUT",
    "REFRESH_MARGIN_MAX",
    "EarlyRefreshContext",
    "ScopedClientMetadata",
    "metadata_endpoints",
    "pre_registered_info",
]

CLIENT_NAME = "Agent Workbench"
"""The client name registered with an authorization server unless the profile names another."""
LOGIN_TIMEOUT = DEFAULT_LOGIN_TIMEOUT
"""Seconds a person gets to finish a login in the browser (the core's one default, by this adapter's name)."""
REFRESH_MARGIN_MAX = 60.0
"""Refresh this many seconds before expiry at most (10 % of the token's lifetime when that is less)."""


class _DropOwnLoginSignals(logging.Filter):
    """Keep the SDK's "OAuth flow error" traceback off ERROR: the error reaches the user typed.

    ``AuthRequiredError("login required")`` from the redirect handler is how a connection without an
    opener says "log in first": dropped. An SDK ``OAuthFlowError`` (metadata naming another issuer, a
    refused token request) becomes ``AuthRequiredError`` with the SDK's words: its traceback is kept
    at DEBUG for whoever reads the debug log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, WorkbenchError):
            return False
        if isinstance(exc, OAuthFlowError) and record.levelno > logging.DEBUG:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


logging.getLogger("mcp.client.auth.oauth2").addFilter(_DropOwnLoginSignals())


_ENDPOINT_NAMES = ("authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint")
ENDPOINT_OF = {
    AuthStage.DISCOVERY: "authorization_server",
    AuthStage.REGISTRATION: "registration_endpoint",
    AuthStage.TOKEN: "token_endpoint",
    AuthStage.REFRESH: "token_endpoint",
}
"""The metadata field naming the endpoint each stage's request goes to (for the https check)."""


def metadata_endpoints(metadata: dict[str, Any]) -> dict[str, str]:
    """The endpoints an authorization server's metadata names, by field."""
    return {name: str(metadata[name]) for name in _ENDPOINT_NAMES if metadata.get(name)}


@dataclass
class EarlyRefreshContext(OAuthContext):
    """The SDK's context with a clock and an early refresh (it uses ``time.time`` and refreshes late)."""

    clock: Callable[[], float] = time.time

    def update_token_expiry(self, token: OAuthToken) -> None:
        self.token_expiry_time = self.clock() + token.expires_in if token.expires_in is not None else None

    def is_token_valid(self) -> bool:
        tokens = self.current_tokens
        if tokens is None or not tokens.access_token:
            return False
        if self.token_expiry_time is None:
            return True
        lifetime = tokens.expires_in or 0
        margin = min(REFRESH_MARGIN_MAX, 0.1 * lifetime) if lifetime > 0 else 0.0
        return self.clock() < self.token_expiry_time - margin


class ScopedClientMetadata(OAuthClientMetadata):
    """Client metadata whose scope always includes the profile's extra scopes.

    The SDK replaces the requested scope with what the server challenges for (or advertises) on
    every 401, before registering and authorizing; the profile's scopes are added to it there.
    """

    _extra_scopes: str | None = PrivateAttr(default=None)

    def with_extra_scopes(self, scopes: str | None) -> ScopedClientMetadata:
        """Set the scopes always asked for (and add them to the current scope); returns self."""
        self._extra_scopes = scopes
        self.scope = self.scope
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scope":
            value = union_scopes(value, self._extra_scopes)
        super().__setattr__(name, value)


def pre_registered_info(client: PreRegisteredClient, redirect_port: int) -> OAuthClientInformationFull:
    """The SDK's registration record for a client registered out of band."""
    return OAuthClientInformationFull(
        client_id=client.client_id,
        client_secret=client.client_secret,
        redirect_uris=[AnyUrl(redirect_uri(redirect_port))],
        token_endpoint_auth_method=client.auth_method,
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
