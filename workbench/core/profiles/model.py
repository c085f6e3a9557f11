"""Saved connection profiles: what to connect to and how, with secrets only as references.

A profile is one of four pydantic classes, told apart by ``kind``:

- ``MCPStdioProfile``  (``mcp-stdio``): start ``command args`` and speak MCP over its stdin/stdout;
- ``MCPHTTPProfile``   (``mcp-http``):  MCP Streamable HTTP at ``url``;
- ``MCPSSEProfile``    (``mcp-sse``):   the legacy MCP HTTP+SSE transport at ``url``;
- ``A2AProfile``       (``a2a``):       an A2A agent at ``url`` (agent card at ``card_url`` if given).

``ConnectionProfile`` is their tagged union; ``parse_profile`` turns a dict into the right class.
Profiles never hold a secret's value, only ``SecretRef``s (``workbench.core.profiles.secret_refs``,
which also holds the checks that refuse plain ``headers``, ``env`` and URLs that look like they carry
a secret); the credential store fills them in when connecting. HTTP MCP profiles may instead log in
with OAuth 2.1 (``auth="oauth"``; the tokens live in the credential store, see
``workbench.core.protocols.mcp.oauth``).
"""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Any, ClassVar, Literal, Self
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

from workbench.core.errors import ConfigError
from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES, HTTPLimits
from workbench.core.profiles.client_capabilities import ClientCapabilitySwitches
from workbench.core.profiles.secret_refs import SecretKind, SecretRef, check_env, check_headers, check_url
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT

MCPMode = Literal["auto", "legacy", "2026-07-28"]
A2ABinding = Literal["auto", "JSONRPC", "HTTP+JSON", "GRPC"]
A2AProtocolVersion = Literal["auto", "1.0", "0.3"]
ToolApprovalPolicy = Literal["always", "destructive", "never"]
"""When a profile's tool calls ask the user first (``workbench.core.tool_approval``)."""
OAuthGrantName = Literal["authorization_code", "client_credentials", "jwt_bearer", "enterprise_managed"]
"""A profile's ``oauth_grant``: how an OAuth profile gets its tokens."""

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


# --------------------------------------------------------------------------- parts


class Root(BaseModel):
    """A filesystem root the workbench offers an MCP server (``roots/list``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    uri: str
    name: str | None = None

    @field_validator("uri")
    @classmethod
    def _file_uri(cls, value: str) -> str:
        if not value.startswith("file://"):
            raise ValueError("a root must be a file:// URI")
        return value


# --------------------------------------------------------------------------- profiles


def new_profile_id() -> str:
    """A fresh, stable profile id (a UUID4 in hex)."""
    return uuid.uuid4().hex


class _ProfileBase(BaseModel):
    """Fields every profile has."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: str  # narrowed to a Literal by each profile class; first so it leads in the file
    id: Annotated[str, Field(default_factory=new_profile_id, pattern=_ID_RE.pattern)]
    name: Annotated[str, Field(min_length=1, max_length=200)]
    connect_timeout: Annotated[float, Field(gt=0, le=3600)] = DEFAULT_CONNECT_TIMEOUT
    request_timeout: Annotated[float | None, Field(gt=0, le=86400)] = DEFAULT_REQUEST_TIMEOUT
    secrets: list[SecretRef] = Field(default_factory=list)

    # Which secret kinds this profile can use; subclasses narrow it.
    _secret_kinds: ClassVar[frozenset[SecretKind]] = frozenset(
        {SecretKind.BEARER, SecretKind.API_KEY, SecretKind.HEADER}
    )

    @model_validator(mode="after")
    def _secrets_fit(self) -> Self:
        targets: set[str] = set()
        for ref in self.secrets:
            if ref.kind not in self._secret_kinds:
                allowed = ", ".join(sorted(k.value for k in self._secret_kinds))
                raise ValueError(f"secret kind {ref.kind.value!r} does not fit this profile (use: {allowed})")
            target = ref.target.lower() if ref.kind is not SecretKind.ENV else ref.target
            if target in targets:
                raise ValueError(f"two secrets fill {ref.target!r}")
            targets.add(target)
        plain = {h.lower() for h in getattr(self, "headers", {})} | set(getattr(self, "env", {}))
        clash = sorted(plain & targets)
        if clash:
            raise ValueError(f"{clash[0]!r} is set both as a plain value and as a secret")
        return self

    @property
    def protocol(self) -> Literal["mcp", "a2a"]:
        """``mcp`` or ``a2a``."""
        return "a2a" if self.kind == "a2a" else "mcp"

    def with_changes(self, **changes: Any) -> Self:
        """Return a copy with ``changes`` applied and validated again (``model_copy`` skips validation).

        Raises:
            pydantic.ValidationError: When the result is not a valid profile.
        """
        return self.model_validate({**self.model_dump(), **changes})


