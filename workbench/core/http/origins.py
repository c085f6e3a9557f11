"""Credentials bound to origins: a profile's secrets go only where the user pointed the profile.

An origin is ``scheme://host:port`` (RFC 6454), with the default port spelled out, so
``https://a.example`` and ``https://a.example:443`` are the same origin and ``http://a.example`` is
another. A ``CredentialBoundary`` knows the origins the user configured (the profile's URL, its card
URL, origins approved later) and the secret values of the connection; ``check`` refuses a request that
would carry a credential anywhere else:

- to an origin the user did not configure or approve (an agent card's interface URL on another host,
  port or scheme; a redirect) — ``CredentialOriginError`` naming both origins;
- in clear text (``http``) to a host that is not loopback, unless the profile allows it —
  ``InsecureCredentialError``.

A request "carries a credential" when it has a credential header (``Authorization``, ``X-API-Key``,
any name with ``token``, ``secret``, ``key`` …; cookies only by value), a credential URL parameter
(``?api_key=…``), or when any known secret value (or its URL-encoded spelling) appears in a header
value or in its URL. Known values are the boundary's own and, when given, every value the wire
log's ``Redactor`` knows (it learns the credentials an auth flow attaches).
Requests without credentials go anywhere: an anonymous agent whose card points elsewhere still works.

Client-free: the ``httpx`` / ``httpx2`` transport shims call ``check`` with the request's URL and headers.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit

from workbench.core.errors import ConnectError
from workbench.core.safe_text import neutralise
from workbench.core.wire.redaction import is_secret_header, is_secret_param

if TYPE_CHECKING:
    from workbench.core.wire.redaction import Redactor

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
OAUTH_ENDPOINT = "workbench.oauth_endpoint"
"""Request extension marking a request to an OAuth endpoint the connection's own card declared.

Such a request carries the OAuth client's credentials to the authorization server, which is
usually another origin; it is exempt from the origin rule (not from the https rule). The endpoints
themselves are checked where they are learned (``https``, OpenID Connect issuer).
"""
_VALUE_ONLY_HEADERS = frozenset({"cookie", "set-cookie"})  # a site's own cookies may go to it
_MIN_SECRET = 4


class CredentialOriginError(ConnectError):
    """A credential would have gone to an origin the user did not configure or approve.

    ``details``: ``origin`` (where the request was going), ``allowed`` (the configured / approved
    origins), ``url`` (the request URL without its query).
    """

    code = "credential-origin"

    @property
    def origin(self) -> str:
        """The origin that was refused (what an approval would allow)."""
        return str(self.details.get("origin", ""))


class InsecureCredentialError(ConnectError):
    """A credential would have gone over plain ``http`` to a host that is not loopback."""

    code = "insecure-credential"


def origin_of(url: str) -> str:
    """The origin of ``url`` as ``scheme://host:port`` (lower case, default port spelled out).

    Raises:
        ValueError: ``url`` has no scheme or host, or a port that is not a number.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if not scheme or not host:
        raise ValueError(f"not an absolute URL: {url!r}")
    port = parts.port or _DEFAULT_PORTS.get(scheme)
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or an IP literal, brackets allowed) is this machine."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class OriginApproval:
    """A question for the user: may this connection's credentials also go to ``origin``.

    Attributes:
        origin: Where the peer wants them sent (``scheme://host:port``).
        allowed: The origins the user configured or approved so far.
        url: The request URL that needs them (without its query).
        profile_id: The profile whose credentials these are (``""`` for an ad-hoc target).
        profile_name: Its name, for the question.
    """

    origin: str
    allowed: tuple[str, ...]
    url: str
    profile_id: str = ""
    profile_name: str = ""


OriginApprover = Callable[[OriginApproval], Awaitable[bool]]
"""Asks the user about an ``OriginApproval``; ``True`` allows the origin for this profile from now on."""


