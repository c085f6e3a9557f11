"""An MCP App as the host sees it: which tool has one, its ``ui://`` resource read and checked, and its CSP.

A tool names its app in ``_meta.ui.resourceUri`` (a ``ui://`` URI; the flat ``_meta["ui/resourceUri"]`` of
early drafts is read too). The resource is HTML served as ``text/html;profile=mcp-app``; its contents'
``_meta.ui`` may declare the origins the app needs (``csp``), browser permissions it asks for, a border
preference and a dedicated domain. Everything here is untrusted input: sizes are bounded, origins that are not
plain ``scheme://host[:port]`` patterns are dropped (and listed in ``AppResource.dropped``), and the
Content-Security-Policy built from the rest allows nothing that was not declared.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from workbench.core.errors import ProtocolError
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.sizes import base64_size

EXTENSION_ID = "io.modelcontextprotocol/ui"
"""The MCP Apps extension's identifier (``capabilities.extensions``)."""
APP_MIME_TYPE = "text/html;profile=mcp-app"
"""The media type of an app's HTML."""
MAX_APP_BYTES = 2_000_000
"""Largest app document accepted (UTF-8 bytes); a larger one is refused, never truncated."""
MAX_DOMAINS = 32
"""Most origins kept per CSP list; the rest are dropped."""
APP_VISIBILITY = "app"
MODEL_VISIBILITY = "model"
PERMISSIONS = ("camera", "microphone", "geolocation", "clipboardWrite")
"""Browser permissions an app may ask for (``_meta.ui.permissions``); the workbench grants none of them."""

_HOST = r"(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
_ORIGIN = re.compile(rf"(?P<scheme>https|wss|http|ws)://(?P<host>{_HOST}|\[[0-9a-f:]+\])(?::(?P<port>\d{{1,5}}))?/?")
_LOOPBACK = ("localhost", "127.0.0.1", "[::1]")


class AppResourceError(ProtocolError):
    """A tool's app could not be used: not a ``ui://`` resource, the wrong type, too large or unreadable."""

    code = "app-resource"


@dataclass(frozen=True, slots=True)
class AppCsp:
    """The origins an app declared it needs, each a checked ``scheme://host[:port]`` pattern.

    Attributes:
        connect_domains: fetch, XHR and WebSocket targets (``connect-src``).
        resource_domains: scripts, styles, images, fonts and media (``script-src``, ``img-src`` ...).
        frame_domains: nested frames (``frame-src``).
        base_uri_domains: ``<base href>`` targets (``base-uri``).
    """

    connect_domains: tuple[str, ...] = ()
    resource_domains: tuple[str, ...] = ()
    frame_domains: tuple[str, ...] = ()
    base_uri_domains: tuple[str, ...] = ()

    @property
    def network_origins(self) -> tuple[str, ...]:
        """Every origin pattern a request may go to (connect and resource domains)."""
        return self.connect_domains + self.resource_domains

    def to_dict(self) -> dict[str, list[str]]:
        """The wire shape (``connectDomains`` ...), empty lists left out."""
        out: dict[str, list[str]] = {}
        for key, value in (
            ("connectDomains", self.connect_domains),
            ("resourceDomains", self.resource_domains),
            ("frameDomains", self.frame_domains),
            ("baseUriDomains", self.base_uri_domains),
        ):
            if value:
                out[key] = list(value)
        return out


@dataclass(frozen=True, slots=True)
class AppResource:
    """One app document, checked and ready to render.

    Attributes:
        uri: Its ``ui://`` URI.
        html: The document (UTF-8 text, at most ``MAX_APP_BYTES``).
        csp: The origins it declared, checked.
        permissions: The browser permissions it asked for (none is granted).
        prefers_border: Its border preference, if it stated one.
        domain: The dedicated origin it asked for, as sent (not honoured: apps run in an opaque origin).
        dropped: Declared entries that were refused (not an origin pattern, too many), for the user to see.
    """

    uri: str
    html: str
    csp: AppCsp = field(default_factory=AppCsp)
    permissions: tuple[str, ...] = ()
    prefers_border: bool | None = None
    domain: str | None = None
    dropped: tuple[str, ...] = ()

    def content_security_policy(self) -> str:
        """The policy the app runs under (see ``content_security_policy``)."""
        return content_security_policy(self.csp)


