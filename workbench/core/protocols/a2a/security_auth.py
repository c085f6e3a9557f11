"""Attaches the credentials an A2A agent's card asks for to every request (an ``httpx.Auth``).

Values live in a ``CredentialStore`` under ``<id>/a2a:<scheme>:<field>`` (``id`` is the profile or
connection id), e.g. ``work-agent/a2a:apikey:api_key``, ``work-agent/a2a:oauth:client_secret``.
OAuth access tokens are kept there too, as JSON with an absolute expiry, under
``<id>/a2a:<scheme>:token``. Nothing is read from files.

Per request: the card's requirements (or a skill's, when the request carries the private
``X-Workbench-Skill`` marker header, which is removed before sending) pick an alternative — the
first whose values are all stored, else the first the workbench supports — and each of its needs is
applied: an API key as header / query parameter / cookie, ``Authorization: Bearer`` / ``Basic``, or
an OAuth access token (client credentials: requested and cached until it expires; authorization
code with PKCE and OpenID Connect: the browser flow, then renewed with the refresh token when there
is one). A 401 after an OAuth token was sent drops the token and, when a new one can be had without
the user, retries once. Asking the user is the agent's job (``A2AAgent`` on 401/403 or auth-required).

The OAuth requests are the shared OAuth layer's (``security_tokens``, ``security_oauth``): the client
is the one given (``oauth_client``: client_secret_basic or _post, or private_key_jwt), else the
scheme's stored id and secret (client_secret_post); with ``dpop`` every token request carries a
DPoP proof and a DPoP-bound token goes out as ``Authorization: DPoP`` with a fresh proof per
request (one ``use_dpop_nonce`` answered per request). With a ``StepLog`` each exchange of a login
is an auth step, as for an MCP login.
"""

from __future__ import annotations

import base64
import time
from collections.abc import AsyncGenerator, Callable, Generator
from typing import TYPE_CHECKING, Any

import anyio
import httpx
from a2a.types import AgentCard
from pydantic import SecretStr

from workbench.core.auth_steps import StepLog
from workbench.core.errors import UsageError
from workbench.core.http.dpop import DPoPKey, DPoPNonces, nonce_challenge
from workbench.core.oauth.client_auth import secrets_of
from workbench.core.oauth.tokens import TokenSet
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import DPoP, OAuthClient
from workbench.core.protocols.a2a.security import (
    Alternative,
    CredentialNeed,
    choose_alternative,
    requirement_alternatives,
)
from workbench.core.protocols.a2a.security_discovery import authorization_server_issuer, discover_oidc
from workbench.core.protocols.a2a.security_oauth import BrowserOpener, TokenEndpoint, secret_client, system_browser
from workbench.core.protocols.a2a.security_tokens import SchemeLogin, obtain, renew
from workbench.core.protocols.base import InputResponse
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT

if TYPE_CHECKING:
    from workbench.core.credentials import CredentialStore

SKILL_HEADER = "X-Workbench-Skill"
"""Private marker header: the request is for this skill (removed before the request is sent)."""
TOKEN_FIELD = "token"
DPOP_KEY_FIELD = "dpop_key"
"""The store key ``<id>/a2a:*:dpop_key`` of the DPoP proof key made for an agent given ``DPoP()`` without one."""
_OAUTH_TOKEN_FIELD = "oauth_token"


def credential_key(credential_id: str, scheme: str, field: str) -> str:
    """The credential-store key of one value of a scheme (``<id>/a2a:<scheme>:<field>``)."""
    return f"{credential_id}/a2a:{scheme}:{field}"


