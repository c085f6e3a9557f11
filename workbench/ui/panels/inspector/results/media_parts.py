"""Image and audio parts: decoded from base64, an image scaled to fit, a clip's length and a Play/Stop control."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QSize, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from workbench.core.protocols.base import ContentPart
from workbench.core.timefmt import duration_text
from workbench.ui.panels.inspector.results.blobs import (
    audio_extension,
    decode_blob,
    human_size,
    suggested_file_name,
    wav_duration,
)
from workbench.ui.panels.inspector.results.frame import PartFrame
from workbench.ui.panels.inspector.results.system_player import open_in_system_player
from workbench.ui.untrusted import plain_label

MAX_IMAGE_SIDE = 320
"""Images are scaled down to fit a square of this many pixels (tiny ones are scaled up to ``MIN_IMAGE_SIDE``)."""
MIN_IMAGE_SIDE = 64
HAS_MULTIMEDIA = importlib.util.find_spec("PySide6.QtMultimedia") is not None
"""Whether QtMultimedia is installed: it comes with the ``media`` extra (PySide6-Addons); without it, Play
offers the desktop's own player."""


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


class ClipPlayer(QObject):
    """Plays one clip from memory with QtMultimedia (``QMediaPlayer`` + ``QAudioOutput``), loaded on first use.

    Playing is best effort: QtMultimedia may be missing (pyside6-essentials has none), the platform
    may have no audio output (offscreen, a server without sound) or the clip may be undecodable.
    Each of these is ``failed(reason)``, never an exception; the clip can still be saved.

    Signals:
        playing_changed(bool): Playback started or stopped (also at the clip's end).
        failed(str): Why the clip cannot be played here (a sentence).
    """

    playing_changed = Signal(bool)
    failed = Signal(str)

    def __init__(self, data: bytes, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._data = data
        self._player: Any = None
        self._buffer: QBuffer | None = None

    @property
    def playing(self) -> bool:
        """Whether the clip is playing."""
        return self._player is not None and self._player.playbackState() == self._player.PlaybackState.PlayingState

    def play(self) -> None:
        """Start playing (``failed`` when it cannot)."""
        try:
            player = self._player or self._load()
        except _CannotPlayError as exc:
            self.failed.emit(str(exc))
            return
        player.play()

    def stop(self) -> None:
        """Stop (and rewind)."""
        if self._player is not None:
            self._player.stop()

    def _load(self) -> Any:
        try:
            multimedia = importlib.import_module("PySide6.QtMultimedia")
        except ImportError as exc:
            if HAS_MULTIMEDIA:  # installed, but a system library it needs is missing (libpulse on Linux)
                raise _CannotPlayError(f"Qt's multimedia module is installed but does not load here ({exc}).") from None
            raise _CannotPlayError(
                "The window plays audio with the media extra (pip install 'agent-workbench[media]')."
            ) from None
        if not multimedia.QMediaDevices.audioOutputs():
            raise _CannotPlayError("The window finds no audio output device here.")
        buffer = QBuffer(self)
        buffer.setData(QByteArray(self._data))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        player = multimedia.QMediaPlayer(self)
        player.setAudioOutput(multimedia.QAudioOutput(self))
        player.errorOccurred.connect(self._on_error)
        player.playbackStateChanged.connect(self._on_state)
        player.setSourceDevice(buffer)
        self._player, self._buffer = player, buffer
        return player

    def _on_state(self, state: Any) -> None:
        self.playing_changed.emit(state == self._player.PlaybackState.PlayingState)

    def _on_error(self, error: Any, text: str = "") -> None:
        self.failed.emit(f"The clip could not be played: {text or error}.")


class _CannotPlayError(Exception):
    """Why nothing can be played here (the message is the sentence shown)."""


class AudioPartView(PartFrame):
    """An audio clip: type, size and (for WAV) duration, "Save as…", and a Play/Stop control.

    The control is always there for a clip that decoded; when the window cannot play it (no QtMultimedia,
    no audio output) pressing it says why beside it and, for a known audio type, offers "Open in player":
    the desktop's own player, on a private copy (``system_player``).
    """

    PLAY, STOP = "▶ Play", "■ Stop"
    OPEN_IN_PLAYER = "Open in player"

    def __init__(self, part: ContentPart, parent: QWidget | None = None, *, header: str = "audio") -> None:
        data = decode_blob(part.blob)
        super().__init__(header, parent)
        self.duration_s: float | None = None
        self.play_button: QToolButton | None = None
        self.play_note = plain_label("", self, wrap=True)
        self.play_note.setVisible(False)
        self.player: ClipPlayer | None = None
        self.open_button: QToolButton | None = None
        self._extension = audio_extension(part.mime_type)
        if data is None:
            self.header.setText(f"{header} · {part.mime_type or 'unknown type'} · not valid base64")
            return
        self.duration_s = wav_duration(data)
        duration = f" · {duration_text(self.duration_s)}" if self.duration_s is not None else ""
        self.header.setText(f"{header} · {part.mime_type or 'unknown type'} · {human_size(len(data))}{duration}")
        self.set_savable(data, suggested_file_name(part, "audio"))
        self.player = ClipPlayer(data, self)
        self.player.playing_changed.connect(self.on_player_playing_changed)
        self.player.failed.connect(self.on_player_failed)
        self.play_button = QToolButton(self)
        self.play_button.setText(self.PLAY)
        self.play_button.setToolTip("Play the clip (Stop ends it)")
        self.play_button.clicked.connect(self.on_play_button_clicked)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.play_button, 0, Qt.AlignmentFlag.AlignTop)  # a note of two lines leaves it in place
        if self._extension is not None:
            self.open_button = QToolButton(self)
            self.open_button.setText(self.OPEN_IN_PLAYER)
            self.open_button.setToolTip("Play the clip in this desktop's audio player (a private temporary copy)")
            self.open_button.clicked.connect(self.on_open_button_clicked)
            self.open_button.setVisible(False)
            row.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.play_note, 1)
        row.addStretch(0)  # the note hidden, the row's room goes here: the button stays at the left, where it is then
        self.body.addLayout(row)

    def on_play_button_clicked(self) -> None:
        """Play, or stop what plays."""
        if self.player is None:
            return
        if self.player.playing:
            self.player.stop()
        else:
            self.play_note.setVisible(False)
            self.player.play()

    def on_player_playing_changed(self, playing: bool) -> None:
        """The button offers what can be done next."""
        if self.play_button is not None:
            self.play_button.setText(self.STOP if playing else self.PLAY)

    def on_player_failed(self, reason: str) -> None:
        """Say why nothing plays in the window, beside the button, and what can be done instead."""
        if self.open_button is not None:
            self.open_button.setVisible(True)
            self.open_button.setFocus(Qt.FocusReason.OtherFocusReason)
            reason += " Open it in this desktop's player, or save it."
        else:
            reason += " Save the clip to play it elsewhere."
        self.play_note.setText(reason)
        self.play_note.setVisible(True)
        self.on_player_playing_changed(False)

    def on_open_button_clicked(self) -> None:
        """Hand the clip to the desktop's player; say so when nothing here opens audio."""
        if self.data is None or self._extension is None:
            return
        try:
            opened = open_in_system_player(self.data, self._extension)
        except OSError as exc:
            self.play_note.setText(f"The clip could not be written to a temporary file ({exc.strerror}); save it.")
            return
        self.play_note.setText(
            "Opened in this desktop's audio player."
            if opened
            else "No application here opens audio files; save the clip to play it elsewhere."
        )
