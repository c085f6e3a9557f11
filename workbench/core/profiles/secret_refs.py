"""Secret references, and the checks that keep literal secrets out of a profile.

A profile never holds a secret's value: a ``SecretRef`` names where a value goes (a header, the
bearer token, an environment variable, a query parameter, a cookie) and the keyring account that
holds it. Plain headers, environment variables and URLs whose names or values look like they carry a
secret are refused with the pydantic error type ``PLAINTEXT_SECRET``; the profile classes in
``workbench.core.profiles.model`` call these checks from their validators.
"""

from __future__ import annotations

import itertools
import re
from enum import StrEnum
from typing import Annotated, Self
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

PLAINTEXT_SECRET = "plaintext_secret"
"""The pydantic error type raised for a literal secret in a profile (stable; tests assert it)."""

DEFAULT_API_KEY_HEADER = "X-API-Key"

_HEADER_NAME_RE = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # RFC 9110 token
_ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_QUERY_NAME_RE = re.compile(r"^[A-Za-z0-9._~-]{1,100}$")
_WORD_SPLIT_RE = re.compile(r"[^a-z0-9]+")

# Words that make a header, variable or query parameter name look like it carries a secret.
_SECRET_WORDS = frozenset(
    {
        "authorization",
        "token",
        "secret",
        "password",
        "passwd",
        "apikey",
        "cookie",
        "credential",
        "credentials",
        "signature",
    }
)
_SECRET_PAIRS = frozenset({("api", "key"), ("private", "key"), ("access", "key"), ("session", "key")})
_SECRET_VALUE_PREFIXES = ("bearer ", "basic ", "token ", "digest ")


def looks_like_secret_name(name: str) -> bool:
    """Whether a header, environment variable or query parameter name suggests a secret value.

    The name is split into words (``X-Api-Key`` → ``x api key``; ``GITHUB_TOKEN`` → ``github token``),
    so ``TOKENIZERS_PARALLELISM`` is not mistaken for a token.
    """
    words = [w for w in _WORD_SPLIT_RE.split(name.lower()) if w]
    if any(w in _SECRET_WORDS for w in words):
        return True
    return any(pair in _SECRET_PAIRS for pair in itertools.pairwise(words))


def _plaintext_error(what: str, hint: str) -> PydanticCustomError:
    return PydanticCustomError(
        PLAINTEXT_SECRET,
        "{what} looks like a secret; profiles keep secrets only as references. {hint}",
        {"what": what, "hint": hint},
    )


_URL_FIELD_LABELS = {"url": "the URL", "card_url": "the card URL", "allowed_origins": "an allowed origin"}
"""How a URL field is named in its error (a sentence the window and the command line show)."""


