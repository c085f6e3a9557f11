"""OAuth logout: RFC 7009 revocation where the authorization server offers it, then forget."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx2
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from workbench.core.auth_steps import (
    AuthCheck,
    AuthFailure,
    AuthStage,
    FailureCode,
    StepCallback,
    StepLog,
    StepStatus,
)
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError
from workbench.core.http.oauth_endpoints import is_secure_endpoint
from workbench.core.oauth.results import LoginResult, LogoutResult
from workbench.core.oauth_options import PreRegisteredClient
from workbench.core.protocols.mcp._oauth_checks import https_check
from workbench.core.protocols.mcp._oauth_sdk import pre_registered_info
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
from workbench.core.protocols.mcp.tap import HTTPWireTransport
from workbench.core.safe_text import neutralise_line
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = ["LoginResult", "LogoutResult", "logout"]


async def logout(
    profile: MCPHTTPProfile | MCPSSEProfile,
    store: CredentialStore,
    *,
    wire: WireRecorder | None = None,
    on_step: StepCallback | None = None,
    timeout: float = 30.0,
    connection_id: str | None = None,
) -> LogoutResult:
    """Revoke the profile's tokens (RFC 7009, when the server has a revocation endpoint) and forget them.

    The tokens and the registration are forgotten even when revocation fails (the step says so).
    ``connection_id`` names the wire records and steps (a fresh ``oauth-logout-…`` id by default). A
    pre-registered client authenticates with its secret from the keyring (it is never stored with the tokens).

    Raises:
        SecureStorageUnavailableError: The credential store cannot be used.
    """
    client: OAuthClientInformationFull | None = None
    if profile.oauth_client == "pre-registered":
        from workbench.core.protocols.mcp._oauth_build import profile_oauth

        try:
            options = await profile_oauth(profile, store)
        except ConfigError:
            options = None  # its secret is gone: revocation is skipped, saying why
        if options is not None and isinstance(options.client, PreRegisteredClient):
            client = pre_registered_info(options.client, profile.oauth_redirect_port or 0)
    return await revoke_and_forget(
        profile.id, store, client=client, wire=wire, on_step=on_step, timeout=timeout, connection_id=connection_id
    )


async def revoke_and_forget(
    key: str,
    store: CredentialStore,
    *,
    client: OAuthClientInformationFull | None = None,
    wire: WireRecorder | None = None,
    on_step: StepCallback | None = None,
    timeout: float = 30.0,
    connection_id: str | None = None,
) -> LogoutResult:
    """Revoke the tokens stored under ``key`` where the authorization server can, then forget tokens and registration.

    Args:
        key: The credential-store prefix of the login (a profile id, or ``OAuth.key_for(url)``).
        store: The credential store.
        client: The client to authenticate as (a pre-registered one); default: the stored registration.
        wire: Records the revocation requests (a fresh recorder if omitted).
        on_step: Receives the ``revoke`` step.
        timeout: Seconds for each revocation request.
        connection_id: Names the wire records and steps (a fresh ``oauth-logout-…`` id by default).
    """
    wire = wire if wire is not None else WireRecorder()
    connection_id = connection_id or f"oauth-logout-{uuid.uuid4().hex[:8]}"
    storage = CredentialTokenStorage(store, key, redactor=wire.redactor)
    state = await storage.load()
    steps = StepLog(connection_id, wire, on_step)
    revoked = False
    tokens, asm = state.tokens, state.authorization_server
    client = client if client is not None else state.client
    if client is not None and client.client_secret:
        wire.redactor.add_secret(client.client_secret)
    endpoint = str(asm.revocation_endpoint) if asm is not None and asm.revocation_endpoint is not None else None
    if tokens is not None and client is not None and endpoint is not None and not is_secure_endpoint(endpoint):
        detail = f"{endpoint} is plain http off this machine: nothing was sent; the tokens are only forgotten here"
        failure = AuthFailure(
            FailureCode.INSECURE_ENDPOINT,
            neutralise_line(detail),
            "the authorization server must publish an https revocation endpoint",
        )
        steps.step(
            AuthStage.REVOKE,
            "failed",
            neutralise_line(detail),
            checks=[https_check(endpoint, "revocation endpoint")],
            failure=failure,
        )
    elif tokens is not None and client is not None and endpoint is not None:
        revoked = await _revoke(endpoint, tokens, client, wire, steps, timeout)
    elif tokens is not None:
        if asm is None:
            why = "no authorization-server metadata is stored, so no revocation endpoint is known"
        elif endpoint is None:
            why = "the authorization server advertises no revocation_endpoint"
        else:
            why = "no client registration is stored to authenticate the revocation"
        steps.step(AuthStage.REVOKE, "skipped", f"{why}; the tokens are only forgotten here")
    forgotten = await storage.forget()
    return LogoutResult(revoked, forgotten, tuple(steps.steps))


async def _revoke(
    endpoint: str, tokens: OAuthToken, client: Any, wire: WireRecorder, steps: StepLog, timeout: float
) -> bool:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    ok = True
    statuses: list[str] = []
    found = [https_check(endpoint, "revocation endpoint")]
    to_revoke = [(tokens.refresh_token, "refresh_token"), (tokens.access_token, "access_token")]
    transport = HTTPWireTransport(wire, steps.connection_id)
    async with httpx2.AsyncClient(transport=transport, timeout=timeout) as http:
        with steps.capture() as seqs:
            for token, hint in to_revoke:
                if not token:
                    continue
                data = {"token": token, "token_type_hint": hint, "client_id": client.client_id}
                auth: tuple[str, str] | None = None
                if client.token_endpoint_auth_method == "client_secret_basic" and client.client_secret:
                    auth = (client.client_id, client.client_secret)
                elif client.client_secret:
                    data["client_secret"] = client.client_secret
                try:
                    response = await http.post(
                        endpoint, data=data, headers=headers, auth=auth or httpx2.USE_CLIENT_DEFAULT
                    )
                except httpx2.HTTPError as exc:
                    ok = False
                    statuses.append(f"{hint}: {type(exc).__name__}")
                    found.append(AuthCheck(hint, "failed", f"not sent: {type(exc).__name__}"))
                    continue
                ok = ok and response.status_code == 200
                statuses.append(f"{hint}: HTTP {response.status_code}")
                done = response.status_code == 200
                found.append(AuthCheck(hint, "passed" if done else "failed", f"HTTP {response.status_code} (RFC 7009)"))
    status: StepStatus = "ok" if ok else "failed"
    failure = None
    if not ok:
        failure = AuthFailure(
            FailureCode.HTTP_ERROR,
            f"the revocation endpoint {endpoint} did not confirm every revocation ({', '.join(statuses)})",
            "nothing to change here: the tokens are forgotten on this machine; the authorization server may honour "
            "them until they expire",
        )
    steps.step(
        AuthStage.REVOKE, status, f"{endpoint} ({', '.join(statuses)})", tuple(seqs), checks=found, failure=failure
    )
    return ok
