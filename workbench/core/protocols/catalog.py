"""Protocol-neutral descriptions of what a server offers: tools, resources, templates, prompts, completions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.core.protocols.content import ContentPart, SamplingMessage


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as a peer describes it (MCP tool or A2A skill), protocol-neutral.

    Attributes:
        name: The name to call it by.
        title: Human title, if given.
        description: The peer's description (untrusted text).
        input_schema: JSON Schema of the arguments (A2A skills: a single ``message`` string).
        output_schema: JSON Schema of structured output, if declared.
        annotations: Behaviour hints (read-only, destructive, ...), as sent.
        kind: ``tool`` for MCP tools, ``skill`` for A2A skills.
        raw: The protocol object as received.
        meta: The tool's ``_meta``, as sent (MCP Apps: ``ui.resourceUri``, ``ui.visibility``).
    """

    name: str
    title: str | None = None
    description: str | None = None
    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] | None = None
    kind: str = "tool"
    raw: Any = field(default=None, compare=False, repr=False)
    meta: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready description (without the raw object)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "input_schema": self.input_schema}
        for key in ("title", "description", "output_schema", "annotations"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    """A resource the server lists."""

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = {"uri": self.uri, "name": self.name}
        out.update({k: v for k in ("title", "description", "mime_type", "size") if (v := getattr(self, k)) is not None})
        return out


@dataclass(frozen=True, slots=True)
class ResourceTemplateSpec:
    """A URI template the server can resolve (``demo://items/{item_id}``)."""

    uri_template: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = {"uri_template": self.uri_template, "name": self.name}
        out.update({k: v for k in ("title", "description", "mime_type") if (v := getattr(self, k)) is not None})
        return out


@dataclass(frozen=True, slots=True)
class PromptArgumentSpec:
    """One argument of a prompt."""

    name: str
    description: str | None = None
    required: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"name": self.name, "required": self.required}
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass(frozen=True, slots=True)
class PromptSpec:
    """A prompt template the server offers."""

    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgumentSpec] = field(default_factory=list)
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"name": self.name, "arguments": [a.to_dict() for a in self.arguments]}
        out.update({k: v for k in ("title", "description") if (v := getattr(self, k)) is not None})
        return out


@dataclass(frozen=True, slots=True)
class PromptResult:
    """A rendered prompt: its messages."""

    messages: list[SamplingMessage]
    description: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"description": self.description, "messages": [m.to_dict() for m in self.messages]}


@dataclass(frozen=True, slots=True)
class ResourceContents:
    """What reading a resource returned (one part per content item)."""

    uri: str
    parts: list[ContentPart]
    raw: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"uri": self.uri, "contents": [p.to_dict() for p in self.parts]}


@dataclass(frozen=True, slots=True)
class CompletionResult:
    """Suggested values for a prompt or template argument."""

    values: list[str]
    total: int | None = None
    has_more: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"values": self.values, "total": self.total, "has_more": self.has_more}
