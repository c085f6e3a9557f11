"""Image and audio parts: decoded from base64, an image scaled to fit, a clip's length and a player where Qt has one."""

from __future__ import annotations

import importlib.util
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from workbench.core.protocols.base import ContentPart
from workbench.ui.panels.inspector.results.blobs import decode_blob, human_size, suggested_file_name, wav_duration
from workbench.ui.panels.inspector.results.frame import PartFrame

MAX_IMAGE_SIDE = 320
"""Images are scaled down to fit a square of this many pixels (tiny ones are scaled up to ``MIN_IMAGE_SIDE``)."""
MIN_IMAGE_SIDE = 64
HAS_MULTIMEDIA = importlib.util.find_spec("PySide6.QtMultimedia") is not None
"""Whether an audio player can be offered (pyside6-essentials has no QtMultimedia: then only Save as)."""


class ImagePartView(PartFrame):
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


class AudioPartView(PartFrame):
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
