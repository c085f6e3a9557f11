"""DPoP for the MCP OAuth provider: the login's proof key, its bound tokens, proofs and nonces on each request.

``DPoPSession`` puts a DPoP proof (``workbench.core.http.dpop``) on every token request and, with a
DPoP-bound token, ``Authorization: DPoP`` and a proof with ``ath`` on every request to the MCP
server; it answers one ``use_dpop_nonce`` per request with the server's nonce. The SDK models only
``Bearer`` tokens, so a token response of type ``DPoP`` reaches it as ``Bearer`` and the session
remembers which tokens are bound.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncGenerator
from typing import Any

import httpx2

from workbench.core.auth_steps import AuthStage, StepLog
from workbench.core.credentials import CredentialStore
from workbench.core.errors import OAuthRefusedError
from workbench.core.http.dpop import DPoPKey, DPoPNonces, nonce_challenge
from workbench.core.oauth_options import DPoP
from workbench.core.profiles.credential_keys import OAUTH_DPOP_BOUND_KIND as DPOP_BOUND_KIND
from workbench.core.profiles.credential_keys import OAUTH_DPOP_KEY_KIND as DPOP_KEY_KIND
from workbench.core.protocols.mcp._oauth_steps import classify

__all__ = ["NO_PROOF", "DPoPSession", "dpop_bound_tokens", "dpop_key"]

NO_PROOF = "workbench.oauth_no_dpop"
"""Request extension: a token request that must not carry a DPoP proof (the IdP's token exchange)."""


async def dpop_key(options: DPoP, store: CredentialStore, key_prefix: str) -> DPoPKey:
    """The login's DPoP key: the one given, else the one kept in ``store`` (made and kept on first use).

    Args:
        options: The ``DPoP`` option.
        store: The credential store of the login.
        key_prefix: The login's store key (``<prefix>/oauth:dpop-key``).

    Raises:
        ConfigError: The given or stored key is not a P-256 private key.
        SecureStorageUnavailableError: The store cannot be read or written.
    """
    if options.key_pem is not None:
        return DPoPKey.from_pem(options.key_pem)
    name = f"{key_prefix}/{DPOP_KEY_KIND}"
    stored = await store.get(name)
    if stored is not None:
        return DPoPKey.from_pem(stored.get_secret_value())
    key = DPoPKey.generate()
    await store.set(name, key.to_pem())
    return key


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def dpop_bound_tokens(store: CredentialStore, key_prefix: str, access_token: str | None) -> set[str]:
    """``{access_token}`` if the store says it was issued DPoP-bound, else the empty set."""
    if access_token is None:
        return set()
    stored = await store.get(f"{key_prefix}/{DPOP_BOUND_KIND}")
    return {access_token} if stored is not None and stored.get_secret_value() == _digest(access_token) else set()


class DPoPSession:
    """DPoP for one provider: proofs on token and resource requests, nonces, the bound tokens.

    Args:
        key: The proof key.
        steps: Where a refused nonce is recorded.
        bound: Access tokens already known to be DPoP-bound (e.g. loaded with the login).
        store: Where the digest of the latest bound token is kept (``None``: not kept).
        key_prefix: The login's store key.
    """

    def __init__(
        self,
        key: DPoPKey,
        steps: StepLog,
        bound: set[str] | None = None,
        *,
        store: CredentialStore | None = None,
        key_prefix: str = "",
    ) -> None:
        self.key = key
        self.steps = steps
        self.nonces = DPoPNonces()
        self.bound: set[str] = set(bound or ())
        self._store = store
        self._key_prefix = key_prefix

    def prove(self, outgoing: httpx2.Request, original: httpx2.Request) -> httpx2.Request:
        """Add a fresh proof to ``outgoing`` (and the ``DPoP`` scheme for a bound token); returns it."""
        url = str(outgoing.url)
        if outgoing is original:
            scheme, _, token = outgoing.headers.get("authorization", "").partition(" ")
            if scheme.lower() in ("bearer", "dpop") and token in self.bound:
                outgoing.headers["Authorization"] = f"DPoP {token}"
                outgoing.headers["DPoP"] = self.key.proof(
                    outgoing.method, url, access_token=token, nonce=self.nonces.get(url)
                )
            return outgoing
        stage, _ = classify(outgoing)
        if stage in (AuthStage.TOKEN, AuthStage.REFRESH) and not outgoing.extensions.get(NO_PROOF):
            outgoing.headers["DPoP"] = self.key.proof(outgoing.method, url, nonce=self.nonces.get(url))
        return outgoing

    async def challenged(self, outgoing: httpx2.Request, original: httpx2.Request, response: httpx2.Response) -> bool:
        """Learn the response's nonce; whether it demands the request again with that nonce."""
        self.nonces.learn(str(outgoing.url), response.headers)
        if "DPoP" not in outgoing.headers or response.status_code not in (400, 401):
            return False
        body = b""
        if outgoing is not original or response.status_code == 400:
            body = await response.aread()
        return nonce_challenge(response.status_code, response.headers, body)

    def refuse_nonce(self, outgoing: httpx2.Request, original: httpx2.Request) -> OAuthRefusedError:
        """The error for a server that refused the nonce it had just given (expired, replayed)."""
        where = str(outgoing.url.copy_with(query=None))
        stage = AuthStage.TOKEN if outgoing is not original else None
        why = f"{where} refused the DPoP proof again with the nonce it had just sent"
        if stage is not None:
            self.steps.step(stage, "failed", f"dpop-nonce-refused: {why}")
        return OAuthRefusedError(
            f"The OAuth login stopped: {why}.",
            hint="the server's DPoP nonces expire too soon, or it keeps refusing them; see the wire log",
            details={"oauth": "dpop-nonce-refused", "step": stage.value if stage else "resource"},
        )

    async def as_sdk_sees_it(
        self, outgoing: httpx2.Request, original: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Response:
        """A ``DPoP`` token response as the SDK's ``Bearer``-only model reads it; the token is remembered as bound."""
        if outgoing is original or response.status_code != 200:
            return response
        if classify(outgoing)[0] not in (AuthStage.TOKEN, AuthStage.REFRESH) or outgoing.extensions.get(NO_PROOF):
            return response
        await response.aread()
        try:
            body: Any = json.loads(response.content)
        except ValueError:
            return response
        if not isinstance(body, dict) or str(body.get("token_type", "")).lower() != "dpop":
            return response
        token = body.get("access_token")
        if isinstance(token, str):
            self.bound.add(token)
            if self._store is not None:
                await self._store.set(f"{self._key_prefix}/{DPOP_BOUND_KIND}", _digest(token))
        return httpx2.Response(
            200,
            headers={"Content-Type": "application/json"},
            content=json.dumps({**body, "token_type": "Bearer"}).encode(),
            request=outgoing,
        )

    async def flow(
        self, inner: AsyncGenerator[httpx2.Request, httpx2.Response], original: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """``inner`` (the provider's flow) with proofs, one nonce retry per request, and DPoP token types.

        Raises:
            OAuthRefusedError: A server asked for a nonce again right after getting it.
        """
        try:
            outgoing = await inner.__anext__()
            while True:
                response = yield self.prove(outgoing, original)
                if await self.challenged(outgoing, original, response):
                    response = yield self.prove(outgoing, original)
                    if await self.challenged(outgoing, original, response):
                        raise self.refuse_nonce(outgoing, original)
                response = await self.as_sdk_sees_it(outgoing, original, response)
                outgoing = await inner.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await inner.aclose()
