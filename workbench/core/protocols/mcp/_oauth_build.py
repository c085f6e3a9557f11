"""Public OAuth options and saved profiles turned into a loaded ``WorkbenchOAuthProvider``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from workbench.core.auth_steps import StepCallback, StepLog
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError, UnsupportedCapabilityError
from workbench.core.http.browser import BrowserOpener
from workbench.core.http.loopback import reserve_port
from workbench.core.oauth_options import (
    AuthorizationCode,
    DPoP,
    DynamicClient,
    MetadataDocumentClient,
    OAuth,
    OAuthClient,
    PreRegisteredClient,
)
from workbench.core.protocols.mcp._oauth_profile_grant import profile_grant
from workbench.core.protocols.mcp._oauth_provider import WorkbenchOAuthProvider
from workbench.core.protocols.mcp._oauth_sdk import CLIENT_NAME, LOGIN_TIMEOUT
from workbench.core.protocols.mcp.oauth_dpop import DPoPSession, dpop_bound_tokens, dpop_key
from workbench.core.protocols.mcp.oauth_grants import MACHINE_GRANTS, MachineGrant, check_client, profile_key_client
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage, client_secret_key
from workbench.core.shell_quote import command_line
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = ["build_oauth_provider", "oauth_provider", "profile_oauth"]


async def oauth_provider(
    url: str,
    options: OAuth,
    store: CredentialStore,
    *,
    wire: WireRecorder,
    connection_id: str,
    opener: BrowserOpener | None = None,
    on_step: StepCallback | None = None,
    login_hint: str | None = None,
    clock: Callable[[], float] = time.time,
) -> WorkbenchOAuthProvider:
    """The OAuth provider for ``url`` as ``options`` describe it, with its stored tokens loaded.

    The one place a provider is built: for ``MCPAgent(url, oauth=...)`` (through ``DeferredOAuth``)
    and for a saved profile (``build_oauth_provider``). The redirect port is the grant's, else the
    one kept with the registration, else a free port (kept once the registration succeeds).

    Args:
        url: The MCP endpoint.
        options: Client identity, grant, scopes, store key, login timeout.
        store: The credential store (tokens under ``<key>/oauth:tokens``, registration under
            ``<key>/oauth:client``, ``key = options.key_for(url)``).
        wire: The recorder the agent's HTTP client records into (steps name its seqs; tokens and the
            client secret are registered with its redactor).
        connection_id: The agent's connection id.
        opener: Shows the authorization URL; ``None``: no interactive login.
        on_step: Receives each ``AuthStep``.
        login_hint: How to log in, for the "login required" error's hint.
        clock: Seconds since the epoch.

    Raises:
        UnsupportedCapabilityError: A grant this provider does not run.
        SecureStorageUnavailableError: The credential store cannot be read.
    """
    grant = options.grant
    if not isinstance(grant, (AuthorizationCode, *MACHINE_GRANTS)):
        raise UnsupportedCapabilityError(
            f"The OAuth grant {type(grant).__name__} is not supported by this MCP client.",
            hint="use AuthorizationCode()",
            details={"oauth": "unsupported-grant", "grant": type(grant).__name__},
        )
    client = options.client
    check_client(grant, client)
    if isinstance(client, PreRegisteredClient) and client.client_secret:
        wire.redactor.add_secret(client.client_secret)
    storage = CredentialTokenStorage(store, options.key_for(url), clock=clock, redactor=wire.redactor)
    state = await storage.load()
    port = (grant.redirect_port if isinstance(grant, AuthorizationCode) else None) or state.redirect_port
    if port is None and state.client is not None and state.client.redirect_uris:
        port = state.client.redirect_uris[0].port
    state.redirect_port = port or reserve_port()
    client_name = client.client_name if isinstance(client, DynamicClient) else None
    steps = StepLog(connection_id, wire, on_step)
    provider = WorkbenchOAuthProvider(
        url,
        storage,
        redirect_port=state.redirect_port,
        steps=steps,
        opener=opener,
        client_name=client_name or CLIENT_NAME,
        scopes=list(options.scopes),
        login_timeout=options.login_timeout,
        login_hint=login_hint,
        clock=clock,
        client=client,
    )
    if isinstance(grant, MACHINE_GRANTS):
        provider.machine = MachineGrant(grant, client, steps=steps, redactor=wire.redactor, clock=clock)
    if options.dpop is not None:
        key_prefix = options.key_for(url)
        bound = await dpop_bound_tokens(store, key_prefix, state.tokens.access_token if state.tokens else None)
        key = await dpop_key(options.dpop, store, key_prefix)
        provider.dpop = DPoPSession(key, steps, bound, store=store, key_prefix=key_prefix)
    return provider


async def build_oauth_provider(
    profile: MCPHTTPProfile | MCPSSEProfile,
    store: CredentialStore,
    *,
    wire: WireRecorder,
    connection_id: str,
    opener: BrowserOpener | None = None,
    on_step: StepCallback | None = None,
    login_timeout: float = LOGIN_TIMEOUT,
    login_hint: str | None = None,
    clock: Callable[[], float] = time.time,
) -> WorkbenchOAuthProvider:
    """The OAuth provider for an ``auth="oauth"`` profile, with its stored tokens loaded (see ``oauth_provider``).

    Args:
        profile: The HTTP/SSE MCP profile (its OAuth settings: ``profile_oauth``).
        store: The credential store (tokens under ``<profile id>/oauth:tokens``, registration under
            ``<profile id>/oauth:client``, a pre-registered client's secret under
            ``<profile id>/oauth:client-secret``).
        wire: The recorder the agent's HTTP client records into.
        connection_id: The agent's connection id.
        opener: Shows the authorization URL; ``None``: no interactive login.
        on_step: Receives each ``AuthStep``.
        login_timeout: Seconds to wait for the browser to come back.
        login_hint: How to log in, for the "login required" error's hint.
        clock: Seconds since the epoch.

    Raises:
        ConfigError: A pre-registered client whose secret is not in the store.
        SecureStorageUnavailableError: The credential store cannot be read.
    """
    options = await profile_oauth(profile, store, login_timeout=login_timeout)
    return await oauth_provider(
        profile.url,
        options,
        store,
        wire=wire,
        connection_id=connection_id,
        opener=opener,
        on_step=on_step,
        login_hint=login_hint,
        clock=clock,
    )


async def profile_oauth(
    profile: MCPHTTPProfile | MCPSSEProfile, store: CredentialStore, *, login_timeout: float = LOGIN_TIMEOUT
) -> OAuth:
    """The ``OAuth`` options a saved profile's settings describe (a pre-registered secret read from ``store``).

    Raises:
        ConfigError: A pre-registered client whose secret is not in the store, a grant's token or
            secret the profile takes from the keyring not there (``profile_grant``).
    """
    mode = profile.oauth_client
    client: OAuthClient
    if mode == "pre-registered":
        method = profile.oauth_token_auth
        secret = None
        if method != "none":
            value = await store.get(client_secret_key(profile.id))
            if value is None:
                raise ConfigError(
                    f"The profile {profile.name!r} names a pre-registered OAuth client, and its client secret "
                    "is not in the keyring.",
                    hint=command_line("workbench", "profile", "edit", profile.name, "--oauth-client-secret-from-stdin"),
                    details={"oauth": "client-secret-missing"},
                )
            secret = value.get_secret_value()
        client = PreRegisteredClient(str(profile.oauth_client_id), secret, token_endpoint_auth_method=method)
    elif mode == "metadata-document":
        client = MetadataDocumentClient(str(profile.oauth_client_metadata_url))
    elif mode == "private-key-jwt":
        client = await profile_key_client(profile, store)
    else:
        client = DynamicClient(client_name=profile.oauth_client_name)
    grant = await profile_grant(profile, store)
    return OAuth(
        client=client,
        grant=grant,
        scopes=tuple(profile.oauth_scopes),
        store_key=profile.id,
        login_timeout=login_timeout,
        dpop=DPoP() if profile.oauth_dpop else None,
    )
