"""A line edit whose suggestions come from the server (``completion/complete``), fetched as the user types."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QCompleter, QLineEdit, QWidget

from workbench.ui.untrusted import shown

DEBOUNCE_MS = 150
"""Typing pause before the server is asked (one request per pause, not per key)."""


class SuggestionModel(QStringListModel):
    """A server's suggestions: shown through ``shown`` in the popup, completing to the exact value (``EditRole``)."""

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The suggestion (escaped for display)."""
        value = super().data(index, role)
        return shown(value) if role == Qt.ItemDataRole.DisplayRole and isinstance(value, str) else value


class CompletingLineEdit(QLineEdit):
    """A ``QLineEdit`` with a ``QCompleter`` fed asynchronously.

    ``completion_requested(text)`` is emitted after a typing pause (and when the user moves into the
    field); the owner asks the server and hands the answer to ``offer(values)``, which pops the
    suggestions up while the field still holds the text they were asked for. Picking a suggestion,
    closing the popup (Escape, a click elsewhere) or coming back from it asks nothing more.

    The popup never shows empty: when the server suggests nothing it closes. ``submitted`` is Enter in
    the field: also while the popup is open (the highlighted suggestion, if any, is taken first), so one
    Enter always submits what the field shows.
    """

    completion_requested = Signal(str)
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None, *, enabled: bool = True) -> None:
        super().__init__(parent)
        self.completions_enabled = enabled
        self.suggestions = SuggestionModel(self)
        completer = QCompleter(self.suggestions, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)  # the server filtered
        self.setCompleter(completer)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.request_now)
        self.textEdited.connect(self.on_text_edited)
        completer.activated.connect(self.on_completer_activated)
        popup = completer.popup()
        assert popup is not None  # the completer makes its default popup on first ask
        self._popup: QAbstractItemView = popup
        popup.installEventFilter(self)  # after the completer's own filter: called first
        self.returnPressed.connect(self.on_return_pressed)
        self._popup_enter = False  # an Enter in the open popup waits to submit (after the completer filled the field)
        self._asked: str | None = None  # the text the last request was for
        self._picked: str | None = None  # the suggestion just picked (its own edit asks nothing)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        """Fetch suggestions when the user moves into the field, so they are there before the first key.

        Focus coming back from the suggestion popup (a pick, Escape) or from another window asks nothing.
        """
        super().focusInEvent(event)
        quiet = (Qt.FocusReason.PopupFocusReason, Qt.FocusReason.ActiveWindowFocusReason)
        if self.completions_enabled and event.reason() not in quiet and self.text() != self._picked:
            self._timer.start()

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        """Leaving the field (Tab, a click on a button) drops a pending request."""
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:
            self._timer.stop()

    def on_text_edited(self, text: str) -> None:
        """Restart the typing-pause timer (not for the edit a pick makes)."""
        if text == self._picked:
            self._timer.stop()
            return
        self._picked = None
        if self.completions_enabled:
            self._timer.start()

    def on_completer_activated(self, text: str) -> None:
        """A suggestion was picked: it is the value, nothing more to ask."""
        self._picked = text
        self._timer.stop()

    def request_now(self) -> None:
        """Ask for suggestions for the current text right away."""
        self._timer.stop()
        if self.completions_enabled:
            self._asked = self.text()
            self.completion_requested.emit(self._asked)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Enter in the open popup: let the completer take the highlighted suggestion, then submit."""
        if (
            watched is self._popup
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            and not self._popup_enter
        ):
            # the completer closes the popup and fills the field when this filter returns; submit after it
            self._popup_enter = True
            QTimer.singleShot(0, self, self._submit_popup_enter)
        return super().eventFilter(watched, event)

    def on_return_pressed(self) -> None:
        """Enter in the field submits, unless it is the popup's Enter passed on (that one submits already).

        The one rule for Enter: one key press, one ``submitted``. The completer may hand the popup's
        Enter on to the field (then ``returnPressed`` comes too) or keep it; either way the deferred
        submit from ``eventFilter`` is the only one.
        """
        if not self._popup_enter:
            self.submitted.emit()

    def _submit_popup_enter(self) -> None:
        self._popup_enter = False
        self.submitted.emit()

    def offer(self, values: list[str]) -> None:
        """Take ``values`` as the suggestions; pop them up when the field has focus and still holds the text asked.

        No suggestions close the popup: an empty one would only cover what is under the field.
        """
        self.suggestions.setStringList(values)
        if not values:
            self._popup.hide()
        elif self.hasFocus() and self.text() == self._asked and self.text() != self._picked:
            self.completer().complete()

    def values(self) -> list[str]:
        """The suggestions on offer."""
        return self.suggestions.stringList()
