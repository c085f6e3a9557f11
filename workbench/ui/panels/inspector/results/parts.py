"""Resource parts (embedded; links read on request) and ContentPartsView, a column of parts, a view per part."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from workbench.core.documents import decode_text, document_kind, parse_csv
from workbench.core.protocols.base import ContentPart
from workbench.core.protocols.catalog import ResourceContents
from workbench.ui.panels.inspector.results.blobs import decode_blob, human_size, suggested_file_name
from workbench.ui.panels.inspector.results.document_views import CSVView, HTMLView
from workbench.ui.panels.inspector.results.frame import PartFrame, text_view
from workbench.ui.panels.inspector.results.media_parts import AudioPartView, ImagePartView
from workbench.ui.panels.inspector.results.pdf_view import PDFView
from workbench.ui.panels.inspector.results.text_parts import JSONPartView, MarkdownView, TextPartView, is_markdown
from workbench.ui.payload import PayloadView
from workbench.ui.untrusted import plain_label


class EmbeddedResourceView(PartFrame):
    """An embedded resource (or one item of a resource read): URI, type, then its text or blob."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "resource") -> None:
        super().__init__(f"{header} · {part.mime_type or 'unknown type'}", parent)
        self.uri_label = plain_label(part.uri or "", self, wrap=True)
        self.body.addWidget(self.uri_label)
        self.payload: PayloadView | None = None
        self.markdown: MarkdownView | None = None
        self.image: ImagePartView | None = None
        self.document: QWidget | None = None
        kind = document_kind(part.mime_type)
        if part.text is not None:
            self.header.setText(f"{header} · {part.mime_type or 'text'} · {len(part.text):,} characters")
            if kind in ("csv", "html"):
                self._show_document(part, part.text, "resource.csv" if kind == "csv" else "resource.html")
                return
            if is_markdown(part):
                self.markdown = MarkdownView(part.text, self)
                self.markdown.link_clicked.connect(self.link_clicked)
                self.set_savable(part.text.encode("utf-8"), suggested_file_name(part, "resource.md"))
                self.body.addWidget(self.markdown)
                return
            self.payload = text_view(part.text, self, suggested_file_name(part, "resource.txt"), wrap=True)
            self.body.addWidget(self.payload)
            return
        data = decode_blob(part.blob)
        if data is None:
            self.header.setText(f"{header} · {part.mime_type or 'unknown type'} · no readable content")
            return
        self.header.setText(f"{header} · {part.mime_type or 'binary'} · blob of {human_size(len(data))}")
        self.set_savable(data, suggested_file_name(part, "resource"))
        if (part.mime_type or "").lower().startswith("image/"):
            self.image = ImagePartView(part, self, header="preview")
            self.body.addWidget(self.image)
        elif kind == "pdf":
            self.document = PDFView(data, self)  # Qt PDF is imported here, with the first PDF shown
            self.body.addWidget(self.document)
        elif kind in ("csv", "html"):
            self._show_document(part, decode_text(data, part.mime_type), None)

    def _show_document(self, part: ContentPart, text: str, suggested: str | None) -> None:
        """Show a CSV as a table or HTML sanitised (``suggested``: offer the text for saving under that name)."""
        if suggested is not None:
            self.set_savable(text.encode("utf-8"), suggested_file_name(part, suggested))
        if document_kind(part.mime_type) == "csv":
            self.document = CSVView(parse_csv(text, part.mime_type), self)
        else:
            html = HTMLView(text, self)
            html.link_clicked.connect(self.link_clicked)
            self.document = html
        self.body.addWidget(self.document)


