"""Showing what a tool call or resource read returned: text, JSON, images, audio, embedded resources, links.

``ToolResultView`` renders a ``ToolResult`` (the inspector and the chat both use it); ``ContentPartsView``
renders a plain list of ``ContentPart`` (resource contents, prompt messages). Everything shown came from
a peer, so text goes through ``PayloadView`` / plain labels and nothing is ever rendered as HTML.
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import io
import json
import wave
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import ContentPart, ToolResult
from workbench.core.protocols.catalog import ResourceContents
from workbench.core.safe_text import safe_file_name
from workbench.ui.payload import TRUNCATE_AT, PayloadView
from workbench.ui.untrusted import SafeTextBrowser, plain_label

MAX_IMAGE_SIDE = 320
"""Images are scaled down to fit a square of this many pixels (tiny ones are scaled up to ``MIN_IMAGE_SIDE``)."""
MIN_IMAGE_SIDE = 64
TEXT_VIEW_HEIGHT = (60, 520)
"""Minimum and maximum height of a text part's view, in pixels (sized to its wrapped text in between)."""
MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown"})
"""Media types rendered as markdown (HTML in them shown as text, nothing loaded, links ask first)."""
HAS_MULTIMEDIA = importlib.util.find_spec("PySide6.QtMultimedia") is not None
"""Whether an audio player can be offered (pyside6-essentials has no QtMultimedia: then only Save as)."""

_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/mpeg": ".mp3",
    "audio/ogg": ".ogg",
    "text/plain": ".txt",
    "text/markdown": ".md",
    "application/json": ".json",
}


def pretty_json(value: Any) -> str:
    """Indented JSON for display (non-JSON values fall back to ``str``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def decode_blob(blob: str | None) -> bytes | None:
    """The bytes of a base64 blob, or ``None`` when it is missing or not valid base64."""
    if blob is None:
        return None
    try:
        return base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return None


def human_size(size: int) -> str:
    """``1234567`` → ``1.2 MB`` (decimal units, as file managers show them)."""
    value = float(size)
    for unit in ("bytes", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} bytes"  # pragma: no cover - the loop always returns


def wav_duration(data: bytes) -> float | None:
    """Seconds of audio in a WAV file, or ``None`` if it is not a readable WAV."""
    try:
        with wave.open(io.BytesIO(data)) as clip:
            rate = clip.getframerate()
            return clip.getnframes() / rate if rate else None
    except (wave.Error, EOFError):
        return None


def suggested_file_name(part: ContentPart, fallback: str) -> str:
    """A file name for saving ``part``: the last URI segment or ``fallback``, with an extension for its type."""
    base = fallback
    if part.uri:
        tail = part.uri.rstrip("/").rsplit("/", 1)[-1]
        base = safe_file_name("".join(c if c.isalnum() or c in "._-" else "_" for c in tail), fallback=fallback)
    ext = _EXTENSIONS.get((part.mime_type or "").lower(), "")
    return base if not ext or base.endswith(ext) else base + ext


class _PartFrame(QFrame):
    """A boxed part with a one-line header (kind, mime type, size) and an optional "Save as…"."""

    saved = Signal(str)
    link_clicked = Signal(QUrl)
    """A link in rendered markdown was clicked (the owner asks the user before opening it)."""

    def __init__(self, header: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._data: bytes | None = None
        self._suggested = "content.bin"
        self.header = plain_label(header, self, wrap=True)
        self.save_button = QPushButton("Save as…", self)
        self.save_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.save_button.setVisible(False)
        self.save_button.clicked.connect(self.on_save_clicked)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.header, 1)
        top.addWidget(self.save_button)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(6, 4, 6, 4)
        self.body.addLayout(top)

    def set_savable(self, data: bytes, suggested: str) -> None:
        """Offer "Save as…" for ``data``."""
        self._data = data
        self._suggested = suggested
        self.save_button.setVisible(True)

    @property
    def data(self) -> bytes | None:
        """The decoded bytes of a binary part (``None`` for text)."""
        return self._data

    def save_to(self, path: str | Path) -> None:
        """Write the part's bytes to ``path``."""
        if self._data is not None:
            Path(path).write_bytes(self._data)
            self.saved.emit(str(path))

    def on_save_clicked(self) -> None:
        """Ask for a file name (non-blocking dialog) and save there."""
        dialog = QFileDialog(self, "Save content", self._suggested)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(self.save_to)
        dialog.open()


