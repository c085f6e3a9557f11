"""Log in to an MCP server's OAuth and out again by URL, without opening an MCP session (``workbench.agents.login``).

``login`` runs the same provider a connection runs (discovery, registration or the client given,
the grant, the checks, each step on record), driven by one probe: a JSON-RPC ``ping`` POSTed to the
endpoint through the credential guard and the wire tap. A protected server answers it with the 401
that starts the flow; the retry with the new token creates no session (a ping is not ``initialize``).
``logout`` revokes the stored tokens (RFC 7009) where the authorization server can, then forgets them.
"""

from __future__ import annotations

import json
import uuid

import httpx2

from workbench.core.auth_steps import StepCallback, StepCollector
from workbench.core.credentials import CredentialStore, KeyringCredentialStore
from workbench.core.errors import AuthRequiredError, UnreachableError
from workbench.core.http.browser import BrowserOpener, system_browser_opener
from workbench.core.http.httpx2_transport import Httpx2CredentialGuard
from workbench.core.http.origins import CredentialBoundary
from workbench.core.oauth_options import OAuth, PreRegisteredClient
from workbench.core.protocols.mcp._oauth_build import oauth_provider
from workbench.core.protocols.mcp._oauth_logout import LoginResult, LogoutResult, revoke_and_forget
from workbench.core.protocols.mcp._oauth_sdk import pre_registered_info
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
from workbench.core.protocols.mcp.tap import HTTPWireTransport
from workbench.core.wire.recorder import WireRecorder

__all__ = ["login", "logout"]

PROBE = json.dumps({"jsonrpc": "2.0", "id": "workbench-login", "method": "ping"})
"""What ``login`` sends to the MCP endpoint: harmless whatever the answer, and no session is opened."""


async def login(
    url: str,
    *,
    oauth: OAuth | None = None,
    credentials: CredentialStore | None = None,
    open_browser: BrowserOpener | None = system_browser_opener,
    on_step: StepCallback | None = None,
    wire: WireRecorder | None = None,
    headers: dict[str, str] | None = None,
    fresh: bool = False,
    timeout: float = 30.0,
) -> LoginResult:
    """Log in to the MCP server at ``url`` and store the tokens, without opening an MCP session.

    Stored tokens that are still good are kept (no step); expired ones with a refresh token are
    refreshed (a ``refresh`` step); otherwise the login runs: discovery, registration (or the client
    given), the grant (the browser, or a grant without one), the token, each an ``AuthStep``.

    Example::

        result = await login("https://mcp.example/mcp", oauth=OAuth(scopes=("read",)),
                             credentials=MemoryCredentialStore(), on_step=print)
        async with MCPAgent("https://mcp.example/mcp", oauth=OAuth(scopes=("read",)), credentials=store): ...

    Args:
        url: The MCP endpoint (Streamable HTTP or legacy SSE).
        oauth: Client, grant, scopes, store key (default ``OAuth()``: dynamic registration, browser login).
            Give an ``MCPAgent`` the same options and store to use the tokens.
        credentials: Where tokens and registration are stored (default: the OS keyring).
        open_browser: Shows the authorization URL (default: the system browser; ``None``: only stored
            tokens, a refresh, or a grant without a browser).
        on_step: Receives each ``AuthStep`` as it finishes.
        wire: Records every exchange (a fresh recorder if omitted); steps name its records.
        headers: Other headers the server needs (their values are guarded like the profile's).
        fresh: Forget stored tokens first (the registration stays), so a new login runs.
        timeout: Seconds for each HTTP exchange (the person in the browser gets ``oauth.login_timeout``).

    Returns:
        The steps, when the access token expires, the granted scope and the redirect port.

    Raises:
        OAuthRefusedError: A step's check failed (``details["step"]``, ``details["oauth"]``); nothing stored.
        AuthRequiredError: A login is needed and ``open_browser`` is ``None``, the authorization server
            refused it, or the server did not ask for one (``details["oauth"] == "not-required"``).
        RequestTimeoutError: Nobody came back from the browser in time.
        UnreachableError: The server could not be reached.
    """
    options = oauth if oauth is not None else OAuth()
    store = credentials if credentials is not None else KeyringCredentialStore()
    wire = wire if wire is not None else WireRecorder()
    connection_id = f"oauth-login-{uuid.uuid4().hex[:8]}"
    if fresh:
        await CredentialTokenStorage(store, options.key_for(url)).forget_tokens()
    collect = StepCollector(on_step)
    provider = await oauth_provider(
        url, options, store, wire=wire, connection_id=connection_id, opener=open_browser, on_step=collect
    )
    boundary = CredentialBoundary([url], list((headers or {}).values()), redactor=wire.redactor)
    tap = HTTPWireTransport(wire, connection_id, Httpx2CredentialGuard(boundary))
    probe_headers = {**(headers or {}), "Content-Type": "application/json"}
    probe_headers["Accept"] = "application/json, text/event-stream"
    try:
        async with (
            httpx2.AsyncClient(transport=tap, auth=provider, timeout=timeout) as http,
            http.stream("POST", url, content=PROBE, headers=probe_headers) as response,
        ):
            status = response.status_code  # the body is not read: an event stream is closed at once
    except httpx2.TransportError as exc:
        raise UnreachableError(
            f"{url} could not be reached for the OAuth login ({type(exc).__name__}).",
            hint="check the URL and that the server is running",
        ) from None
    state = await provider.storage.load()
    result = state.login_result(
        collect.steps,
        f"{url} answered without asking for a login (HTTP {status}); nothing was stored.",
        hint="this server may not need OAuth",
    )
    if status == 401:
        raise AuthRequiredError(
            f"{url} refused the token it was just given (HTTP 401).",
            hint="see the auth steps and the wire log; the authorization server may issue tokens for another resource",
            details={"oauth": "token-refused"},
        )
    return result


async def logout(
    url: str,
    *,
    oauth: OAuth | None = None,
    credentials: CredentialStore | None = None,
    on_step: StepCallback | None = None,
    wire: WireRecorder | None = None,
    timeout: float = 30.0,
) -> LogoutResult:
    """Revoke the tokens stored for ``url`` (RFC 7009, where the authorization server offers it) and forget them.

    Tokens and registration are forgotten even when the revocation fails; the ``revoke`` step says
    what happened (skipped when the server advertises no ``revocation_endpoint``).

    Args:
        url: The MCP endpoint logged in to.
        oauth: The options of the login (their ``store_key`` and client; default ``OAuth()``). A
            pre-registered client authenticates the revocation with its secret.
        credentials: The store the tokens are in (default: the OS keyring).
        on_step: Receives the ``revoke`` step.
        wire: Records the revocation requests (a fresh recorder if omitted).
        timeout: Seconds for each revocation request.

    Returns:
        Whether every token sent was revoked, how many stored entries were forgotten, and the steps.
    """
    options = oauth if oauth is not None else OAuth()
    client = pre_registered_info(options.client, 0) if isinstance(options.client, PreRegisteredClient) else None
    return await revoke_and_forget(
        options.key_for(url),
        credentials if credentials is not None else KeyringCredentialStore(),
        client=client,
        wire=wire,
        on_step=on_step,
        timeout=timeout,
    )
