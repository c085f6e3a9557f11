"""Protocol-neutral snapshots of what an agent showed: info rows, cards, tasks, the whole agent.

Everything here is plain frozen data with no live object or SDK type behind it, so the UI can show
it, the CLI can print it, and a saved session can be reopened offline. All strings came from the
peer and are untrusted: show them as plain text.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from workbench.core.protocols.base import AgentCapabilities, ContentPart
from workbench.core.protocols.catalog import PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolSpec
from workbench.core.sizes import base64_size
from workbench.core.timefmt import time_of_day

NOT_GIVEN = "—"
"""Shown for a field the peer leaves out."""
PREVIEW_CHARS = 300
"""Characters of a part's text shown in one row (the raw JSON has all of it)."""
MAX_PART_ROWS = 50
"""Parts listed per message or artifact (a long stream can build an artifact from thousands of chunks)."""
STATUS_HISTORY = "Status history (as seen here)"
"""The agent keeps a task's messages but not its states: states only show when this client saw them."""


def part_text(part: ContentPart) -> str:
    """One part as a short line of text (what kind it is, and its start)."""
    if part.type == "text":
        body = part.text or ""
    elif part.type == "data":
        body = json.dumps(part.data, ensure_ascii=False, sort_keys=True)
    elif part.uri:
        body = part.uri
    elif part.blob is not None:
        body = f"{base64_size(part.blob):,} bytes"
    else:
        body = ""
    kind = part.type + (f" {part.mime_type}" if part.mime_type else "") + (f" {part.name}" if part.name else "")
    if len(body) > PREVIEW_CHARS:
        body = body[:PREVIEW_CHARS] + f"… ({len(body):,} characters)"
    return f"[{kind}] {body}"


def oneline(text: str) -> str:
    """``text`` on one line, cut at ``PREVIEW_CHARS``."""
    line = " ".join(text.split())
    return line if len(line) <= PREVIEW_CHARS else line[:PREVIEW_CHARS] + "…"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of an info view: a label, a value and optional nested rows (all untrusted text).

    Attributes:
        label: What the value is ("Streaming", a scheme name, a URL ...).
        value: The value as text.
        children: Nested rows (a scheme's details, an interface's fields).
    """

    label: str
    value: str = ""
    children: tuple[Row, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A titled group of rows ("Identity", "Capabilities", "Security schemes" ...)."""

    title: str
    rows: tuple[Row, ...]


def yes_no(value: bool | None) -> str:
    """``yes`` / ``no`` / ``not stated``."""
    if value is None:
        return "not stated"
    return "yes" if value else "no"


def flatten(value: Any) -> tuple[Row, ...]:
    """Nested JSON as rows: objects become one row per key (nested), lists one row per item."""
    if isinstance(value, dict):
        return tuple(_row(str(k), v) for k, v in value.items())
    if isinstance(value, list):
        return tuple(_row(f"[{i}]", v) for i, v in enumerate(value))
    return (Row("value", _scalar(value)),)


def _row(label: str, value: Any) -> Row:
    if isinstance(value, dict | list):
        summary = f"{len(value)} item(s)" if value else "(empty)"
        return Row(label, summary, flatten(value) if value else ())
    return Row(label, _scalar(value))


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


