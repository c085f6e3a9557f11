"""What the command line prints about a huge peer stays small: forms of 50,000 fields, their validation errors."""

from __future__ import annotations

import json
import sys

import pytest

from tests.servers import script_path
from tests.support.cli_runner import workbench

pytestmark = pytest.mark.asyncio
HUGE_FORM = ["--", sys.executable, script_path("huge_form"), "50000"]
SMALL = 10_000
"""Bytes a message about the form may take (its schema is ~2 MB)."""


async def test_a_declined_form_of_50000_fields_is_summarised_in_one_short_note() -> None:
    code, out, err = await workbench("call", "--stdio", "ask", *HUGE_FORM)
    assert code == 0, err[-2000:]
    assert out.strip() == "decline: 0 fields"
    assert len(err.encode()) < SMALL
    [fields] = [line for line in err.splitlines() if line.startswith("  its fields")]
    assert "field_00000* (string)" in fields and fields.endswith("… and 49,980 more fields")


async def test_an_answer_that_does_not_fit_a_form_of_50000_fields_is_refused_in_a_short_error() -> None:
    code, out, err = await workbench("call", "--stdio", "ask", "--answer", '{"zzz": 1}', *HUGE_FORM)
    assert code == 2
    assert out.strip() == "cancel: 0 fields"
    assert len(err.encode()) < SMALL
    assert "… and 49,990 more problems" in err

    code, out, err = await workbench("call", "--json", "--stdio", "ask", "--answer", '{"zzz": 1}', *HUGE_FORM)
    assert code == 2
    failed = json.loads(out.splitlines()[-1])
    assert failed["kind"] == "failed" and failed["error"]["type"] == "ConfigError"
    assert len(json.dumps(failed["error"]).encode()) < SMALL
    assert len(err.encode()) < SMALL


async def test_attachment_sizes_are_exact_whatever_the_base64_padding() -> None:
    code, out, err = await workbench("call", "--stdio", "attachments", "--", sys.executable, script_path("attachments"))
    assert code == 0, err
    assert out.splitlines() == ["[image image/png 3 bytes]", "[image image/png 5 bytes]", "[image image/png 4 bytes]"]
