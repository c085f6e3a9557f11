"""PayloadView: a read-only text view that stays responsive for huge payloads (show all / save as)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from workbench.core.safe_text import safe_file_name
from workbench.ui.untrusted import shown

TRUNCATE_AT = 1_000_000
"""Characters shown before a payload is cut (the rest stays one click away)."""


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
        self.editor = QPlainTextEdit(self)
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

    def set_text(self, text: str, *, suggested_name: str = "payload.txt") -> None:
        """Show ``text`` (cut at the limit)."""
        self._text = text
        self._suggested_name = safe_file_name(suggested_name, fallback="payload.txt")
        cut = self._cut = len(text) > self._limit
        self.editor.setPlainText(shown(text[: self._limit] if cut else text))
        self.note.setText(f"Showing {self._limit:,} of {len(text):,} characters." if cut else "")
        self.note.setVisible(cut)
        self.show_all_button.setVisible(cut)
        self.save_button.setVisible(bool(text))

    def show_all(self) -> None:
        """Put the whole text into the view."""
        self._cut = False
        self.editor.setPlainText(shown(self._text))
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
        dialog.open()
