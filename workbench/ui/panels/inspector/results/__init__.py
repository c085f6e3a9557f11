"""Showing what a tool call or resource read returned: text, JSON, images, audio, PDF, CSV, HTML, resources, links.

``ToolResultView`` renders a ``ToolResult`` (the inspector and the chat both use it); ``ContentPartsView``
renders a plain list of ``ContentPart`` (resource contents, prompt messages). Everything shown came from
a peer, so text goes through ``PayloadView`` / plain labels; HTML is rendered only as the safe subset
``workbench.core.documents.sanitise_html`` leaves of it (no scripts, frames, forms, images or remote loads).

One module per job: ``blobs`` (sizes, base64, file names), ``frame`` (the part box, text sizing),
``text_parts``, ``media_parts``, ``document_views`` (CSV as a table, HTML sanitised), ``pdf_view`` (Qt PDF,
imported with the first PDF shown), ``parts`` (resources and the column of parts), ``tool_result``.
"""

from workbench.ui.panels.inspector.results.blobs import (
    decode_blob,
    human_size,
    pretty_json,
    suggested_file_name,
    wav_duration,
)
from workbench.ui.panels.inspector.results.document_views import CSVView, HTMLView
from workbench.ui.panels.inspector.results.frame import TEXT_VIEW_HEIGHT, PartFrame
from workbench.ui.panels.inspector.results.media_parts import (
    HAS_MULTIMEDIA,
    MAX_IMAGE_SIDE,
    MIN_IMAGE_SIDE,
    AudioPartView,
    ImagePartView,
)
from workbench.ui.panels.inspector.results.parts import (
    ContentPartsView,
    EmbeddedResourceView,
    ResourceLinkView,
    part_view,
)
from workbench.ui.panels.inspector.results.pdf_view import HAS_PDF, PDFView
from workbench.ui.panels.inspector.results.text_parts import (
    MARKDOWN_TYPES,
    JSONPartView,
    MarkdownView,
    TextPartView,
    is_markdown,
)
from workbench.ui.panels.inspector.results.tool_result import ToolResultView

__all__ = [
    "HAS_MULTIMEDIA",
    "HAS_PDF",
    "MARKDOWN_TYPES",
    "MAX_IMAGE_SIDE",
    "MIN_IMAGE_SIDE",
    "TEXT_VIEW_HEIGHT",
    "AudioPartView",
    "CSVView",
    "ContentPartsView",
    "EmbeddedResourceView",
    "HTMLView",
    "ImagePartView",
    "JSONPartView",
    "MarkdownView",
    "PDFView",
    "PartFrame",
    "ResourceLinkView",
    "TextPartView",
    "ToolResultView",
    "decode_blob",
    "human_size",
    "is_markdown",
    "part_view",
    "pretty_json",
    "suggested_file_name",
    "wav_duration",
]
