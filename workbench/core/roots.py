"""Roots an MCP connection offers: a folder as a root, and the one use case that changes them (saved and live).

The window's Roots editor and the command line both turn a folder (or a ``file://`` URI) into a root
with ``root_from``; ``offer_roots`` saves a profile's new roots and, when its connection is open and
declared the roots capability, offers them at once (``notifications/roots/list_changed`` on a
handshake-era session; a 2026-07-28 server asks again on its next request).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.profiles import Root
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.contract import RemoteAgent


def root_from(text: str, name: str | None = None) -> Root:
    """``text`` as a root: a ``file://`` URI as given, or a path made absolute; named ``name`` or after its folder.

    Raises:
        ConfigError: A URI that is not ``file://``, or nothing given (``details["option"] == "root"``).
    """
    text = text.strip()
    if not text:
        raise ConfigError("A root needs a folder or a file:// URI.", details={"option": "root"})
    if "://" in text:
        if not text.startswith("file://"):
            raise ConfigError(f"A root is a folder or a file:// URI, not {text!r}.", details={"option": "root"})
        uri, path = text, unquote(urlsplit(text).path)
    else:
        resolved = Path(os.path.expanduser(text)).resolve()
        uri, path = resolved.as_uri(), str(resolved)
    return Root(uri=uri, name=(name or "").strip() or os.path.basename(path.rstrip("/")) or None)


async def offer_roots(
    profiles: ProfileStore, profile_id: str, agent: RemoteAgent | None, roots: Sequence[Root]
) -> bool:
    """Save ``roots`` as the profile's and offer them to its open connection, if it can take them now.

    Args:
        profiles: Where the profile is saved (a profile that is not saved is only offered the roots).
        profile_id: The profile (and connection) whose roots change.
        agent: The connection's agent when connected, else ``None``.
        roots: The roots, in order (a URI given twice is kept once).

    Returns:
        Whether the server was offered them now (``False``: they apply from the next connect, as the
        connection is closed or did not declare the roots capability).

    Raises:
        ConfigError: The profile cannot have roots (an A2A agent) or cannot be saved.
        WorkbenchError: The server could not be told (the connection was lost, a timeout).
    """
    unique: dict[str, Root] = {}
    for root in roots:
        unique.setdefault(root.uri, root)
    kept = list(unique.values())
    try:
        profile = profiles.get(profile_id)
    except NotFoundError:
        profile = None
    if profile is not None:
        if profile.protocol != "mcp":
            raise ConfigError(f"{profile.name!r} is not an MCP server: it has no roots.")
        profiles.upsert(profile.with_changes(roots=[root.model_dump() for root in kept]))
    features = agent.server_features if agent is not None and agent.connected else None
    if features is None or features.roots is None:
        return False
    await features.set_roots([(root.uri, root.name) for root in kept])
    return True
