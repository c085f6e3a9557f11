"""Demo tools returning documents (a PDF, a CSV table, an HTML page) and one taking a file as its input."""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    BlobResourceContents,
    ContentBlock,
    EmbeddedResource,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import Field

from workbench.demo.mcp_server.documents import HTML_PAGE, make_csv, make_pdf

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
MAX_FILE_CHARS = 11_000_000
"""Longest data: URL ``inspect_file`` takes (an 8 MB file in base64, with its prefix)."""


def register(server: MCPServer) -> None:
    """Register the document tools on `server`."""

    @server.tool(
        description="Return a two-page PDF report (an embedded application/pdf resource).", annotations=_READ_ONLY
    )
    def pdf_report() -> list[ContentBlock]:
        blob = base64.b64encode(make_pdf()).decode("ascii")
        return [
            TextContent(text="The report is attached as a PDF."),
            EmbeddedResource(
                resource=BlobResourceContents(uri="demo://reports/forecast.pdf", mime_type="application/pdf", blob=blob)
            ),
        ]

    @server.tool(
        description="Return a table of daily figures as CSV (an embedded text/csv resource).", annotations=_READ_ONLY
    )
    def csv_table(
        rows: Annotated[int, Field(ge=1, le=5000, description="How many data rows")] = 12,
    ) -> list[ContentBlock]:
        return [
            EmbeddedResource(
                resource=TextResourceContents(uri="demo://tables/daily.csv", mime_type="text/csv", text=make_csv(rows))
            )
        ]

    @server.tool(
        description="Return an HTML page with a script, a frame, a form and a remote image in it (shown sanitised).",
        annotations=_READ_ONLY,
    )
    def html_page() -> list[ContentBlock]:
        return [
            EmbeddedResource(
                resource=TextResourceContents(uri="demo://pages/summary.html", mime_type="text/html", text=HTML_PAGE)
            )
        ]

    @server.tool(
        description="Describe a file sent as a data: URL: its media type, size and SHA-256.", annotations=_READ_ONLY
    )
    def inspect_file(
        file: Annotated[
            str,
            Field(
                max_length=MAX_FILE_CHARS,
                description="The file, as a data: URL (Choose file… fills it)",
                json_schema_extra={"format": "data-url"},
            ),
        ],
    ) -> str:
        if not file.startswith("data:") or "," not in file:
            raise ToolError("file is not a data: URL")
        head, _, payload = file.partition(",")
        media_type = head[5:].split(";", 1)[0] or "text/plain"
        try:
            data = base64.b64decode(payload, validate=True) if head.endswith(";base64") else payload.encode()
        except (binascii.Error, ValueError):
            raise ToolError("the data: URL's base64 is not valid") from None
        return f"{media_type}, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}"
