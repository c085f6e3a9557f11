"""An audio result has a Play/Stop control; where nothing can play (no QtMultimedia, no audio output) it says so."""

from __future__ import annotations

import base64
import io
import wave
from typing import Any

from PySide6.QtCore import Qt

from workbench.core.protocols.base import ContentPart, ToolResult
from workbench.ui.panels.inspector.results import AudioPartView, ToolResultView


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
        assert audio.save_button.isVisible()  # the way to play it elsewhere
    else:
        qtbot.keyClick(button, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: button.text() == AudioPartView.PLAY, timeout=5000)


def test_a_clip_that_is_not_base64_offers_nothing_to_play(qtbot: Any) -> None:
    audio = AudioPartView(ContentPart("audio", blob="%%%", mime_type="audio/wav"))
    qtbot.addWidget(audio)
    assert audio.play_button is None and audio.data is None
