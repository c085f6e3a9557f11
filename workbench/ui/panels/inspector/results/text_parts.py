"""Text parts: plain text wrapped and sized to fit, markdown rendered safely (source one click away), JSON."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from workbench.core.protocols.base import ContentPart
from workbench.ui.panels.inspector.results.blobs import pretty_json, suggested_file_name
from workbench.ui.panels.inspector.results.frame import TEXT_VIEW_HEIGHT, PartFrame, text_view
from workbench.ui.panels.inspector.results.rendered_source import RenderedWithSource
from workbench.ui.payload import TRUNCATE_AT

MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown"})
"""Media types rendered as markdown (HTML in them shown as text, nothing loaded, links ask first)."""


class MarkdownView(RenderedWithSource):
    """Markdown shown rendered (no HTML, no images loaded, links only on consent) with its source a click away."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, "renderedMarkdown", parent)
        self.show_rendered()
        lines = min(text.count("\n", 0, 100_000) + 2, 40)
        height = self.browser.fontMetrics().lineSpacing() * lines + 16
        self.browser.setMinimumHeight(TEXT_VIEW_HEIGHT[0])
        self.browser.setFixedHeight(max(TEXT_VIEW_HEIGHT[0], min(height, TEXT_VIEW_HEIGHT[1])))

    def show_rendered(self) -> None:
        """Show the markdown rendered."""
        self.browser.set_untrusted_markdown(self.text[:TRUNCATE_AT])


def is_markdown(part: ContentPart) -> bool:
    """Whether ``part`` declares a markdown media type."""
    return (part.mime_type or "").split(";", 1)[0].strip().lower() in MARKDOWN_TYPES


class TextPartView(PartFrame):
    """A text part: shown literally; huge text is cut with "Show all" / "Save as…" (``PayloadView``)."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "text") -> None:
        text = part.text or ""
        super().__init__(f"{header} · {len(text):,} characters", parent)
        self.markdown: MarkdownView | None = None
        if is_markdown(part):
            self.header.setText(f"{header} · markdown · {len(text):,} characters")
            self.markdown = MarkdownView(text, self)
            self.markdown.link_clicked.connect(self.link_clicked)
            self.set_savable(text.encode("utf-8"), suggested_file_name(part, "text.md"))
            self.body.addWidget(self.markdown)
            return
        self.payload = text_view(text, self, suggested_file_name(part, "text.txt"), wrap=True)
        self.body.addWidget(self.payload)


class JSONPartView(PartFrame):
    """A JSON value (data parts and content types the workbench does not know), pretty-printed."""

    def __init__(self, value: Any, parent: QWidget | None = None, *, header: str = "data") -> None:
        super().__init__(header, parent)
        self.payload = text_view(pretty_json(value), self, "data.json", wrap=True)
        self.body.addWidget(self.payload)
