"""The demo server's document tools through the workbench's MCP client: a PDF, a CSV, hostile HTML and a file input."""

from __future__ import annotations

import base64
import hashlib

import pytest

from workbench.core.documents import document_kind, parse_csv, sanitise_html
from workbench.core.file_inputs import file_input_spec
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.demo.mcp_server.documents import make_pdf


@pytest.mark.asyncio
async def test_the_demo_documents_arrive_as_resources_the_viewers_take_and_a_file_input_round_trips() -> None:
    async with MCPAgent.in_process(build_server()) as agent:
        tools = {t.name: t for t in await agent.server_features.list_tools()}
        pdf = (await agent.call_tool("pdf_report", {})).content[-1]
        assert pdf.type == "resource" and document_kind(pdf.mime_type) == "pdf"
        assert pdf.blob is not None and base64.b64decode(pdf.blob) == make_pdf()
        assert make_pdf().startswith(b"%PDF-1.4") and make_pdf().rstrip().endswith(b"%%EOF")
        csv = (await agent.call_tool("csv_table", {"rows": 30})).content[0]
        assert document_kind(csv.mime_type) == "csv" and csv.text is not None
        assert len(parse_csv(csv.text).rows) == 30
        html = (await agent.call_tool("html_page", {})).content[0]
        assert document_kind(html.mime_type) == "html" and html.text is not None
        assert "<script>" in html.text and "<script" not in sanitise_html(html.text).html
        spec = file_input_spec(tools["inspect_file"].input_schema["properties"]["file"])
        assert spec is not None and spec.encoding == "data-url"
        url = "data:application/pdf;base64," + base64.b64encode(make_pdf()).decode()
        described = await agent.call_tool("inspect_file", {"file": url})
        text = described.content[0].text or ""
        assert text.startswith("application/pdf, ") and hashlib.sha256(make_pdf()).hexdigest() in text
        refused = await agent.call_tool("inspect_file", {"file": "not a data url"})
        assert refused.is_error
