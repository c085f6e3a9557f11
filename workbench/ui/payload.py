"""PayloadView: a read-only text view that stays responsive for huge payloads (show all / save as)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QTextBoundaryFinder, Signal
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from workbench.core.safe_text import safe_file_name
from workbench.ui.dialog_rules import present
from workbench.ui.untrusted import shown

TRUNCATE_AT = 1_000_000
"""Characters shown before a payload is cut (the rest stays one click away)."""
WORD_JOINER = "\u2060"
"""Invisible, and no line may break beside it: glues a word where Qt would break it (see ``keep_words_whole``)."""
WHOLE_WORDS_UP_TO = 200_000
"""Longest text whose words are kept whole when wrapped (a longer one wraps as Qt does: it stays fast)."""


def keep_words_whole(text: str) -> str:
    """``text`` with ``WORD_JOINER`` at each line-break opportunity inside a word.

    The rule for wrapped text in the window: a line breaks only at white space — between JSON's
    tokens (after ``": "``, ``", "``) or between words — never inside a word or a value, though
    Unicode line breaking (Qt's) also allows a break after ``-``, ``/``, ``?``, ``)`` and more
    ("central-" / "station"). A word longer than the whole line still breaks where it must
    (``QTextOption.WrapAtWordBoundaryOrAnywhere``). ``shown`` has made any joiner the peer sent
    visible as an escape, so the ones in the view are all this function's and copying drops them.
    """
    finder = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Line, text)
    pieces: list[str] = []
    start = 0
    at = finder.toNextBoundary()
    while 0 < at < len(text):
        if not text[at - 1].isspace():
            pieces += (text[start:at], WORD_JOINER)
            start = at
        at = finder.toNextBoundary()
    pieces.append(text[start:])
    return "".join(pieces)


def without_joiners(text: str) -> str:
    """``text`` as it was before ``keep_words_whole``: every ``WORD_JOINER`` removed."""
    return text.replace(WORD_JOINER, "")


class WholeWordsEditor(QPlainTextEdit):
    """A text area for text glued by ``keep_words_whole``: what is copied (or dragged) has no word joiners.

    Whoever reads its text back (``toPlainText``) takes them out with ``without_joiners``.
    """

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt's name
        """The selection as plain text, ``WORD_JOINER`` removed."""
        data = QMimeData()
        data.setText(without_joiners(self.textCursor().selection().toPlainText()))
        return data


class PayloadView(QWidget):
    """Shows untrusted text literally (``shown``); beyond ``limit`` characters only the head, plus two buttons.

    "Show all" puts the whole text in (the user asked for it); "Save as…" writes it to a file without
    showing it. ``saved(path)`` is emitted after a save.
    """

    saved = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, limit: int = TRUNCATE_AT, monospace: bool = True) -> None:
        super().__init__(parent)
        self._limit = limit
        self._text = ""
        self._cut = False
        self._suggested_name = "payload.txt"
        self._whole_words = False
        self.editor: QPlainTextEdit = WholeWordsEditor(self)
        self.editor.setReadOnly(True)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        if monospace:
            self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.note = QLabel(self)
        self.show_all_button = QPushButton("Show all", self)
        self.save_button = QPushButton("Save as…", self)
        self.show_all_button.clicked.connect(self.show_all)
        self.save_button.clicked.connect(self.on_save_clicked)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.note, 1)
        bar.addStretch(1)  # keeps the buttons compact while the note is hidden
        bar.addWidget(self.show_all_button)
        bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor, 1)
        layout.addLayout(bar)
        self.set_text("")

    @property
    def truncated(self) -> bool:
        """Whether only the head of the text is shown."""
        return self._cut

    def text(self) -> str:
        """The whole payload (not only what is shown)."""
        return self._text

    def wrap_lines(self) -> None:
        """Wrap long lines at the view's width, breaking them only at white space (``keep_words_whole``)."""
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        if not self._whole_words:
            self._whole_words = True
            self._show(self._text[: self._limit] if self._cut else self._text)

    def _show(self, text: str) -> None:
        text = shown(text)
        if self._whole_words and len(text) <= WHOLE_WORDS_UP_TO:
            text = keep_words_whole(text)
        self.editor.setPlainText(text)

    def set_text(self, text: str, *, suggested_name: str = "payload.txt") -> None:
        """Show ``text`` (cut at the limit)."""
        self._text = text
        self._suggested_name = safe_file_name(suggested_name, fallback="payload.txt")
        cut = self._cut = len(text) > self._limit
        self._show(text[: self._limit] if cut else text)
        self.note.setText(f"Showing {self._limit:,} of {len(text):,} characters." if cut else "")
        self.note.setVisible(cut)
        self.show_all_button.setVisible(cut)
        self.save_button.setVisible(bool(text))

    def show_all(self) -> None:
        """Put the whole text into the view."""
        self._cut = False
        self._show(self._text)
        self.note.setVisible(False)
        self.show_all_button.setVisible(False)

    def save_to(self, path: str | Path) -> None:
        """Write the whole payload to ``path`` (UTF-8)."""
        Path(path).write_text(self._text, encoding="utf-8")
        self.saved.emit(str(path))

    def on_save_clicked(self) -> None:
        """Ask for a file name (non-blocking dialog) and save there."""
        dialog = QFileDialog(self, "Save payload", self._suggested_name)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(self.save_to)
        present(dialog)