class SecurityAuth(httpx.Auth):
    """Applies the card's security schemes to each request, with values from a credential store.

    Args:
        card: Returns the agent's card (``None`` before discovery: nothing is attached).
        store: Where values and OAuth tokens live.
        credential_id: The key prefix (profile or connection id).
        opener: Opens the authorization URL for browser sign-in (default: the system browser).
        on_secret: Called with every secret value read, entered or obtained (register it with the
            wire redactor).
        authorization_timeout: Seconds to wait for a browser sign-in to come back.
        clock: Epoch seconds (tests move it forward instead of waiting for a token to expire).
        oauth_client: The client for every OAuth scheme of the card (``None``: each scheme's stored
            client id and secret, sent as ``client_secret_post``).
        dpop: DPoP-bound tokens (RFC 9449): proofs signed with its key, else one made and kept in
            ``store``; ``None``: bearer tokens.
        steps: Where each exchange of an OAuth login is recorded as an auth step (``None``: nowhere).
    """

    def __init__(
        self,
        card: Callable[[], AgentCard | None],
        store: CredentialStore,
        credential_id: str,
        *,
        opener: BrowserOpener | None = None,
        on_secret: Callable[[str], None] | None = None,
        authorization_timeout: float = DEFAULT_LOGIN_TIMEOUT,
        clock: Callable[[], float] = time.time,
        oauth_client: OAuthClient | None = None,
        dpop: DPoP | None = None,
        steps: StepLog | None = None,
    ) -> None:
        self._card = card
        self.store = store
        self.credential_id = credential_id
        self.opener: BrowserOpener = opener or system_browser
        self._on_secret = on_secret
        self.authorization_timeout = authorization_timeout
        self.clock = clock
        self.http: httpx.AsyncClient | None = None
        self._values: dict[str, str | None] = {}
        self._tokens: dict[str, TokenSet | None] = {}
        self._oidc: dict[str, dict[str, Any]] = {}
        self._issuers: dict[str, str | None] = {}
        self._lock = anyio.Lock()
        self.oauth_client = oauth_client
        self.dpop = dpop
        self.steps = steps
        self._dpop_key: DPoPKey | None = None
        self._nonces = DPoPNonces()
        for secret in secrets_of(oauth_client) if oauth_client is not None else ():
            self._secret(secret)

    # ------------------------------------------------------------------ values

    def key(self, scheme: str, field: str) -> str:
        """The store key of ``field`` of ``scheme``."""
        return credential_key(self.credential_id, scheme, field)

    async def value(self, scheme: str, field: str) -> str | None:
        """A stored value (cached after the first read)."""
        key = self.key(scheme, field)
        if key not in self._values:
            got = await self.store.get(key)
            plain = got.get_secret_value() if got is not None else None
            self._values[key] = plain
            if plain:
                self._secret(plain)
        return self._values[key]

    async def set_value(self, scheme: str, field: str, value: str) -> None:
        """Store a value (and forget any token obtained with the old one)."""
        self._secret(value)
        await self.store.set(self.key(scheme, field), SecretStr(value))
        self._values[self.key(scheme, field)] = value
        await self.drop_token(scheme)

    def _secret(self, value: str) -> None:
        if self._on_secret is not None and value:
            self._on_secret(value)

    async def _has(self, need: CredentialNeed) -> bool:
        """Whether everything ``need`` requires is stored (for OAuth: a client id, or a token)."""
        if need.is_oauth and (self.oauth_client is not None or await self._token(need.scheme) is not None):
            return True
        for f in need.fields:
            if not f.optional and not await self.value(need.scheme, f.name):
                return False
        return True

    # ------------------------------------------------------------------ needs

    def alternatives(self, skill: str | None = None) -> list[Alternative]:
        """The card's alternatives (for ``skill`` when it has its own requirements)."""
        card = self._card()
        return requirement_alternatives(card, skill) if card is not None else []

    async def needs(self, skill: str | None = None) -> list[CredentialNeed]:
        """The needs to meet now.

        The first supported alternative whose values are all stored, else the card's choice
        (``choose_alternative``); empty when anonymous access is allowed.
        """
        alternatives = self.alternatives(skill)
        for alt in alternatives:
            if not alt.needs:
                return []
        for alt in alternatives:
            if alt.supported and all([await self._has(n) for n in alt.needs]):
                return list(alt.needs)
        chosen = choose_alternative(alternatives)
        return list(chosen.needs) if chosen is not None else []

    async def ready(self, skill: str | None = None) -> bool:
        """Whether a request would carry what the card requires without a browser sign-in.

        ``False`` also when the card requires nothing.
        """
        needs = await self.needs(skill)
        for need in needs:
            if need.type in ("oauth2-authorization-code", "openid-connect"):
                if await self._token(need.scheme) is None:
                    return False
            elif not await self._has(need):
                return False
        return bool(needs)

    async def missing_fields(self, need: CredentialNeed) -> list[str]:
        """The required fields of ``need`` with no stored value (none for OAuth with a client given)."""
        if need.is_oauth and self.oauth_client is not None:
            return []
        return [f.name for f in need.fields if not f.optional and not await self.value(need.scheme, f.name)]

    # ------------------------------------------------------------------ answers from the user

    async def store_answer(self, needs: list[CredentialNeed], answer: InputResponse) -> int:
        """Store what the user entered for ``needs``; returns how many values were stored.

        ``answer.data`` may be ``{"<scheme>": {"<field>": value}}`` or a flat ``{"<field>": value}``
        (each field goes to the first need that has it). Otherwise ``answer.text`` fills the first
        missing required field of the needs, or else the first need's secret field (replacing a
        rejected value).
        """
        stored = 0
        data = answer.data if isinstance(answer.data, dict) else {}
        by_scheme = {n.scheme: n for n in needs}
        for name, value in data.items():
            if name in by_scheme and isinstance(value, dict):
                need = by_scheme[name]
                for field, v in value.items():
                    if need.field(field) is not None and isinstance(v, str) and v:
                        await self.set_value(need.scheme, field, v)
                        stored += 1
                continue
            owner = next((n for n in needs if n.field(name) is not None), None)
            if owner is not None and isinstance(value, str) and value:
                await self.set_value(owner.scheme, name, value)
                stored += 1
        if answer.text and needs and not stored:
            target: tuple[str, str] | None = None
            for need in needs:
                missing = await self.missing_fields(need)
                if missing:
                    target = (need.scheme, missing[0])
                    break
            if target is None:
                secret = next((f.name for f in needs[0].fields if f.secret), None)
                target = (needs[0].scheme, secret) if secret else None
            if target is not None:
                await self.set_value(*target, answer.text.strip())
                stored += 1
        return stored

    # ------------------------------------------------------------------ OAuth tokens

    async def _token(self, scheme: str) -> TokenSet | None:
        if scheme not in self._tokens:
            got = await self.store.get(self.key(scheme, TOKEN_FIELD))
            token = TokenSet.from_json(got.get_secret_value()) if got is not None else None
            self._tokens[scheme] = token
            if token is not None:
                self._secret(token.access_token)
                if token.refresh_token:
                    self._secret(token.refresh_token)
        return self._tokens[scheme]

    async def _keep_token(self, scheme: str, token: TokenSet) -> None:
        self._secret(token.access_token)
        if token.refresh_token:
            self._secret(token.refresh_token)
        self._tokens[scheme] = token
        await self.store.set(self.key(scheme, TOKEN_FIELD), SecretStr(token.to_json()))

    async def drop_token(self, scheme: str, *, keep_refresh: bool = False) -> None:
        """Forget the access token of ``scheme`` (optionally keeping its refresh token)."""
        old = await self._token(scheme) if keep_refresh else None
        if old is not None and old.refresh_token:
            expired = TokenSet(access_token="", obtained_at=0.0, expires_at=0.0, refresh_token=old.refresh_token)
            await self._keep_token(scheme, expired)
            return
        self._tokens[scheme] = None
        await self.store.delete(self.key(scheme, TOKEN_FIELD))

    def detach(self) -> None:
        """Forget the HTTP client (the agent closed it); the next ``connect`` attaches a new one."""
        self.http = None
        self._lock = anyio.Lock()  # a fresh lock for whichever event loop connects next

    def _client(self) -> httpx.AsyncClient:
        if self.http is None:
            raise UsageError("The security auth is not attached to an HTTP client.")
        return self.http

    async def _login(self, need: CredentialNeed) -> SchemeLogin | None:
        """The client and the endpoints of an OAuth need (``None``: no client id stored and none given)."""
        client = self.oauth_client
        if client is None:
            client_id = await self.value(need.scheme, "client_id")
            if not client_id:
                return None
            client = secret_client(client_id, await self.value(need.scheme, "client_secret"))
        if need.type == "openid-connect":
            url = need.openid_connect_url
            if not url:
                return SchemeLogin(need, client, None, None)
            doc = self._oidc.get(url)
            if doc is None:
                doc = await discover_oidc(self._client(), url, scheme=need.scheme, steps=self.steps)
                self._oidc[url] = doc
            issuer = doc.get("issuer")
            return SchemeLogin(
                need,
                client,
                str(doc["authorization_endpoint"]),
                str(doc["token_endpoint"]),
                issuer if isinstance(issuer, str) else None,
            )
        issuer = None
        if isinstance(client, PrivateKeyJWTClient) and need.token_url:
            # The assertion's audience: the issuer, when the authorization server publishes metadata.
            if need.token_url not in self._issuers:
                self._issuers[need.token_url] = await authorization_server_issuer(
                    self._client(), need.token_url, scheme=need.scheme, steps=self.steps
                )
            issuer = self._issuers[need.token_url]
        return SchemeLogin(need, client, need.authorization_url, need.token_url, issuer)

    async def _proof_key(self) -> DPoPKey | None:
        """The DPoP key: the one given, else the one kept in the store (made and kept on first use)."""
        if self.dpop is None:
            return None
        if self._dpop_key is None:
            if self.dpop.key_pem is not None:
                self._dpop_key = DPoPKey.from_pem(self.dpop.key_pem)
            else:
                name = self.key("*", DPOP_KEY_FIELD)
                stored = await self.store.get(name)
                if stored is not None:
                    self._dpop_key = DPoPKey.from_pem(stored.get_secret_value())
                else:
                    self._dpop_key = DPoPKey.generate()
                    await self.store.set(name, SecretStr(self._dpop_key.to_pem()))
        return self._dpop_key

    async def oauth_token(self, need: CredentialNeed, *, interactive: bool = True) -> TokenSet | None:
        """A valid token for an OAuth / OIDC need, obtaining or renewing it as needed.

        Returns:
            The token, or ``None`` when the client id (or secret) is not stored yet and no client was
            given, or when only a browser sign-in could help and ``interactive`` is off.

        Raises:
            AuthRequiredError: The authorization server refused (``OAuthRefusedError``: a check failed).
            ProtocolError: A discovery document is unusable.
            RequestTimeoutError: A browser sign-in did not come back in time.
        """
        async with self._lock:
            token = await self._token(need.scheme)
            if token is not None and token.access_token and token.valid(self.clock()):
                return token
            login = await self._login(need)
            if login is None:
                return None
            endpoint = TokenEndpoint(
                self._client(),
                scheme=need.scheme,
                steps=self.steps,
                dpop=await self._proof_key(),
                nonces=self._nonces,
                clock=self.clock,
                on_secret=self._secret,
            )
            fresh = None
            if token is not None and token.refresh_token:
                fresh = await renew(endpoint, login, token.refresh_token)
                if fresh is None:
                    await self.drop_token(need.scheme)  # refresh token rejected: sign in again
            if fresh is None:
                fresh = await obtain(
                    endpoint, login, interactive=interactive, opener=self.opener, timeout=self.authorization_timeout
                )
            if fresh is None:
                return None
            await self._keep_token(need.scheme, fresh)
            return fresh

    async def access_token(self, need: CredentialNeed, *, interactive: bool = True) -> str | None:
        """The access token of ``oauth_token`` (``None`` when there is none to send)."""
        token = await self.oauth_token(need, interactive=interactive)
        return token.access_token if token is not None else None

    async def _prove(self, request: httpx.Request, token: str) -> None:
        """Present a DPoP-bound ``token`` on ``request`` with a fresh proof for it."""
        key = await self._proof_key()
        assert key is not None
        url = str(request.url)
        request.headers["Authorization"] = f"DPoP {token}"
        request.headers["DPoP"] = key.proof(request.method, url, access_token=token, nonce=self._nonces.get(url))

    # ------------------------------------------------------------------ httpx.Auth

    async def apply(
        self, request: httpx.Request, needs: list[CredentialNeed], *, interactive: bool = True
    ) -> list[str]:
        """Attach ``needs`` to ``request``; returns the schemes whose OAuth token was sent.

        ``interactive`` off: never start a browser sign-in (only stored, renewed or client-credentials tokens).
        """
        sent_tokens: list[str] = []
        for need in needs:
            scheme = need.scheme
            if need.type == "api-key" and need.param_name:
                key = await self.value(scheme, "api_key")
                if not key:
                    continue
                if need.location == "header":
                    request.headers[need.param_name] = key
                elif need.location == "query":
                    request.url = request.url.copy_merge_params({need.param_name: key})
                elif need.location == "cookie":
                    cookie = f"{need.param_name}={key}"
                    old = request.headers.get("Cookie")
                    request.headers["Cookie"] = f"{old}; {cookie}" if old else cookie
            elif need.type == "http-bearer":
                token = await self.value(scheme, "token")
                if token:
                    request.headers["Authorization"] = f"Bearer {token}"
            elif need.type == "http-basic":
                user = await self.value(scheme, "username")
                password = await self.value(scheme, "password")
                if user is not None and password:
                    encoded = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
                    self._secret(encoded)
                    request.headers["Authorization"] = f"Basic {encoded}"
            elif need.is_oauth:
                oauth = await self.oauth_token(need, interactive=interactive)
                if oauth is not None and oauth.dpop_bound and self.dpop is not None:
                    await self._prove(request, oauth.access_token)
                    sent_tokens.append(scheme)
                elif oauth is not None:
                    request.headers["Authorization"] = f"Bearer {oauth.access_token}"
                    sent_tokens.append(scheme)
        return sent_tokens

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Not supported: the A2A client is asynchronous."""
        raise UsageError("SecurityAuth works with httpx.AsyncClient only.")

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        """Attach credentials; on a 401 after an OAuth token, renew it once without the user."""
        skill = request.headers.pop(SKILL_HEADER, None)
        needs = await self.needs(skill or None)
        sent = await self.apply(request, needs) if needs else []
        response = yield request
        if "DPoP" in request.headers:
            self._nonces.learn(str(request.url), response.headers)
            if nonce_challenge(response.status_code, response.headers, b""):
                # The agent wants its nonce in the proof (RFC 9449 §9): once, with a fresh proof.
                await self._prove(request, request.headers["Authorization"].partition(" ")[2])
                response = yield request
        if response.status_code != 401 or not sent:
            return
        renewable = [n for n in needs if n.scheme in sent]
        for need in renewable:
            await self.drop_token(need.scheme, keep_refresh=True)
        retry_sent = await self.apply(request, renewable, interactive=False)
        if not retry_sent:
            return  # no new token without the user: let the 401 through (the agent asks)
        yield request  # httpx reads and closes the refused response itself
