"""Documents from a peer made safe and small: media types to viewers, CSV bounded, HTML sanitised, file inputs."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from workbench.core.documents import (
    CSV_MAX_COLUMNS,
    CSV_MAX_ROWS,
    HTML_MAX_CHARS,
    decode_text,
    document_kind,
    parse_csv,
    sanitise_html,
)
from workbench.core.file_inputs import MAX_FILE_BYTES, FileInputError, file_input_spec, read_file_input
from workbench.demo.mcp_server.documents import HTML_PAGE, make_csv, make_pdf


def test_media_types_choose_the_viewer_whatever_their_parameters_or_case() -> None:
    assert document_kind("Application/PDF") == "pdf"
    assert document_kind("text/csv; charset=utf-8") == "csv"
    assert document_kind("text/html;profile=mcp-app") == "html"
    assert document_kind("text/plain") is None and document_kind(None) is None
    assert decode_text("é".encode("latin-1"), "text/csv; charset=latin-1") == "é"
    assert decode_text(b"\xff", "text/csv; charset=no-such-codec") == "\ufffd"


def test_a_csv_with_a_header_row_becomes_a_table_with_column_titles() -> None:
    table = parse_csv(make_csv(12))
    assert table.header == ["city", "day", "temp_c", "rain_mm", "note"] and table.has_header
    assert len(table.rows) == 12 and table.total_rows == 12 and table.exact_total
    assert table.rows[0][4] == "dry, windy"  # a quoted delimiter stays in its cell
    assert table.note() == ""


def test_a_million_row_csv_is_parsed_only_as_far_as_shown_and_says_what_was_cut() -> None:
    text = "id,name\n" + "".join(f"{i},row {i}\n" for i in range(1_000_000))
    table = parse_csv(text)  # parsed from its first CSV_MAX_PARSE_CHARS only: the total is counted by lines
    assert len(table.rows) == CSV_MAX_ROWS and table.total_rows == 1_000_000 and not table.exact_total
    assert "1,000 of about 1,000,000 rows" in table.note()


def test_a_csv_without_a_header_row_keeps_its_first_row_for_the_user_to_lift() -> None:
    table = parse_csv("1,2,3\n4,5,6\n7,8,9\n")
    assert not table.has_header and table.header == ["1", "2", "3"] and table.total_rows == 3
    assert table.shown_rows == 3 and table.note() == ""


def test_a_csv_wider_than_the_table_keeps_its_first_columns_and_cuts_long_cells() -> None:
    table = parse_csv(",".join(f"c{i}" for i in range(500)) + "\n" + ",".join("x" * 5000 for _ in range(3)) + "\n")
    assert table.columns == 500 and table.shown_columns == CSV_MAX_COLUMNS
    assert all(len(row) <= CSV_MAX_COLUMNS for row in table.rows)
    assert table.cells_cut == 3 and f"{CSV_MAX_COLUMNS} of 500 columns" in table.note()


def test_a_malformed_csv_stops_where_it_breaks_and_says_so() -> None:
    table = parse_csv("a,b\n" + "1,2\n" + '"' + "x" * 200_000 + "\n")  # a field over csv's limit
    assert table.problem is not None and "Parsing stopped" in table.note()


def test_html_loses_scripts_frames_forms_remote_images_handlers_styles_and_script_links() -> None:
    clean = sanitise_html(HTML_PAGE)
    lowered = clean.html.lower()
    for banned in ("<script", "<iframe", "<form", "<input", "<button", "<img", "<link", "<style", "javascript:"):
        assert banned not in lowered
    for banned in ("onload", "onclick", "style=", "src=", "document.cookie", "frame content"):
        assert banned not in lowered
    assert clean.links == ["https://example.com/forecast"]
    assert '<a href="https://example.com/forecast">' in clean.html
    assert "click me" in clean.html  # the javascript: link's text stays, as text
    assert "[image: tracking pixel" in clean.html  # a remote image is named, never loaded
    assert {"script", "frame", "form", "image", "unsafe link", "style"} <= set(clean.removed)


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>",
        "file:///etc/passwd",
        "vbscript:x",
    ],
)
def test_a_link_to_anything_but_http_https_or_mailto_is_dropped(href: str) -> None:
    clean = sanitise_html(f'<a href="{href}">go</a>')
    assert "<a" not in clean.html and clean.links == [] and "go" in clean.html


def test_hostile_html_shapes_stay_bounded() -> None:
    deep = sanitise_html("<div>" * 200_000 + "x")
    forms = sanitise_html("<form>" + "<div>" * 50_000 + "</div>" * 50_000 + "after")
    strays = sanitise_html("</div>" * 50_000 + "<b>text</b>")
    assert deep.truncated and len(deep.html) < 10_000 and len("<div>" * 200_000) > HTML_MAX_CHARS
    assert "after" not in forms.html  # unclosed form: what follows stays inside it
    assert strays.html == "<b>text</b>"


def test_html_text_is_escaped_and_invisible_characters_shown() -> None:
    clean = sanitise_html("<p>&lt;script&gt;alert(1)&lt;/script&gt; a\u202eb</p>")
    assert "&lt;script&gt;" in clean.html and "\u202e" not in clean.html


def test_file_inputs_are_the_string_schemas_that_name_a_format_an_encoding_or_a_media_type() -> None:
    assert file_input_spec({"type": "string"}) is None
    assert file_input_spec({"type": "string", "format": "email"}) is None
    data_url = file_input_spec({"type": "string", "format": "data-url"})
    assert data_url is not None and data_url.encoding == "data-url" and data_url.max_bytes == MAX_FILE_BYTES
    assert file_input_spec({"type": "string", "format": "uri"}) is None  # a typed address: no file chooser
    image_uri = file_input_spec({"type": "string", "format": "uri", "contentMediaType": "image/png"})
    assert image_uri is not None and image_uri.encoding == "data-url"
    b64 = file_input_spec({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"})
    assert b64 is not None and b64.encoding == "base64" and b64.media_type == "image/png"
    text = file_input_spec({"type": "string", "contentMediaType": "text/csv"})
    assert text is not None and text.encoding == "text"
    small = file_input_spec({"type": "string", "contentEncoding": "base64", "maxLength": 400})
    assert small is not None and small.max_bytes == 300
    assert b64.name_filters()[0].startswith("image/png (") and "*.png" in b64.name_filters()[0]


def test_a_chosen_file_becomes_a_data_url_base64_or_text_and_a_big_one_is_refused(tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf())
    spec = file_input_spec({"type": "string", "format": "data-url"})
    assert spec is not None
    value = read_file_input(pdf, spec)
    assert value.value == "data:application/pdf;base64," + base64.b64encode(make_pdf()).decode()
    assert value.summary().startswith("report.pdf · application/pdf · ")
    b64 = file_input_spec({"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"})
    assert b64 is not None
    mismatch = read_file_input(pdf, b64)
    assert base64.b64decode(mismatch.value) == make_pdf() and not mismatch.type_matches
    big = tmp_path / "big.bin"
    with big.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(FileInputError) as caught:
        read_file_input(big, spec)
    assert caught.value.code == "file-input" and caught.value.details["size"] == MAX_FILE_BYTES + 1
    text_spec = file_input_spec({"type": "string", "contentMediaType": "text/csv"})
    assert text_spec is not None
    with pytest.raises(FileInputError):
        read_file_input(pdf, text_spec)  # binary where text is asked for
    with pytest.raises(FileInputError):
        read_file_input(tmp_path / "missing.csv", text_spec)
