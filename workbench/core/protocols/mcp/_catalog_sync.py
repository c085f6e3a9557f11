"""Discovery and the catalog kept in step with the server: list on connect, re-list once per burst of changes.

A server says ``notifications/tools/list_changed`` (resources, prompts alike) when a list changed;
server-everything sends five of them while a client connects. Each notification bumps a
generation counter for its list; a listing records the generation it started at, and a list is
re-fetched only while a notification arrived after its last listing started. So a burst of five
costs one re-list, and changes announced while the first listing was on its way are caught before
``connect`` returns (the snapshot a user sees is not stale).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import mcp.types as types
from mcp import Client, MCPError

from workbench.core.errors import ConnectError
from workbench.core.events import ListChanged
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.mcp._config import LiveSettings, MCPConfig
from workbench.core.protocols.mcp.discovery import LISTS, ServerCatalog
from workbench.core.protocols.mcp.errors import leaves, to_workbench_error
from workbench.core.protocols.snapshot import AgentSnapshot

log = logging.getLogger(__name__)

SETTLE = 0.05
"""Seconds to wait after a change notification for the rest of its burst before re-listing."""

_NOTIFIED = {
    "notifications/tools/list_changed": "tools",
    "notifications/prompts/list_changed": "prompts",
    "notifications/resources/list_changed": "resources",
}


def changed_list(method: str) -> str | None:
    """The list (``tools``, ``resources``, ``prompts``) a ``list_changed`` notification is about."""
    return _NOTIFIED.get(method)


class CatalogSync:
    """The server's catalog and capabilities, listed on connect and kept fresh.

    Args:
        config: The agent's configuration.
        live: The agent's live settings (its name is set from the server's once known, unless one was given).
    """

    def __init__(self, config: MCPConfig, live: LiveSettings) -> None:
        self.config = config
        self.live = live
        self.catalog = ServerCatalog()
        self.capabilities: AgentCapabilities | None = None
        self.relists = 0
        """How many re-lists change notifications caused (for tests and benches)."""
        self._wanted = dict.fromkeys(LISTS, 0)
        self._have = dict.fromkeys(LISTS, 0)
        self._changed: asyncio.Event | None = None

    # ------------------------------------------------------------------ on connect

    async def negotiate(self, client: Client) -> None:
        """Learn the server's capabilities where the SDK did not (a pinned 2026-07-28 session).

        Raises:
            ConnectError: The server refused ``server/discover``.
        """
        if self.config.mode not in ("auto", "legacy"):
            await self._discover_pinned(client, self.config.mode)

    async def discover(self, client: Client) -> None:
        """List everything the server offers (run by the session owner before ``connect`` returns)."""
        self._have = dict(self._wanted)
        caps = client.server_capabilities
        await asyncio.gather(*(self.refresh(what, client) for what in LISTS if getattr(caps, what) is not None))
        # Change notifications are handled in tasks of their own: let those that arrived run first.
        for _ in range(3):
            await asyncio.sleep(0)
        await self._catch_up(client)
        self._update(client)

    async def _discover_pinned(self, client: Client, version: str) -> None:
        """A pinned modern version skips the probe: ask ``server/discover`` once, and insist on an answer.

        Without it the session has no capabilities: it would look like a server offering nothing.
        """
        try:
            raw = await client.session.send_discover(version)
            client.session.adopt(types.DiscoverResult.model_validate(raw))
        except Exception as exc:
            doing = f"asking server/discover at {version}"
            cause = to_workbench_error(exc, target=self.config.target_label, doing=doing)
            said = next((leaf.error.message for leaf in leaves(exc) if isinstance(leaf, MCPError)), None)
            raise ConnectError(
                f"{self.config.target_label} does not speak MCP {version}: "
                + (f"it answered server/discover with {said!r}." if said else f"{cause.message}"),
                hint="connect in mode 'auto' (or 'legacy') to use the handshake era this server speaks",
                details={"mode": version, "cause": cause.code, **cause.details},
            ) from exc

    # ------------------------------------------------------------------ keeping fresh

    def changed(self, what: str) -> None:
        """A ``list_changed`` notification for ``what`` arrived (called from the message handler)."""
        self._wanted[what] += 1
        self._event().set()

    async def keep_fresh(self, client: Client) -> None:
        """Re-list what changed, one listing per burst of notifications (the owner's background job)."""
        changed = self._event()
        while True:
            await changed.wait()
            await asyncio.sleep(SETTLE)
            changed.clear()
            await self._catch_up(client)

    async def refresh(self, what: str, client: Client) -> None:
        """Re-list one of ``tools``, ``resources`` (with templates) or ``prompts`` now."""
        seen = self._wanted[what]
        await self.catalog.refresh(what, client)
        self._have[what] = max(self._have[what], seen)

    async def _catch_up(self, client: Client) -> None:
        stale = [what for what in LISTS if self._have[what] < self._wanted[what]]
        if not stale:
            return
        outcomes = await asyncio.gather(*(self.refresh(what, client) for what in stale), return_exceptions=True)
        self.relists += len(stale)
        self._update(client)
        for what, outcome in zip(stale, outcomes, strict=True):
            if isinstance(outcome, asyncio.CancelledError):
                raise outcome
            if isinstance(outcome, BaseException):
                log.info("refreshing %s after list_changed failed: %s", what, outcome)
            else:
                self.config.publish(ListChanged(connection_id=self.config.connection_id, what=what))

    def _update(self, client: Client) -> None:
        self.capabilities = self.catalog.capabilities(
            client, transport=self.config.transport, agent_tool=self.config.agent_tool
        )
        if not self.config.name and client.server_info is not None:
            self.live.name = client.server_info.name

    # ------------------------------------------------------------------ the snapshot

    def snapshot(self, caps: AgentCapabilities) -> AgentSnapshot:
        """Everything discovered, as a snapshot with no live object behind it."""
        catalog, config = self.catalog, self.config
        details: dict[str, Any] = {
            "protocol": "mcp",
            "protocol_version": caps.protocol_version,
            "era": caps.era,
            "transport": config.transport,
            "target": config.target_label,
            "server_info": caps.extra.get("server_info"),
            "instructions": caps.instructions,
            "capabilities": caps.to_dict(),
            "tools": [t.to_dict() for t in catalog.tools],
            "resources": [r.to_dict() for r in catalog.resources],
            "resource_templates": [t.to_dict() for t in catalog.templates],
            "prompts": [p.to_dict() for p in catalog.prompts],
        }
        return AgentSnapshot(
            protocol="mcp",
            name=self.live.name,
            target=config.target_label,
            capabilities=caps,
            tools=tuple(catalog.tools),
            resources=tuple(catalog.resources),
            resource_templates=tuple(catalog.templates),
            prompts=tuple(catalog.prompts),
            details=details,
        )

    def _event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed
