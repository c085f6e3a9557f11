"""``workbench call TOOL --file FIELD=PATH``: a file read into an argument as its schema asks, or refused (exit 2)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.support.cli_runner import workbench
from workbench.demo.mcp_server import serve_http
from workbench.demo.mcp_server.documents import make_pdf

pytestmark = pytest.mark.asyncio


async def test_a_file_fills_a_data_url_argument_and_bad_files_or_fields_are_usage_errors(tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf())
    async with serve_http(transport="streamable-http") as url:
        code, out, err = await workbench("call", "--mcp", url, "inspect_file", "--file", f"file={pdf}")
        assert code == 0, err
        assert "application/pdf" in out and hashlib.sha256(make_pdf()).hexdigest() in out
        refusals = [
            ["inspect_file", "--file", f"file={tmp_path / 'missing.pdf'}"],  # unreadable
            ["inspect_file", "--file", f"nope={pdf}"],  # no such argument
            ["inspect_file", "--file", str(pdf)],  # not FIELD=PATH
            ["echo", "--file", f"text={pdf}"],  # a plain string takes no file
        ]
        for argv in refusals:
            code, out, err = await workbench("call", "--mcp", url, *argv)
            assert code == 2, (argv, out, err)
            assert "Traceback" not in err
