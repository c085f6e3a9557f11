"""A line edit whose suggestions come from the server (``completion/complete``), fetched as the user types."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

DEBOUNCE_MS = 150
"""Typing pause before the server is asked (one request per pause, not per key)."""


class CompletingLineEdit(QLineEdit):
    """A ``QLineEdit`` with a ``QCompleter`` fed asynchronously.

    ``completion_requested(text)`` is emitted after a typing pause (and on focus); the owner asks the
    server and hands the answer to ``offer(values)``, which pops the suggestions up.
    """

    completion_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, enabled: bool = True) -> None:
        super().__init__(parent)
        self.completions_enabled = enabled
        self.suggestions = QStringListModel(self)
        completer = QCompleter(self.suggestions, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)  # the server filtered
        self.setCompleter(completer)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.request_now)
        self.textEdited.connect(self.on_text_edited)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        """Fetch suggestions when the field gets focus, so they are there before the first key."""
        super().focusInEvent(event)
        if self.completions_enabled:
            self._timer.start()

    def on_text_edited(self, text: str) -> None:
        """Restart the typing-pause timer."""
        if self.completions_enabled:
            self._timer.start()

    def request_now(self) -> None:
        """Ask for suggestions for the current text right away."""
        self._timer.stop()
        if self.completions_enabled:
            self.completion_requested.emit(self.text())

    def offer(self, values: list[str]) -> None:
        """Show ``values`` as suggestions (a popup when this field has focus)."""
        self.suggestions.setStringList(values)
        if values and self.hasFocus():
            self.completer().complete()

    def values(self) -> list[str]:
        """The suggestions on offer."""
        return self.suggestions.stringList()
