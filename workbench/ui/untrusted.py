r"""Showing text that came from a server or agent: always plain, markdown without HTML or resources.

Every string a remote peer sends (names, descriptions, instructions, messages, URLs, errors) goes
through these helpers (qt-async §6 lists what Qt renders by default: rich text in labels, message
boxes and tooltips, local images in markdown, ``file:`` links that navigate the browser). They show
it through ``shown`` — the terminal's cleaner, ``workbench.core.safe_text.neutralise`` — so control,
bidi, zero-width and tag characters appear as escapes (``\u200b``, ``\U000e0041``) instead of
hiding text or reordering it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, QRectF, QSizeF, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QPainter, QPyTextObject, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QTextBrowser, QWidget

from workbench.core.safe_text import neutralise

SAFE_LINK_SCHEMES = frozenset({"http", "https", "mailto"})
HEADING_MARGINS = {1: (12.0, 6.0), 2: (10.0, 4.0), 3: (8.0, 2.0)}
"""Space above and below a markdown heading of each level, in pixels (deeper levels use level 3's)."""


def shown(text: str) -> str:
    """Untrusted ``text`` as the window shows it: control and invisible characters as visible escapes."""
    return neutralise(text)


def shown_on_button(text: str) -> str:
    """Untrusted ``text`` for a button or box title: literal (``shown``), an ``&`` drawn, never a shortcut key."""
    return shown(text).replace("&", "&&")


class PlainLabel(QLabel):
    """A label that shows every text it is given literally, invisible characters made visible (``shown``)."""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` as plain text through ``shown``."""
        super().setText(shown(text))


def plain_label(
    text: str = "", parent: QWidget | None = None, *, wrap: bool = False, selectable: bool = True
) -> QLabel:
    """A label that shows ``text`` (and every later ``setText``) literally, selectable for copying."""
    label = PlainLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setText(text)
    return label


def plain_tooltip(text: str) -> str:
    """The tooltip form of untrusted ``text``: escaped so the tooltip label cannot render it as HTML."""
    return GuiQt.convertFromPlainText(shown(text)) if text else ""


def set_plain_tooltip(widget: QWidget, text: str) -> None:
    """Give ``widget`` a tooltip showing untrusted ``text`` literally."""
    widget.setToolTip(plain_tooltip(text))


def space_headings(doc: QTextDocument) -> None:
    """Give every heading of parsed markdown space above and below it by level.

    Qt's markdown import only makes headings bold and larger; with space above in proportion to
    the level, ``#``, ``##`` and ``###`` read as three levels of a document.
    """
    block = doc.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level > 0:
            above, below = HEADING_MARGINS.get(level, HEADING_MARGINS[3])
            fmt = block.blockFormat()
            fmt.setTopMargin(above)
            fmt.setBottomMargin(below)
            QTextCursor(block).setBlockFormat(fmt)
        block = block.next()


class _NoImages(QPyTextObject):
    """Image handler that draws a grey placeholder and loads nothing (local or remote)."""

    def intrinsicSize(self, doc: QTextDocument, pos: int, fmt: QTextFormat) -> QSizeF:  # noqa: N802
        return QSizeF(16, 16)

    def drawObject(  # noqa: N802
        self, painter: QPainter, rect: QRectF | QRect, doc: QTextDocument, pos: int, fmt: QTextFormat
    ) -> None:
        painter.fillRect(rect, QColor("#bbbbbb"))


class LinkGate(QObject):
    """Where clicked links from untrusted documents go: only allowed schemes, and only on consent.

    ``link_requested`` carries the URL; the window asks the user (full URL, host emphasised) and only
    then opens it in the system browser.
    """

    link_requested = Signal(QUrl)
    link_refused = Signal(QUrl)

    def offer(self, url: QUrl) -> None:
        """Called when the user clicks a link in untrusted content."""
        if url.scheme().lower() in SAFE_LINK_SCHEMES:
            self.link_requested.emit(url)
        else:
            self.link_refused.emit(url)


class SafeTextBrowser(QTextBrowser):
    """A read-only browser for untrusted text or markdown.

    HTML inside markdown is shown as text, images are never loaded (a placeholder is drawn), links
    never navigate the browser: a click emits ``link_clicked`` for the window to ask the user.
    """

    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        doc = self.document()
        self._no_images = _NoImages(doc)
        doc.documentLayout().registerHandler(QTextFormat.ObjectTypes.ImageObject.value, self._no_images)
        self.anchorClicked.connect(self.link_clicked)

    def set_untrusted_markdown(self, text: str) -> None:
        """Render ``text`` as markdown with raw HTML shown literally and no resource loading."""
        self.document().setMarkdown(shown(text), QTextDocument.MarkdownFeature.MarkdownNoHTML)
        space_headings(self.document())

    def set_untrusted_text(self, text: str) -> None:
        """Show ``text`` literally."""
        self.setPlainText(shown(text))

    def loadResource(self, type_: int, name: QUrl | str) -> object:  # noqa: N802
        """Refuse every resource (images, style sheets) an untrusted document asks for."""
        return None
