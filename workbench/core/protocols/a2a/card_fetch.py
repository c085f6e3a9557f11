"""Finds and validates an A2A agent card (well-known paths, legacy locations, versions, bindings); ``Discovery``.

Order tried for a base URL ``u``: ``u/.well-known/agent-card.json`` (A2A ≥ 0.3), then
``u/.well-known/agent.json`` (0.2-era agents); when ``u`` has a path, the same two at the origin.
A URL ending in ``.json`` (or ``card_url``) is fetched as it is. Moving on to the next candidate
happens only on HTTP 404/405/410; anything else (unreachable host, 401, invalid JSON, a card that
does not parse) stops with an error naming the URL and what was wrong.

A card found only at the origin, for a URL with a path, is used (that is where most agents publish
it, and a user often pastes an endpoint's URL), and the fetch says so (``CardFetch.warnings``):
when the given URL is none of the endpoints the card names, the path was probably wrong and the
agent connected to may not be the one meant, so the window and the command line show a warning
naming both URLs; when it is one of them, a note says where the card came from.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from a2a.client.card_resolver import parse_agent_card
from a2a.types import AgentCard, AgentInterface
from google.protobuf.json_format import ParseError

from workbench.core.errors import AgentCardError, UnsupportedCapabilityError, WorkbenchError
from workbench.core.protocols.a2a.errors import http_status_error, map_error
from workbench.core.protocols.a2a.normalise import VERBATIM

WELL_KNOWN = "/.well-known/agent-card.json"
LEGACY_WELL_KNOWN = "/.well-known/agent.json"
BINDINGS = ("JSONRPC", "HTTP+JSON")
"""Bindings the workbench speaks over HTTP (``auto`` chooses among them; gRPC only when asked for)."""
CARD_VERSION_HEADERS = {"A2A-Version": "1.0"}
"""Sent with the card request: a server that also speaks 0.3 serves its 0.3 card to a request without it."""
_FALL_THROUGH = frozenset({404, 405, 410})
MAX_CARD_BYTES = 4 * 1024 * 1024
"""Largest agent card read (real cards are a few KB; a 50 MB one is refused before it is all read)."""


@dataclass(slots=True)
class CardFetch:
    """A fetched, parsed agent card.

    Attributes:
        card: The parsed card (legacy fields mapped to 1.0 by the SDK).
        raw: The JSON object exactly as published.
        url: The URL it came from.
        tried: Every URL tried, with what happened, in order.
        notes: Things the workbench adjusted (e.g. a 0.2 card read as 0.3).
        warnings: What the user should check (a URL whose path has no card, the origin's card used).
    """

    card: AgentCard
    raw: dict[str, Any]
    url: str
    tried: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def card_candidates(url: str, card_url: str | None = None) -> list[str]:
    """The card URLs to try, in order (see the module docstring)."""
    if card_url:
        return [card_url]
    parts = urlsplit(url)
    if parts.path.endswith(".json"):
        return [url]
    base = url.rstrip("/")
    out = [base + WELL_KNOWN, base + LEGACY_WELL_KNOWN]
    if parts.path not in ("", "/"):
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", "")).rstrip("/")
        out += [origin + WELL_KNOWN, origin + LEGACY_WELL_KNOWN]
    return out


def parse_card(raw: Any, *, url: str) -> tuple[AgentCard, list[str]]:
    """Parse and check a card's JSON; returns the card and notes about adjustments.

    Raises:
        AgentCardError: The JSON is not a card (not an object, fails to parse, no name, no interfaces).
    """
    if not isinstance(raw, dict):
        raise AgentCardError(
            f"The agent card at {url} is not a JSON object.", details={"url": url, "problem": "not-an-object"}
        )
    try:
        card = parse_agent_card(copy.deepcopy(raw))  # it mutates its argument
    except (ParseError, ValueError, TypeError, AttributeError) as exc:
        raise AgentCardError(
            f"The agent card at {url} is invalid: {exc}",
            hint="the agent publishes a card that does not follow the A2A schema",
            details={"url": url, "problem": "invalid", "error": str(exc)},
        ) from exc
    missing = [name for name in ("name",) if not getattr(card, name)]
    if not card.supported_interfaces:
        missing.append("supportedInterfaces (or url)")
    if missing:
        raise AgentCardError(
            f"The agent card at {url} lacks required fields: {', '.join(missing)}.",
            details={"url": url, "problem": "missing-fields", "missing": missing},
        )
    notes: list[str] = []
    _drop_repeated_interfaces(card)
    for iface in card.supported_interfaces:
        if iface.protocol_version.startswith("0.2"):
            # 0.2-era agents speak the 0.3 JSON-RPC method names; the SDK only accepts >= 0.3.
            notes.append(f"interface {iface.url} declares protocol {iface.protocol_version}; spoken as 0.3")
            iface.protocol_version = "0.3"
    return card, notes


def _drop_repeated_interfaces(card: AgentCard) -> None:
    """Keep one of each interface (a 0.3 card names its main URL in ``url`` and ``additionalInterfaces``)."""
    seen: set[tuple[str, str, str, str]] = set()
    unique: list[AgentInterface] = []
    for iface in card.supported_interfaces:
        key = (iface.url, iface.protocol_binding, iface.protocol_version, iface.tenant)
        if key not in seen:
            seen.add(key)
            unique.append(iface)
    if len(unique) < len(card.supported_interfaces):
        del card.supported_interfaces[:]
        card.supported_interfaces.extend(unique)


async def _get_bounded(http: httpx.AsyncClient, url: str, limit: int) -> tuple[httpx.Response, bytes | None]:
    """GET ``url``; the body when it is at most ``limit`` bytes, else ``None`` (the rest is not read)."""
    async with http.stream(
        "GET",
        url,
        headers={"Accept": "application/json", **CARD_VERSION_HEADERS},
        follow_redirects=True,
        extensions={VERBATIM: True},
    ) as response:
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return response, None
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > limit:
                return response, None
        return response, bytes(body)


async def fetch_card(
    http: httpx.AsyncClient, url: str, *, card_url: str | None = None, max_bytes: int = MAX_CARD_BYTES
) -> CardFetch:
    """Fetch and parse the agent card of the agent at ``url``.

    Args:
        http: The client to fetch with (its transport records the traffic).
        url: The agent's base URL (or a card URL ending in ``.json``).
        card_url: A card URL the user gave; when set, only it is tried.
        max_bytes: Largest card read; a bigger one is an ``AgentCardError`` naming the limit.

    Returns:
        The card, its raw JSON and where it came from.

    Raises:
        UnreachableError: Nothing answered at the first URL.
        AuthRequiredError: The card needs credentials (401/403).
        AgentCardError: No card at any candidate, or the card is invalid.
        RequestTimeoutError: The card request timed out.
    """
    tried: list[dict[str, Any]] = []
    for candidate in card_candidates(url, card_url):
        try:
            response, body = await _get_bounded(http, candidate, max_bytes)
        except httpx.HTTPError as exc:
            raise map_error(exc, action="fetching the agent card", url=candidate) from exc  # the message names the URL
        tried.append({"url": candidate, "status": response.status_code})
        if response.status_code in _FALL_THROUGH and card_url is None:
            continue
        if response.status_code in (401, 403):
            raise http_status_error(
                response.status_code,
                action="fetching the agent card",
                url=candidate,
                challenge=response.headers.get("www-authenticate"),
            )
        if response.status_code >= 400:
            raise AgentCardError(
                f"The agent card at {candidate} could not be fetched (HTTP {response.status_code}).",
                details={"url": candidate, "http_status": response.status_code, "tried": tried},
            )
        if body is None:
            raise AgentCardError(
                f"The agent card at {candidate} is larger than {max_bytes // (1024 * 1024)} MB; it was not read.",
                hint="a real agent card is a few kilobytes; check the URL",
                details={"url": candidate, "problem": "too-large", "limit_bytes": max_bytes, "tried": tried},
            )
        try:
            raw = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise AgentCardError(
                f"The agent card at {candidate} is not valid JSON: {exc}",
                details={"url": candidate, "problem": "not-json", "tried": tried},
            ) from exc
        card, notes = parse_card(raw, url=candidate)
        fetch = CardFetch(card=card, raw=raw, url=candidate, tried=tried, notes=notes)
        if card_url is None:
            _say_where_the_card_came_from(fetch, url)
        return fetch
    urls = ", ".join(t["url"] for t in tried)
    raise AgentCardError(
        f"No agent card found at {urls}.",
        hint="check the URL; if the agent serves its card at another path, give that card's own URL",
        details={"url": url, "problem": "not-found", "tried": tried},
    )


def _same_url(a: str, b: str) -> bool:
    """Whether two URLs name the same place (scheme and host case, a trailing slash ignored)."""
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme.lower(), pa.netloc.lower(), pa.path.rstrip("/"), pa.query) == (
        pb.scheme.lower(),
        pb.netloc.lower(),
        pb.path.rstrip("/"),
        pb.query,
    )


def _say_where_the_card_came_from(fetch: CardFetch, url: str) -> None:
    """Warn when ``url`` has a path but the card came from the origin (see the module docstring)."""
    parts = urlsplit(url)
    if parts.path in ("", "/") or parts.path.endswith(".json"):
        return
    origin = urlunsplit((parts.scheme, parts.netloc, "", "", "")).rstrip("/")
    if not fetch.url.startswith(origin + "/.well-known/"):
        return  # found under the URL's own path
    endpoints = [i.url for i in fetch.card.supported_interfaces]
    if any(_same_url(url, endpoint) for endpoint in endpoints):
        fetch.notes.append(f"{url} is one of the agent's endpoints; its card was found at {fetch.url}")
        return
    fetch.warnings.append(
        f"No agent card at {url}; connected to the agent whose card is at {fetch.url} instead "
        f"(its endpoints: {', '.join(endpoints)}). If you meant another agent, check the URL's path."
    )


def usable_interfaces(card: AgentCard, binding: str = "auto") -> list[AgentInterface]:
    """The card's interfaces the workbench can use with ``binding`` (``auto`` = any HTTP binding).

    Raises:
        UnsupportedCapabilityError: None is usable (e.g. a gRPC-only agent and ``auto``).
    """
    wanted = BINDINGS if binding == "auto" else (binding,)
    usable = [i for i in card.supported_interfaces if i.protocol_binding in wanted]
    if usable:
        return usable
    offered = sorted({i.protocol_binding or "?" for i in card.supported_interfaces})
    if offered == ["GRPC"]:
        raise UnsupportedCapabilityError(
            f"The agent {card.name!r} offers only gRPC.",
            hint="ask for the gRPC binding (--binding grpc; needs a2a-sdk[grpc])",
            details={"offered": offered, "wanted": list(wanted)},
        )
    options = [f"--binding {_BINDING_OPTIONS[b]}" for b in offered if b in _BINDING_OPTIONS]
    raise UnsupportedCapabilityError(
        f"The agent {card.name!r} offers no {('/'.join(wanted))} interface (it offers {', '.join(offered)}).",
        hint=f"choose a binding it offers: {' or '.join(options)}" if options else "the agent offers no binding to use",
        details={"offered": offered, "wanted": list(wanted)},
    )


_BINDING_OPTIONS = {"JSONRPC": "jsonrpc", "HTTP+JSON": "http-json", "GRPC": "grpc"}
"""A card's binding names as the command line's ``--binding`` spells them (in hints)."""


def _version_key(version: str) -> tuple[int, int] | None:
    try:
        major, minor = (int(x) for x in version.split(".")[:2])
    except ValueError:
        return None
    return major, minor


def interface_version(interface: AgentInterface) -> str:
    """``"1.0"`` or ``"0.3"``: the A2A version the SDK speaks to ``interface`` (unversioned = 1.0)."""
    return protocol_era(interface)


def select_interface(card: AgentCard, binding: str = "auto", version: str = "auto") -> AgentInterface:
    """The interface to talk to: the SDK's choice (server preference), or the one of ``version``.

    The first usable binding in card order wins; among its interfaces protocol 1.0 is preferred,
    then a newer one, then 0.3 or later, then one without a version. With ``version`` ``1.0`` or
    ``0.3`` only interfaces of that version count (the first binding in card order offering it).

    Raises:
        UnsupportedCapabilityError: No usable interface (of that version: the message names the
            versions the agent offers).
    """
    usable = usable_interfaces(card, binding)
    if version != "auto":
        usable = [i for i in usable if interface_version(i) == version]
        if not usable:
            raise _no_such_version(card, binding, version)
    first = usable[0].protocol_binding
    same = [i for i in usable if i.protocol_binding == first]
    newer: AgentInterface | None = None
    legacy: AgentInterface | None = None
    unversioned: AgentInterface | None = None
    for iface in same:
        key = _version_key(iface.protocol_version) if iface.protocol_version else None
        if key is None:
            unversioned = unversioned or (iface if not iface.protocol_version else None)
            continue
        if key == (1, 0):
            return iface
        if key > (1, 0):
            newer = newer or iface
        elif key >= (0, 3):
            legacy = legacy or iface
    chosen = newer or legacy or unversioned
    if chosen is None:
        raise UnsupportedCapabilityError(
            f"The agent {card.name!r} declares no protocol version the workbench speaks.",
            details={"versions": [i.protocol_version for i in same]},
        )
    return chosen


def _no_such_version(card: AgentCard, binding: str, version: str) -> UnsupportedCapabilityError:
    wanted = BINDINGS if binding == "auto" else (binding,)
    offered = sorted(
        {f"{interface_version(i)} over {i.protocol_binding}" for i in card.supported_interfaces if i.protocol_binding}
    )
    versions = sorted({interface_version(i) for i in card.supported_interfaces if i.protocol_binding in wanted})
    over = "" if binding == "auto" else f" over {binding}"
    return UnsupportedCapabilityError(
        f"The agent {card.name!r} offers no A2A {version} interface{over} (it offers {', '.join(offered) or 'none'}).",
        hint=(
            f"choose a protocol version it offers: {' or '.join(f'--a2a-version {v}' for v in versions)}"
            if versions
            else "choose another binding (--binding)"
        ),
        details={"wanted_version": version, "binding": binding, "offered_versions": versions, "offered": offered},
    )


def protocol_era(interface: AgentInterface) -> str:
    """``"1.0"`` for current agents, ``"0.3"`` for agents spoken to through the SDK's compat layer."""
    key = _version_key(interface.protocol_version) if interface.protocol_version else None
    return "0.3" if key is not None and (0, 3) <= key < (1, 0) else "1.0"


@dataclass(frozen=True, slots=True)
class Discovery:
    """What connecting found: the card in use, the public card as fetched, and the interface chosen.

    The card helpers (``card_capabilities``, ``card_description``, ``card_info``) take this value, not
    an agent; ``A2AAgent.discovery`` is the agent's.

    Attributes:
        card: The card in use (the authenticated extended card when it was fetched).
        fetch: The public card as fetched: its JSON as published, its URL, the URLs tried, notes, warnings.
        interface: The interface the client talks to (URL, binding, protocol version).
        extended: Whether ``card`` is the extended card.
        extended_error: Why the extended card could not be fetched, if it was tried and failed.
    """

    card: AgentCard
    fetch: CardFetch
    interface: AgentInterface
    extended: bool = False
    extended_error: WorkbenchError | None = None

    @property
    def era(self) -> str:
        """``"1.0"`` or ``"0.3"``: the protocol the interface in use speaks (see ``protocol_era``)."""
        return protocol_era(self.interface)
