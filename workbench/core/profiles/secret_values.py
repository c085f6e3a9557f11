"""A profile's secret references resolved to values, sorted by where each goes (headers, env, query, cookies).

``resolve_secrets`` looks every reference up and returns ``ResolvedSecrets``; ``request_headers`` and
``with_query`` put them on a request; ``credential_values`` lists what counts as the profile's credentials
(for redaction and the credential boundary). The table of where each kind goes is in
``workbench.core.agent_factory``'s docstring.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from workbench.core.profiles.model import A2AProfile, ConnectionProfile
from workbench.core.profiles.secret_refs import SecretKind, SecretRef
from workbench.core.wire.redaction import is_secret_header

log = logging.getLogger(__name__)

SecretResolver = Callable[[SecretRef], Awaitable[str | None]]
"""Looks a secret reference up (in the OS keyring) and returns its value, or ``None`` if unset."""


@dataclass(slots=True)
class ResolvedSecrets:
    """Secret values sorted by where they go. Never log or print an instance's values.

    Attributes:
        headers: HTTP headers to add (MCP bearer tokens included as ``Authorization``).
        env: Environment variables to add (stdio).
        query: Query parameters to add.
        cookies: Cookies to send (``Cookie: name=value``).
        bearer_token: The bearer token for A2A (which sets the header itself).
        missing: References that had no value.
    """

    headers: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    bearer_token: str | None = None
    missing: list[SecretRef] = field(default_factory=list)

    def values(self) -> list[str]:
        """Every resolved value (for registering with a redactor)."""
        out = [*self.headers.values(), *self.env.values(), *self.query.values(), *self.cookies.values()]
        if self.bearer_token is not None:
            out.append(self.bearer_token)
        return out

    def __repr__(self) -> str:
        # Values stay out of reprs, tracebacks and logs.
        return (
            f"ResolvedSecrets(headers={sorted(self.headers)}, env={sorted(self.env)}, query={sorted(self.query)}, "
            f"cookies={sorted(self.cookies)}, bearer_token={'set' if self.bearer_token else None}, "
            f"missing={[r.key for r in self.missing]})"
        )


def request_headers(plain: dict[str, str], secrets: ResolvedSecrets) -> dict[str, str]:
    """A profile's plain headers with its secret ones over them; secret cookies join a plain ``Cookie``."""
    headers = {**plain, **secrets.headers}
    if secrets.cookies:
        jar = [v for k, v in headers.items() if k.lower() == "cookie"]
        headers = {k: v for k, v in headers.items() if k.lower() != "cookie"}
        headers["Cookie"] = "; ".join([*jar, *(f"{k}={v}" for k, v in secrets.cookies.items())])
    return headers


def with_query(url: str, params: dict[str, str]) -> str:
    """``url`` with ``params`` added to (or replacing) its query string."""
    if not params:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in params]
    return urlunsplit(parts._replace(query=urlencode([*query, *params.items()])))


async def resolve_secrets(profile: ConnectionProfile, resolve_secret: SecretResolver | None) -> ResolvedSecrets:
    """Look up every secret reference of ``profile`` and sort the values by destination.

    Args:
        profile: The profile whose ``secrets`` to resolve.
        resolve_secret: The lookup; ``None`` resolves nothing (every reference is missing).

    Raises:
        WorkbenchError: Whatever ``resolve_secret`` raises (e.g. ``SecureStorageUnavailableError``).
    """
    out = ResolvedSecrets()
    for ref in profile.secrets:
        value = await resolve_secret(ref) if resolve_secret is not None else None
        if value is None:
            out.missing.append(ref)
            log.info("no value stored for secret %r (%s → %s) of profile %r", ref.key, ref.kind, ref.target, profile.id)
            continue
        if ref.kind is SecretKind.ENV:
            out.env[ref.target] = value
        elif ref.kind is SecretKind.QUERY:
            out.query[ref.name] = value
        elif ref.kind is SecretKind.COOKIE:
            out.cookies[ref.name] = value
        elif ref.kind is SecretKind.BEARER:
            if isinstance(profile, A2AProfile):
                out.bearer_token = value
            else:
                out.headers["Authorization"] = f"Bearer {value}"
        else:
            out.headers[ref.target] = value
    return out


def credential_values(profile: ConnectionProfile, secrets: ResolvedSecrets) -> list[str]:
    """The values that count as ``profile``'s credentials: its secrets and its plain headers' values.

    A header the user set (``--header X-Custom=…``) is a credential whatever its name. A secret's
    or a credential header's value also counts without its scheme word (``Bearer x`` → ``x``).
    """
    plain: dict[str, str] = getattr(profile, "headers", {})
    values = [*secrets.values(), *plain.values()]
    schemed = [*secrets.values(), *(v for k, v in plain.items() if is_secret_header(k))]
    return values + [v.strip().partition(" ")[2] for v in schemed if " " in v.strip()]
