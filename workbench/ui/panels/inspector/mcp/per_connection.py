"""What the MCP inspector keeps for one connection: its own view-model, one per connection.

The rule: **state is owned per connection.** Everything the user picked, typed or got back
while looking at a connection belongs to that connection's ``MCPConnectionViewModel``: the sub-tab, each
list's filter and selection, the tool's form arguments (per tool), the call under way, the call history
and the result on show (per tool), the template variables and prompt arguments (per template, per
prompt), the last resource read and rendered prompt, subscriptions and updates. Nothing of the kind is
kept in a widget or in a field shared by all connections:

- The inspector's widgets are shared by every connection, so they write what the user does into the
  shown connection's view-model as it happens (never "when leaving": by then another connection is on
  show) and redraw entirely from it when a connection is shown. Switching connections therefore
  restores each one's own state, and a connection never seen before starts empty.
- An answer that arrives for a connection (a call's result, a read, a rendered prompt) is stored in that
  connection's view-model and shown only while that connection is on show.
- The view-model lives as long as the connection is known to the connection manager; a removed
  connection's state is dropped (``MCPInspectorViewModel.show_connection``).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import PromptResult, ResourceContents
from workbench.core.timefmt import duration_text, time_of_day
from workbench.ui.errors import ErrorView

HISTORY_SIZE = 20
"""Results kept per tool (and connection)."""
SCHEMA_VIOLATION = "schema violation"
"""A call's outcome when its structured content does not match the tool's ``outputSchema``."""


@dataclass(slots=True)
class CallRecord:
    """One tool call from the inspector, running or done.

    Attributes:
        connection_id: The connection it went to.
        tool: The tool's name.
        arguments: The arguments as sent.
        started_at: Wall-clock start (``time.time()``).
        duration_ms: How long it took (``None`` while running).
        result: The result (also for ``is_error`` results).
        error: Why the call itself failed (a JSON-RPC error, timeout, lost connection).
        cancelled: The user cancelled it.
        has_output_schema: Whether the tool declared an ``outputSchema`` when it was called.
        logs: The server's log messages (``notifications/message``) that arrived during the call.
        progress: The last progress the server reported: progress, total (``None`` if unknown), message.
    """

    connection_id: str
    tool: str
    arguments: dict[str, Any]
    started_at: float = field(default_factory=time.time)
    duration_ms: float | None = None
    result: ToolResult | None = None
    error: ErrorView | None = None
    cancelled: bool = False
    has_output_schema: bool = False
    logs: list[str] = field(default_factory=list)
    progress: tuple[float, float | None, str] | None = None

    @property
    def outcome(self) -> str:
        """``running``, ``ok``, ``schema violation``, ``tool error`` (``is_error``), ``failed`` or ``cancelled``.

        A result whose structured content does not match the tool's ``outputSchema`` is a
        ``schema violation``, not ``ok``: the call worked, the server broke its own contract.
        """
        if self.cancelled:
            return "cancelled"
        if self.error is not None:
            return "failed"
        if self.result is not None:
            if self.result.is_error:
                return "tool error"
            return SCHEMA_VIOLATION if self.result.schema_errors else "ok"
        return "running"

    def label(self) -> str:
        """One line for the history list: time, outcome, duration."""
        took = f" · {duration_text(self.duration_ms / 1000)}" if self.duration_ms is not None else ""
        return f"{time_of_day(self.started_at)} · {self.outcome}{took}"

    def status_text(self) -> str:
        """The short state beside the history saying how the call ended ("" while it runs).

        A state, never the problem itself: what went wrong is said once, in the result's banner (a
        tool error, a schema violation) or the call's error line (a failed call), so this line stays
        short enough to fit beside the history at 1280 px ("Done in 49 ms · schema violation").
        """
        took = duration_text(self.duration_ms / 1000) if self.duration_ms is not None else ""
        done = f"Done in {took}" if took else "Done"
        ended = {
            "ok": done,
            SCHEMA_VIOLATION: f"{done} · {SCHEMA_VIOLATION}",
            "tool error": f"{done} · tool error",
            "failed": f"Failed after {took}" if took else "Failed",
            "cancelled": f"Cancelled after {took}" if took else "Cancelled",
        }
        return ended.get(self.outcome, "")


@dataclass(slots=True)
class ReadOutcome:
    """The last answer to a resource read asked by one page: the URI, then the contents or why it failed."""

    uri: str
    contents: ResourceContents | None = None
    error: ErrorView | None = None


@dataclass(slots=True)
class PromptOutcome:
    """The last answer to ``prompts/get``: the prompt's name, then the rendered prompt or why it failed."""

    name: str
    result: PromptResult | None = None
    error: ErrorView | None = None