def _ui_meta(meta: Mapping[str, Any] | None) -> Mapping[str, Any]:
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    return ui if isinstance(ui, Mapping) else {}


def app_uri(tool: ToolSpec) -> str | None:
    """The ``ui://`` URI of ``tool``'s app, or ``None`` when it has none (or names something else)."""
    uri = _ui_meta(tool.meta).get("resourceUri")
    if uri is None and isinstance(tool.meta, Mapping):
        uri = tool.meta.get("ui/resourceUri")
    if isinstance(uri, str) and uri.startswith("ui://") and len(uri) <= 2048:
        return uri
    return None


def app_visibility(tool: ToolSpec) -> frozenset[str]:
    """Who may call ``tool``: ``model`` (the user and agents) and/or ``app``; both when not stated."""
    value = _ui_meta(tool.meta).get("visibility")
    if not isinstance(value, list):
        return frozenset({MODEL_VISIBILITY, APP_VISIBILITY})
    return frozenset(v for v in value if v in (MODEL_VISIBILITY, APP_VISIBILITY))


def callable_from_app(tool: ToolSpec) -> bool:
    """Whether an app may call ``tool`` (its visibility includes ``app``)."""
    return APP_VISIBILITY in app_visibility(tool)


def read_only(tool: ToolSpec) -> bool:
    """Whether ``tool`` says it changes nothing (``annotations.readOnlyHint``)."""
    return bool(tool.annotations and tool.annotations.get("readOnlyHint") is True)


def check_origin(entry: object) -> str | None:
    """``entry`` as a normalised origin pattern (``https://*.example.com``), or ``None`` if it is not one.

    Accepted: ``https``/``wss`` origins, and ``http``/``ws`` only on loopback hosts; a leading ``*.`` label;
    a port. Refused: paths, queries, quotes, keywords (``'self'``), bare ``*`` and anything else a policy
    could be smuggled through.
    """
    if not isinstance(entry, str) or len(entry) > 255:
        return None
    match = _ORIGIN.fullmatch(entry.strip().lower())
    if match is None:
        return None
    scheme, host, port = match["scheme"], match["host"], match["port"]
    if scheme in ("http", "ws") and host not in _LOOPBACK:
        return None
    if port is not None and not 0 < int(port) < 65536:
        return None
    return f"{scheme}://{host}" + (f":{port}" if port else "")


