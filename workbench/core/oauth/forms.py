"""The authorization request's query and the token request of each grant, as plain data (no HTTP client).

A ``TokenRequest`` is the POST to a token endpoint: its URL, its form fields and its headers. Each
grant's builder gives the grant's own fields; ``client_auth.authenticate`` then adds how the client
proves who it is, and the protocol adapter sends it with its HTTP client. The field names are the
RFCs': RFC 6749 §4.1.3 (authorization code), §4.4 (client credentials), §6 (refresh), RFC 7636 (PKCE),
RFC 7523 §2.1 (JWT bearer), RFC 8693 §2.1 (token exchange), RFC 8707 (``resource``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from urllib.parse import urlencode, urlsplit

from workbench.core.oauth.pkce import CHALLENGE_METHOD

__all__ = [
    "AUTHORIZATION_CODE",
    "CLIENT_ASSERTION_TYPE",
    "CLIENT_CREDENTIALS",
    "FORM_CONTENT_TYPE",
    "ID_JAG_TOKEN_TYPE",
    "ID_TOKEN_TYPE",
    "JWT_BEARER_GRANT_TYPE",
    "REFRESH_TOKEN",
    "TOKEN_EXCHANGE_GRANT_TYPE",
    "TokenRequest",
    "authorization_code_form",
    "authorization_url",
    "client_credentials_form",
    "jwt_bearer_form",
    "refresh_token_form",
    "scope_of",
    "token_exchange_form",
]

AUTHORIZATION_CODE = "authorization_code"
CLIENT_CREDENTIALS = "client_credentials"
REFRESH_TOKEN = "refresh_token"
JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
"""RFC 7523 §2.1: a JWT is the grant."""
TOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange"
"""RFC 8693: a token is exchanged for another."""
CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
"""RFC 7523 §2.2: the client authenticates with a JWT (``private_key_jwt``)."""
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
"""An Identity Assertion JWT Authorization Grant (SEP-990)."""
FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"


def _frozen(values: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(values or {}))


@dataclass(frozen=True, slots=True)
class TokenRequest:
    """A POST to a token endpoint, before it is sent.

    Attributes:
        url: The token endpoint.
        form: The form fields (``application/x-www-form-urlencoded``); they carry secrets, so they
            stay out of ``repr``.
        headers: Extra headers (``Authorization: Basic`` for ``client_secret_basic``, a DPoP proof).
    """

    url: str
    form: Mapping[str, str] = field(default_factory=lambda: _frozen(None), repr=False)
    headers: Mapping[str, str] = field(default_factory=lambda: _frozen(None), repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "form", _frozen(self.form))
        object.__setattr__(self, "headers", _frozen(self.headers))

    @property
    def grant_type(self) -> str:
        """The form's ``grant_type`` (empty when it has none)."""
        return self.form.get("grant_type", "")

    def with_form(self, **fields: str | None) -> TokenRequest:
        """A copy with ``fields`` added (a ``None`` value removes the field)."""
        form = dict(self.form)
        for name, value in fields.items():
            if value is None:
                form.pop(name, None)
            else:
                form[name] = value
        return replace(self, form=form)

    def with_headers(self, **headers: str) -> TokenRequest:
        """A copy with ``headers`` added (``Authorization="Basic …"``, ``DPoP="…"``)."""
        return replace(self, headers={**self.headers, **headers})

    def all_headers(self) -> dict[str, str]:
        """The headers to send: ``Accept`` and ``Content-Type`` of a token request, then ``headers``."""
        return {"Accept": "application/json", "Content-Type": FORM_CONTENT_TYPE, **self.headers}


def scope_of(scopes: Iterable[str] | str | None) -> str | None:
    """The ``scope`` parameter: scopes space-separated, ``None`` when there are none."""
    if scopes is None:
        return None
    text = scopes if isinstance(scopes, str) else " ".join(s for s in scopes if s)
    return text or None


def _grant(
    url: str, grant_type: str, *, scope: Iterable[str] | str | None, resource: str | None, **fields: str
) -> TokenRequest:
    form = {"grant_type": grant_type, **fields}
    if (text := scope_of(scope)) is not None:
        form["scope"] = text
    if resource:
        form["resource"] = resource
    return TokenRequest(url, form)


def authorization_url(
    endpoint: str,
    *,
    client_id: str,
    redirect_uri: str,
    state: str,
    code_challenge: str,
    scope: Iterable[str] | str | None = None,
    resource: str | None = None,
) -> str:
    """The authorization request (RFC 6749 §4.1.1 with PKCE S256): ``endpoint`` with its query.

    A query the endpoint already has is kept.
    """
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "state": state,
        "code_challenge": code_challenge,
        "code_challenge_method": CHALLENGE_METHOD,
    }
    if (text := scope_of(scope)) is not None:
        query["scope"] = text
    if resource:
        query["resource"] = resource
    sep = "&" if urlsplit(endpoint).query else "?"
    return endpoint + sep + urlencode(query)


def authorization_code_form(
    url: str, *, code: str, redirect_uri: str, code_verifier: str, resource: str | None = None
) -> TokenRequest:
    """The authorization code exchanged for tokens (RFC 6749 §4.1.3, with the PKCE verifier)."""
    return _grant(
        url,
        AUTHORIZATION_CODE,
        scope=None,
        resource=resource,
        code=code,
        redirect_uri=redirect_uri,
        code_verifier=code_verifier,
    )


def refresh_token_form(
    url: str, *, refresh_token: str, scope: Iterable[str] | str | None = None, resource: str | None = None
) -> TokenRequest:
    """A refresh token exchanged for new tokens (RFC 6749 §6)."""
    return _grant(url, REFRESH_TOKEN, scope=scope, resource=resource, refresh_token=refresh_token)


def client_credentials_form(
    url: str, *, scope: Iterable[str] | str | None = None, resource: str | None = None
) -> TokenRequest:
    """Tokens for the client itself (RFC 6749 §4.4); the client authenticates (``client_auth``)."""
    return _grant(url, CLIENT_CREDENTIALS, scope=scope, resource=resource)


def jwt_bearer_form(
    url: str, *, assertion: str, scope: Iterable[str] | str | None = None, resource: str | None = None
) -> TokenRequest:
    """A JWT as the grant (RFC 7523 §2.1): a workload's JWT, or an ID-JAG (SEP-990)."""
    return _grant(url, JWT_BEARER_GRANT_TYPE, scope=scope, resource=resource, assertion=assertion)


def token_exchange_form(
    url: str,
    *,
    subject_token: str,
    subject_token_type: str,
    requested_token_type: str,
    audience: str | None = None,
    resource: str | None = None,
    scope: Iterable[str] | str | None = None,
) -> TokenRequest:
    """A token exchanged for another (RFC 8693 §2.1), e.g. an ID token for an ID-JAG at the IdP."""
    request = _grant(
        url,
        TOKEN_EXCHANGE_GRANT_TYPE,
        scope=None,
        resource=None,
        requested_token_type=requested_token_type,
        subject_token=subject_token,
        subject_token_type=subject_token_type,
    )
    return request.with_form(audience=audience, resource=resource, scope=scope_of(scope))
