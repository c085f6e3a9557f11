"""An MCP server's features beyond tools: resources and subscriptions, prompts, completions, logging, roots, ping."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Literal

import mcp.types as types

from workbench.core.errors import UsageError
from workbench.core.protocols.base import SamplingMessage
from workbench.core.protocols.catalog import CompletionResult, PromptResult, ResourceContents
from workbench.core.protocols.mcp import _handshake_era as handshake_era
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._funnel import RequestFunnel
from workbench.core.protocols.mcp._sdk_compat import set_session_log_level
from workbench.core.protocols.mcp._session import SessionOwner
from workbench.core.protocols.mcp.discovery import is_modern


class ServerFeatureCalls:
    """Resource, prompt, completion, logging, roots and ping requests of one connection.

    Args:
        funnel: The connection's request funnel.
        session: The session (its 2026 listen stream carries resource subscriptions).
        subscriptions: The resource URIs subscribed to (shared with the session's listen stream).
    """

    def __init__(self, funnel: RequestFunnel, session: SessionOwner, subscriptions: set[str]) -> None:
        self._funnel = funnel
        self._session = session
        self.subscriptions = subscriptions

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
        self._session.config.log_level = level
        if is_modern(client):
            set_session_log_level(client.session, level)  # type: ignore[arg-type]  # validated by the server
            return
        await self._funnel.request("setting the log level", lambda c: handshake_era.set_logging_level(c, level))  # type: ignore[arg-type]

    async def set_roots(self, roots: list[tuple[str, str | None]]) -> None:
        """Replace the roots offered to the server and tell it they changed.

        Raises:
            UsageError: The session is open and did not declare roots (none were configured when it
                opened); configure ``roots=[]`` to offer roots later.
        """
        config = self._session.config
        if config.roots is None and self._session.client is not None:
            raise UsageError(
                f"{config.name!r} was connected without roots, so the server was not told this client has any.",
                hint="pass roots=[] (or the roots) when creating the agent to offer roots later",
            )
        config.roots = list(roots)
        client = await self._funnel.client()
        if not is_modern(client):
            await self._funnel.request("announcing roots", handshake_era.roots_list_changed)

    async def ping(self) -> float:
        """Round-trip a ``ping`` (handshake era only); returns milliseconds."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        await self._funnel.request("pinging", handshake_era.ping)
        return (loop.time() - started) * 1000


class ServerFeatureMethods:
    """The server-feature methods of ``MCPAgent`` (mixed in; each hands over to ``ServerFeatureCalls``)."""

    _features: ServerFeatureCalls

    async def read_resource(self, uri: str) -> ResourceContents:
        """Read a resource (or a filled-in template URI)."""
        return await self._features.read_resource(uri)

    async def subscribe_resource(self, uri: str) -> None:
        """Ask to be told when ``uri`` changes (``ResourceUpdated`` on the bus)."""
        await self._features.subscribe_resource(uri)

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop updates for ``uri``."""
        await self._features.unsubscribe_resource(uri)

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> PromptResult:
        """Render a prompt with arguments."""
        return await self._features.get_prompt(name, arguments)

    async def complete(
        self,
        ref_type: Literal["prompt", "resource"],
        ref: str,
        argument: str,
        value: str,
        context: Mapping[str, str] | None = None,
    ) -> CompletionResult:
        """Ask for completions of a prompt argument or a template variable."""
        return await self._features.complete(ref_type, ref, argument, value, context)

    async def set_logging_level(self, level: str) -> None:
        """Set the server's log level (handshake era: ``logging/setLevel``; 2026: per-request opt-in)."""
        await self._features.set_logging_level(level)

    async def set_roots(self, roots: list[tuple[str, str | None]]) -> None:
        """Replace the roots offered to the server and tell it they changed.

        Raises:
            UsageError: The session is open and did not declare roots (the agent was made without
                ``roots``; pass ``roots=[]`` to offer roots later).
        """
        await self._features.set_roots(roots)

    async def ping(self) -> float:
        """Round-trip a ``ping`` (handshake era only); returns milliseconds."""
        return await self._features.ping()
