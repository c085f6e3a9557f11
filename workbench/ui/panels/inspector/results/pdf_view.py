"""A PDF result shown in the window: Qt PDF's view (pyside6-pdf) with page navigation and zoom, loaded on first use.

Qt PDF renders with PDFium, built by Qt without JavaScript or XFA forms, and ``QPdfView`` follows no
link: a PDF here shows pages and nothing else. The module is imported when a PDF is first shown;
where it is missing (an install without pyside6-pdf) or a PDF is bigger than ``PDF_MAX_BYTES``, or
not a PDF at all, the view says so and the frame's "Save as…" still offers the bytes.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QEvent, QIODevice, QObject, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QSpinBox, QToolButton, QVBoxLayout, QWidget

from workbench.core.documents import PDF_MAX_BYTES
from workbench.ui.panels.inspector.results.blobs import human_size
from workbench.ui.untrusted import plain_label

HAS_PDF = importlib.util.find_spec("PySide6.QtPdfWidgets") is not None
"""Whether Qt PDF is installed (pyside6-pdf, a dependency of the workbench)."""
PDF_VIEW_HEIGHT = 460
"""Height of the page view, in pixels."""
PAGING_TIP = (
    "Page Down at the end of a page shows the next one, Page Up at its top the one before; "
    "Ctrl+Home and Ctrl+End go to the start and the end of the document."
)
ZOOM_STEPS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)
MAX_PAGE_PIXELS = 25_000_000
"""Most pixels one page is rendered with (QPdfView renders a whole page into one image: 100 MB here).