class ResourceLinkView(PartFrame):
    """A link to a resource: URI, name, description, and "Read" (the owner reads it and calls back)."""

    read_requested = Signal(str)

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, readable: bool = True) -> None:
        super().__init__(f"resource link · {part.mime_type or 'unknown type'}", parent)
        self.uri = part.uri or ""
        title = getattr(part.raw, "title", None)
        description = getattr(part.raw, "description", None)
        name = part.name or ""
        self.uri_label = plain_label(self.uri, self, wrap=True)
        self.name_label = plain_label(f"{name} — {title}" if title and title != name else name, self, wrap=True)
        self.description_label = plain_label(description or "", self, wrap=True)
        self.description_label.setVisible(bool(description))
        self.read_button = QPushButton("Read", self)
        self.read_button.setEnabled(readable and bool(self.uri))
        self.read_button.clicked.connect(self.on_read_clicked)
        self.status = plain_label("", self, wrap=True)
        self.status.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(self.uri_label, 1)
        row.addWidget(self.read_button)
        self.body.addLayout(row)
        self.body.addWidget(self.name_label)
        self.body.addWidget(self.description_label)
        self.body.addWidget(self.status)
        self.contents = ContentPartsView(self)
        self.contents.link_read_requested.connect(self.read_requested)
        self.contents.setVisible(False)
        self.body.addWidget(self.contents)

    def on_read_clicked(self) -> None:
        """Ask the owner to read the linked resource."""
        self.read_button.setEnabled(False)
        self.status.setText("Reading…")
        self.status.setVisible(True)
        self.read_requested.emit(self.uri)

    def show_contents(self, contents: ResourceContents) -> None:
        """Show what reading the link returned."""
        self.read_button.setEnabled(True)
        self.status.setVisible(False)
        self.contents.show_parts(contents.parts)
        self.contents.setVisible(True)

    def show_error(self, message: str) -> None:
        """Show why reading the link failed."""
        self.read_button.setEnabled(True)
        self.status.setText(message)
        self.status.setVisible(True)


def part_view(part: ContentPart, parent: QWidget | None = None, *, readable_links: bool = True) -> PartFrame:
    """The widget for one content part, chosen by its type."""
    if part.type == "text":
        return TextPartView(part, parent)
    if part.type == "image":
        return ImagePartView(part, parent)
    if part.type == "audio":
        return AudioPartView(part, parent)
    if part.type in ("resource", "file"):
        return EmbeddedResourceView(part, parent, header="embedded resource" if part.type == "resource" else "file")
    if part.type == "resource_link":
        return ResourceLinkView(part, parent, readable=readable_links)
    if part.type == "data":
        return JSONPartView(part.data, parent)
    return JSONPartView(part.to_dict(), parent, header=f"{part.type} (shown as JSON)")


class ContentPartsView(QWidget):
    """A column of content parts; resource links ask to be read through ``link_read_requested``.

    Links clicked in rendered markdown come out of ``link_clicked`` (connect it to the ``LinkGate``).
    """

    link_read_requested = Signal(str)
    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None, *, resource_header: str | None = None) -> None:
        super().__init__(parent)
        self._resource_header = resource_header
        self.part_views: list[PartFrame] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def clear(self) -> None:
        """Remove every part."""
        for view in self.part_views:
            view.setParent(None)
            view.deleteLater()
        self.part_views.clear()

    def show_parts(self, parts: list[ContentPart]) -> None:
        """Replace what is shown with ``parts``."""
        self.clear()
        for part in parts:
            if part.type == "resource" and self._resource_header is not None:
                view: PartFrame = EmbeddedResourceView(part, self, header=self._resource_header)
            else:
                view = part_view(part, self)
            if isinstance(view, ResourceLinkView):
                view.read_requested.connect(self.link_read_requested)
                view.contents.link_clicked.connect(self.link_clicked)
            view.link_clicked.connect(self.link_clicked)
            self._layout.addWidget(view)
            self.part_views.append(view)

    def links(self, uri: str | None = None) -> list[ResourceLinkView]:
        """The resource-link views (only those for ``uri`` when given), nested ones included."""
        found: list[ResourceLinkView] = []
        for view in self.part_views:
            if isinstance(view, ResourceLinkView):
                if uri is None or view.uri == uri:
                    found.append(view)
                found.extend(view.contents.links(uri))
        return found