class _HeadersMixin(BaseModel):
    """Non-secret HTTP headers, checked for anything that looks like a credential."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    headers: dict[str, str] = Field(default_factory=dict)

    @field_validator("headers")
    @classmethod
    def _no_secret_headers(cls, value: dict[str, str]) -> dict[str, str]:
        return check_headers(value)


class _URLMixin(BaseModel):
    """A peer reached over HTTP(S) at ``url``.

    Attributes:
        url: Where the peer is.
        allowed_origins: Origins (``scheme://host:port``) besides ``url``'s (and ``card_url``'s) that
            may receive this profile's credentials — approved by the user when the peer pointed there.
        allow_insecure_credentials: Send credentials over plain ``http`` to hosts that are not this
            machine (off: refused with a clear error).
        max_message_bytes: Most bytes of one response body or one SSE event (``None``: no limit).
        max_stream_bytes: Most bytes of one event stream answering one request (``None``: no limit).
    """

    url: str
    allowed_origins: list[str] = Field(default_factory=list)
    allow_insecure_credentials: bool = False
    max_message_bytes: Annotated[int | None, Field(gt=0)] = DEFAULT_MAX_MESSAGE_BYTES
    max_stream_bytes: Annotated[int | None, Field(gt=0)] = DEFAULT_MAX_STREAM_BYTES

    def http_limits(self) -> HTTPLimits:
        """The response size limits the agent gets (``workbench.core.http.limits``)."""
        return HTTPLimits(max_message_bytes=self.max_message_bytes, max_stream_bytes=self.max_stream_bytes)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        return check_url(value, "url")

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        from workbench.core.http.origins import origin_of

        out: list[str] = []
        for item in value:
            check_url(item, "allowed_origins")
            origin = origin_of(item)
            if origin not in out:
                out.append(origin)
        return out

    def credential_origins(self) -> list[str]:
        """The URLs whose origins may receive this profile's credentials (configured and approved)."""
        card_url = getattr(self, "card_url", None)
        return [self.url, *([card_url] if card_url else []), *self.allowed_origins]


class _MCPMixin(BaseModel):
    """MCP-only settings: the era, the agent entry point, the roots offered and the capabilities advertised."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    mode: MCPMode = "auto"
    agent_tool: str | None = None
    roots: list[Root] = Field(default_factory=list)
    tool_approval: ToolApprovalPolicy = "destructive"
    """When a tool call asks first: ``always``, ``destructive`` (tools annotated so) or ``never``."""
    client_capabilities: ClientCapabilitySwitches = Field(default_factory=ClientCapabilitySwitches)


class _OAuthClientMixin(BaseModel):
    """A client registered in advance and DPoP: the OAuth settings MCP and A2A profiles share.

    Attributes:
        oauth_client_id: The pre-registered (or ``private-key-jwt``) client's id.
        oauth_token_auth: The pre-registered client's token endpoint auth method (its secret in the
            credential store under ``<id>/oauth:client-secret`` unless this is ``none``).
        oauth_client_key_file: A ``private-key-jwt`` client's PEM private key file; ``None``: the key
            is in the credential store under ``<id>/oauth:client-key``.
        oauth_client_key_algorithm: The signature algorithm of a ``private-key-jwt`` client's assertions.
        oauth_dpop: DPoP-bound tokens (RFC 9449), proofs signed with the profile's own key pair (kept
            in the credential store, made on first use).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    oauth_client_id: Annotated[str, Field(min_length=1, max_length=2000)] | None = None
    oauth_token_auth: Literal["client_secret_basic", "client_secret_post", "none"] = "client_secret_basic"
    oauth_client_key_file: Annotated[str, Field(min_length=1, max_length=4000)] | None = None
    oauth_client_key_algorithm: Literal[
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"
    ] = "RS256"
    oauth_dpop: bool = False

    def _client_id_given(self) -> None:
        """Refuse a client registered in advance without its id."""
        if getattr(self, "oauth_client", "") in ("pre-registered", "private-key-jwt") and not self.oauth_client_id:
            raise ValueError("a pre-registered OAuth client needs its client id")