class CredentialBoundary:
    """The origins a connection's credentials may go to, and the credentials to look for.

    Args:
        configured: URLs (or origins) the user configured; their origins are allowed.
        secrets: Secret values of the connection (more can be added with ``add_secret``).
        allow_insecure: Also send credentials over plain ``http`` to hosts that are not loopback.
        redactor: The wire log's redactor; every secret value it knows counts too.
        approver: Asked once per origin when a credential would go elsewhere (``None``: refuse).
        profile_id: The profile the credentials belong to (named in approvals).
        profile_name: Its name.
    """

    def __init__(
        self,
        configured: Iterable[str],
        secrets: Iterable[str] = (),
        *,
        allow_insecure: bool = False,
        redactor: Redactor | None = None,
        approver: OriginApprover | None = None,
        profile_id: str = "",
        profile_name: str = "",
    ) -> None:
        self._allowed: dict[str, None] = {}
        for url in configured:
            self.allow(url)
        self._secrets: set[str] = set()
        self._spellings: tuple[str, ...] = ()
        for value in secrets:
            self.add_secret(value)
        self.allow_insecure = allow_insecure
        self._redactor = redactor
        self.approver = approver
        self.profile_id = profile_id
        self.profile_name = profile_name
        self._refused: set[str] = set()
        self._asking: asyncio.Lock | None = None

    @property
    def allowed(self) -> list[str]:
        """The allowed origins, in the order they were added."""
        return list(self._allowed)

    def allow(self, url_or_origin: str) -> str:
        """Allow credentials to go to the origin of ``url_or_origin``; returns that origin."""
        origin = origin_of(url_or_origin)
        self._allowed[origin] = None
        return origin

    def allows(self, url: str) -> bool:
        """Whether credentials may go to ``url``'s origin."""
        try:
            return origin_of(url) in self._allowed
        except ValueError:
            return False

    def add_secret(self, value: str) -> None:
        """A value that counts as a credential wherever it appears (shorter than 4 characters: ignored)."""
        if not isinstance(value, str) or len(value) < _MIN_SECRET or value in self._secrets:
            return
        self._secrets.add(value)
        spellings = set(self._spellings)
        spellings.update({value, quote(value, safe=""), quote_plus(value, safe="")})
        self._spellings = tuple(spellings)

    def carries_credential(self, url: str, headers: Iterable[tuple[str, str]]) -> bool:
        """Whether a request to ``url`` with ``headers`` would carry a credential."""
        for name, value in headers:
            if value and name.lower() not in _VALUE_ONLY_HEADERS and is_secret_header(name):
                return True
            if self._known(value):
                return True
        query = urlsplit(url).query
        if any(value and is_secret_param(name) for name, value in parse_qsl(query, keep_blank_values=True)):
            return True
        return self._known(url)

    def _known(self, text: str) -> bool:
        if any(s in text for s in self._spellings):
            return True
        return self._redactor is not None and self._redactor.mentions_secret(text)

    def check(self, url: str, headers: Iterable[tuple[str, str]], *, oauth_endpoint: bool = False) -> None:
        """Refuse a request that would carry a credential where it must not go.

        ``oauth_endpoint``: the request goes to an OAuth endpoint (``OAUTH_ENDPOINT``) with the OAuth
        client's own authentication; the origin rule still applies to the connection's other
        credentials (the values it was given), the https rule to everything.

        Raises:
            CredentialOriginError: The origin of ``url`` is not configured or approved.
            InsecureCredentialError: ``url`` is plain ``http`` to a host that is not loopback.
        """
        headers = list(headers)
        if not self.carries_credential(url, headers):
            return
        try:
            origin = origin_of(url)
        except ValueError:
            origin = ""
        shown = neutralise(url.split("?", 1)[0])
        own_secret = any(s in url or any(s in v for _, v in headers) for s in self._spellings)
        if origin not in self._allowed and (not oauth_endpoint or own_secret):
            allowed = ", ".join(self._allowed) or "none"
            raise CredentialOriginError(
                f"Refused to send this connection's credentials to {neutralise(origin)}: they are for {allowed}.",
                hint="the agent points to another origin; approve it only if you trust it to receive your credentials",
                details={"origin": origin, "allowed": self.allowed, "url": shown},
            )
        host = urlsplit(url).hostname or ""
        if origin.startswith("http://") and not self.allow_insecure and not is_loopback_host(host):
            raise InsecureCredentialError(
                f"Refused to send credentials over plain http to {neutralise(origin)}.",
                hint="use https, or allow insecure credentials for this profile if this network is trusted",
                details={"origin": origin, "url": shown},
            )

    async def admit(self, url: str, headers: Iterable[tuple[str, str]], *, oauth_endpoint: bool = False) -> None:
        """``check``, asking the approver (once per origin and session) before refusing an origin.

        Raises:
            CredentialOriginError: Not allowed, and no approver or the user said no.
            InsecureCredentialError: Plain ``http`` to a host that is not loopback.
        """
        items = list(headers)
        try:
            self.check(url, items, oauth_endpoint=oauth_endpoint)
        except CredentialOriginError as refused:
            if self.approver is None or refused.origin in self._refused:
                raise
            if self._asking is None:
                self._asking = asyncio.Lock()
            async with self._asking:  # concurrent requests to the new origin ask once
                if refused.origin in self._allowed:
                    return self.check(url, items, oauth_endpoint=oauth_endpoint)
                if refused.origin in self._refused:
                    raise
                question = OriginApproval(
                    origin=refused.origin,
                    allowed=tuple(self._allowed),
                    url=str(refused.details.get("url", "")),
                    profile_id=self.profile_id,
                    profile_name=self.profile_name,
                )
                if not await self.approver(question):
                    self._refused.add(refused.origin)
                    raise
                self.allow(refused.origin)
            self.check(url, items, oauth_endpoint=oauth_endpoint)
