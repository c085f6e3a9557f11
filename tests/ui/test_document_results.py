"""PDF, CSV and HTML results: pages with navigation and zoom, a bounded table, sanitised HTML; hostile ones bounded."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication, QTextCharFormat, QTextFormat
from PySide6.QtWidgets import QApplication

from workbench.core.documents import CSV_MAX_ROWS, PDF_MAX_BYTES
from workbench.core.protocols.base import ContentPart, ToolResult
from workbench.demo.mcp_server.documents import HTML_PAGE, make_csv, make_pdf
from workbench.ui.panels.inspector.results import EmbeddedResourceView, ToolResultView
from workbench.ui.panels.inspector.results.document_views import CSVView, HTMLView
from workbench.ui.panels.inspector.results.pdf_view import MAX_PAGE_PIXELS, PDFView


def _blob(data: bytes, mime_type: str, uri: str = "demo://doc") -> ContentPart:
    return ContentPart("resource", blob=base64.b64encode(data).decode("ascii"), mime_type=mime_type, uri=uri)


@pytest.fixture
def view(qtbot: Any) -> ToolResultView:
    result = ToolResultView()
    qtbot.addWidget(result)
    return result


def _shown(view: ToolResultView, *parts: ContentPart) -> list[EmbeddedResourceView]:
    view.show_result(ToolResult(content=list(parts)))
    view.resize(800, 700)
    view.show()
    shown = view.parts.part_views
    assert all(isinstance(part, EmbeddedResourceView) for part in shown)
    return shown  # type: ignore[return-value]


def test_a_pdf_resource_shows_its_pages_with_navigation_and_zoom(qtbot: Any, view: ToolResultView) -> None:
    pages = [["first page"], ["second page"], ["third page"]]
    (part,) = _shown(view, _blob(make_pdf(pages), "application/pdf", "demo://reports/r.pdf"))
    pdf = part.document
    assert isinstance(pdf, PDFView) and pdf.problem is None and pdf.page_count == 3
    assert part.save_button.isVisible() and part.data == make_pdf(pages)
    assert pdf.current_page == 0 and not pdf.previous_button.isEnabled()
    qtbot.mouseClick(pdf.next_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pdf.next_button, Qt.MouseButton.LeftButton)
    assert pdf.current_page == 2 and pdf.page_box.value() == 3 and not pdf.next_button.isEnabled()
    pdf.page_box.setValue(1)
    assert pdf.current_page == 0
    assert pdf.zoom_label.text() == "fit to width" and not pdf.fit_button.isEnabled()
    qtbot.mouseClick(pdf.zoom_in_button, Qt.MouseButton.LeftButton)
    assert pdf.zoom > 1.0 and pdf.zoom_label.text() == f"{round(pdf.zoom * 100)} %" and pdf.fit_button.isEnabled()
    for _ in range(12):
        qtbot.mouseClick(pdf.zoom_out_button, Qt.MouseButton.LeftButton)
    assert pdf.zoom == 0.25 and not pdf.zoom_out_button.isEnabled()
    qtbot.mouseClick(pdf.fit_button, Qt.MouseButton.LeftButton)
    assert pdf.zoom_label.text() == "fit to width"


def test_a_pdf_that_is_not_a_pdf_or_too_big_says_so_and_can_still_be_saved(view: ToolResultView) -> None:
    big = b"%PDF-1.4\n" + bytes(50_000_000)
    fake, huge = _shown(view, _blob(b"<html>not a pdf</html>", "application/pdf"), _blob(big, "application/pdf"))
    for part in (fake, huge):
        assert isinstance(part.document, PDFView) and part.document.view is None
        assert part.document.problem and part.document.note.isVisible() and part.save_button.isVisible()
    assert huge.data is not None and len(huge.data) > PDF_MAX_BYTES
    assert huge.document is not None and huge.document.document is None  # never handed to PDFium


def test_without_qt_pdf_a_pdf_says_what_to_install_and_offers_save_as(qtbot: Any) -> None:
    def missing(name: str) -> Any:
        raise ImportError(name)

    view = PDFView(make_pdf(), loader=missing)
    qtbot.addWidget(view)
    assert view.view is None and view.problem is not None and "pyside6-pdf" in view.problem


def test_a_csv_of_a_million_rows_shows_a_bounded_table_with_a_note_header_toggle_and_copy(
    qtbot: Any, view: ToolResultView
) -> None:
    text = "id,name\n" + "".join(f"{i},row {i}\n" for i in range(1_000_000))
    small = _blob(make_csv(3).encode("latin-1"), "text/csv; charset=latin-1", "demo://t/daily.csv")
    big_part, small_part = _shown(view, ContentPart("resource", text=text, mime_type="text/csv"), small)
    table = big_part.document
    assert isinstance(table, CSVView) and table.model.rowCount() == CSV_MAX_ROWS
    assert table.note.isVisible() and "1,000,000" in table.note.text()
    header = table.model.headerData(1, Qt.Orientation.Horizontal)
    assert header == "name" and table.header_box.isChecked()
    table.header_box.setChecked(False)
    assert table.model.rowCount() == CSV_MAX_ROWS and table.model.cell(0, 1) == "name"
    table.header_box.setChecked(True)
    table.table_view.selectionModel().clear()
    table.table_view.setCurrentIndex(table.model.index(0, 1))
    qtbot.mouseClick(table.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "row 0"
    small_table = small_part.document
    assert isinstance(small_table, CSVView) and small_table.model.rowCount() == 3 and not small_table.note.isVisible()
    table.table_view.selectionModel().clear()
    assert small_table.selected_text().splitlines()[0] == "city\tday\ttemp_c\train_mm\tnote"
    assert small_part.save_button.isVisible()


def _anchors(view: HTMLView) -> list[str]:
    found = []
    block = view.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt: QTextCharFormat = it.fragment().charFormat()
            if fmt.isAnchor():
                found.append(fmt.anchorHref())
            it += 1
        block = block.next()
    return found


def _has_images(view: HTMLView) -> bool:
    block = view.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            if it.fragment().charFormat().objectType() == QTextFormat.ObjectTypes.ImageObject.value:
                return True
            it += 1
        block = block.next()
    return False


@pytest.mark.parametrize("as_blob", [False, True])
def test_html_with_scripts_frames_forms_and_remote_images_is_shown_sanitised(
    qtbot: Any, view: ToolResultView, as_blob: bool
) -> None:
    hostile = HTML_PAGE + '<a href="javascript:alert(1)">js</a><img src="http://127.0.0.1:9/x.png"><iframe src="x">'
    part = (
        _blob(hostile.encode(), "text/html; charset=utf-8")
        if as_blob
        else ContentPart("resource", text=hostile, mime_type="text/html")
    )
    (shown,) = _shown(view, part)
    html = shown.document
    assert isinstance(html, HTMLView)
    assert _anchors(html) == ["https://example.com/forecast"]
    assert not _has_images(html)
    text = html.browser.toPlainText()
    assert "Forecast summary" in text and "document.cookie" not in text and "frame content" not in text
    assert "Log in" not in text and "click me" in text
    assert html.note.isVisible() and html.sanitised.removed["script"] >= 2
    qtbot.mouseClick(html.source_button, Qt.MouseButton.LeftButton)
    assert "<script>" in html.browser.toPlainText()  # the source, as text
    qtbot.mouseClick(html.source_button, Qt.MouseButton.LeftButton)
    assert _anchors(html) == ["https://example.com/forecast"]


def test_a_link_in_html_goes_to_the_window_to_ask_and_never_navigates(qtbot: Any) -> None:
    result = ToolResultView()
    qtbot.addWidget(result)
    result.show_result(ToolResult(content=[ContentPart("resource", text=HTML_PAGE, mime_type="text/html")]))
    result.resize(800, 900)
    result.show()
    (part,) = result.parts.part_views
    assert isinstance(part, EmbeddedResourceView) and isinstance(part.document, HTMLView)
    browser = part.document.browser
    cursor = browser.document().find("example.com/forecast")
    assert not cursor.isNull()
    cursor.setPosition(cursor.selectionStart() + 2)
    point = browser.cursorRect(cursor).center()
    before = browser.toHtml()
    with qtbot.waitSignal(result.link_clicked, timeout=2000) as clicked:
        qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert clicked.args == [QUrl("https://example.com/forecast")]
    assert browser.toHtml() == before and browser.source().isEmpty()
    QApplication.processEvents()


@pytest.mark.parametrize("media_box", [b"0 0 14400 14400", b"0 0 10 1000000"])
def test_a_page_too_big_to_render_is_held_under_the_pixel_limit(qtbot: Any, media_box: bytes) -> None:
    data = make_pdf().replace(b"/MediaBox [0 0 420 595]", b"/MediaBox [" + media_box + b"]")
    pdf = PDFView(data)
    qtbot.addWidget(pdf)
    pdf.resize(900, 600)
    pdf.show()
    assert pdf.problem is None and pdf.view is not None
    size = pdf.document.pagePointSize(0)
    scale = pdf.logicalDpiX() / 72.0
    pixels = size.width() * scale * size.height() * scale
    assert pixels * pdf.shown_zoom**2 <= MAX_PAGE_PIXELS * 1.01  # fitting to the width did not blow it up
    pdf.set_zoom(4.0)
    assert pixels * pdf.shown_zoom**2 <= MAX_PAGE_PIXELS * 1.01 and not pdf.zoom_in_button.isEnabled()
