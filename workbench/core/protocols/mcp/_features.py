"""``agent.server_features``: an MCP server's resources, prompts, skills, logging, roots and ping."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Literal

import mcp.types as types

from workbench.core.errors import UsageError
from workbench.core.protocols.base import SamplingMessage
from workbench.core.protocols.catalog import (
    CompletionResult,
    PromptResult,
    PromptSpec,
    ResourceContents,
    ResourceSpec,
    ResourceTemplateSpec,
    ToolSpec,
)
from workbench.core.protocols.mcp import _handshake_era as handshake_era
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._catalog_sync import CatalogSync
from workbench.core.protocols.mcp._config import Root
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp._notifications import Listener, Notifications
from workbench.core.protocols.mcp._sdk_compat import set_session_log_level
from workbench.core.protocols.mcp._session import SessionOwner
from workbench.core.protocols.mcp.discovery import is_modern
from workbench.core.protocols.mcp.skills import MCPSkills


class MCPServerFeatures:
    """The ``ServerFeatures`` facet of one MCP connection (``agent.server_features``).

    The listings (``resources``, ``resource_templates``, ``prompts``) are what discovery found and
    the server's change notifications kept fresh; used synchronously before ``connect`` they
    connect first, as ``agent.tools`` does.

    Args:
        funnel: The connection's request funnel.
        session: The session (its 2026 listen stream carries resource subscriptions).
        sync: The connection's catalog.
        notes: Where the server's log messages go (``add_listener``).
        subscriptions: The resource URIs subscribed to (shared with the session's listen stream).
        discovered: Makes sure discovery ran (connects when used outside an event loop, else refuses).
    """

    def __init__(
        self,
        funnel: RequestFunnel,
        session: SessionOwner,
        sync: CatalogSync,
        notes: Notifications,
        subscriptions: set[str],
        discovered: Callable[[], object],
    ) -> None:
        self._funnel = funnel
        self._session = session
        self._sync = sync
        self._notes = notes
        self._discovered = discovered
        self.subscriptions = subscriptions
        """The resource URIs subscribed to (a 2026-era listen stream asks for these)."""
        self._skills = MCPSkills(funnel)

    @property
    def skills(self) -> MCPSkills:
        """The skills the server serves (the skills extension): list them, load one verified."""
        return self._skills

    # ------------------------------------------------------------------ what the server listed

    @property
    def resources(self) -> list[ResourceSpec]:
        """Resources the server listed."""
        self._discovered()
        return list(self._sync.catalog.resources)

    @property
    def resource_templates(self) -> list[ResourceTemplateSpec]:
        """Resource templates the server listed."""
        self._discovered()
        return list(self._sync.catalog.templates)

    @property
    def prompts(self) -> list[PromptSpec]:
        """Prompts the server listed."""
        self._discovered()
        return list(self._sync.catalog.prompts)

    async def list_tools(self) -> list[ToolSpec]:
        """Re-fetch the tool list (all pages) from the server; ``agent.tools`` shows it afterwards."""
        await self._funnel.request("listing tools", lambda c: self._sync.refresh("tools", c))
        return list(self._sync.catalog.tools)

    @property
    def log_level(self) -> str | None:
        """The log level asked of the server now (``None``: its default)."""
        return self._session.live.log_level

    @property
    def roots(self) -> list[Root] | None:
        """The roots offered to the server now (``None``: the roots capability is not declared)."""
        roots = self._session.live.roots
        return list(roots) if roots is not None and self._session.config.client_capabilities.roots else None

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Receive events not tied to one call (the server's log messages); returns a function that removes it."""
        return self._notes.add_listener(listener)

    # ------------------------------------------------------------------ requests

    async def read_resource(self, uri: str) -> ResourceContents:
        """Read a resource (or a filled-in template URI)."""
        raw: types.ReadResourceResult = await self._funnel.request(
            f"reading {uri!r}", lambda c: c.read_resource(uri, cache_mode="bypass")
        )
        return ResourceContents(uri=uri, parts=[convert.resource_contents_part(c) for c in raw.contents], raw=raw)

    async def subscribe_resource(self, uri: str) -> None:
        """Ask to be told when ``uri`` changes (2026 era: re-open the listen stream with it)."""
        client = await self._funnel.client()
        self.subscriptions.add(uri)
        if is_modern(client):
            await self._reopen_listen()
            return
        await self._funnel.request(f"subscribing to {uri!r}", lambda c: handshake_era.subscribe_resource(c, uri))

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop updates for ``uri``."""
        client = await self._funnel.client()
        self.subscriptions.discard(uri)
        if is_modern(client):
            await self._reopen_listen()
            return
        await self._funnel.request(f"unsubscribing from {uri!r}", lambda c: handshake_era.unsubscribe_resource(c, uri))

    async def _reopen_listen(self) -> None:
        listen = self._session.listen
        if listen is not None:
            await listen.reopen()

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> PromptResult:
        """Render a prompt with arguments."""
        raw: types.GetPromptResult = await self._funnel.request(
            f"getting prompt {name!r}", lambda c: c.get_prompt(name, dict(arguments or {}))
        )
        messages = [SamplingMessage(role=str(m.role), content=[convert.content_part(m.content)]) for m in raw.messages]
        return PromptResult(messages=messages, description=raw.description, raw=raw)

    async def complete(
        self,
        ref_type: Literal["prompt", "resource"],
        ref: str,
        argument: str,
        value: str,
        context: Mapping[str, str] | None = None,
    ) -> CompletionResult:
        """Ask for completions of a prompt argument or a template variable."""
        reference: types.PromptReference | types.ResourceTemplateReference
        if ref_type == "prompt":
            reference = types.PromptReference(name=ref)
        else:
            reference = types.ResourceTemplateReference(uri=ref)
        raw: types.CompleteResult = await self._funnel.request(
            f"completing {argument!r}",
            lambda c: c.complete(reference, {"name": argument, "value": value}, context_arguments=dict(context or {})),
        )
        comp = raw.completion
        return CompletionResult(values=list(comp.values), total=comp.total, has_more=bool(comp.has_more))

    async def set_logging_level(self, level: str) -> None:
        """Set the server's log level (handshake era: ``logging/setLevel``; 2026: every later request asks)."""
        client = await self._funnel.client()
        self._session.live.log_level = level
        if is_modern(client):
            set_session_log_level(client.session, level)  # type: ignore[arg-type]  # validated by the server
            return
        await self._funnel.request("setting the log level", lambda c: handshake_era.set_logging_level(c, level))  # type: ignore[arg-type]

    async def set_roots(self, roots: list[Root]) -> None:
        """Replace the roots offered to the server and tell it they changed.

        Raises:
            UsageError: The session is open and did not declare roots (none were configured when it
                opened, or the ``roots`` switch is off); configure ``roots=[]`` to offer roots later.
        """
        live = self._session.live
        declared = live.roots is not None and self._session.config.client_capabilities.roots
        if not declared and self._session.client is not None:
            raise UsageError(
                f"{live.name!r} was connected without roots, so the server was not told this client has any.",
                hint="pass roots=[] (or the roots) when creating the agent, with the roots capability on, "
                "to offer roots later",
                details={"problem": "roots-not-declared"},
            )
        live.roots = list(roots)
        client = await self._funnel.client()
        if not is_modern(client):
            await self._funnel.request("announcing roots", handshake_era.roots_list_changed)

    async def ping(self) -> float:
        """Round-trip a ``ping`` (handshake era only); returns milliseconds."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        await self._funnel.request("pinging", handshake_era.ping)
        return (loop.time() - started) * 1000