class _OAuthMixin(_OAuthClientMixin):
    """How an HTTP MCP server is authorised: fixed secrets only (``none``) or an OAuth 2.1 login.

    The client registered in advance and DPoP are ``_OAuthClientMixin``'s fields.

    Attributes:
        auth: ``oauth`` logs in with the server's authorization server (discovery, dynamic client
            registration, PKCE, loopback redirect); tokens live in the credential store.
        oauth_scopes: Scopes to ask for on top of those the server challenges for.
        oauth_client_name: The client name shown on the authorization server's consent page.
        oauth_client: Who the client is: ``dynamic`` (RFC 7591 registration), ``pre-registered``
            (``oauth_client_id``; its secret in the credential store under
            ``<id>/oauth:client-secret`` unless ``oauth_token_auth`` is ``none``) or
            ``metadata-document`` (CIMD: ``oauth_client_metadata_url`` is the client id).
        oauth_client_metadata_url: The client metadata document's URL (https, or http on loopback).
        oauth_redirect_port: The loopback port of the redirect URI, for a client registered with a
            fixed one (``None``: the one kept with the login, else a free port).
        oauth_grant: How tokens are obtained: ``authorization_code`` (a person in a browser),
            ``client_credentials`` (the client for itself: a ``pre-registered`` client with a secret,
            or a ``private-key-jwt`` one), ``jwt_bearer`` (workload identity, SEP-1933: a JWT the
            workload's platform issued is the assertion) or ``enterprise_managed`` (SEP-990: the
            user's ID token exchanged at the enterprise IdP for an ID-JAG, then the JWT bearer grant
            with it; the client is confidential). The last three need a client registered in advance.
        oauth_assertion_file: ``jwt_bearer``: the file holding the workload's JWT, read again at each
            login (a Kubernetes projected service account token rotates); ``None``: the JWT is in the
            credential store under ``<id>/oauth:assertion``.
        oauth_idp_token_endpoint: ``enterprise_managed``: the IdP's token endpoint (https, or http on
            this machine) where the ID token is exchanged.
        oauth_idp_client_id: ``enterprise_managed``: this client's id at the IdP (its secret, if it has
            one, in the credential store under ``<id>/oauth:idp-client-secret``).
        oauth_id_token_file: ``enterprise_managed``: the file holding the user's ID token, read again
            at each login; ``None``: the ID token is in the credential store under ``<id>/oauth:id-token``.
    """

    auth: Literal["none", "oauth"] = "none"
    oauth_scopes: list[str] = Field(default_factory=list)
    oauth_client_name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    oauth_client: Literal["dynamic", "pre-registered", "metadata-document", "private-key-jwt"] = "dynamic"
    oauth_client_metadata_url: Annotated[str, Field(min_length=1, max_length=2000)] | None = None
    oauth_redirect_port: Annotated[int, Field(ge=1, le=65535)] | None = None
    oauth_grant: OAuthGrantName = "authorization_code"
    oauth_assertion_file: Annotated[str, Field(min_length=1, max_length=4000)] | None = None
    oauth_idp_token_endpoint: Annotated[str, Field(min_length=1, max_length=2000)] | None = None
    oauth_idp_client_id: Annotated[str, Field(min_length=1, max_length=2000)] | None = None
    oauth_id_token_file: Annotated[str, Field(min_length=1, max_length=4000)] | None = None

    @model_validator(mode="after")
    def _one_authorization_source(self) -> Self:
        if self.auth == "oauth" and any(r.target.lower() == "authorization" for r in getattr(self, "secrets", [])):
            raise ValueError("an OAuth profile sets the Authorization header itself; remove its bearer secret")
        self._client_id_given()
        if self.oauth_client == "private-key-jwt" and self.oauth_grant == "authorization_code":
            raise ValueError("a private-key-jwt client logs in with a grant without a browser, not authorization_code")
        self._grant_fits()
        if self.oauth_client == "metadata-document":
            url = urlsplit(self.oauth_client_metadata_url or "")
            loopback = url.hostname in ("127.0.0.1", "localhost", "::1")
            secure = url.scheme == "https" or (url.scheme == "http" and loopback)
            if not secure or url.path in ("", "/"):
                raise ValueError("a client metadata document URL must be https (or http on loopback) with a path")
        return self

    def _grant_fits(self) -> None:
        """Refuse a grant the client cannot use, and a grant's settings given to another grant."""
        grant = self.oauth_grant
        confidential = self.oauth_client == "private-key-jwt" or (
            self.oauth_client == "pre-registered" and self.oauth_token_auth != "none"
        )
        if grant == "client_credentials" and not confidential:
            raise ValueError(
                "the client_credentials grant needs a pre-registered client with a secret, or a private key"
            )
        if grant == "jwt_bearer" and self.oauth_client not in ("pre-registered", "private-key-jwt"):
            raise ValueError("the jwt_bearer grant needs a client registered in advance (a client id)")
        if grant == "enterprise_managed":
            if not confidential:
                raise ValueError(
                    "the enterprise_managed grant needs a pre-registered client with a secret, or a private key"
                )
            if not self.oauth_idp_token_endpoint or not self.oauth_idp_client_id:
                raise ValueError("the enterprise_managed grant needs the IdP's token endpoint and its client id")
            url = urlsplit(self.oauth_idp_token_endpoint)
            loopback = url.hostname in ("127.0.0.1", "localhost", "::1")
            if not (url.scheme == "https" or (url.scheme == "http" and loopback)) or not url.hostname:
                raise ValueError("the IdP token endpoint must be an https URL (or http on this machine)")
        if grant != "jwt_bearer" and self.oauth_assertion_file:
            raise ValueError("a workload JWT file is for the jwt_bearer grant")
        if grant != "enterprise_managed" and (
            self.oauth_idp_token_endpoint or self.oauth_idp_client_id or self.oauth_id_token_file
        ):
            raise ValueError("the IdP settings and the ID token file are for the enterprise_managed grant")


