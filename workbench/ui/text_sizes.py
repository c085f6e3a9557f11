"""How tall a text pane must be to show a number of lines with no vertical scroll bar."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QTextEdit


def text_pane_chrome(editor: QPlainTextEdit | QTextEdit) -> int:
    """Pixels a text pane takes besides its lines: its frame, its document's margins and one pixel more.

    A ``QPlainTextEdit`` shows its vertical scroll bar unless its viewport is a pixel taller than its
    lines and margins (it counts the viewport's height less the margins, less 1); a ``QTextEdit`` takes
    the pixel as room to spare.
    """
    return 2 * editor.frameWidth() + 2 * round(editor.document().documentMargin()) + 1


def text_pane_height(editor: QPlainTextEdit | QTextEdit, lines: int, *, line_spacing: int | None = None) -> int:
    """The height of ``editor`` that shows ``lines`` lines with no vertical scroll bar.

    Args:
        editor: The pane (its frame, margins and, unless ``line_spacing`` is given, its font count).
        lines: Screen lines to show (wrapped lines counted).
        line_spacing: Pixels per line, when the pane's text is not in its own font's metrics.
    """
    spacing = editor.fontMetrics().lineSpacing() if line_spacing is None else line_spacing
    return max(0, lines) * spacing + text_pane_chrome(editor)


def laid_out_lines(editor: QPlainTextEdit) -> int:
    """Screen lines of a plain text pane's text as laid out at its width (wrapped lines too; at least its blocks)."""
    document = editor.document()
    return max(document.blockCount(), round(document.documentLayout().documentSize().height()))
