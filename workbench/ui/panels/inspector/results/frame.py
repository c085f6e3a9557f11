"""PartFrame, the box every content part is shown in, and text views sized to the text they show."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QUrl, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.dialog_rules import present
from workbench.ui.payload import PayloadView
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label

TEXT_VIEW_HEIGHT = (60, 520)
"""Minimum and maximum height of a text part's view, in pixels (sized to its wrapped text in between)."""


class PartFrame(QFrame):
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
        present(dialog)


def _visual_lines(text: str, view: PayloadView) -> int:
    """How many screen lines ``text`` takes in ``view`` (wrapped at its width when it wraps)."""
    editor = view.editor
    lines = text.split("\n", 200)[:200]
    width = editor.viewport().width()
    if editor.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap or width < 50:
        return len(lines)
    per_line = max(1, width // max(1, editor.fontMetrics().averageCharWidth()))
    return sum(max(1, -(-len(line) // per_line)) for line in lines)


def fit_height(view: PayloadView, text: str) -> None:
    """Make ``view`` as tall as ``text`` needs, within ``TEXT_VIEW_HEIGHT``."""
    lines = min(_visual_lines(text, view), 60)
    height = text_pane_height(view.editor, lines)
    view.editor.setFixedHeight(max(TEXT_VIEW_HEIGHT[0], min(height, TEXT_VIEW_HEIGHT[1])))


class Refit(QObject):
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
            fit_height(self._view, self._text)
        return False


def text_view(text: str, frame: PartFrame, suggested: str, *, wrap: bool = False) -> PayloadView:
    """A ``PayloadView`` sized to its text; short texts are saved from the frame's header instead."""
    view = PayloadView(frame)
    if wrap:
        view.wrap_lines()
        Refit(view, text)
    view.set_text(text, suggested_name=suggested)
    fit_height(view, text)
    if not view.truncated:
        view.save_button.setVisible(False)
        frame.set_savable(text.encode("utf-8"), suggested)
    return view