@dataclass(frozen=True, slots=True)
class SkillInfo:
    """One skill as an agent card states it.

    Attributes:
        id: The skill id.
        name: Its display name.
        description: Its description (untrusted; shown literally, never rendered).
        tags: Its tags.
        examples: Example prompts.
        input_modes: Accepted MIME types (empty: the card's defaults).
        output_modes: Produced MIME types (empty: the card's defaults).
        security: Security requirements, one text per requirement.
    """

    id: str
    name: str
    description: str
    tags: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    input_modes: tuple[str, ...] = ()
    output_modes: tuple[str, ...] = ()
    security: tuple[str, ...] = ()

    def details_text(self) -> str:
        """The skill as plain text for the detail pane (never rendered as markdown or HTML)."""
        lines = [f"{self.name or self.id}  ({self.id})", ""]
        lines.append("Tags: " + (", ".join(self.tags) or NOT_GIVEN))
        lines.append("Input modes: " + (", ".join(self.input_modes) or "the card's defaults"))
        lines.append("Output modes: " + (", ".join(self.output_modes) or "the card's defaults"))
        if self.security:
            lines.append("Security: " + "; ".join(self.security))
        lines += ["", "Description:", self.description or NOT_GIVEN, "", "Examples:"]
        lines += [f"  • {example}" for example in self.examples] or [f"  {NOT_GIVEN}"]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class CardInfo:
    """Everything an A2A agent's card says, as the inspector shows it.

    Attributes:
        name: The agent's name.
        description: Its description.
        sections: Identity, protocol, capabilities, modes, security and interfaces, in order.
        skills: The skills.
        raw_json: The card exactly as published, pretty-printed.
        extended: Whether the shown card is the authenticated extended card.
        extended_json: The extended card (normalised JSON) when it was fetched, else empty.
        warnings: What the user should check about the connection (e.g. the URL's path had no card
            and the server root's card was used); shown above the card, not only in it.
    """

    name: str
    description: str
    sections: tuple[Section, ...]
    skills: tuple[SkillInfo, ...] = ()
    raw_json: str = ""
    extended: bool = False
    extended_json: str = ""
    warnings: tuple[str, ...] = ()

    def section(self, title: str) -> Section:
        """The section called ``title`` (KeyError if there is none)."""
        for s in self.sections:
            if s.title == title:
                return s
        raise KeyError(title)


@dataclass(frozen=True, slots=True)
class TaskSummary:
    """One line of a task table.

    Attributes:
        task_id: The task id.
        context_id: Its context id.
        state: Neutral state name (``working``, ``input_required`` ...).
        updated: When its status last changed, by the agent's clock (epoch seconds), if known.
        artifacts: How many artifacts it has.
        terminal: Whether it has ended.
        tool: The tool the task runs (MCP tasks; empty for A2A or when not known).
        created: When the task was created, by the agent's clock (epoch seconds), if known.
    """

    task_id: str
    context_id: str
    state: str
    updated: float | None = None
    artifacts: int = 0
    terminal: bool = False
    tool: str = ""
    created: float | None = None

    @property
    def updated_text(self) -> str:
        """``updated`` as ``HH:MM:SS.mmm`` (empty when unknown)."""
        return time_of_day(self.updated) if self.updated is not None else ""

    @property
    def created_text(self) -> str:
        """``created`` as ``HH:MM:SS.mmm`` (empty when unknown)."""
        return time_of_day(self.created) if self.created is not None else ""


@dataclass(frozen=True, slots=True)
class TaskSnapshot:
    """One task in full as this client knows it.

    Attributes:
        summary: Its table line.
        sections: Overview, status history, messages and artifacts, as rows.
        json: What the client merged (status history, messages, artifacts), pretty-printed.
    """

    summary: TaskSummary
    sections: tuple[Section, ...] = ()
    json: str = "{}"

    @property
    def task_id(self) -> str:
        """The task id."""
        return self.summary.task_id


@dataclass(frozen=True, slots=True)
class AgentSnapshot:
    """Everything discovered about an agent, with no agent behind it.

    Attributes:
        protocol: ``mcp`` or ``a2a``.
        name: Display name.
        target: Where it is (URL with secrets masked, or the stdio command).
        capabilities: What it declared, in the neutral shape.
        tools: Tools (MCP) or skills (A2A) as tool specs.
        resources: MCP resources.
        resource_templates: MCP resource templates.
        prompts: MCP prompts.
        card: The A2A card as shown, if any.
        tasks: Tasks this client has seen.
        details: The protocol's full JSON description (what ``workbench inspect --json`` prints).
        taken_at: When the snapshot was taken (epoch seconds).
    """

    protocol: str
    name: str
    target: str
    capabilities: AgentCapabilities
    tools: tuple[ToolSpec, ...] = ()
    resources: tuple[ResourceSpec, ...] = ()
    resource_templates: tuple[ResourceTemplateSpec, ...] = ()
    prompts: tuple[PromptSpec, ...] = ()
    card: CardInfo | None = None
    tasks: tuple[TaskSnapshot, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)
    taken_at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        """The JSON description (``details``), JSON-ready."""
        out: dict[str, Any] = json.loads(json.dumps(self.details, default=str))
        return out