A page's size comes from the PDF: 200 inches square at 400 %, or a strip 10 points wide and a million
tall fitted to the width, would ask for an image of tens of gigabytes. The zoom is held below this."""


class PDFView(QWidget):
    """A PDF's pages, one at a time: ◀ page n of N ▶, zoom out / fit width / zoom in.

    Keys in the page view turn the pages as in a reader (``PAGING_TIP``): a page shows alone, so
    Page Down, which only scrolls it, goes on to the next page once the page's end is in view.

    Attributes:
        problem: Why the PDF is not shown (a sentence), or ``None`` when it is.
        page_count: Pages in the document (0 when it is not shown).
    """

    def __init__(self, data: bytes, parent: QWidget | None = None, *, loader: Any = importlib.import_module) -> None:
        super().__init__(parent)
        self.problem: str | None = None
        self.page_count = 0
        self.view: Any = None
        self.document: Any = None
        self._buffer: QBuffer | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.note = plain_label("", self, wrap=True)
        self.note.setObjectName("documentNote")
        self.note.setVisible(False)
        layout.addWidget(self.note)
        if len(data) > PDF_MAX_BYTES:
            self._fail(
                f"This PDF is {human_size(len(data))}; the window shows PDFs of up to {human_size(PDF_MAX_BYTES)}. "
                "Save it to open it elsewhere."
            )
            return
        try:
            pdf = loader("PySide6.QtPdf")
            widgets = loader("PySide6.QtPdfWidgets")
        except ImportError:
            self._fail("PDFs are shown with Qt PDF (pip install pyside6-pdf), which is not installed here. Save it.")
            return
        self._buffer = QBuffer(self)
        self._buffer.setData(QByteArray(data))
        self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document = pdf.QPdfDocument(self)
        self.document.load(self._buffer)  # a buffer in memory: loaded before this returns
        if self.document.status() != pdf.QPdfDocument.Status.Ready or self.document.pageCount() < 1:
            error = self.document.error()
            reason = (
                "it is protected by a password"
                if error == pdf.QPdfDocument.Error.IncorrectPassword
                else "it is not a readable PDF"
            )
            self._fail(f"This PDF cannot be shown: {reason}. Save it to look at it elsewhere.")
            self.document = None
            return
        self.page_count = self.document.pageCount()
        self.view = widgets.QPdfView(self)
        self.view.setPageMode(widgets.QPdfView.PageMode.SinglePage)
        self.view.setZoomMode(widgets.QPdfView.ZoomMode.FitToWidth)
        self.view.setDocument(self.document)
        self.view.setFixedHeight(PDF_VIEW_HEIGHT)
        self.view.setToolTip(PAGING_TIP)
        self.view.installEventFilter(self)
        self._zoom_modes = widgets.QPdfView.ZoomMode
        self.previous_button = self._button("◀", "Previous page", self.on_previous_button_clicked)
        self.next_button = self._button("▶", "Next page", self.on_next_button_clicked)
        self.page_box = QSpinBox(self)
        self.page_box.setRange(1, self.page_count)
        self.page_box.setSuffix(f" of {self.page_count}")
        self.page_box.setPrefix("page ")
        self.page_box.valueChanged.connect(self.on_page_box_value_changed)
        self.zoom_out_button = self._button("−", "Zoom out", self.on_zoom_out_button_clicked)
        self.fit_button = self._button("Fit width", "Fit the page to the view's width", self.on_fit_button_clicked)
        self.zoom_in_button = self._button("+", "Zoom in", self.on_zoom_in_button_clicked)
        self.zoom_label = plain_label("", self)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        controls: list[QWidget] = [self.previous_button, self.page_box, self.next_button, self.zoom_out_button]
        for widget in [*controls, self.fit_button, self.zoom_in_button, self.zoom_label]:
            row.addWidget(widget)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.view)
        self.view.pageNavigator().currentPageChanged.connect(self.on_navigator_current_page_changed)
        self._update_controls()

    def _button(self, text: str, tip: str, slot: Any) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        return button

    def _fail(self, reason: str) -> None:
        self.problem = reason
        self.note.setText(reason)
        self.note.setVisible(True)

    @property
    def current_page(self) -> int:
        """The page on show, from 0."""
        return int(self.view.pageNavigator().currentPage()) if self.view is not None else 0

    @property
    def zoom(self) -> float:
        """The zoom factor (1.0: the page's own size); fit-to-width until the user zooms."""
        return float(self.view.zoomFactor()) if self.view is not None else 1.0

    def go_to(self, page: int) -> None:
        """Show ``page`` (from 0; clamped to the document)."""
        if self.view is not None:
            page = max(0, min(page, self.page_count - 1))
            self.view.pageNavigator().jump(page, QPointF(), self.view.pageNavigator().currentZoom())

    def set_zoom(self, factor: float) -> None:
        """Zoom to ``factor`` (bounded by ``ZOOM_STEPS`` and by the page's ``zoom_limit``)."""
        if self.view is not None:
            self.view.setZoomMode(self._zoom_modes.Custom)
            self.view.setZoomFactor(max(ZOOM_STEPS[0], min(factor, ZOOM_STEPS[-1])))
            self._update_controls()  # which holds it under the page's zoom_limit

    def _page_pixels(self, page: int) -> tuple[float, float]:
        """The page's width and height in pixels at zoom 1 (QPdfView's scale: the screen's logical DPI)."""
        size = self.document.pagePointSize(page)
        scale = self.logicalDpiX() / 72.0
        return max(size.width(), 1.0) * scale, max(size.height(), 1.0) * scale

    def zoom_limit(self, page: int) -> float:
        """The largest zoom at which ``page`` stays within ``MAX_PAGE_PIXELS``."""
        width, height = self._page_pixels(page)
        return float((MAX_PAGE_PIXELS / (width * height)) ** 0.5)

    def _fit_zoom(self, page: int) -> float:
        """The zoom that fitting ``page`` to the view's width comes to."""
        width, _ = self._page_pixels(page)
        return float(max(self.view.viewport().width(), PDF_VIEW_HEIGHT) / width)

    @property
    def shown_zoom(self) -> float:
        """The zoom the page is drawn at: ``zoom``, or what fitting the page's width comes to."""
        if self.view is None:
            return 1.0
        fitting = self.view.zoomMode() == self._zoom_modes.FitToWidth
        return self._fit_zoom(self.current_page) if fitting else self.zoom

    def on_previous_button_clicked(self) -> None:
        """Show the page before."""
        self.go_to(self.current_page - 1)

    def on_next_button_clicked(self) -> None:
        """Show the page after."""
        self.go_to(self.current_page + 1)

    def on_page_box_value_changed(self, value: int) -> None:
        """Show the page typed or stepped to."""
        if value - 1 != self.current_page:
            self.go_to(value - 1)

    def on_zoom_in_button_clicked(self) -> None:
        """Zoom to the next step up."""
        self.set_zoom(next((z for z in ZOOM_STEPS if z > self.zoom + 1e-6), ZOOM_STEPS[-1]))

    def on_zoom_out_button_clicked(self) -> None:
        """Zoom to the next step down."""
        self.set_zoom(next((z for z in reversed(ZOOM_STEPS) if z < self.zoom - 1e-6), ZOOM_STEPS[0]))

    def on_fit_button_clicked(self) -> None:
        """Fit the page to the view's width again."""
        if self.view is not None:
            self.view.setZoomMode(self._zoom_modes.FitToWidth)
            self._update_controls()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """A wider view fits the page at a larger zoom: hold it under the page's limit again."""
        super().resizeEvent(event)
        if self.view is not None:
            self._update_controls()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Turn the pages with Page Down / Page Up at a page's end / top, Ctrl+Home and Ctrl+End."""
        if watched is self.view and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            return self._page_key(event)
        return super().eventFilter(watched, event)

    def _page_key(self, event: QKeyEvent) -> bool:
        """Whether the key turned the page (else the view scrolls as usual)."""
        bar = self.view.verticalScrollBar()
        key, ctrl = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        page = self.current_page
        if key == Qt.Key.Key_PageDown and bar.value() >= bar.maximum() and page < self.page_count - 1:
            self.go_to(page + 1)
            bar.setValue(bar.minimum())
        elif key == Qt.Key.Key_PageUp and bar.value() <= bar.minimum() and page > 0:
            self.go_to(page - 1)
            bar.setValue(bar.maximum())  # the end of the page before, as a reader scrolls back into it
        elif ctrl and key == Qt.Key.Key_Home:
            self.go_to(0)
            bar.setValue(bar.minimum())
        elif ctrl and key == Qt.Key.Key_End:
            self.go_to(self.page_count - 1)
            bar.setValue(bar.maximum())
        else:
            return False
        return True

    def on_navigator_current_page_changed(self, page: int) -> None:
        """Keep the controls in step with the page on show."""
        self._update_controls()

    def _update_controls(self) -> None:
        page = self.current_page
        limit = self.zoom_limit(page)
        if self.shown_zoom > limit:
            self.view.setZoomMode(self._zoom_modes.Custom)  # this page would make too big an image
            self.view.setZoomFactor(limit)
        self.previous_button.setEnabled(page > 0)
        self.next_button.setEnabled(page < self.page_count - 1)
        blocked = self.page_box.blockSignals(True)
        self.page_box.setValue(page + 1)
        self.page_box.blockSignals(blocked)
        fit = self.view.zoomMode() == self._zoom_modes.FitToWidth
        self.zoom_label.setText("fit to width" if fit else f"{round(self.zoom * 100)} %")
        self.zoom_in_button.setEnabled(fit or self.zoom < min(ZOOM_STEPS[-1], limit * 0.999))
        self.zoom_out_button.setEnabled(fit or self.zoom > ZOOM_STEPS[0])
        self.fit_button.setEnabled(not fit)
