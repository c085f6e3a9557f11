"""An audio result has a Play/Stop control; where nothing can play (no QtMultimedia, no audio output) it says so."""

from __future__ import annotations

import base64
import io
import stat
import wave
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from workbench.core.protocols.base import ContentPart, ToolResult
from workbench.ui.panels.inspector.results import AudioPartView, ToolResultView

# With QtMultimedia installed (the media and apps extras), its FFmpeg backend says which optional system
# libraries (PipeWire, VA-API) and which sound server it did not find: the machine's, not the window's.
pytestmark = pytest.mark.qt_log_ignore("Couldn't (load|resolve) ", "PulseAudioService: ")


def wav_clip(seconds: float = 0.5, rate: int = 8000) -> str:
    """A silent mono 16-bit WAV clip, base64-encoded as a result carries it."""
    out = io.BytesIO()
    with wave.open(out, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(rate)
        clip.writeframes(b"\0\0" * int(seconds * rate))
    return base64.b64encode(out.getvalue()).decode()


def test_an_audio_result_shows_a_play_control_that_plays_or_says_why_it_cannot(qtbot: Any) -> None:
    view = ToolResultView()
    qtbot.addWidget(view)
    view.show_result(ToolResult(content=[ContentPart("audio", blob=wav_clip(), mime_type="audio/wav")]))
    view.resize(700, 400)
    view.show()
    (audio,) = view.parts.part_views
    assert isinstance(audio, AudioPartView)
    button = audio.play_button
    assert button is not None and button.isVisible() and button.text() == AudioPartView.PLAY
    assert audio.header.text().endswith("· 500 ms")  # the clip's length, written as every duration is
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)
    # Offscreen there is no audio output (and pyside6-essentials has no QtMultimedia): the reason shows
    # beside the button and nothing is raised; with sound, the button offers Stop.
    qtbot.waitUntil(lambda: audio.play_note.isVisible() or button.text() == AudioPartView.STOP, timeout=5000)
    if audio.play_note.isVisible():
        assert audio.play_note.text() and button.text() == AudioPartView.PLAY and button.isEnabled()
        assert audio.save_button.isVisible() and audio.open_button is not None and audio.open_button.isVisible()
    else:
        qtbot.keyClick(button, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: button.text() == AudioPartView.PLAY, timeout=5000)


def test_a_clip_that_is_not_base64_offers_nothing_to_play(qtbot: Any) -> None:
    audio = AudioPartView(ContentPart("audio", blob="%%%", mime_type="audio/wav"))
    qtbot.addWidget(audio)
    assert audio.play_button is None and audio.data is None


class _FileOpener(QObject):
    """Stands in for the desktop: the URLs ``QDesktopServices.openUrl`` was asked to open (Qt's own seam)."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open_url(self, url: QUrl) -> None:
        self.opened.append(url)


def test_where_the_window_cannot_play_open_in_player_hands_a_private_copy_to_the_desktop(qtbot: Any) -> None:
    view = ToolResultView()
    qtbot.addWidget(view)
    clip = wav_clip()
    view.show_result(
        ToolResult(content=[ContentPart("audio", blob=clip, mime_type="audio/wav", uri="file:///../../etc/evil;rm")])
    )
    view.resize(700, 400)
    view.show()
    (audio,) = view.parts.part_views
    assert isinstance(audio, AudioPartView) and audio.play_button is not None and audio.open_button is not None
    assert not audio.open_button.isVisible()  # offered only once the window knows it cannot play
    audio.play_button.setFocus()
    qtbot.keyClick(audio.play_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: audio.play_note.isVisible() or audio.play_button.text() == AudioPartView.STOP, timeout=5000)
    if not audio.play_note.isVisible():
        pytest.skip("this machine plays audio in the window (QtMultimedia with an output device)")
    assert audio.open_button.isVisible() and audio.window().focusWidget() is audio.open_button
    opener = _FileOpener()
    QDesktopServices.setUrlHandler("file", opener, "open_url")
    try:
        qtbot.keyClick(audio.open_button, Qt.Key.Key_Space)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    (url,) = opener.opened
    path = Path(url.toLocalFile())
    assert path.name == "clip-1.wav" or (path.name.startswith("clip-") and path.suffix == ".wav")
    assert path.read_bytes() == base64.b64decode(clip)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "Opened" in audio.play_note.text()


def test_an_unknown_audio_type_is_not_handed_to_the_desktop(qtbot: Any) -> None:
    audio = AudioPartView(ContentPart("audio", blob=wav_clip(), mime_type="audio/x-made-up"))
    qtbot.addWidget(audio)
    assert audio.play_button is not None and audio.open_button is None


def test_the_play_button_stays_where_it_is_when_its_note_appears(qtbot: Any) -> None:
    view = ToolResultView()
    qtbot.addWidget(view)
    view.show_result(ToolResult(content=[ContentPart("audio", blob=wav_clip(), mime_type="audio/wav")]))
    view.resize(700, 400)
    view.show()
    (audio,) = view.parts.part_views
    button = audio.play_button
    assert button is not None
    qtbot.waitUntil(button.isVisible, timeout=5000)
    before = button.mapTo(audio, button.rect().topLeft())
    assert before.x() <= audio.header.mapTo(audio, audio.header.rect().topLeft()).x() + 4  # at the left, as its text
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: audio.play_note.isVisible() or button.text() == AudioPartView.STOP, timeout=5000)
    if not audio.play_note.isVisible():  # sound here: stop it; the button stays put while it plays
        assert button.mapTo(audio, button.rect().topLeft()) == before
        qtbot.keyClick(button, Qt.Key.Key_Space)
        return
    qtbot.waitUntil(lambda: audio.play_note.width() > 0, timeout=5000)
    assert button.mapTo(audio, button.rect().topLeft()) == before  # no jump from the middle to the left
