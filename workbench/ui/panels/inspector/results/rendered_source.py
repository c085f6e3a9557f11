"""A document rendered safely with its source, shown literally, one click away (markdown and HTML results)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import QToolButton, QVBoxLayout, QWidget

from workbench.ui.payload import TRUNCATE_AT
from workbench.ui.untrusted import SafeTextBrowser


class RenderedWithSource(QWidget):
    """A ``SafeTextBrowser`` showing ``show_rendered()`` of ``text``, and a button that swaps in the text itself.

    A subclass says how to render (``show_rendered``) and calls it once set up; what goes above the browser it
    inserts into ``column`` at index 0.

    Args:
        text: The document as received.
        name: The browser's object name (``renderedMarkdown``, ``renderedHTML``).
        parent: Parent widget.
    """

    link_clicked = Signal(QUrl)

    def __init__(self, text: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = text
        self.browser = SafeTextBrowser(self)
        self.browser.setObjectName(name)
        self.browser.link_clicked.connect(self.link_clicked)
        self.source_button = QToolButton(self)
        self.source_button.setText("Show source")
        self.source_button.setCheckable(True)
        self.source_button.toggled.connect(self.on_source_toggled)
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.addWidget(self.browser)
        self.column.addWidget(self.source_button, 0, Qt.AlignmentFlag.AlignLeft)

    def show_rendered(self) -> None:
        """Show the document rendered in ``browser``."""
        raise NotImplementedError

    def on_source_toggled(self, source: bool) -> None:
        """Switch between the rendering and the document's source (shown literally)."""
        if source:
            self.browser.set_untrusted_text(self.text[:TRUNCATE_AT])
        else:
            self.show_rendered()
        self.source_button.setText("Show rendered" if source else "Show source")
