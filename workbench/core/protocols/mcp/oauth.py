"""OAuth 2.1 for MCP servers over HTTP: login, token reuse and refresh, logout, each step on record.

Built on the SDK's ``OAuthClientProvider`` (an ``httpx2.Auth`` attached to the agent's HTTP
client, so every OAuth request goes through the wire tap). On a 401 it discovers the protected
resource metadata (RFC 9728) and the authorization server's metadata (RFC 8414), registers a client
(RFC 7591), sends the user's browser to the authorization endpoint with PKCE (S256) and receives the
redirect on a loopback port, exchanges the code, and retries. This module adds what a desktop
workbench needs on top:

- tokens and registration in the ``CredentialStore`` with an absolute expiry
  (``CredentialTokenStorage``), refreshed shortly *before* they expire, also after a restart;
- one loopback redirect port per profile, kept with the registration (the registered
  ``redirect_uris`` name it);
- a pluggable opener (``BrowserOpener``): the system browser, a GUI's, or an HTTP client that
  follows the redirects for authorization servers that approve without a person
  (``follow_redirects_opener``); without one, a login that is needed fails with
  ``AuthRequiredError`` (``details["oauth"] == "login-required"``) instead of opening anything;
- ``AuthStep`` events (discovery, registration, authorize, token, refresh, revoke) naming the wire
  records of each step;
- ``login`` (forget the tokens, connect, log in) and ``logout`` (RFC 7009 revocation when the
  authorization server offers it, then forget tokens and registration).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.client.auth.oauth2 import OAuthContext
from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyUrl, PrivateAttr

from workbench.core.auth_steps import (
    AuthCheck,
    AuthFailure,
    AuthStage,
    AuthStep,
    FailureCode,
    StepCallback,
    StepLog,
    StepStatus,
)
from workbench.core.credentials import CredentialStore, KeyringCredentialStore
from workbench.core.errors import (
    AuthRequiredError,
    ConfigError,
    OAuthRefusedError,
    UnsupportedCapabilityError,
    WorkbenchError,
)
from workbench.core.events import EventBus
from workbench.core.http.browser import BrowserOpener, follow_redirects_opener, system_browser_opener
from workbench.core.http.httpx2_transport import Httpx2CredentialGuard
from workbench.core.http.loopback import LoopbackReceiver, free_port, redirect_uri
from workbench.core.http.oauth_endpoints import InsecureEndpointError, check_oauth_endpoint
from workbench.core.http.origins import OAUTH_ENDPOINT, CredentialBoundary, origin_of
from workbench.core.oauth_grant_options import ClientCredentials
from workbench.core.oauth_options import (
    AuthorizationCode,
    DPoP,
    DynamicClient,
    MetadataDocumentClient,
    OAuth,
    OAuthClient,
    OAuthGrant,
    PreRegisteredClient,
)
from workbench.core.protocols.mcp import _oauth_checks as checks
from workbench.core.protocols.mcp._oauth_logout import LoginResult, LogoutResult, logout
from workbench.core.protocols.mcp._oauth_steps import classify, describe_exchange, failure_of
from workbench.core.protocols.mcp._sdk_compat import HookedOAuthClientProvider
from workbench.core.protocols.mcp.oauth_grants import (
    MACHINE_GRANTS,
    DPoPSession,
    MachineGrant,
    check_client,
    dpop_bound_tokens,
    dpop_key,
    profile_key_client,
)
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage, client_secret_key
from workbench.core.safe_text import neutralise_line
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:
    from workbench.core.profiles import MCPHTTPProfile, MCPSSEProfile

__all__ = [
    "AuthStage",
    "AuthStep",
    "BrowserOpener",
    "DeferredOAuth",
    "LoginResult",
    "LogoutResult",
    "WorkbenchOAuthProvider",
    "build_oauth_provider",
    "follow_redirects_opener",
    "logout",
    "oauth_provider",
    "system_browser_opener",
]

log = logging.getLogger(__name__)

CLIENT_NAME = "Agent Workbench"
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


# --------------------------------------------------------------------------- provider

_ENDPOINT_NAMES = ("authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint")
_ENDPOINT_OF = {
    AuthStage.DISCOVERY: "authorization_server",
    AuthStage.REGISTRATION: "registration_endpoint",
    AuthStage.TOKEN: "token_endpoint",
    AuthStage.REFRESH: "token_endpoint",
}


def _endpoints(metadata: dict[str, Any]) -> dict[str, str]:
    """The endpoints an authorization server's metadata names, by field."""
    return {name: str(metadata[name]) for name in _ENDPOINT_NAMES if metadata.get(name)}