@dataclass(slots=True)
class MCPConnectionViewModel:
    """One connection's inspector state (see the module docstring for the rule it implements).

    Attributes:
        connection_id: The connection it belongs to.
        tab: The sub-tab on show (``tools``, ``resources``, ``prompts``, ``tasks``, ``chat``, ``server``);
            ``None`` until the user picks one (the inspector then starts on the first one offered).
        filters: Each catalog list's filter text, by list (``tools``, ``resources``, ``templates``, ``prompts``).
        tool: The selected tool.
        tool_arguments: What the user put into each tool's form, by tool.
        history: Each tool's calls, oldest first (at most ``HISTORY_SIZE``).
        shown_calls: The call whose result is on show, by tool: the latest call unless the user picked an
            earlier one from the history.
        calling: Whether a call is under way (one at a time per connection).
        call_task: The task of the call under way (or of the last one).
        call_started: ``time.monotonic()`` when the call under way started.
        last_call: The call under way, or the last one made.
        resource: The selected resource (its URI); ``None`` when a template or nothing is selected.
        template: The selected URI template; ``None`` when a resource or nothing is selected.
        template_values: The variables typed into each template's fields, by template.
        prompt: The selected prompt.
        prompt_arguments: The arguments typed into each prompt's fields, by prompt.
        reads: The last read each page asked for, by purpose (``resources``, ``template``).
        prompt_outcome: The last prompt rendered (or refused).
        subscribed: URIs subscribed to (a new session has none).
        auto_reread: URIs re-read as soon as the server says they changed.
        updated: URIs that changed on the server since they were last read.
    """

    connection_id: str
    tab: str | None = None
    filters: dict[str, str] = field(default_factory=dict)
    tool: str | None = None
    tool_arguments: dict[str, dict[str, Any]] = field(default_factory=dict)
    history: dict[str, deque[CallRecord]] = field(default_factory=dict)
    shown_calls: dict[str, CallRecord] = field(default_factory=dict)
    calling: bool = False
    call_task: asyncio.Task[None] | None = None
    call_started: float = 0.0
    last_call: CallRecord | None = None
    resource: str | None = None
    template: str | None = None
    template_values: dict[str, dict[str, str]] = field(default_factory=dict)
    prompt: str | None = None
    prompt_arguments: dict[str, dict[str, str]] = field(default_factory=dict)
    reads: dict[str, ReadOutcome] = field(default_factory=dict)
    prompt_outcome: PromptOutcome | None = None
    subscribed: set[str] = field(default_factory=set)
    auto_reread: set[str] = field(default_factory=set)
    updated: set[str] = field(default_factory=set)

    def add_call(self, record: CallRecord) -> None:
        """Remember ``record`` in its tool's history and show its result from now on."""
        self.history.setdefault(record.tool, deque(maxlen=HISTORY_SIZE)).append(record)
        self.shown_calls[record.tool] = record
        self.last_call = record

    def calls_of(self, tool: str) -> list[CallRecord]:
        """``tool``'s calls, newest first."""
        return list(reversed(self.history.get(tool, ())))

    def shown_call(self, tool: str) -> CallRecord | None:
        """The call of ``tool`` whose result is on show (``None``: the tool was never called)."""
        record = self.shown_calls.get(tool)
        if record is not None and record in self.history.get(tool, ()):
            return record
        calls = self.calls_of(tool)
        return calls[0] if calls else None
