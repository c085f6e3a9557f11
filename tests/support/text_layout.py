"""What a text editor shows on screen, line by line, for tests of wrapping."""

from __future__ import annotations

from typing import Any


def screen_lines(editor: Any) -> list[str]:
    """The editor's text as laid out on screen, one string per visual line."""
    doc = editor.document()
    out = []
    for n in range(doc.blockCount()):
        block = doc.findBlockByNumber(n)
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            out.append(block.text()[line.textStart() : line.textStart() + line.textLength()])
    return out