class MCPStdioProfile(_MCPMixin, _ProfileBase):
    """An MCP server started as a child process and spoken to over stdin/stdout.

    Attributes:
        command: The executable.
        args: Its arguments.
        env: Non-secret environment variables, added to a small safe default set (secrets go in
            ``secrets`` with kind ``env``).
        cwd: Working directory (default: the workbench's).
    """

    kind: Literal["mcp-stdio"] = "mcp-stdio"
    command: Annotated[str, Field(min_length=1)]
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None

    _secret_kinds: ClassVar[frozenset[SecretKind]] = frozenset({SecretKind.ENV})

    @field_validator("env")
    @classmethod
    def _no_secret_env(cls, value: dict[str, str]) -> dict[str, str]:
        return check_env(value)

    @property
    def transport(self) -> Literal["stdio"]:
        """The MCP transport name."""
        return "stdio"


_HTTP_SECRET_KINDS = frozenset(
    {SecretKind.BEARER, SecretKind.API_KEY, SecretKind.HEADER, SecretKind.QUERY, SecretKind.COOKIE}
)


class MCPHTTPProfile(_URLMixin, _HeadersMixin, _OAuthMixin, _MCPMixin, _ProfileBase):
    """An MCP server over Streamable HTTP."""

    kind: Literal["mcp-http"] = "mcp-http"

    _secret_kinds: ClassVar[frozenset[SecretKind]] = _HTTP_SECRET_KINDS

    @property
    def transport(self) -> Literal["streamable-http"]:
        """The MCP transport name."""
        return "streamable-http"


class MCPSSEProfile(_URLMixin, _HeadersMixin, _OAuthMixin, _MCPMixin, _ProfileBase):
    """An MCP server over the legacy HTTP+SSE transport (protocol 2024-11-05)."""

    kind: Literal["mcp-sse"] = "mcp-sse"

    _secret_kinds: ClassVar[frozenset[SecretKind]] = _HTTP_SECRET_KINDS

    @property
    def transport(self) -> Literal["sse"]:
        """The MCP transport name."""
        return "sse"


class _A2AOAuthMixin(_OAuthClientMixin):
    """Who the client is for an A2A agent card's OAuth 2.0 / OpenID Connect schemes, and DPoP.

    The card names each scheme's flow and endpoints (``client_credentials``, or the authorization code
    with PKCE in a browser); the profile names only the client, with ``_OAuthClientMixin``'s fields.

    Attributes:
        oauth_client: ``per-scheme``: the client id and secret stored (or asked for) for each scheme,
            under ``<id>/a2a:<scheme>:client_id`` and ``…:client_secret``, sent as
            ``client_secret_post``; ``pre-registered``: ``oauth_client_id`` for every scheme, its
            secret (unless ``oauth_token_auth`` is ``none``) in the credential store under
            ``<id>/oauth:client-secret``; ``private-key-jwt``: ``oauth_client_id`` authenticating with
            a signed assertion (RFC 7523), its key from ``oauth_client_key_file`` or the credential store.
    """

    oauth_client: Literal["per-scheme", "pre-registered", "private-key-jwt"] = "per-scheme"

    @model_validator(mode="after")
    def _client_fits(self) -> Self:
        self._client_id_given()
        return self


