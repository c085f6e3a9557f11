"""OAuth options of an MCP connection: who the client is and how it gets tokens (plain data, no SDK).

``OAuth`` is what ``MCPAgent(url, oauth=OAuth(...))`` takes and what a saved profile's OAuth
settings become (``workbench.core.agent_factory``)::

    OAuth(
        client=DynamicClient()                      # RFC 7591 registration (the default)
             | PreRegisteredClient(id, secret, token_endpoint_auth_method=...)
             | MetadataDocumentClient("https://app.example/client.json"),   # CIMD
        grant=AuthorizationCode(),                  # browser login with PKCE (the default)
        scopes=("read",),
    )

Both kinds of choice are open class families: a new client identity subclasses ``OAuthClient``,
a new grant subclasses ``OAuthGrant``; the login code dispatches on the class. Secrets stay out of
``repr`` (a client secret is never printed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from workbench.core.errors import ConfigError
from workbench.core.http.origins import is_loopback_host
from workbench.core.oauth_names import TOKEN_ENDPOINT_AUTH_METHODS
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT

TokenEndpointAuthMethod = Literal["client_secret_basic", "client_secret_post", "none"]
"""How a client authenticates at the token endpoint (RFC 7591 ``token_endpoint_auth_method``)."""


class OAuthClient:
    """Base of the client identities: how the authorization server knows this client."""


class OAuthGrant:
    """Base of the grants: how the client obtains tokens."""


@dataclass(frozen=True, slots=True)
class DynamicClient(OAuthClient):
    """Register with the authorization server (RFC 7591) on the first login; the registration is stored.

    Attributes:
        client_name: The name registered (shown on the consent page); ``None``: "Agent Workbench".
    """

    client_name: str | None = None


@dataclass(frozen=True, slots=True)
class PreRegisteredClient(OAuthClient):
    """A client registered out of band: its id, and its secret when it is confidential.

    Attributes:
        client_id: The client id the authorization server issued.
        client_secret: The client secret (``None`` for a public client); never shown in ``repr``.
        token_endpoint_auth_method: ``client_secret_basic`` (default with a secret),
            ``client_secret_post``, or ``none`` (default without a secret).

    Raises:
        ConfigError: No client id, an unknown method, or a secret method without a secret.
    """

    client_id: str
    client_secret: str | None = field(default=None, repr=False)
    token_endpoint_auth_method: TokenEndpointAuthMethod | None = None

    def __post_init__(self) -> None:
        if not self.client_id:
            raise ConfigError("A pre-registered OAuth client needs its client id.", hint="PreRegisteredClient('my-id')")
        method = self.token_endpoint_auth_method
        if method is None:
            method = "client_secret_basic" if self.client_secret else "none"
            object.__setattr__(self, "token_endpoint_auth_method", method)
        if method not in TOKEN_ENDPOINT_AUTH_METHODS:
            raise ConfigError(
                f"Unknown token endpoint auth method {method!r}.", hint=", ".join(TOKEN_ENDPOINT_AUTH_METHODS)
            )
        if method != "none" and not self.client_secret:
            raise ConfigError(
                f"The token endpoint auth method {method} needs a client secret.",
                hint="give client_secret, or use token_endpoint_auth_method='none' for a public client",
            )

    @property
    def auth_method(self) -> TokenEndpointAuthMethod:
        """The token endpoint auth method, defaults applied."""
        return self.token_endpoint_auth_method or "none"


@dataclass(frozen=True, slots=True)
class MetadataDocumentClient(OAuthClient):
    """A Client ID Metadata Document (CIMD): the client id is the https URL of the client's metadata.

    Used when the authorization server advertises ``client_id_metadata_document_supported``;
    otherwise the login registers dynamically (or, with ``fallback=False``, refuses). The document
    must name ``url`` as its ``client_id`` and list the loopback redirect URI the login uses
    (``http://127.0.0.1:<port>/callback``; fix the port with ``AuthorizationCode(redirect_port=…)``).

    Attributes:
        url: The document's URL with a path: https, or plain http on a loopback host (local testing).
        fallback: Register dynamically when the server does not support CIMD (``False``: refuse).
        verify: Read the document before using its URL and refuse one that does not match
            (``OAuthRefusedError``, ``details["oauth"] == "client-metadata-mismatch"``); ``False``
            for a document this machine cannot reach (the authorization server still can).

    Raises:
        ConfigError: ``url`` is not https (or loopback http) with a non-root path.
    """

    url: str
    fallback: bool = True
    verify: bool = True

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        secure = parts.scheme == "https" or (parts.scheme == "http" and is_loopback_host(parts.hostname or ""))
        if not secure or not parts.netloc or parts.path in ("", "/"):
            raise ConfigError(
                f"A client metadata document URL must be https with a path, got {self.url!r}.",
                hint="e.g. https://app.example/oauth/client.json",
                details={"oauth": "invalid-client-metadata-url"},
            )

    def document(self, redirect_port: int, *, client_name: str = "Agent Workbench") -> dict[str, object]:
        """The metadata document to publish at ``url`` for a login on ``redirect_port`` (a public client).

        Serve it (on loopback for local testing) and log in with
        ``OAuth(client=this, grant=AuthorizationCode(redirect_port=redirect_port))``.
        """
        return {
            "client_id": self.url,
            "client_name": client_name,
            "redirect_uris": [f"http://127.0.0.1:{redirect_port}/callback"],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }


@dataclass(frozen=True, slots=True)
class AuthorizationCode(OAuthGrant):
    """The authorization code grant with PKCE (S256): a person logs in in a browser.

    The redirect comes back to a loopback port on this machine; the port is kept with the stored
    registration so that its ``redirect_uris`` stay valid.

    Attributes:
        redirect_port: The loopback port of the redirect URI (``None``: the stored one, else a free one).
    """

    redirect_port: int | None = None


@dataclass(frozen=True, slots=True)
class DPoP:
    """DPoP-bound tokens (RFC 9449): every token request and every request to the server carries a proof.

    The proofs are signed with an ES256 key pair: the one given, else one kept in the credential
    store with the login (``<key>/oauth:dpop-key``: a profile's in the keyring; a library agent's in
    its own store, so a new agent makes a new key). A server's ``use_dpop_nonce`` is answered once
    with its nonce; a second refusal stops the login (``OAuthRefusedError``,
    ``details["oauth"] == "dpop-nonce-refused"``).

    Attributes:
        key_pem: The P-256 private key as PEM; never shown in ``repr``.
    """

    key_pem: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class OAuth:
    """How an MCP connection logs in with OAuth 2.1.

    Discovery (RFC 9728 protected resource metadata, RFC 8414 / OIDC authorization server
    metadata), the ``resource`` parameter (RFC 8707), issuer checks (RFC 9207), https checks off
    loopback, scope step-up on ``insufficient_scope``, refresh before expiry and the credential
    boundary are the same whatever the client and grant.

    Attributes:
        client: Who the client is (default: ``DynamicClient()``).
        grant: How it gets tokens (default: ``AuthorizationCode()``).
        scopes: Scopes to ask for on top of those the server challenges for.
        store_key: Where tokens and registration live in the credential store
            (``<store_key>/oauth:tokens``, ``<store_key>/oauth:client``); ``None``: derived from the URL.
        login_timeout: Seconds a person gets to finish the login in the browser.
        dpop: DPoP-bound tokens (RFC 9449) with proofs from a key pair
            (``DPoP()``); ``None``: bearer tokens.
    """

    client: OAuthClient = field(default_factory=DynamicClient)
    grant: OAuthGrant = field(default_factory=AuthorizationCode)
    scopes: tuple[str, ...] = ()
    store_key: str | None = None
    login_timeout: float = DEFAULT_LOGIN_TIMEOUT
    dpop: DPoP | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "scopes", tuple(self.scopes))
        if not isinstance(self.client, OAuthClient):
            raise ConfigError(
                f"OAuth(client=...) takes an OAuthClient, got {type(self.client).__name__}.",
                hint="DynamicClient(), PreRegisteredClient(id, secret) or MetadataDocumentClient(url)",
            )
        if not isinstance(self.grant, OAuthGrant):
            raise ConfigError(
                f"OAuth(grant=...) takes an OAuthGrant, got {type(self.grant).__name__}.",
                hint="AuthorizationCode()",
            )

    def key_for(self, url: str) -> str:
        """The credential-store key prefix of this login to ``url``."""
        return self.store_key or f"oauth@{url}"
