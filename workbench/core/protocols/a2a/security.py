"""What credentials an A2A agent needs, read from its card's security schemes and requirements.

A card declares named ``securitySchemes`` and ``securityRequirements`` (top level and per skill).
Each requirement is one *alternative*: a set of scheme names (with OAuth scopes) that together
authorise a call; any one alternative suffices, and an empty one means "no credential needed".
``requirement_alternatives`` lists them as ``CredentialNeed``s; ``required_credentials`` picks the
one to ask for: the first alternative whose schemes the workbench can all satisfy (mutual TLS and the
deprecated OAuth implicit / password flows cannot be). A card that declares schemes but no
requirements is read as "any one of the schemes" (many published cards leave requirements out).

The needs are protocol-neutral data (no protobuf), so a UI can render the right fields from
``CredentialNeed.to_dict()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from a2a.types import AgentCard, SecurityRequirement, SecurityScheme

NeedType = Literal[
    "api-key",
    "http-bearer",
    "http-basic",
    "oauth2-client-credentials",
    "oauth2-authorization-code",
    "openid-connect",
    "unsupported",
]
ApiKeyLocation = Literal["header", "query", "cookie"]


@dataclass(frozen=True, slots=True)
class CredentialField:
    """One value the user supplies for a scheme.

    Attributes:
        name: The field's key (``api_key``, ``token``, ``username``, ``password``, ``client_id``,
            ``client_secret``); also the last part of its credential-store key.
        label: A short human label.
        secret: Whether the value must be masked and kept out of logs.
        optional: Whether the scheme works without it (e.g. a public OAuth client's secret).
    """

    name: str
    label: str
    secret: bool = True
    optional: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"name": self.name, "label": self.label, "secret": self.secret, "optional": self.optional}


@dataclass(frozen=True, slots=True)
class CredentialNeed:
    """One security scheme a call needs, described without protobuf types.

    Attributes:
        scheme: The scheme's name in the card (``securitySchemes`` key).
        type: What kind of credential (see ``NeedType``); ``unsupported`` for mutual TLS, the OAuth
            implicit / password / device-code flows and HTTP schemes other than Bearer and Basic.
        fields: The values to ask the user for.
        location: Where an API key goes (``header``, ``query`` or ``cookie``).
        param_name: The API key's header, query parameter or cookie name.
        scopes: OAuth scopes the requirement asks for.
        token_url: OAuth token endpoint.
        authorization_url: OAuth authorization endpoint (authorization code flow).
        refresh_url: OAuth refresh endpoint, when it differs from ``token_url``.
        openid_connect_url: The OpenID Connect discovery document's URL.
        pkce_required: The card says the authorization server insists on PKCE (always used anyway).
        bearer_format: A hint about the bearer token's format (e.g. ``JWT``).
        description: The card's description of the scheme (untrusted text).
        detail: For ``unsupported``: what the scheme is.
    """

    scheme: str
    type: NeedType
    fields: tuple[CredentialField, ...] = ()
    location: ApiKeyLocation | None = None
    param_name: str | None = None
    scopes: tuple[str, ...] = ()
    token_url: str | None = None
    authorization_url: str | None = None
    refresh_url: str | None = None
    openid_connect_url: str | None = None
    pkce_required: bool = False
    bearer_format: str | None = None
    description: str = ""
    detail: str = ""

    @property
    def supported(self) -> bool:
        """Whether the workbench can obtain and attach this credential."""
        return self.type != "unsupported"

    @property
    def is_oauth(self) -> bool:
        """Whether the credential is an OAuth / OpenID Connect access token obtained by a flow."""
        return self.type in ("oauth2-client-credentials", "oauth2-authorization-code", "openid-connect")

    def field(self, name: str) -> CredentialField | None:
        """The field called ``name``, if the scheme has one."""
        return next((f for f in self.fields if f.name == name), None)

    def summary(self) -> str:
        """One line naming the scheme and what it takes (``api-key X-API-Key in header``)."""
        if self.type == "api-key":
            return f"{self.scheme}: api-key {self.param_name} in {self.location}"
        if self.is_oauth:
            scopes = f" scopes {' '.join(self.scopes)}" if self.scopes else ""
            return f"{self.scheme}: {self.type}{scopes}"
        if self.type == "unsupported":
            return f"{self.scheme}: unsupported ({self.detail})"
        return f"{self.scheme}: {self.type}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (empty / unset attributes left out)."""
        out: dict[str, Any] = {"scheme": self.scheme, "type": self.type, "fields": [f.to_dict() for f in self.fields]}
        optional = {
            "location": self.location,
            "param_name": self.param_name,
            "scopes": list(self.scopes),
            "token_url": self.token_url,
            "authorization_url": self.authorization_url,
            "refresh_url": self.refresh_url,
            "openid_connect_url": self.openid_connect_url,
            "pkce_required": self.pkce_required,
            "bearer_format": self.bearer_format,
            "description": self.description,
            "detail": self.detail,
        }
        out.update({k: v for k, v in optional.items() if v})
        return out


@dataclass(frozen=True, slots=True)
class Alternative:
    """One security requirement: every need in it must be met (an empty one needs nothing)."""

    needs: tuple[CredentialNeed, ...] = field(default_factory=tuple)

    @property
    def supported(self) -> bool:
        """Whether the workbench can meet every need of this alternative."""
        return all(n.supported for n in self.needs)


_API_KEY = (CredentialField("api_key", "API key"),)
_BEARER = (CredentialField("token", "Bearer token"),)
_BASIC = (CredentialField("username", "User name", secret=False), CredentialField("password", "Password"))
_CLIENT_CREDENTIALS = (
    CredentialField("client_id", "Client id", secret=False),
    CredentialField("client_secret", "Client secret"),
)
_PUBLIC_CLIENT = (
    CredentialField("client_id", "Client id", secret=False),
    CredentialField("client_secret", "Client secret", optional=True),
)


def describe_scheme(name: str, scheme: SecurityScheme, scopes: tuple[str, ...] = ()) -> CredentialNeed:
    """The ``CredentialNeed`` for one of a card's security schemes.

    Args:
        name: The scheme's name in the card.
        scheme: The scheme (protobuf).
        scopes: OAuth scopes from the requirement naming it.
    """
    kind = scheme.WhichOneof("scheme")
    if kind == "api_key_security_scheme":
        key = scheme.api_key_security_scheme
        location = key.location.lower()
        if location not in ("header", "query", "cookie") or not key.name:
            return CredentialNeed(name, "unsupported", detail=f"api key in {key.location or '?'}")
        return CredentialNeed(
            name,
            "api-key",
            _API_KEY,
            location=location,  # type: ignore[arg-type]
            param_name=key.name,
            description=key.description,
        )
    if kind == "http_auth_security_scheme":
        http = scheme.http_auth_security_scheme
        word = http.scheme.lower()
        if word == "bearer":
            return CredentialNeed(
                name, "http-bearer", _BEARER, bearer_format=http.bearer_format or None, description=http.description
            )
        if word == "basic":
            return CredentialNeed(name, "http-basic", _BASIC, description=http.description)
        return CredentialNeed(name, "unsupported", description=http.description, detail=f"HTTP {http.scheme} auth")
    if kind == "oauth2_security_scheme":
        oauth = scheme.oauth2_security_scheme
        flow = oauth.flows.WhichOneof("flow")
        if flow == "client_credentials":
            cc = oauth.flows.client_credentials
            return CredentialNeed(
                name,
                "oauth2-client-credentials",
                _CLIENT_CREDENTIALS,
                scopes=scopes,
                token_url=cc.token_url or None,
                refresh_url=cc.refresh_url or None,
                description=oauth.description,
            )
        if flow == "authorization_code":
            ac = oauth.flows.authorization_code
            return CredentialNeed(
                name,
                "oauth2-authorization-code",
                _PUBLIC_CLIENT,
                scopes=scopes,
                token_url=ac.token_url or None,
                authorization_url=ac.authorization_url or None,
                refresh_url=ac.refresh_url or None,
                pkce_required=ac.pkce_required,
                description=oauth.description,
            )
        return CredentialNeed(name, "unsupported", description=oauth.description, detail=f"OAuth 2.0 {flow} flow")
    if kind == "open_id_connect_security_scheme":
        oidc = scheme.open_id_connect_security_scheme
        return CredentialNeed(
            name,
            "openid-connect",
            _PUBLIC_CLIENT,
            scopes=scopes,
            openid_connect_url=oidc.open_id_connect_url or None,
            description=oidc.description,
        )
    if kind == "mtls_security_scheme":
        return CredentialNeed(name, "unsupported", description=scheme.mtls_security_scheme.description, detail="mTLS")
    return CredentialNeed(name, "unsupported", detail="unknown scheme type")


def _requirements(card: AgentCard, skill: str | None) -> list[SecurityRequirement]:
    if skill:
        for s in card.skills:
            if s.id == skill and s.security_requirements:
                return list(s.security_requirements)
    return list(card.security_requirements)


def requirement_alternatives(card: AgentCard, skill: str | None = None) -> list[Alternative]:
    """Every way to authorise a call, in card order.

    Args:
        card: The agent card.
        skill: A skill id; its own requirements replace the card's when it has any.

    Returns:
        One ``Alternative`` per requirement (an empty one = anonymous access is allowed), its needs
        sorted by scheme name (protobuf maps keep no order). A card
        with schemes but no requirements yields one alternative per scheme; a card with neither, none.
        A requirement naming an undeclared scheme yields an ``unsupported`` need for it.
    """
    requirements = _requirements(card, skill)
    schemes = card.security_schemes
    if not requirements:
        return [Alternative((describe_scheme(name, schemes[name]),)) for name in sorted(schemes)]
    out: list[Alternative] = []
    for req in requirements:
        needs = []
        for name, scopes in sorted(req.schemes.items()):
            if name in schemes:
                needs.append(describe_scheme(name, schemes[name], tuple(scopes.list)))
            else:
                needs.append(CredentialNeed(name, "unsupported", detail="scheme not declared in the card"))
        out.append(Alternative(tuple(needs)))
    return out


def choose_alternative(alternatives: list[Alternative]) -> Alternative | None:
    """The alternative to ask for: anonymous if allowed, else the first the workbench supports.

    Returns:
        ``None`` when there are alternatives but none is supported.
    """
    if not alternatives:
        return Alternative()
    for alt in alternatives:
        if not alt.needs:
            return alt
    return next((alt for alt in alternatives if alt.supported), None)


def required_credentials(card: AgentCard, skill: str | None = None) -> list[CredentialNeed]:
    """What the workbench should ask for to call the agent (or one of its skills).

    Args:
        card: The agent card.
        skill: A skill id with its own requirements, if the call is for that skill.

    Returns:
        The needs of the chosen alternative (see ``choose_alternative``); empty when no credential
        is needed. When no alternative is supported, the needs of the first one (all marked
        ``unsupported`` where the workbench cannot help), so the caller can say why.
    """
    alternatives = requirement_alternatives(card, skill)
    chosen = choose_alternative(alternatives)
    if chosen is None:
        return list(alternatives[0].needs)
    return list(chosen.needs)


def needs_summary(card: AgentCard) -> str:
    """One line for ``inspect``: the chosen needs, e.g. ``apikey: api-key X-API-Key in header``."""
    needs = required_credentials(card)
    if not needs:
        return "nothing (anonymous access)"
    return "; ".join(n.summary() for n in needs)
