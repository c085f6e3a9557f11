"""ToolResultView: a tool call's result: error or schema-violation banner, structured content, parts, raw JSON."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import ResourceContents
from workbench.ui.panels.inspector.results.blobs import pretty_json
from workbench.ui.panels.inspector.results.frame import Refit, fit_height
from workbench.ui.panels.inspector.results.parts import ContentPartsView, ResourceLinkView
from workbench.ui.payload import PayloadView
from workbench.ui.untrusted import plain_label


class ToolResultView(QWidget):
    """A tool call's result: error banner, structured content with its schema check, then each part.

    The view never talks to a server: a resource link's "Read" emits ``link_read_requested(uri)`` and
    the owner answers with ``show_link_contents`` or ``show_link_error``.
    """

    link_read_requested = Signal(str)
    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._result: ToolResult | None = None
        self.error_banner = plain_label("", self, wrap=True)
        self.error_banner.setObjectName("errorBanner")
        self.error_banner.setProperty("banner", "error")  # the theme's error colours (resources/styles)
        self.error_banner.setMargin(6)
        self.error_banner.setVisible(False)
        # A result that breaks the tool's outputSchema is no plain success: a warning above it all.
        self.schema_banner = QFrame(self)
        self.schema_banner.setObjectName("schemaViolation")
        self.schema_banner.setProperty("banner", "warning")
        self.schema_banner_label = plain_label("", self.schema_banner, wrap=True)
        banner_layout = QVBoxLayout(self.schema_banner)
        banner_layout.setContentsMargins(6, 4, 6, 4)
        banner_layout.addWidget(self.schema_banner_label)
        self.schema_banner.setVisible(False)
        self.structured_box = QFrame(self)
        self.structured_box.setFrameShape(QFrame.Shape.StyledPanel)
        self.structured_title = plain_label("structured content", self.structured_box)
        self.schema_label = plain_label("", self.structured_box, wrap=True)
        self.structured = PayloadView(self.structured_box)
        self.structured.wrap_lines()  # long strings readable, values never split
        self._structured_fit = Refit(self.structured, "")
        box = QVBoxLayout(self.structured_box)
        box.setContentsMargins(6, 4, 6, 4)
        box.addWidget(self.structured_title)
        box.addWidget(self.schema_label)
        box.addWidget(self.structured)
        self.structured_box.setVisible(False)
        self.parts = ContentPartsView(self)
        self.parts.link_read_requested.connect(self.link_read_requested)
        self.parts.link_clicked.connect(self.link_clicked)
        self.empty_label = plain_label("No content.", self)
        self.empty_label.setVisible(False)
        self.raw_button = QPushButton("Show raw JSON", self)
        self.raw_button.setVisible(False)
        self.raw_button.clicked.connect(self.show_raw)
        self.raw = PayloadView(self)
        self.raw.setVisible(False)
        self._inner = inner = QWidget(self)
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.error_banner, self.schema_banner, self.structured_box, self.parts, self.empty_label):
            column.addWidget(widget)
        column.addWidget(self.raw_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.raw)
        column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    @property
    def result(self) -> ToolResult | None:
        """The result on show."""
        return self._result

    def content_height(self) -> int:
        """Pixels the view needs to show all of its content without scrolling (banners, parts, raw JSON)."""
        return self._inner.sizeHint().height()

    def clear(self) -> None:
        """Show nothing."""
        self._result = None
        self.error_banner.setVisible(False)
        self.schema_banner.setVisible(False)
        self.structured_box.setVisible(False)
        self.parts.clear()
        self.empty_label.setVisible(False)
        self.raw_button.setVisible(False)
        self.raw.setVisible(False)
        self.raw.set_text("")

    def show_result(self, result: ToolResult, *, has_output_schema: bool | None = None) -> None:
        """Render ``result``.

        Args:
            result: What the tool returned.
            has_output_schema: Whether the tool declares an ``outputSchema`` (``None``: unknown), so a
                clean check can say "matches schema" rather than nothing.
        """
        self.clear()
        self._result = result
        if result.is_error:
            self.error_banner.setText("The tool reported an error (isError: true).")
            self.error_banner.setVisible(True)
        elif result.schema_errors:
            count = len(result.schema_errors)
            self.schema_banner_label.setText(
                f"⚠ Schema violation: the structured content does not match the tool's outputSchema "
                f"({count} problem{'s' if count != 1 else ''}, listed below)."
            )
            self.schema_banner.setVisible(True)
        if result.structured_content is not None or result.schema_errors:
            self.structured_box.setVisible(True)
            structured = pretty_json(result.structured_content)
            self.structured.set_text(structured, suggested_name="structured.json")
            fit_height(self.structured, structured)
            self._structured_fit.set_text(structured)
            self.schema_label.setText(self._schema_text(result, has_output_schema))
        self.parts.show_parts(result.content)
        self.empty_label.setVisible(not result.content and result.structured_content is None)
        self.raw_button.setVisible(True)

    @staticmethod
    def _schema_text(result: ToolResult, has_output_schema: bool | None) -> str:
        if result.schema_errors:
            # the banner above says what is wrong and counts the problems; here only the list of them
            lines = "\n".join(f"• {e}" for e in result.schema_errors)
            return f"Problem{'s' if len(result.schema_errors) != 1 else ''}:\n{lines}"
        if has_output_schema:
            return "✓ matches schema"
        if has_output_schema is False:
            return "The tool declares no outputSchema."
        return "No schema problems reported."

    def show_raw(self) -> None:
        """Show the whole result as JSON (built on request: it can be big)."""
        if self._result is not None:
            self.raw.set_text(pretty_json(self._result.to_dict()), suggested_name="result.json")
            self.raw.setVisible(True)
            self.raw_button.setVisible(False)

    def links(self, uri: str | None = None) -> list[ResourceLinkView]:
        """The resource-link views on show (for ``uri`` only, when given)."""
        return self.parts.links(uri)

    def show_link_contents(self, uri: str, contents: ResourceContents) -> None:
        """Show what reading the link to ``uri`` returned."""
        for link in self.links(uri):
            link.show_contents(contents)

    def show_link_error(self, uri: str, message: str) -> None:
        """Show why reading the link to ``uri`` failed."""
        for link in self.links(uri):
            link.show_error(message)
