"""What an MCP server offers: paginated listings, capabilities, and its agent entry point."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import mcp.types as types
from mcp import Client, MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from workbench.core.errors import ProtocolError, UnsupportedCapabilityError
from workbench.core.protocols.base import AgentCapabilities
from workbench.core.protocols.catalog import (
    PromptArgumentSpec,
    PromptSpec,
    ResourceSpec,
    ResourceTemplateSpec,
    ToolSpec,
)
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp.listing_cap import MAX_ITEMS, MAX_PAGE_ITEMS, page_refusal
from workbench.core.protocols.mcp.tasks_ext import offered as tasks_offered

AGENT_ENTRY_META = "io.workbench/agent-entry"
AGENT_ENTRY_NAMES = ("ask", "chat", "agent", "invoke", "query", "prompt")
LISTS = ("tools", "resources", "prompts")


def is_modern(client: Client) -> bool:
    """Whether the session speaks the 2026-07-28 era (no handshake, no server→client requests)."""
    return client.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS


def wants_listen(client: Client) -> bool:
    """Whether a 2026 ``subscriptions/listen`` stream is worth opening (anything can change)."""
    caps = client.server_capabilities
    changing = any(bool(c and getattr(c, "list_changed", False)) for c in (caps.tools, caps.prompts, caps.resources))
    return changing or bool(caps.resources and caps.resources.subscribe)


MAX_PAGES = 1_000
"""Most pages one listing follows (a server that always sends another ``nextCursor`` is refused)."""


class PageGuard:
    """Stops a listing that does not end or is too large: too many pages or items, or a cursor seen before.

    A page of more than ``MAX_PAGE_ITEMS`` is refused before it is read, by the transport
    (``listing_cap``); ``page`` refuses one that arrived another way.

    Args:
        what: What is listed (``tools``, ``tasks`` …), for the error.
        max_pages: Most pages followed.
        max_items: Most items collected over all pages.
    """

    def __init__(self, what: str, *, max_pages: int = MAX_PAGES, max_items: int = MAX_ITEMS) -> None:
        self.what = what
        self.max_pages = max_pages
        self.max_items = max_items
        self._pages = 0
        self._items = 0
        self._seen: set[str] = set()

    def page(self, count: int, next_cursor: str | None) -> bool:
        """Count a page of ``count`` items; returns whether to fetch ``next_cursor``.

        Raises:
            ProtocolError: The listing passed a limit or repeats a cursor (the error names which).
        """
        self._pages += 1
        self._items += count
        if count > MAX_PAGE_ITEMS:
            raise self._too_large(f"more than {MAX_PAGE_ITEMS:,} {self.what} in one page", "max_page_items")
        if self._items > self.max_items:
            raise self._too_large(f"more than {self.max_items:,} {self.what} in {self._pages:,} pages", "max_items")
        if not next_cursor:
            return False
        if next_cursor in self._seen:
            raise self._endless(f"a cursor it sent before after {self._pages:,} pages", "cursor_repeated")
        if self._pages >= self.max_pages:
            raise self._endless(f"another cursor after {self.max_pages:,} pages", "max_pages")
        self._seen.add(next_cursor)
        return True

    @property
    def pages(self) -> int:
        """Pages counted so far."""
        return self._pages

    @property
    def items(self) -> int:
        """Items counted so far."""
        return self._items

    def _endless(self, what: str, limit: str) -> ProtocolError:
        return ProtocolError(
            f"The server's list of {self.what} did not end: it sent {what}.",
            hint="the server's pagination is broken; the pages that arrived are in the wire log",
            details={"limit": limit, "pages": self._pages, "items": self._items},
        )

    def _too_large(self, what: str, limit: str) -> ProtocolError:
        return ProtocolError(
            f"The server's list of {self.what} is larger than the workbench reads: it sent {what}.",
            hint=(
                f"the workbench reads at most {MAX_PAGE_ITEMS:,} {self.what} a page and {self.max_items:,} in all; "
                "the pages that arrived are in the wire log"
            ),
            details={"limit": limit, "pages": self._pages, "items": self._items},
        )


async def all_pages[T](fetch: Callable[[str | None], Awaitable[Any]], items: str) -> list[T]:
    """Follow ``next_cursor`` until the last page; ``items`` names the list field of each page.

    Raises:
        ProtocolError: The listing does not end (``PageGuard``).
    """
    out: list[T] = []
    cursor: str | None = None
    guard = PageGuard(items.replace("_", " "))
    while True:
        try:
            page = await fetch(cursor)
        except MCPError as exc:
            refused = page_refusal(exc, pages=guard.pages + 1, items=guard.items)
            if refused is not None:
                raise refused from None
            raise
        got = getattr(page, items)
        out.extend(got)
        cursor = page.next_cursor
        if not guard.page(len(got), cursor):
            return out


class ServerCatalog:
    """The server's tools, resources, templates and prompts as last listed."""

    def __init__(self) -> None:
        self.tools: list[ToolSpec] = []
        self.resources: list[ResourceSpec] = []
        self.templates: list[ResourceTemplateSpec] = []
        self.prompts: list[PromptSpec] = []
        self.output_schemas: dict[str, dict[str, Any] | None] = {}

    async def refresh_all(self, client: Client) -> None:
        """List everything the capabilities promise, the listings running concurrently."""
        caps = client.server_capabilities
        await asyncio.gather(*(self.refresh(what, client) for what in LISTS if getattr(caps, what) is not None))

    async def refresh(self, what: str, client: Client) -> None:
        """Re-list one of ``tools``, ``resources`` (with templates) or ``prompts``."""
        if what == "tools":
            await self._tools(client)
        elif what == "resources":
            await asyncio.gather(self._resources(client), self._templates(client))
        else:
            await self._prompts(client)

    async def _tools(self, client: Client) -> None:
        tools: list[types.Tool] = await all_pages(lambda c: client.list_tools(cursor=c), "tools")
        self.tools = [convert.tool_spec(t) for t in tools]
        self.output_schemas = {t.name: t.output_schema for t in self.tools}

    async def _resources(self, client: Client) -> None:
        resources: list[types.Resource] = await all_pages(lambda c: client.list_resources(cursor=c), "resources")
        self.resources = [
            ResourceSpec(str(r.uri), r.name, r.title, r.description, r.mime_type, r.size, raw=r) for r in resources
        ]

    async def _templates(self, client: Client) -> None:
        templates: list[types.ResourceTemplate] = await all_pages(
            lambda c: client.list_resource_templates(cursor=c), "resource_templates"
        )
        self.templates = [
            ResourceTemplateSpec(t.uri_template, t.name, t.title, t.description, t.mime_type, raw=t) for t in templates
        ]

    async def _prompts(self, client: Client) -> None:
        prompts: list[types.Prompt] = await all_pages(lambda c: client.list_prompts(cursor=c), "prompts")
        self.prompts = [
            PromptSpec(
                p.name,
                p.title,
                p.description,
                [PromptArgumentSpec(a.name, a.description, bool(a.required)) for a in (p.arguments or [])],
                raw=p,
            )
            for p in prompts
        ]

    def tool(self, name: str) -> ToolSpec | None:
        """The tool called ``name``, if listed."""
        return next((t for t in self.tools if t.name == name), None)

    def entry_point(self, agent_tool: str | None) -> str | None:
        """The tool that makes this server an agent: the one named, or one the server clearly marks.

        Marked means ``_meta["io.workbench/agent-entry"]`` is true, or the tool has a conventional
        name (``ask``, ``chat`` …) and exactly one string argument to put the prompt in.
        """
        if agent_tool:
            return agent_tool if self.tool(agent_tool) is not None else None
        for spec in self.tools:
            meta = getattr(spec.raw, "meta", None) or {}
            if meta.get(AGENT_ENTRY_META):
                return spec.name
        for candidate in AGENT_ENTRY_NAMES:
            match = self.tool(candidate)
            if match is not None and single_string_argument(match) is not None:
                return match.name
        return None

    def no_entry_point_error(self, name: str, target: str, agent_tool: str | None) -> UnsupportedCapabilityError:
        """The error for calling a server without an entry point *as an agent*: what it offers instead."""
        offers = []
        if self.tools:
            more = "…" if len(self.tools) > 12 else ""
            offers.append(f"tools ({', '.join(t.name for t in self.tools[:12])}{more})")
        if self.resources or self.templates:
            offers.append(f"resources ({len(self.resources)} + {len(self.templates)} templates)")
        if self.prompts:
            offers.append(f"prompts ({', '.join(p.name for p in self.prompts[:8])})")
        wanted = f" (the named agent_tool {agent_tool!r} does not exist)" if agent_tool else ""
        return UnsupportedCapabilityError(
            f"MCP server {name!r} at {target} has no agent entry point{wanted}. "
            f"It offers: {'; '.join(offers) or 'nothing'}.",
            hint="use agent.tools['<name>'](...) for direct tool access, or MCPAgent(..., agent_tool='<tool>')",
            details={"problem": "no-entry-point", "tools": [t.name for t in self.tools], "agent_tool": agent_tool},
        )

    def capabilities(self, client: Client, *, transport: str, agent_tool: str | None) -> AgentCapabilities:
        """The neutral capabilities of the session, with the agent entry point resolved."""
        caps = client.server_capabilities
        info = client.server_info
        entry = self.entry_point(agent_tool)
        list_changed = any(
            bool(getattr(c, "list_changed", False)) for c in (caps.tools, caps.resources, caps.prompts) if c
        )
        return AgentCapabilities(
            protocol="mcp",
            protocol_version=client.protocol_version,
            transport=transport,
            name=info.name if info else None,
            version=info.version if info else None,
            description=getattr(info, "description", None) if info else None,
            instructions=client.instructions,
            era="2026-07-28" if is_modern(client) else "legacy",
            supports_streaming=True,
            supports_tasks=caps.tasks is not None or (is_modern(client) and tasks_offered(caps)),
            supports_elicitation=True,
            supports_sampling=True,
            supports_tools=caps.tools is not None,
            supports_resources=caps.resources is not None,
            supports_resource_subscribe=bool(caps.resources and caps.resources.subscribe),
            supports_prompts=caps.prompts is not None,
            supports_completions=caps.completions is not None,
            supports_logging=caps.logging is not None,
            supports_list_changed=list_changed,
            supports_agent_invocation=entry is not None,
            agent_entry_point=entry,
            extra={"server_capabilities": convert.dump(caps), "server_info": convert.dump(info)},
            raw=caps,
        )


def single_string_argument(spec: ToolSpec) -> str | None:
    """The name of the tool's only required string argument, if it has exactly one."""
    props = spec.input_schema.get("properties") or {}
    required = spec.input_schema.get("required") or []
    strings = [k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "string"]
    if len(required) == 1 and required[0] in strings:
        return str(required[0])
    if not required and len(strings) == 1:
        return str(strings[0])
    return None
