"""The workbench's OAuth provider: the SDK's flow with a loopback browser leg, endpoint checks and auth steps.

Its authorization code grant and refresh (PKCE, token request forms, client authentication, token
responses) are the shared OAuth layer's, through ``CodeGrantProvider`` (``_oauth_code_flow``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import AsyncGenerator, Callable

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult
from pydantic import AnyUrl

from workbench.core.auth_steps import (
    AuthCheck,
    AuthExchange,
    AuthFailure,
    AuthStage,
    FailureCode,
    StepLog,
    StepStatus,
)
from workbench.core.errors import AuthRequiredError, OAuthRefusedError, WorkbenchError
from workbench.core.http.browser import BrowserOpener
from workbench.core.http.loopback import LoopbackReceiver, redirect_uri
from workbench.core.http.oauth_endpoints import InsecureEndpointError, check_oauth_endpoint
from workbench.core.http.origins import OAUTH_ENDPOINT, origin_of
from workbench.core.oauth_options import DynamicClient, MetadataDocumentClient, OAuthClient, PreRegisteredClient
from workbench.core.protocols.mcp import _oauth_checks as checks
from workbench.core.protocols.mcp._oauth_code_flow import CodeGrantProvider
from workbench.core.protocols.mcp._oauth_sdk import (
    CLIENT_NAME,
    ENDPOINT_OF,
    LOGIN_TIMEOUT,
    EarlyRefreshContext,
    ScopedClientMetadata,
    metadata_endpoints,
    pre_registered_info,
)
from workbench.core.protocols.mcp._oauth_steps import classify, describe_exchange, failure_of
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
from workbench.core.safe_text import neutralise_line

__all__ = ["WorkbenchOAuthProvider"]


class WorkbenchOAuthProvider(CodeGrantProvider):
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
        metadata = ScopedClientMetadata(
            client_name=client_name,
            redirect_uris=[AnyUrl(redirect_uri(redirect_port))],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ).with_extra_scopes(" ".join(scopes) if scopes else None)
        super().__init__(
            server_url,
            metadata,
            storage,
            redirect_handler=self._open,
            callback_handler=self._wait_for_redirect,
            steps=steps,
            clock=clock,
        )
        base = self.context
        self.context = EarlyRefreshContext(
            **{f.name: getattr(base, f.name) for f in dataclasses.fields(base)}, clock=clock
        )
        self.storage = storage
        storage.metadata_source = lambda: (self.context.oauth_metadata, self.context.protected_resource_metadata)
        self.redirect_port = redirect_port
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
        """Record the authorization request as its own step, then send the browser there."""
        self.steps.flush()
        self._authorize_endpoint = str(httpx2.URL(authorization_url).copy_with(query=None))
        self._authorization_url = authorization_url
        try:
            check_oauth_endpoint(self._authorize_endpoint, endpoint="authorization_endpoint")
        except InsecureEndpointError as exc:
            self._request_step("failed", exc.message, checks.browser_failure(exc))
            raise
        if self.opener is None:
            target = self.context.server_url
            error = AuthRequiredError(
                f"{target} needs an OAuth login" + (" (the saved login was refused)." if self._had_tokens() else "."),
                hint=self.login_hint or "log in to this server, then connect again",
                details={"oauth": "login-required"},
            )
            detail = "a login is needed, and this connection may not open a browser"
            self._request_step("failed", detail, checks.browser_failure(error), sent=False)
            raise error
        receiver = LoopbackReceiver(self.redirect_port)
        try:
            await receiver.start()
        except WorkbenchError as exc:
            self._request_step("failed", exc.message, checks.browser_failure(exc), sent=False)
            raise
        self._receiver = receiver
        scope = self.context.client_metadata.scope
        self._request_step(
            "ok",
            f"browser sent to {self._authorize_endpoint} (PKCE S256, state"
            + (f", scope {scope}" if scope else "")
            + f"); waiting for the redirect to {receiver.uri}",
            None,
        )
        try:
            await self.opener(authorization_url)
        except BaseException as exc:
            await receiver.close()
            self._receiver = None
            if isinstance(exc, WorkbenchError):
                self._callback_step("failed", f"nothing can come back: {exc.message}", checks.browser_failure(exc))
            raise

    async def _wait_for_redirect(self) -> AuthorizationCodeResult:
        """Wait for the redirect back, and record it (or the error, or the timeout) as the callback step."""
        receiver = self._receiver
        assert receiver is not None
        try:
            response = await receiver.wait(self.login_timeout)
        except WorkbenchError as exc:
            error = exc.details.get("oauth_error")
            redirect = f"{receiver.uri}?error={error}" if error else None
            self._callback_step(
                "failed", f"{receiver.uri}: {exc.message}", checks.browser_failure(exc), redirect=redirect, answered=400
            )
            raise
        finally:
            await receiver.close()
            self._receiver = None
        asm = self.context.oauth_metadata
        found, failure = checks.callback_checks(
            self._authorization_url,
            response,
            str(asm.issuer) if asm is not None else None,
            iss_required=bool(asm is not None and asm.authorization_response_iss_parameter_supported),
        )
        state = "state does not match" if any(c.name == "state" and not c.passed for c in found) else "state matches"
        detail = f"authorization code received on {receiver.uri} ({state})"
        redirect = checks.callback_url(receiver.uri, response)
        self._callback_step("failed" if failure else "ok", detail, failure, found, redirect=redirect)
        return AuthorizationCodeResult(code=response.code, state=response.state, iss=response.iss)

    def _request_step(self, status: StepStatus, detail: str, failure: AuthFailure | None, *, sent: bool = True) -> None:
        """The authorization request: its URL (redacted) and what it was checked for (https, PKCE S256, state)."""
        url = self._authorization_url
        exchanges = (checks.authorization_exchange(self.steps.wire.redactor, url),) if sent else ()
        self.steps.step(
            AuthStage.AUTHORIZE,
            status,
            detail,
            checks=checks.authorization_request_checks(url),
            failure=failure,
            exchanges=exchanges,
        )

    def _callback_step(
        self,
        status: StepStatus,
        detail: str,
        failure: AuthFailure | None,
        found: list[AuthCheck] | None = None,
        *,
        redirect: str | None = None,
        answered: int = 200,
    ) -> None:
        """The redirect back: its URL (the code masked) with the receiver's answer, and what it was checked for."""
        url = None if redirect is None else self.steps.wire.redactor.url(redirect)
        exchanges = () if url is None else (AuthExchange("GET", url, answered, via="browser"),)
        self.steps.step(AuthStage.CALLBACK, status, detail, checks=found or (), failure=failure, exchanges=exchanges)

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
            urls += [str(url or "") for url in metadata_endpoints(ctx.oauth_metadata.model_dump(mode="json")).values()]
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
                check_oauth_endpoint(url, endpoint=ENDPOINT_OF.get(stage, "authorization_server"))
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
        for name, url in metadata_endpoints(body if isinstance(body, dict) else {}).items():
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
