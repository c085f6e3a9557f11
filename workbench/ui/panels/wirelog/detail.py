"""The wire log's detail pane: the selected record's title, payload tabs, "Jump to …" and "Save as…"."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontDatabase, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.wire.records import WireRecord
from workbench.ui.panels.wirelog.format import info_text, pretty_payload
from workbench.ui.panels.wirelog.viewmodel import WireLogViewModel
from workbench.ui.payload import PayloadView
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import PlainLabel, set_plain_tooltip

TITLE_MIN_CHARS = 18
"""Characters the record's title gets beside the tabs at least; a narrower pane puts it on a line of its own.

A record's summary is mostly shorter ("← result #4 (5.8 ms)"); the tooltip has all of a longer one.
"""
NO_RECORD = "Select a record in the table to see its payload, headers and timing here."
"""What the empty detail says, where the payload goes."""


class _TitleLabel(PlainLabel):
    """The record's title beside the detail's tabs (or above them): one line cut with "…", whole in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` (plain, ``shown``), with all of it in the tooltip."""
        super().setText(text)
        set_plain_tooltip(self, text)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A few characters wide: the title takes what the tabs and buttons leave."""
        return QSize(self.fontMetrics().averageCharWidth() * 6, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """See ``sizeHint``."""
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        """Draw the text on one line, cut with "…" to the label's width."""
        painter = QPainter(self)
        area = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)


class _DetailCorner(QWidget):
    """The detail's tab bar corner (title, Jump, Save as…): as wide as the tabs leave, so the title gets the room."""

    def __init__(self, tabs: QTabWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tabs = tabs

    def sizeHint(self) -> QSize:  # noqa: N802
        """Everything the tab bar does not need (``QTabWidget`` gives a corner widget its size hint)."""
        own = super().sizeHint()
        spare = self._tabs.width() - self._tabs.tabBar().sizeHint().width() - 2
        return QSize(max(spare, own.width()), own.height())


class WireDetailWidget(QWidget):
    """The selected record of the wire log: pretty and raw payload, headers and timing, all text literal.

    The record's title, "Jump to …" and one "Save as…" (for the payload tab on show) sit in the tab
    bar's row, so the payload keeps the rows a title line and each tab's own button would take. A
    pane too narrow to give the title ``TITLE_MIN_CHARS`` characters there shows it on a line above
    the tabs instead (``height_for_lines`` counts that line). "Jump to …" shows only when the record
    has a partner.

    Args:
        vm: The wire log's view model (the record on show, its partner, the jump).
        parent: Qt parent.
    """

    def __init__(self, vm: WireLogViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self._stale_tabs: set[int] = set()
        self.tabs = QTabWidget(self)
        corner = _DetailCorner(self.tabs, self)
        self.title = _TitleLabel(corner)
        self.jump_button = QPushButton("Jump to response", corner)
        self.jump_button.setMinimumWidth(self.jump_button.sizeHint().width())  # "…request" too: one width
        self.save_button = QPushButton("Save as…", corner)
        self.save_button.setToolTip("Save the whole payload of the tab on show to a file")
        head = self._head = QHBoxLayout(corner)
        head.setContentsMargins(8, 0, 0, 0)
        head.setSpacing(4)
        head.addWidget(self.title, 1)
        head.addWidget(self.jump_button)
        head.addWidget(self.save_button)
        self._corner = corner
        self.info_view = QPlainTextEdit(self)
        self.info_view.setReadOnly(True)
        self.info_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.info_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.pretty_view = PayloadView(self)
        self.raw_view = PayloadView(self)
        self.tabs.addTab(self.pretty_view, "Payload")
        self.tabs.addTab(self.raw_view, "Raw")
        self.tabs.addTab(self.info_view, "Headers && timing")
        for view in (self.pretty_view.editor, self.raw_view.editor, self.info_view):
            view.setPlaceholderText(NO_RECORD)
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.tabs, 1)
        self.jump_button.clicked.connect(vm.jump_to_partner)
        self.save_button.clicked.connect(self.on_save_button_clicked)
        self.tabs.currentChanged.connect(self.on_tabs_current_changed)

    def title_fits_beside_tabs(self, width: int) -> bool:
        """Whether a pane ``width`` wide leaves the title ``TITLE_MIN_CHARS`` characters beside the tabs and buttons.

        "Jump to …" counts whether it shows or not, so the title keeps its place from record to record.
        """
        margins = self._layout.contentsMargins()
        head = self._head.contentsMargins()
        buttons = self.save_button.sizeHint().width() + self.jump_button.sizeHint().width() + 2 * self._head.spacing()
        tabs = self.tabs.tabBar().sizeHint().width() + 2
        room = width - margins.left() - margins.right() - tabs - head.left() - head.right() - buttons
        return room >= TITLE_MIN_CHARS * self.title.fontMetrics().averageCharWidth()

    def _place_title(self, width: int) -> None:
        """The title beside the tabs when it fits there (``title_fits_beside_tabs``), else on a line above them."""
        beside = self.title_fits_beside_tabs(width)
        if beside and self.title.parentWidget() is not self._corner:
            self._head.insertWidget(0, self.title, 1)
        elif not beside and self.title.parentWidget() is not self:
            self._layout.insertWidget(0, self.title)
        self.title.show()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Beside the tabs or above them: the title goes where it can be read."""
        self._place_title(event.size().width())
        super().resizeEvent(event)

    def height_for_lines(self, lines: int, width: int | None = None) -> int:
        """The pane's height that shows ``lines`` lines of the payload when ``width`` wide (default: as now).

        Counted from its parts' size hints: its margins, the title's line where the tabs leave it no
        room beside them, the tab bar (the record's title and buttons beside the tabs) and frame, the
        editor's frame and margins, and a horizontal scroll bar (a payload is not wrapped: a megabyte
        on one line would take minutes to lay out).
        """
        margins = self._layout.contentsMargins()
        if not self.title_fits_beside_tabs(self.width() if width is None else width):
            margins.setTop(margins.top() + self.title.sizeHint().height() + self._layout.spacing())
        pages = max(page.sizeHint().height() for page in (self.pretty_view, self.raw_view, self.info_view))
        tabs_frame = self.tabs.sizeHint().height() - pages
        editor = self.pretty_view.editor
        text = text_pane_height(editor, lines)
        text += editor.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)  # long lines scroll sideways
        return margins.top() + tabs_frame + text + margins.bottom()

    def show_record(self, record: WireRecord | None) -> None:
        """Show the record (``None``: a note to select one); its payload tabs fill when shown."""
        vm = self.vm
        jump = vm.jump_text()
        self.jump_button.setText(jump or "Jump to response")
        self.jump_button.setEnabled(bool(jump))
        self.jump_button.setVisible(bool(jump))  # nothing to jump to: the title gets its room
        self._place_title(self.width())
        if record is None:
            self.title.setText("")  # the payload's place says what to do (NO_RECORD)
            self.info_view.setPlainText("")
            self._fill(self.pretty_view, "")
            self._fill(self.raw_view, "")
            self._stale_tabs.clear()
            self._sync_save_button()
            return
        self.title.setText(record.summary[:500])
        self.info_view.setPlainText(info_text(record, vm.connection_name(record.connection_id), vm.partner()))
        self._stale_tabs = {self.tabs.indexOf(self.pretty_view), self.tabs.indexOf(self.raw_view)}
        self.on_tabs_current_changed(self.tabs.currentIndex())

    def on_tabs_current_changed(self, index: int) -> None:
        """Fill a payload tab only when it is shown (a megabyte payload costs one tab, not two)."""
        record = self.vm.current
        if record is not None and index in self._stale_tabs:
            self._stale_tabs.discard(index)
            payload = record.payload.lstrip()[:1] in ("{", "[")
            name = f"wire-{record.seq}.json" if payload else f"wire-{record.seq}.txt"
            if self.tabs.widget(index) is self.pretty_view:
                self._fill(self.pretty_view, pretty_payload(record), name)
            elif self.tabs.widget(index) is self.raw_view:
                self._fill(self.raw_view, record.payload, name)
        self._sync_save_button()

    @staticmethod
    def _fill(view: PayloadView, text: str, name: str = "payload.txt") -> None:
        """Show ``text`` in a payload tab; its own "Save as…" stays hidden (the detail's row has one)."""
        view.set_text(text, suggested_name=name)
        view.save_button.hide()

    def _sync_save_button(self) -> None:
        page = self.tabs.currentWidget()
        self.save_button.setEnabled(isinstance(page, PayloadView) and bool(page.text()))

    def on_save_button_clicked(self) -> None:
        """Ask where to save the whole payload of the tab on show."""
        page = self.tabs.currentWidget()
        if isinstance(page, PayloadView) and page.text():
            page.on_save_clicked()