def check_url(url: str, field: str) -> str:
    """Refuse a URL that is not http(s), carries a password, or has a query parameter named like a secret.

    Args:
        url: The URL to check.
        field: The profile field it came from (named in the error).

    Returns:
        ``url`` unchanged.

    Raises:
        PydanticCustomError: Type ``url_scheme`` or ``PLAINTEXT_SECRET``.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        label = _URL_FIELD_LABELS.get(field, field)
        raise PydanticCustomError("url_scheme", "{label} must be an http:// or https:// URL", {"label": label})
    if parts.password is not None:
        raise _plaintext_error(
            f"The password in {field}",
            "Remove it from the URL and add a secret reference (kind 'header' or 'bearer') instead.",
        )
    for key, _ in parse_qsl(parts.query, keep_blank_values=True):
        if looks_like_secret_name(key):
            raise _plaintext_error(
                f"The query parameter {key!r} in {field}",
                "Remove it from the URL and add a secret reference instead "
                "(kind 'query' keeps it in the URL; 'api-key' or 'header' send it as a header).",
            )
    return url


def check_headers(headers: dict[str, str]) -> dict[str, str]:
    """Refuse plain HTTP headers with an invalid name, or a name or value that looks like a credential.

    Returns:
        ``headers`` unchanged.

    Raises:
        PydanticCustomError: Type ``header_name`` or ``PLAINTEXT_SECRET``.
    """
    for name, header_value in headers.items():
        if not _HEADER_NAME_RE.match(name):
            raise PydanticCustomError("header_name", "'{name}' is not a valid HTTP header name", {"name": name})
        if looks_like_secret_name(name):
            raise _plaintext_error(
                f"The header {name!r}",
                "Add a secret reference instead (kind 'bearer' for 'Authorization: Bearer …', "
                "'api-key' or 'header' otherwise).",
            )
        if header_value.lower().startswith(_SECRET_VALUE_PREFIXES):
            raise _plaintext_error(
                f"The value of header {name!r}",
                "Add a secret reference of kind 'header' instead.",
            )
    return headers


def check_env(env: dict[str, str]) -> dict[str, str]:
    """Refuse plain environment variables with an invalid name or a name that looks like a secret.

    Returns:
        ``env`` unchanged.

    Raises:
        PydanticCustomError: Type ``env_name`` or ``PLAINTEXT_SECRET``.
    """
    for name in env:
        if not _ENV_NAME_RE.match(name):
            raise PydanticCustomError("env_name", "'{name}' is not a valid environment variable name", {"name": name})
        if looks_like_secret_name(name):
            raise _plaintext_error(
                f"The environment variable {name!r}",
                "Add a secret reference of kind 'env' instead.",
            )
    return env


class SecretKind(StrEnum):
    """Where a referenced secret goes when connecting.

    - ``bearer``: ``Authorization: Bearer <value>`` (A2A: the agent's bearer token).
    - ``api-key``: a header named ``name`` (default ``X-API-Key``) carrying the value.
    - ``header``: a header named ``name`` carrying the value exactly (``Basic …``, custom schemes).
    - ``env``: an environment variable named ``name`` for a stdio server.
    - ``query``: a query parameter named ``name`` added to the URL of every request (an API key
      sent in the URL; the wire log and exports show it as ``***``). HTTP only.
    - ``cookie``: a cookie named ``name`` sent with every request (``Cookie: <name>=<value>``).
      HTTP only.
    """

    BEARER = "bearer"
    API_KEY = "api-key"
    HEADER = "header"
    ENV = "env"
    QUERY = "query"
    COOKIE = "cookie"


class SecretRef(BaseModel):
    """A reference to a secret held in the OS keyring; never the secret itself.

    Attributes:
        kind: Where the value goes (see ``SecretKind``).
        name: Header, environment variable, query parameter or cookie name. Ignored for ``bearer``
            (always ``Authorization``); defaults to ``X-API-Key`` for ``api-key``; required for the others.
        key: The keyring account id that holds the value.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: SecretKind
    name: str = ""
    key: Annotated[str, Field(min_length=1, max_length=200)]

    @model_validator(mode="after")
    def _name_fits_kind(self) -> Self:
        if self.kind is SecretKind.BEARER:
            if self.name and self.name.lower() != "authorization":
                raise ValueError("a bearer secret always goes in the Authorization header; leave 'name' empty")
        elif self.kind is SecretKind.ENV:
            if not _ENV_NAME_RE.match(self.name):
                raise ValueError("an env secret needs 'name', a valid environment variable name")
        elif self.kind is SecretKind.HEADER:
            if not _HEADER_NAME_RE.match(self.name):
                raise ValueError("a header secret needs 'name', a valid HTTP header name")
        elif self.kind is SecretKind.QUERY:
            if not _QUERY_NAME_RE.match(self.name):
                raise ValueError("a query secret needs 'name', the query parameter's name")
        elif self.kind is SecretKind.COOKIE:
            if not _HEADER_NAME_RE.match(self.name):  # RFC 6265: a cookie name is a token
                raise ValueError("a cookie secret needs 'name', the cookie's name")
        elif self.name and not _HEADER_NAME_RE.match(self.name):
            raise ValueError("an api-key secret's 'name' must be a valid HTTP header name")
        return self

    @property
    def target(self) -> str:
        """The header or environment variable the value ends up in."""
        if self.kind is SecretKind.BEARER:
            return "Authorization"
        if self.kind is SecretKind.API_KEY:
            return self.name or DEFAULT_API_KEY_HEADER
        if self.kind is SecretKind.QUERY:
            return f"?{self.name}"  # its own namespace: a query parameter never clashes with a header
        if self.kind is SecretKind.COOKIE:
            return f"Cookie:{self.name}"  # likewise: one cookie of the Cookie header
        return self.name
