"""A tool input that takes a file gets "Choose file…" (a data: URL, base64 with its media type, or text, bounded)."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget

from tests.support.mcp_inspector import inspector
from tests.support.signals import SignalLog
from workbench.core.file_inputs import MAX_FILE_BYTES, FileInputSpec
from workbench.demo.mcp_server.documents import make_pdf
from workbench.ui.asyncutil import wait_signal
from workbench.ui.forms.file_field import HOLD_OVER, FileField
from workbench.ui.forms.scalar_fields import StringField
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.panels.inspector.results import CSVView, EmbeddedResourceView, HTMLView, PDFView

SCHEMA = {
    "type": "object",
    "properties": {
        "document": {"type": "string", "format": "data-url", "description": "The file"},
        "content": {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/pdf"},
        "mimeType": {"type": "string"},
        "table": {"type": "string", "contentMediaType": "text/csv"},
        "website": {"type": "string", "format": "uri"},
        "name": {"type": "string"},
    },
    "required": ["document"],
}


@pytest.fixture
def chosen_paths() -> Iterator[list[str]]:
    """Stands in for the file dialog (``FileField.chooser``): each click picks the next path of the list."""
    paths: list[str] = []

    def choose(parent: QWidget, spec: FileInputSpec, chosen: Callable[[str], None]) -> None:
        chosen(paths.pop(0))

    original = FileField.chooser
    FileField.chooser = staticmethod(choose)  # type: ignore[assignment]
    try:
        yield paths
    finally:
        FileField.chooser = original  # type: ignore[assignment]


def _form(qtbot: Any) -> SchemaForm:
    form = SchemaForm(SCHEMA)
    qtbot.addWidget(form)
    return form


def _field(form: SchemaForm, name: str) -> FileField:
    field = form.field(name)
    assert isinstance(field, FileField), name
    return field


async def _choose(field: FileField, path: Path, chosen_paths: list[str]) -> None:
    chosen_paths.append(str(path))
    field.choose_button.click()
    await wait_signal(field.file_read)


@pytest.mark.asyncio
async def test_file_schemas_get_a_choose_button_and_a_pdf_fills_a_data_url(
    qtbot: Any, tmp_path: Path, chosen_paths: list[str]
) -> None:
    form = _form(qtbot)
    assert {name for name in SCHEMA["properties"] if isinstance(form.field(name), FileField)} == {  # type: ignore[attr-defined]
        "document",
        "content",
        "table",
    }
    assert type(form.field("name")) is StringField
    assert type(form.field("website")) is StringField  # format uri alone: an address to type, no file chooser
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf())
    document = _field(form, "document")
    await _choose(document, pdf, chosen_paths)
    expected = "data:application/pdf;base64," + base64.b64encode(make_pdf()).decode()
    assert form.value()["document"] == expected and form.is_valid()
    assert document.held and document.editor.isReadOnly() and "report.pdf" in document.file_note.text()
    document.clear_file_button.click()
    assert "document" not in form.value() and not document.editor.isReadOnly()


@pytest.mark.asyncio
async def test_base64_input_gets_the_bytes_and_an_empty_sibling_gets_the_media_type(
    qtbot: Any, tmp_path: Path, chosen_paths: list[str]
) -> None:
    form = _form(qtbot)
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf())
    await _choose(_field(form, "content"), pdf, chosen_paths)
    value = form.value()
    assert base64.b64decode(value["content"]) == make_pdf() and value["mimeType"] == "application/pdf"
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,2\n", encoding="utf-8")
    await _choose(_field(form, "table"), csv, chosen_paths)
    assert form.value()["table"] == "a,b\n1,2\n"


@pytest.mark.asyncio
async def test_a_file_too_big_or_not_text_is_refused_with_a_message_and_the_value_kept(
    qtbot: Any, tmp_path: Path, chosen_paths: list[str]
) -> None:
    form = _form(qtbot)
    document = _field(form, "document")
    document.set_text("data:text/plain,hi")
    big = tmp_path / "big.bin"
    with big.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    await _choose(document, big, chosen_paths)
    assert form.value()["document"] == "data:text/plain,hi" and not document.held
    assert document.file_note.isVisibleTo(form) and "8.0 MB" in document.file_note.text()
    assert document.file_note.property("tone") == "error"
    table = _field(form, "table")
    binary = tmp_path / "x.csv"
    binary.write_bytes(b"\xff\xfe\x00bad")
    await _choose(table, binary, chosen_paths)
    assert "table" not in form.value() and table.file_note.property("tone") == "error"
    assert document.choose_button.isEnabled() and table.choose_button.isEnabled()


def test_a_long_value_is_held_whole_by_its_field_and_shortened_in_the_json_editor(qtbot: Any) -> None:
    form = _form(qtbot)
    long_value = "data:image/png;base64," + "A" * 1_000_000  # laid out whole, the JSON editor took minutes
    form.set_value({"document": long_value})
    document = _field(form, "document")
    assert form.value()["document"] == long_value and document.held
    assert "image/png" in document.editor.placeholderText() and len(document.text()) < HOLD_OVER
    document.changed.emit()  # as a chosen file does: the JSON editor follows the form
    assert form.json_editor is not None and form.json_editor.isReadOnly() and len(form.json_text()) < 1_000
    form.set_value({"document": "data:text/plain,short"})
    assert not document.held and document.text() == "data:text/plain,short"
    document.set_text("data:text/plain,typed")
    assert not form.json_editor.isReadOnly() and "typed" in form.json_text()


@pytest.mark.asyncio
async def test_the_button_opens_a_file_dialog_filtered_by_the_media_type(qtbot: Any, tmp_path: Path) -> None:
    form = _form(qtbot)
    form.show()
    content = _field(form, "content")
    content.choose_button.click()
    dialog = content.findChild(QFileDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.fileMode() == QFileDialog.FileMode.ExistingFile
    assert dialog.nameFilters()[0].startswith("application/pdf (") and "*.pdf" in dialog.nameFilters()[0]
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(make_pdf())
    dialog.fileSelected.emit(str(pdf))
    await wait_signal(content.file_read)
    assert base64.b64decode(form.value()["content"]) == make_pdf()
    dialog.reject()


@pytest.mark.asyncio
async def test_in_the_inspector_a_demo_tool_takes_a_chosen_file_and_its_documents_are_shown(
    qtbot: Any, tmp_path: Path, chosen_paths: list[str]
) -> None:
    async with inspector(tmp_path, qtbot) as it:
        tools = it.widget.tools
        assert tools.select_tool("inspect_file")
        call = tools.detail.call
        assert call.form is not None
        pdf = tmp_path / "report.pdf"
        pdf.write_bytes(make_pdf())
        await _choose(_field(call.form, "file"), pdf, chosen_paths)
        finished = SignalLog(it.widget.vm.calls.finished)
        call.call_button.click()
        await finished.wait_for()
        (answer,) = call.result_view.parts.part_views
        assert answer.payload.text().startswith(f"application/pdf, {len(make_pdf())} bytes")
        for tool, kind in (("pdf_report", PDFView), ("csv_table", CSVView), ("html_page", HTMLView)):
            assert tools.select_tool(tool)
            call = tools.detail.call
            finished = SignalLog(it.widget.vm.calls.finished)
            call.call_button.click()
            await finished.wait_for()
            document = call.result_view.parts.part_views[-1]
            assert isinstance(document, EmbeddedResourceView) and isinstance(document.document, kind), tool