def _visual_lines(text: str, view: PayloadView) -> int:
    """How many screen lines ``text`` takes in ``view`` (wrapped at its width when it wraps)."""
    editor = view.editor
    lines = text.split("\n", 200)[:200]
    width = editor.viewport().width()
    if editor.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap or width < 50:
        return len(lines)
    per_line = max(1, width // max(1, editor.fontMetrics().averageCharWidth()))
    return sum(max(1, -(-len(line) // per_line)) for line in lines)


def _fit_height(view: PayloadView, text: str) -> None:
    """Make ``view`` as tall as ``text`` needs, within ``TEXT_VIEW_HEIGHT``."""
    lines = min(_visual_lines(text, view), 60)
    height = view.editor.fontMetrics().lineSpacing() * lines + 2 * view.editor.frameWidth() + 10
    view.editor.setFixedHeight(max(TEXT_VIEW_HEIGHT[0], min(height, TEXT_VIEW_HEIGHT[1])))


class _Refit(QObject):
    """Re-fits a wrapping text view's height when its width changes (wrapped text needs more lines)."""

    def __init__(self, view: PayloadView, text: str) -> None:
        super().__init__(view)
        self._view = view
        self._text = text[:20_000]
        self._width = -1
        view.editor.viewport().installEventFilter(self)

    def set_text(self, text: str) -> None:
        """Fit to ``text`` from now on."""
        self._text = text[:20_000]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """On a width change, size the view to its text again."""
        if event.type() == QEvent.Type.Resize and self._view.editor.viewport().width() != self._width:
            self._width = self._view.editor.viewport().width()
            _fit_height(self._view, self._text)
        return False


def _text_view(text: str, frame: _PartFrame, suggested: str, *, wrap: bool = False) -> PayloadView:
    """A ``PayloadView`` sized to its text; short texts are saved from the frame's header instead."""
    view = PayloadView(frame)
    if wrap:
        view.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        _Refit(view, text)
    view.set_text(text, suggested_name=suggested)
    _fit_height(view, text)
    if not view.truncated:
        view.save_button.setVisible(False)
        frame.set_savable(text.encode("utf-8"), suggested)
    return view


class MarkdownView(QWidget):
    """Markdown shown rendered (no HTML, no images loaded, links only on consent) with its source a click away."""

    link_clicked = Signal(QUrl)

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = text
        self.browser = SafeTextBrowser(self)
        self.browser.setObjectName("renderedMarkdown")
        self.browser.set_untrusted_markdown(text[:TRUNCATE_AT])
        self.browser.link_clicked.connect(self.link_clicked)
        lines = min(text.count("\n", 0, 100_000) + 2, 40)
        height = self.browser.fontMetrics().lineSpacing() * lines + 16
        self.browser.setMinimumHeight(TEXT_VIEW_HEIGHT[0])
        self.browser.setFixedHeight(max(TEXT_VIEW_HEIGHT[0], min(height, TEXT_VIEW_HEIGHT[1])))
        self.source_button = QToolButton(self)
        self.source_button.setText("Show source")
        self.source_button.setCheckable(True)
        self.source_button.toggled.connect(self.on_source_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        layout.addWidget(self.source_button, 0, Qt.AlignmentFlag.AlignLeft)

    def on_source_toggled(self, source: bool) -> None:
        """Switch between the rendered text and its markdown source (shown literally)."""
        if source:
            self.browser.set_untrusted_text(self.text[:TRUNCATE_AT])
        else:
            self.browser.set_untrusted_markdown(self.text[:TRUNCATE_AT])
        self.source_button.setText("Show rendered" if source else "Show source")


def is_markdown(part: ContentPart) -> bool:
    """Whether ``part`` declares a markdown media type."""
    return (part.mime_type or "").split(";", 1)[0].strip().lower() in MARKDOWN_TYPES


class TextPartView(_PartFrame):
    """A text part: shown literally; huge text is cut with "Show all" / "Save as…" (``PayloadView``)."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "text") -> None:
        text = part.text or ""
        super().__init__(f"{header} · {len(text):,} characters", parent)
        self.markdown: MarkdownView | None = None
        if is_markdown(part):
            self.header.setText(f"{header} · markdown · {len(text):,} characters")
            self.markdown = MarkdownView(text, self)
            self.markdown.link_clicked.connect(self.link_clicked)
            self.set_savable(text.encode("utf-8"), suggested_file_name(part, "text.md"))
            self.body.addWidget(self.markdown)
            return
        self.payload = _text_view(text, self, suggested_file_name(part, "text.txt"), wrap=True)
        self.body.addWidget(self.payload)


class JSONPartView(_PartFrame):
    """A JSON value (data parts and content types the workbench does not know), pretty-printed."""

    def __init__(self, value: Any, parent: QWidget | None = None, *, header: str = "data") -> None:
        super().__init__(header, parent)
        self.payload = _text_view(pretty_json(value), self, "data.json", wrap=True)
        self.body.addWidget(self.payload)


class ImagePartView(_PartFrame):
    """An image: decoded from base64 and scaled to fit; "Save as…" writes the original bytes."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "image") -> None:
        data = decode_blob(part.blob)
        super().__init__(f"{header} · {part.mime_type or 'unknown type'}", parent)
        self.image_size = QSize()
        self.picture = QLabel(self)
        self.picture.setTextFormat(Qt.TextFormat.PlainText)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        pixmap = QPixmap()
        if data is None:
            self.picture.setText("The image data is not valid base64.")
        elif not pixmap.loadFromData(data):
            self.picture.setText(f"The image could not be decoded ({human_size(len(data))}).")
        else:
            self.image_size = pixmap.size()
            self.picture.setPixmap(_fit(pixmap))
            self.header.setText(
                f"{header} · {part.mime_type or 'image'} · {pixmap.width()}×{pixmap.height()} · {human_size(len(data))}"
            )
        if data is not None:
            self.set_savable(data, suggested_file_name(part, "image"))
        self.body.addWidget(self.picture)

    @property
    def shown_pixmap(self) -> QPixmap:
        """The scaled pixmap on screen (null when the image could not be decoded)."""
        return self.picture.pixmap()


def _fit(pixmap: QPixmap) -> QPixmap:
    side = max(pixmap.width(), pixmap.height())
    if side > MAX_IMAGE_SIDE:
        return pixmap.scaled(
            MAX_IMAGE_SIDE,
            MAX_IMAGE_SIDE,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    if 0 < side < MIN_IMAGE_SIDE:
        factor = MIN_IMAGE_SIDE // side
        return pixmap.scaled(pixmap.width() * factor, pixmap.height() * factor, Qt.AspectRatioMode.KeepAspectRatio)
    return pixmap


class AudioPartView(_PartFrame):
    """An audio clip: type, size and (for WAV) duration, "Save as…", and a player when QtMultimedia exists."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "audio") -> None:
        data = decode_blob(part.blob)
        super().__init__(header, parent)
        self.duration_s: float | None = None
        self.play_button: QPushButton | None = None
        self._player: Any = None
        if data is None:
            self.header.setText(f"{header} · {part.mime_type or 'unknown type'} · not valid base64")
            return
        self.duration_s = wav_duration(data)
        duration = f" · {self.duration_s:.2f} s" if self.duration_s is not None else ""
        self.header.setText(f"{header} · {part.mime_type or 'unknown type'} · {human_size(len(data))}{duration}")
        self.set_savable(data, suggested_file_name(part, "audio"))
        if HAS_MULTIMEDIA:  # pragma: no cover - pyside6-essentials has no QtMultimedia
            self.play_button = QPushButton("Play", self)
            self.play_button.clicked.connect(self.on_play_clicked)
            self.body.addWidget(self.play_button)

    def on_play_clicked(self) -> None:  # pragma: no cover - needs QtMultimedia
        """Play the clip from memory."""
        from PySide6.QtCore import QBuffer, QByteArray
        from PySide6.QtMultimedia import QAudioOutput, QMediaPlayer  # type: ignore[import-not-found,unused-ignore]

        if self._player is None:
            buffer = QBuffer(self)
            buffer.setData(QByteArray(self.data or b""))
            buffer.open(QBuffer.OpenModeFlag.ReadOnly)
            player = QMediaPlayer(self)
            player.setAudioOutput(QAudioOutput(self))
            player.setSourceDevice(buffer)
            self._player = player
        self._player.play()


class EmbeddedResourceView(_PartFrame):
    """An embedded resource (or one item of a resource read): URI, type, then its text or blob."""

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "resource") -> None:
        super().__init__(f"{header} · {part.mime_type or 'unknown type'}", parent)
        self.uri_label = plain_label(part.uri or "", self, wrap=True)
        self.body.addWidget(self.uri_label)
        self.payload: PayloadView | None = None
        self.markdown: MarkdownView | None = None
        self.image: ImagePartView | None = None
        if part.text is not None:
            self.header.setText(f"{header} · {part.mime_type or 'text'} · {len(part.text):,} characters")
            if is_markdown(part):
                self.markdown = MarkdownView(part.text, self)
                self.markdown.link_clicked.connect(self.link_clicked)
                self.set_savable(part.text.encode("utf-8"), suggested_file_name(part, "resource.md"))
                self.body.addWidget(self.markdown)
                return
            self.payload = _text_view(part.text, self, suggested_file_name(part, "resource.txt"), wrap=True)
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


class ResourceLinkView(_PartFrame):
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


def part_view(part: ContentPart, parent: QWidget | None = None, *, readable_links: bool = True) -> _PartFrame:
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
        self.part_views: list[_PartFrame] = []
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
                view: _PartFrame = EmbeddedResourceView(part, self, header=self._resource_header)
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
        self.error_banner.setStyleSheet("QLabel#errorBanner { background: #fde2e1; color: #8a1f11; padding: 6px; }")
        self.error_banner.setVisible(False)
        self.structured_box = QFrame(self)
        self.structured_box.setFrameShape(QFrame.Shape.StyledPanel)
        self.structured_title = plain_label("structured content", self.structured_box)
        self.schema_label = plain_label("", self.structured_box, wrap=True)
        self.structured = PayloadView(self.structured_box)
        self._structured_fit = _Refit(self.structured, "")
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
        inner = QWidget(self)
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.error_banner, self.structured_box, self.parts, self.empty_label):
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

    def clear(self) -> None:
        """Show nothing."""
        self._result = None
        self.error_banner.setVisible(False)
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
        if result.structured_content is not None or result.schema_errors:
            self.structured_box.setVisible(True)
            structured = pretty_json(result.structured_content)
            self.structured.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # long strings readable
            self.structured.set_text(structured, suggested_name="structured.json")
            _fit_height(self.structured, structured)
            self._structured_fit.set_text(structured)
            self.schema_label.setText(self._schema_text(result, has_output_schema))
        self.parts.show_parts(result.content)
        self.empty_label.setVisible(not result.content and result.structured_content is None)
        self.raw_button.setVisible(True)

    @staticmethod
    def _schema_text(result: ToolResult, has_output_schema: bool | None) -> str:
        if result.schema_errors:
            lines = "\n".join(f"• {e}" for e in result.schema_errors)
            return f"Does not match the tool's outputSchema:\n{lines}"
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