def _origins(value: object, key: str, dropped: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        dropped.append(f"{key}: not a list")
        return ()
    kept: list[str] = []
    for entry in value:
        origin = check_origin(entry)
        if origin is None or len(kept) >= MAX_DOMAINS:
            dropped.append(f"{key}: {str(entry)[:80]!r}")
        elif origin not in kept:
            kept.append(origin)
    return tuple(kept)


def parse_app_meta(uri: str, html: str, meta: Mapping[str, Any] | None) -> AppResource:
    """Build an ``AppResource`` from its document and its contents' ``_meta`` (bad entries dropped)."""
    ui = _ui_meta(meta)
    dropped: list[str] = []
    raw_csp = ui.get("csp")
    csp = AppCsp()
    if isinstance(raw_csp, Mapping):
        csp = AppCsp(
            connect_domains=_origins(raw_csp.get("connectDomains"), "connectDomains", dropped),
            resource_domains=_origins(raw_csp.get("resourceDomains"), "resourceDomains", dropped),
            frame_domains=_origins(raw_csp.get("frameDomains"), "frameDomains", dropped),
            base_uri_domains=_origins(raw_csp.get("baseUriDomains"), "baseUriDomains", dropped),
        )
    elif raw_csp is not None:
        dropped.append("csp: not an object")
    raw_permissions = ui.get("permissions")
    permissions = tuple(p for p in PERMISSIONS if p in raw_permissions) if isinstance(raw_permissions, Mapping) else ()
    border = ui.get("prefersBorder")
    domain = ui.get("domain")
    return AppResource(
        uri=uri,
        html=html,
        csp=csp,
        permissions=permissions,
        prefers_border=border if isinstance(border, bool) else None,
        domain=domain[:255] if isinstance(domain, str) else None,
        dropped=tuple(dropped),
    )


def _is_app_type(mime_type: str | None) -> bool:
    if not mime_type:
        return False
    parts = [p.strip().lower() for p in mime_type.split(";")]
    return parts[0] == "text/html" and "profile=mcp-app" in [p.replace(" ", "") for p in parts[1:]]


def app_from_contents(uri: str, contents: ResourceContents, *, max_bytes: int = MAX_APP_BYTES) -> AppResource:
    """The app in a ``resources/read`` answer for ``uri``.

    Raises:
        AppResourceError: No contents for ``uri``, not ``text/html;profile=mcp-app``, larger than
            ``max_bytes``, or a blob that is not base64 of UTF-8.
    """
    parts = [p for p in contents.parts if p.uri == uri] or list(contents.parts[:1])
    if not parts:
        raise AppResourceError(f"The server returned nothing for the app {uri!r}.", details={"uri": uri})
    part = parts[0]
    if not _is_app_type(part.mime_type):
        raise AppResourceError(
            f"The app {uri!r} is served as {part.mime_type or 'no type'!r}, not {APP_MIME_TYPE!r}.",
            hint="An MCP App's resource must have the type text/html;profile=mcp-app.",
            details={"uri": uri, "mime_type": part.mime_type},
        )
    if part.text is not None:
        if len(part.text) > max_bytes or len(part.text.encode("utf-8", "replace")) > max_bytes:
            raise _too_large(uri, len(part.text.encode("utf-8", "replace")), max_bytes)
        html = part.text
    elif part.blob is not None:
        if base64_size(part.blob) > max_bytes:
            raise _too_large(uri, base64_size(part.blob), max_bytes)
        try:
            html = base64.b64decode(part.blob, validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            raise AppResourceError(
                f"The app {uri!r} is a blob that is not base64 of UTF-8 text.", details={"uri": uri}
            ) from None
    else:
        raise AppResourceError(f"The app {uri!r} has neither text nor a blob.", details={"uri": uri})
    return parse_app_meta(uri, html, part.meta)


def _too_large(uri: str, size: int, limit: int) -> AppResourceError:
    return AppResourceError(
        f"The app {uri!r} is {size:,} bytes, more than the {limit:,} the workbench renders.",
        details={"uri": uri, "size": size, "limit": limit},
    )


async def load_app(read_resource: Callable[[str], Awaitable[ResourceContents]], uri: str) -> AppResource:
    """Read ``uri`` with ``read_resource`` (an agent's ``server.read_resource``) and check it as an app.

    Raises:
        AppResourceError: See ``app_from_contents``; also when ``uri`` is not a ``ui://`` URI.
        WorkbenchError: Reading failed (the server's error, a timeout, a lost connection).
    """
    if not uri.startswith("ui://"):
        raise AppResourceError(f"{uri!r} is not a ui:// URI.", details={"uri": uri})
    return app_from_contents(uri, await read_resource(uri))


def _sources(base: Iterable[str], origins: Iterable[str]) -> str:
    values = [*base, *origins]
    return " ".join(values) if values else "'none'"


def content_security_policy(csp: AppCsp) -> str:
    """The Content-Security-Policy an app runs under.

    Inline script and style, ``data:`` images, fonts and media, and only the declared origins (nothing remote
    when none were declared); no plugins, no form submissions, no workers, no ``<base>`` change.
    """
    res = csp.resource_domains
    return "; ".join(
        (
            "default-src 'none'",
            f"script-src {_sources(("'unsafe-inline'",), res)}",
            f"style-src {_sources(("'unsafe-inline'",), res)}",
            f"img-src {_sources(('data:', 'blob:'), res)}",
            f"font-src {_sources(('data:',), res)}",
            f"media-src {_sources(('data:', 'blob:'), res)}",
            f"connect-src {_sources((), csp.connect_domains)}",
            f"frame-src {_sources((), csp.frame_domains)}",
            f"base-uri {_sources((), csp.base_uri_domains)}",
            "form-action 'none'",
            "object-src 'none'",
        )
    )


def origin_allowed(url: str, patterns: Iterable[str]) -> bool:
    """Whether ``url`` falls under one of the origin ``patterns`` (``https://*.example.com`` matches subdomains)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if not host:
        return False
    default = {"https": 443, "wss": 443, "http": 80, "ws": 80}.get(scheme)
    for pattern in patterns:
        p = urlsplit(pattern)
        if p.scheme != scheme:
            continue
        if (p.port or default) != (port or default):
            continue
        want = (p.hostname or "").lower()
        if want.startswith("*."):
            if host.endswith(want[1:]) and host != want[2:]:
                return True
        elif host == want.strip("[]") or host == want:
            return True
    return False
