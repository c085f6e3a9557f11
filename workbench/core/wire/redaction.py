"""Secret redaction for the wire log: credential headers, URL parameters and known secret values.

Every text that reaches a ``WireRecord`` passes through a ``Redactor`` first, so a secret never
exists in a record. Three rules apply:

1. Headers whose name is a credential (``Authorization``, ``Cookie``, ``X-API-Key``, any name with
   ``token``, ``secret``, ``api-key``, ``password`` ...) keep only their scheme word: ``Bearer ***``.
2. URL query and fragment parameters with such names (``?api_key=``, ``#access_token=``, ``?code=``)
   and a URL's password become ``***``.
3. Known secret values (registered with ``add_secret``, or learned from rules 1 and 2 and from OAuth
   token bodies) are replaced by ``***`` wherever they appear, also in their JSON-escaped and
   URL-encoded spellings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, quote, quote_plus, unquote_plus, urlsplit, urlunsplit

MASK = "***"
MIN_SECRET_LEN = 4  # shorter values would redact ordinary text everywhere
MIN_LEARNED_LEN = 8  # values learned from headers / parameters (never from the caller)
MAX_LEARNED = 256  # learned values kept (oldest forgotten first); explicit secrets are never dropped

_EXACT_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "api-key", "x-api-key"})
_NAME_PARTS = ("token", "secret", "api-key", "apikey", "api_key", "password", "passwd", "credential", "signature")
_EXACT_PARAMS = frozenset({"key", "code", "code_verifier", "sig", "auth", "pass", "pwd", "session_key"})
_AUTH_SCHEMES = frozenset(
    {"basic", "bearer", "digest", "dpop", "hoba", "mutual", "negotiate", "ntlm", "oauth", "token", "aws4-hmac-sha256"}
)
_OAUTH_FIELDS = re.compile(
    r'"(access_token|refresh_token|id_token|client_secret|code_verifier|password)"(\s*:\s*)"((?:[^"\\]|\\.)*)"'
)


def is_secret_header(name: str) -> bool:
    """Return True when a header of this name carries a credential."""
    low = name.lower()
    return low in _EXACT_HEADERS or low.endswith("key") or any(part in low for part in _NAME_PARTS)


def is_secret_param(name: str) -> bool:
    """Return True when a URL / form parameter of this name carries a credential."""
    low = name.lower()
    return low in _EXACT_PARAMS or any(part in low for part in _NAME_PARTS)


class Redactor:
    """Removes secrets from headers, URLs and text before they are recorded.

    Not thread-safe: use it from the thread that records (the event loop's).

    Args:
        secret_values: Values to replace wherever they appear (shorter than 4 characters: ignored).
        extra_header_names: More header names to treat as credentials (case-insensitive).
        learn: Also treat the values seen in credential headers, credential URL parameters and
            OAuth token bodies as known secrets, so an echo of them elsewhere is redacted too.
    """

    def __init__(
        self, secret_values: Iterable[str] = (), extra_header_names: Iterable[str] = (), *, learn: bool = True
    ) -> None:
        self._explicit: set[str] = set()
        self._learned: dict[str, None] = {}  # insertion-ordered set
        self._extra_headers = frozenset(n.lower() for n in extra_header_names)
        self._learn = learn
        self._variants: tuple[str, ...] = ()  # every spelling of every secret, longest first
        for value in secret_values:
            self.add_secret(value)

    @property
    def has_secrets(self) -> bool:
        """Whether any secret value is known (if not, ``text`` returns its input unchanged)."""
        return bool(self._variants)

    def add_secret(self, value: str) -> None:
        """Register a secret value to replace wherever it appears (ignored when shorter than 4)."""
        if not isinstance(value, str) or len(value) < MIN_SECRET_LEN or value in self._explicit:
            return
        self._explicit.add(value)
        self._learned.pop(value, None)
        self._rebuild()

    def _learn_value(self, value: str) -> None:
        if not self._learn or len(value) < MIN_LEARNED_LEN or value in self._explicit or value in self._learned:
            return
        self._learned[value] = None
        if len(self._learned) > MAX_LEARNED:
            del self._learned[next(iter(self._learned))]
        self._rebuild()

    def _rebuild(self) -> None:
        variants: set[str] = set()
        for value in (*self._explicit, *self._learned):
            variants.add(value)
            variants.add(json.dumps(value, ensure_ascii=False)[1:-1])
            variants.add(json.dumps(value)[1:-1])
            variants.add(quote(value, safe=""))
            variants.add(quote_plus(value, safe=""))
        self._variants = tuple(sorted((v for v in variants if v), key=len, reverse=True))

    def mentions_secret(self, text: str) -> bool:
        """Whether ``text`` contains a known secret value (in any of its spellings)."""
        return any(variant in text for variant in self._variants)

    def text(self, text: str) -> str:
        """Return ``text`` with every known secret value replaced by ``***``."""
        for variant in self._variants:
            if variant in text:
                text = text.replace(variant, MASK)
        return text

    def is_secret_header(self, name: str) -> bool:
        """Return True when this redactor masks a header of this name."""
        return is_secret_header(name) or name.lower() in self._extra_headers

    def header_value(self, name: str, value: str) -> str:
        """Return one header value redacted (credential headers keep only their scheme word)."""
        if not self.is_secret_header(name):
            return self.text(value)
        low = name.lower()
        if low in ("cookie", "set-cookie"):
            # Cookie: every part is name=value; Set-Cookie: only the first (the rest are attributes).
            for part in value.split(";") if low == "cookie" else value.split(";")[:1]:
                self._learn_value(part.partition("=")[2].strip())
            return MASK
        scheme, sep, credential = value.strip().partition(" ")
        if sep and scheme.lower() in _AUTH_SCHEMES:
            self._learn_value(credential.strip())
            return f"{scheme} {MASK}"
        self._learn_value(value.strip())
        return MASK

    def headers(self, headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> dict[str, str]:
        """Return the headers with credential values masked and known secrets replaced.

        Repeated names (given as pairs) are joined with ``", "`` as HTTP allows.
        """
        pairs = headers.items() if isinstance(headers, Mapping) else headers
        out: dict[str, str] = {}
        for name, value in pairs:
            redacted = self.header_value(name, value)
            out[name] = f"{out[name]}, {redacted}" if name in out else redacted
        return out

    def params(self, query: str) -> str:
        """Return a query string (or form body) with credential parameters masked, layout kept."""
        if "=" not in query:
            return query
        parts = query.split("&")
        for i, part in enumerate(parts):
            name, sep, value = part.partition("=")
            if sep and value and is_secret_param(unquote_plus(name)):
                self._learn_value(unquote_plus(value))
                parts[i] = f"{name}={MASK}"
        return "&".join(parts)

    def url(self, url: str) -> str:
        """Return the URL with its password, credential parameters and known secrets masked."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return self.text(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, _, hostport = netloc.rpartition("@")
            user, sep, password = userinfo.partition(":")
            if sep:
                self._learn_value(unquote_plus(password))
                netloc = f"{user}:{MASK}@{hostport}"
        rebuilt = urlunsplit((parts.scheme, netloc, parts.path, self.params(parts.query), self.params(parts.fragment)))
        return self.text(rebuilt)

    def body(self, text: str, content_type: str = "") -> str:
        """Return an HTTP body redacted: form parameters, OAuth token fields, then known secrets."""
        low = content_type.lower()
        if "x-www-form-urlencoded" in low:
            text = self.params(text)
        elif len(text) < 65536 and ("_token" in text or "client_secret" in text or "code_verifier" in text):

            def mask(m: re.Match[str]) -> str:
                self._learn_value(m.group(3))
                return f'"{m.group(1)}"{m.group(2)}"{MASK}"'

            text = _OAUTH_FIELDS.sub(mask, text)
        return self.text(text)


def mask_query_values(url: str) -> str:
    """``url`` with every query parameter's value shown as ``***`` (for messages and labels)."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    masked = "&".join(f"{name}={MASK}" for name, _ in parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit(parts._replace(query=masked))