@dataclass
class _Context(OAuthContext):
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


class _ScopedClientMetadata(OAuthClientMetadata):
    """Client metadata whose scope always includes the profile's extra scopes.

    The SDK replaces the requested scope with what the server challenges for (or advertises) on
    every 401, before registering and authorizing; the profile's scopes are added to it there.
    """

    _extra_scopes: str | None = PrivateAttr(default=None)

    def with_extra_scopes(self, scopes: str | None) -> _ScopedClientMetadata:
        """Set the scopes always asked for (and add them to the current scope); returns self."""
        self._extra_scopes = scopes
        self.scope = self.scope
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scope":
            value = union_scopes(value, self._extra_scopes)
        super().__setattr__(name, value)


class WorkbenchOAuthProvider(HookedOAuthClientProvider):
    """The SDK's OAuth provider with stored expiry, early refresh, a loopback receiver and auth steps.

    Build it with ``build_oauth_provider``; attach it with ``MCPAgent(..., auth=provider)``.

    Args:
        server_url: The MCP endpoint.
        storage: Tokens and registration in the credential store (already ``load()``-ed).
        redirect_port: The loopback port of the redirect URI.
        steps: Where auth steps are collected and emitted.
        opener: Shows the authorization URL; ``None`` means no interactive login (a needed login
            raises ``AuthRequiredError`` with ``details["oauth"] == "login-required"``).
        client_name: Name registered with the authorization server.
        scopes: Extra scopes to ask for.
        login_timeout: Seconds to wait for the redirect after opening the URL.
        login_hint: How the user logs in, for error hints (``workbench login NAME``).
        clock: Seconds since the epoch.
        client: Who the client is (``DynamicClient``: register; ``PreRegisteredClient``: its id and
            secret, never registered or stored; ``MetadataDocumentClient``: its CIMD URL as client id
            when the authorization server supports it).
    """

    def __init__(
        self,
        server_url: str,
        storage: CredentialTokenStorage,
        *,
        redirect_port: int,
        steps: StepLog,
        opener: BrowserOpener | None,
        client_name: str = CLIENT_NAME,
        scopes: list[str] | None = None,
        login_timeout: float = LOGIN_TIMEOUT,
        login_hint: str | None = None,
        clock: Callable[[], float] = time.time,
        client: OAuthClient | None = None,
    ) -> None:
        metadata = _ScopedClientMetadata(
            client_name=client_name,
            redirect_uris=[AnyUrl(redirect_uri(redirect_port))],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ).with_extra_scopes(" ".join(scopes) if scopes else None)
        super().__init__(
            server_url, metadata, storage, redirect_handler=self._open, callback_handler=self._wait_for_redirect
        )
        base = self.context
        self.context = _Context(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)}, clock=clock)
        self.storage = storage
        storage.metadata_source = lambda: (self.context.oauth_metadata, self.context.protected_resource_metadata)
        self.redirect_port = redirect_port
        self.steps = steps
        self.opener = opener
        self.login_timeout = login_timeout
        self.login_hint = login_hint
        self._receiver: LoopbackReceiver | None = None
        self._authorize_endpoint = ""
        self._authorization_url = ""
        self._challenge: list[int] = []
        self.client = client if client is not None else DynamicClient()
        if isinstance(self.client, MetadataDocumentClient):
            # Set after construction: the SDK accepts only https here, a loopback document is http.
            self.context.client_metadata_url = self.client.url
        self._document_checked = False
        self._last_stage: AuthStage | None = None
        self.machine: MachineGrant | None = None
        """The grant without a browser (client credentials, JWT bearer, enterprise), if the login uses one."""
        self.dpop: DPoPSession | None = None
        """Proofs, nonces and bound tokens, if the login uses DPoP."""

    async def load_state(self) -> None:
        """Load tokens, registration, absolute expiry and discovered metadata from the store."""
        state = await self.storage.load()
        ctx = self.context
        ctx.current_tokens = state.tokens
        ctx.client_info = state.client
        ctx.token_expiry_time = state.expires_at if state.tokens is not None else None
        if ctx.oauth_metadata is None and state.authorization_server is not None:
            ctx.oauth_metadata = state.authorization_server
        if ctx.protected_resource_metadata is None and state.protected_resource is not None:
            prm = state.protected_resource
            ctx.protected_resource_metadata = prm
            ctx.auth_server_url = str(prm.authorization_servers[0])
        if isinstance(self.client, PreRegisteredClient):
            # The given client, never a stored or a new registration (the SDK registers only without one).
            ctx.client_info = pre_registered_info(self.client, self.redirect_port)
        if self.machine is not None:
            ctx.client_info = self.machine.client_info()
            if ctx.oauth_metadata is None and ctx.current_tokens is not None:
                # No token endpoint known: a refresh would go to the server's root with the client's
                # credentials; the grant runs again after discovery instead.
                ctx.current_tokens = ctx.current_tokens.model_copy(update={"refresh_token": None})

    async def token_request(self) -> httpx2.Request:
        """The grant's token request (a browser login's by default)."""
        if self.machine is not None:
            return await self.machine.token_request(self.context)
        return await super().token_request()

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The flow for ``request``, with DPoP proofs when the login uses DPoP."""
        flow = super().async_auth_flow(request)
        if self.dpop is not None:
            flow = self.dpop.flow(flow, request)
        try:
            outgoing = await flow.__anext__()
            while True:
                outgoing = await flow.asend((yield outgoing))
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    # ---- the browser leg ----------------------------------------------------------------------

    async def _open(self, authorization_url: str) -> None:
        self.steps.flush()
        self._authorize_endpoint = str(httpx2.URL(authorization_url).copy_with(query=None))
        self._authorization_url = authorization_url
        try:
            check_oauth_endpoint(self._authorize_endpoint, endpoint="authorization_endpoint")
        except InsecureEndpointError as exc:
            self._browser_step("failed", exc.message, checks.browser_failure(exc))
            raise
        if self.opener is None:
            target = self.context.server_url
            self.steps.step(
                AuthStage.AUTHORIZE, "failed", "a login is needed, and this connection may not open a browser"
            )
            raise AuthRequiredError(
                f"{target} needs an OAuth login" + (" (the saved login was refused)." if self._had_tokens() else "."),
                hint=self.login_hint or "log in to this server, then connect again",
                details={"oauth": "login-required"},
            )
        receiver = LoopbackReceiver(self.redirect_port)
        await receiver.start()
        self._receiver = receiver
        try:
            await self.opener(authorization_url)
        except BaseException:
            await receiver.close()
            self._receiver = None
            raise

    async def _wait_for_redirect(self) -> AuthorizationCodeResult:
        receiver = self._receiver
        assert receiver is not None
        scope = self.context.client_metadata.scope
        try:
            response = await receiver.wait(self.login_timeout)
        except WorkbenchError as exc:
            self._browser_step("failed", f"{self._authorize_endpoint}: {exc.message}", checks.browser_failure(exc))
            raise
        finally:
            await receiver.close()
            self._receiver = None
        detail = f"{self._authorize_endpoint} redirected to {receiver.uri} (PKCE S256" + (
            f", scope {scope})" if scope else ")"
        )
        issuer = self.context.oauth_metadata.issuer if self.context.oauth_metadata is not None else None
        found, failure = checks.callback_checks(self._authorization_url, response, str(issuer) if issuer else None)
        redirect = checks.callback_url(receiver.uri, response)
        self._browser_step("failed" if failure else "ok", detail, failure, found, redirect)
        return AuthorizationCodeResult(code=response.code, state=response.state, iss=response.iss)

    def _browser_step(
        self,
        status: StepStatus,
        detail: str,
        failure: AuthFailure | None,
        found: list[AuthCheck] | None = None,
        redirect: str | None = None,
    ) -> None:
        """The authorization step: the browser's request and redirect, with what they were checked for."""
        url = self._authorization_url
        self.steps.step(
            AuthStage.AUTHORIZE,
            status,
            detail,
            checks=[*checks.authorization_request_checks(url), *(found or [])] if url else (),
            failure=failure,
            exchanges=checks.browser_exchanges(self.steps.wire.redactor, url, redirect, 200) if url else (),
        )

    def _had_tokens(self) -> bool:
        return self.storage.state.tokens is not None

    # ---- the flow, with steps -----------------------------------------------------------------

    async def watch_flow(
        self, request: httpx2.Request, flow: AsyncGenerator[httpx2.Request, httpx2.Response]
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The SDK's flow, watched: each exchange becomes (part of) an auth step."""
        if self.machine is not None:
            flow = self.machine.legs(flow)
        try:
            outgoing = await flow.__anext__()
            while True:
                if outgoing is not request:
                    self._admit(outgoing)
                with self.steps.capture() as seqs:
                    response = yield outgoing
                await self._note(outgoing, request, response, seqs)
                document = self._client_document_request(outgoing, response)
                if document is not None:
                    # CIMD: the client's own metadata document, read before its URL is used as client id.
                    with self.steps.capture() as seqs:
                        answer = yield document
                    await answer.aread()
                    self._check_client_document(answer, seqs)
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        except OAuthFlowError as exc:
            stage, reason = failure_of(exc, self._last_stage)
            self.steps.step(stage, "failed", f"{reason}: {neutralise_line(str(exc))}")
            raise OAuthRefusedError(
                f"The OAuth login with {self.context.server_url} failed at the {stage.value} step: {exc}",
                hint="see the auth steps and the wire log; logging out and in again starts afresh",
                details={"oauth": reason, "step": stage.value, "error": type(exc).__name__},
            ) from exc
        finally:
            self.steps.flush()
            await flow.aclose()

    def _authorization_server_origins(self) -> set[str]:
        """The origins of the authorization server the protected resource named, and of its endpoints."""
        ctx = self.context
        urls = [ctx.auth_server_url or ""]
        if ctx.oauth_metadata is not None:
            urls += [str(url or "") for url in _endpoints(ctx.oauth_metadata.model_dump(mode="json")).values()]
        origins = set()
        for url in urls:
            with contextlib.suppress(ValueError):
                origins.add(origin_of(url))
        return origins

    def _admit(self, outgoing: httpx2.Request) -> None:
        """Check an OAuth request before it is sent; mark one to the authorization server as such.

        Requests to the authorization server (metadata, registration, token, refresh) carry the
        client's own authentication (``client_secret_basic``: an ``Authorization`` header) to the
        origin the protected resource named: ``OAUTH_ENDPOINT`` tells the credential boundary so.
        Every OAuth endpoint must be https unless it is on this machine.

        Raises:
            InsecureEndpointError: The request would go over plain http off this machine.
        """
        url = str(outgoing.url)
        stage, subject = classify(outgoing)
        self._last_stage = stage
        if not (stage is AuthStage.DISCOVERY and subject == "protected-resource"):
            try:
                check_oauth_endpoint(url, endpoint=_ENDPOINT_OF.get(stage, "authorization_server"))
            except InsecureEndpointError as exc:
                exc.details["step"] = stage.value
                self.steps.step(stage, "failed", exc.message)
                raise
        client = self.client
        if stage is AuthStage.REGISTRATION and isinstance(client, MetadataDocumentClient) and not client.fallback:
            self._refuse_client_document(
                "client-metadata-unsupported",
                "the authorization server does not accept a client metadata document, and registering "
                "instead was not allowed",
                hint="allow the fallback to dynamic registration, or use a pre-registered client",
            )
        if origin_of(url) in self._authorization_server_origins():
            outgoing.extensions = {**outgoing.extensions, OAUTH_ENDPOINT: True}

    def _client_document_request(self, sent: httpx2.Request, response: httpx2.Response) -> httpx2.Request | None:
        """The request for the client's metadata document, due once the server says it will use it."""
        client = self.client
        if not isinstance(client, MetadataDocumentClient) or not client.verify or self._document_checked:
            return None
        if classify(sent) != (AuthStage.DISCOVERY, "authorization-server") or response.status_code != 200:
            return None
        try:
            body = json.loads(response.content)
        except ValueError:
            return None
        if not isinstance(body, dict) or body.get("client_id_metadata_document_supported") is not True:
            return None
        self._document_checked = True
        check_oauth_endpoint(client.url, endpoint="client_id", context="the client metadata document")
        return httpx2.Request("GET", client.url, headers={"Accept": "application/json"})

    def _check_client_document(self, response: httpx2.Response, seqs: list[int]) -> None:
        """Refuse a client metadata document that does not name this client as the login will use it.

        Raises:
            OAuthRefusedError: Not found, not JSON, another ``client_id``, or the redirect URI not listed.
        """
        assert isinstance(self.client, MetadataDocumentClient)
        url, expected = self.client.url, redirect_uri(self.redirect_port)
        problem = ""
        try:
            body = json.loads(response.content) if response.status_code == 200 else None
        except ValueError:
            body = None
        if not isinstance(body, dict):
            problem = f"{url} answered HTTP {response.status_code} without a JSON object"
        elif body.get("client_id") != url:
            problem = f"its client_id is {neutralise_line(str(body.get('client_id')))!r}, not its own URL"
        elif expected not in (body.get("redirect_uris") or []):
            problem = f"its redirect_uris do not list {expected}"
        if problem:
            self.steps.exchange(
                AuthStage.REGISTRATION, "client", "failed", f"client metadata document: {problem}", seqs
            )
            self._refuse_client_document(
                "client-metadata-mismatch",
                f"the client metadata document does not match: {problem}",
                hint=f"publish a document at {url} with client_id {url} and redirect_uris [{expected}]",
            )
        self.steps.exchange(
            AuthStage.REGISTRATION, "client", "ok", f"client metadata document {url} names this client", seqs
        )

    def _refuse_client_document(self, reason: str, why: str, *, hint: str) -> None:
        self.steps.flush()
        raise OAuthRefusedError(
            f"The OAuth login with {self.context.server_url} failed at the registration step: {why}.",
            hint=hint,
            details={"oauth": reason, "step": AuthStage.REGISTRATION.value},
        )

    def _check_metadata(self, response: httpx2.Response, seqs: list[int]) -> None:
        """Refuse authorization-server metadata that names an endpoint over plain http off this machine.

        Raises:
            InsecureEndpointError: One of its endpoints is insecure (the discovery step fails).
        """
        try:
            body = json.loads(response.content)
        except ValueError:
            return
        for name, url in _endpoints(body if isinstance(body, dict) else {}).items():
            try:
                check_oauth_endpoint(url, endpoint=name, context="the authorization server")
            except InsecureEndpointError as exc:
                exc.details["step"] = AuthStage.DISCOVERY.value
                failure = checks.browser_failure(exc)
                self.steps.exchange(
                    AuthStage.DISCOVERY, "authorization-server", "failed", exc.message, seqs, failure=failure
                )
                raise

    async def _note(
        self, sent: httpx2.Request, original: httpx2.Request, response: httpx2.Response, seqs: list[int]
    ) -> None:
        if sent is original:
            # The request being authorised: a 401/403 is the challenge that starts discovery.
            self._challenge = list(seqs) if response.status_code in (401, 403) else []
            return
        await response.aread()  # the SDK reads it too (once read, it stays)
        stage, subject = classify(sent)
        status: StepStatus = "ok" if response.status_code < 400 else "failed"
        if stage is AuthStage.DISCOVERY and response.status_code == 404:
            status = "skipped"  # a fallback URL; the next one may answer
        if self._challenge and stage is AuthStage.DISCOVERY:
            seqs, self._challenge = [*self._challenge, *seqs], []
        if subject == "authorization-server" and status == "ok":
            self._check_metadata(response, seqs)
        ctx = self.context
        found, failure = checks.exchange_checks(
            stage, subject, sent, response, server_url=ctx.server_url, expected_issuer=ctx.auth_server_url
        )
        status = "failed" if failure is not None else status
        detail = describe_exchange(stage, subject, sent, response)
        self.steps.exchange(stage, subject, status, detail, seqs, checks=found, failure=failure)
        if failure is not None and failure.code is FailureCode.AUDIENCE_MISMATCH:
            # A token for another resource is refused before the SDK stores or sends it.
            self.steps.flush()
            raise OAuthRefusedError(
                f"The OAuth login with {ctx.server_url} stopped at the {stage.value} step: {failure.reason}.",
                hint=failure.hint,
                details={"oauth": failure.code.value, "step": stage.value},
            )
        if stage is AuthStage.REFRESH and response.status_code in (400, 401):
            # The refresh token was refused (revoked, expired): keeping it would only repeat the
            # refusal on every request until the user logs in again.
            await self.storage.forget_tokens()


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
    state.redirect_port = port or free_port()
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


class DeferredOAuth(httpx2.Auth):
    """An ``httpx2.Auth`` that builds its ``WorkbenchOAuthProvider`` on the first request (loading the store is async).

    ``MCPAgent(url, oauth=OAuth(...))`` attaches one, so the agent can be constructed synchronously.

    Args:
        build: Returns the provider (called once, on the first request).
    """

    requires_response_body = True

    def __init__(self, build: Callable[[], Awaitable[WorkbenchOAuthProvider]]) -> None:
        self._build = build
        self._lock = anyio.Lock()
        self.provider: WorkbenchOAuthProvider | None = None

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The provider's flow for ``request``."""
        async with self._lock:
            if self.provider is None:
                self.provider = await self._build()
        flow = self.provider.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()


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
        ConfigError: A pre-registered client whose secret is not in the store.
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
                    hint=f"workbench profile edit {profile.name} --oauth-client-secret-from-stdin",
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
    grant: OAuthGrant = AuthorizationCode(redirect_port=profile.oauth_redirect_port)
    if profile.oauth_grant == "client_credentials":
        grant = ClientCredentials()
    return OAuth(
        client=client,
        grant=grant,
        scopes=tuple(profile.oauth_scopes),
        store_key=profile.id,
        login_timeout=login_timeout,
        dpop=DPoP() if profile.oauth_dpop else None,
    )


def oauth_http(
    url: str | None,
    transport: str,
    options: OAuth,
    *,
    given_auth: httpx2.Auth | None,
    given_transport: httpx2.AsyncBaseTransport | None,
    headers: dict[str, str] | None,
    wire: WireRecorder,
    connection_id: str,
    bus: EventBus | None,
    credentials: CredentialStore | None,
    open_browser: BrowserOpener | None,
    on_auth_step: StepCallback | None,
) -> tuple[httpx2.Auth, httpx2.AsyncBaseTransport]:
    """The auth and guarded transport of ``MCPAgent(url, oauth=...)``.

    The transport is the caller's (a profile's credential guard) or ``Httpx2CredentialGuard`` over
    the URL's origin and the given headers' values, as ``workbench login`` builds for a profile.

    Raises:
        ConfigError: Not an HTTP transport, or ``auth`` given too.
    """
    if transport not in ("streamable-http", "sse") or not url:
        raise ConfigError("OAuth is for MCP servers over HTTP.", hint="MCPAgent('https://…/mcp', oauth=OAuth())")
    if given_auth is not None:
        raise ConfigError("Give either auth= or oauth=, not both.", hint="oauth=OAuth(...) builds the auth itself")
    store: CredentialStore = credentials if credentials is not None else KeyringCredentialStore()

    def emit(step: AuthStep) -> None:
        if on_auth_step is not None:
            on_auth_step(step)
        if bus is not None:
            bus.publish(step)

    async def build() -> WorkbenchOAuthProvider:
        return await oauth_provider(
            url, options, store, wire=wire, connection_id=connection_id, opener=open_browser, on_step=emit
        )

    if given_transport is None:
        values = list((headers or {}).values())
        given_transport = Httpx2CredentialGuard(CredentialBoundary([url], values, redactor=wire.redactor))
    return DeferredOAuth(build), given_transport
