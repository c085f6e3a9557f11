"""Content in either protocol: one MCP content block or A2A part (``ContentPart``), and a message of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ContentPart:
    """One piece of content in either protocol (MCP content block, A2A part).

    Attributes:
        type: ``text``, ``data`` (JSON), ``image``, ``audio``, ``file``, ``resource`` (embedded),
            or ``resource_link``.
        text: Text for ``text`` parts and text resources.
        data: JSON value for ``data`` parts.
        blob: Base64 bytes for images, audio, files and blob resources.
        mime_type: Media type, when known.
        uri: Resource URI or file URL.
        name: File or resource name.
        raw: The protocol object as received.
        meta: The block's or resource contents' ``_meta``, as sent (an MCP App's ``ui.csp`` lives there).
    """

    type: str
    text: str | None = None
    data: Any = None
    blob: str | None = None
    mime_type: str | None = None
    uri: str | None = None
    name: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)
    meta: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict without empty fields and without ``raw``."""
        out: dict[str, Any] = {"type": self.type}
        for key in ("text", "data", "blob", "mime_type", "uri", "name"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def parts_text(parts: list[ContentPart]) -> str:
    """Concatenate the text of all text parts (and text resources)."""
    return "".join(p.text for p in parts if p.text is not None and p.type in ("text", "resource"))


@dataclass(frozen=True, slots=True)
class SamplingMessage:
    """One message of a sampling conversation."""

    role: str
    content: list[ContentPart]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"role": self.role, "content": [c.to_dict() for c in self.content]}