class A2AProfile(_URLMixin, _HeadersMixin, _A2AOAuthMixin, _ProfileBase):
    """An A2A agent.

    The OAuth client for its card's OAuth schemes and DPoP are ``_A2AOAuthMixin``'s fields.

    Attributes:
        url: The agent's base URL (its card is looked up under ``/.well-known/``).
        card_url: Where the agent card is, when it is not under ``url``.
        binding: Preferred protocol binding, or ``auto`` to follow the card (``GRPC`` needs ``a2a-sdk[grpc]``).
        protocol_version: The A2A protocol version whose card interface is used (``auto``: 1.0 when offered).
        streaming: Use streaming (``message/stream``) when the agent supports it.
        stream_idle_timeout: Give up on a stream silent for this long (seconds; ``None``: never).
    """

    kind: Literal["a2a"] = "a2a"
    card_url: str | None = None
    binding: A2ABinding = "auto"
    protocol_version: A2AProtocolVersion = "auto"
    streaming: bool = True
    stream_idle_timeout: Annotated[float | None, Field(gt=0, le=86400)] = None

    _secret_kinds: ClassVar[frozenset[SecretKind]] = _HTTP_SECRET_KINDS

    @field_validator("card_url")
    @classmethod
    def _card_url(cls, value: str | None) -> str | None:
        return None if value is None else check_url(value, "card_url")

    @property
    def transport(self) -> Literal["a2a"]:
        """The transport name (the binding is chosen when connecting)."""
        return "a2a"


_DEFERRED = ConfigDict(defer_build=True)  # schemas are built on first use: a CLI run builds only its own profile class

ConnectionProfile = Annotated[
    MCPStdioProfile | MCPHTTPProfile | MCPSSEProfile | A2AProfile,
    Field(discriminator="kind"),
]
"""Any saved profile; ``kind`` says which."""

PROFILE_ADAPTER: TypeAdapter[ConnectionProfile] = TypeAdapter(ConnectionProfile, config=_DEFERRED)
PROFILE_LIST_ADAPTER: TypeAdapter[list[ConnectionProfile]] = TypeAdapter(list[ConnectionProfile], config=_DEFERRED)


def uses_oauth(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` logs in with OAuth (an MCP HTTP/SSE profile with ``auth="oauth"``)."""
    return isinstance(profile, MCPHTTPProfile | MCPSSEProfile) and profile.auth == "oauth"


def names_oauth_client(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` keeps OAuth client settings: an MCP profile with ``auth="oauth"``, or any A2A profile.

    An A2A agent's card says whether it takes OAuth; its profile names the client either way.
    """
    return uses_oauth(profile) or isinstance(profile, A2AProfile)


def a2a_oauth_set(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` is an A2A profile whose OAuth client or DPoP is set (a login is worth offering)."""
    return isinstance(profile, A2AProfile) and (profile.oauth_client != "per-scheme" or profile.oauth_dpop)


def validation_details(exc: ValidationError) -> list[dict[str, Any]]:
    """Describe a pydantic error without the offending input (it may be a secret)."""
    return [{"loc": [str(p) for p in e["loc"]], "type": e["type"], "msg": e["msg"]} for e in exc.errors()]


def parse_profile(data: Any) -> ConnectionProfile:
    """Validate ``data`` (a dict as found in the profile file) into the right profile class.

    Raises:
        ConfigError: When ``data`` is not a valid profile; ``details["errors"]`` lists the problems
            (location, pydantic error type, message) and never the rejected values.
    """
    try:
        return PROFILE_ADAPTER.validate_python(data)
    except ValidationError as exc:
        errors = validation_details(exc)
        first = errors[0]
        where = ".".join(first["loc"]) or "profile"
        raise ConfigError(
            f"The connection profile is invalid: {where}: {first['msg']}",
            hint="fix the profile and save it again",
            details={"errors": errors},
        ) from None
