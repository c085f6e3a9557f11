"""Agent markdown for the transcript: parsed safely, headings keeping their level, inserted at a cursor.

Remote markdown is parsed with HTML disabled into a scratch document that is never laid out (so
nothing is loaded), its images are replaced by their name, and the result is copied into the
transcript (qt-async §6). Copying a fragment gives its first block the block format of the block it
lands in, which took the level away from a heading that opens a reply or an artifact (the common
case: ``# Lisbon``); ``insert_markdown`` gives it back. Headings also get space above them by level,
so ``#``, ``##`` and ``###`` read as three levels, not as bold lines of three sizes.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument, QTextDocumentFragment

from workbench.core.conversation import Artifact
from workbench.ui.untrusted import shown, space_headings

MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown"})
"""Media types of parts drawn as (safe) markdown, as the result panes do."""
LOOKS_LIKE_MARKDOWN_CHARS = 4_000
"""Characters of an untyped artifact's tail searched for markdown's marks."""

_LOOKS_LIKE_MARKDOWN = re.compile(
    r"^(?: {0,3}#{1,6} | {0,3}(?:[-*+]|\d+[.)]) \S| {0,3}(?:```|~~~)| {0,3}> )"  # heading, list, fence, quote
    r"|\*\*\S[^*\n]*\*\*|\[[^\]\n]+\]\([^)\s]+\)",  # bold, link
    re.MULTILINE,
)
FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)
"""The opening or closing line of a code fence."""


def is_markdown_artifact(item: Artifact) -> bool:
    """Whether the artifact is markdown to render: text parts only, declared markdown or looking like it.

    A part that declares a markdown media type decides; parts that declare no type at all are
    markdown when the text has markdown's marks (a heading, a list, a fence, bold, a link). Other
    text types (``text/plain``, JSON) and data or file parts are shown as they are.
    """
    parts = item.parts
    if not parts or any(p.text is None for p in parts):
        return False
    types = {(p.mime_type or "").split(";", 1)[0].strip().lower() for p in parts}
    if types & MARKDOWN_TYPES:
        return True
    return types == {""} and _LOOKS_LIKE_MARKDOWN.search(item.tail(LOOKS_LIKE_MARKDOWN_CHARS)) is not None


def safe_markdown_document(text: str) -> QTextDocument:
    """``text`` parsed as markdown with raw HTML shown literally, images replaced by text, headings spaced.

    Control and invisible characters are shown as escapes (``untrusted.shown``).

    The document is never laid out, so nothing is loaded while parsing (qt-async §6).
    """
    scratch = QTextDocument()
    scratch.setMarkdown(shown(text), QTextDocument.MarkdownFeature.MarkdownNoHTML)
    images: list[tuple[int, int, str]] = []
    block = scratch.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.isValid() and frag.charFormat().isImageFormat():
                images.append((frag.position(), frag.length(), frag.charFormat().toImageFormat().name()))
            it += 1
        block = block.next()
    for position, length, name in reversed(images):
        cursor = QTextCursor(scratch)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(f"[image: {name}]", QTextCharFormat())
    space_headings(scratch)
    return scratch


def safe_markdown_fragment(text: str) -> QTextDocumentFragment:
    """``safe_markdown_document(text)`` as a fragment (its first block's format is lost when inserted)."""
    return QTextDocumentFragment(safe_markdown_document(text))


def insert_markdown(cursor: QTextCursor, text: str) -> None:
    """Insert ``text`` as safe markdown at ``cursor`` (at the start of an empty block), heading levels kept.

    Qt gives the first block of an inserted fragment the format of the block the cursor is in, so a
    heading that opens the text lost its level (and its spacing); it gets them back. The other
    blocks keep the formats they came with. ``cursor`` ends after the inserted text.
    """
    scratch = safe_markdown_document(text)
    first = scratch.begin()
    start = cursor.position()
    cursor.insertFragment(QTextDocumentFragment(scratch))
    heading = first.blockFormat()
    if heading.headingLevel() > 0:
        landed = cursor.document().findBlock(start)
        if landed.isValid() and landed.text() == first.text() and landed.blockFormat().headingLevel() == 0:
            QTextCursor(landed).setBlockFormat(heading)


def line_breaks_kept(text: str) -> str:
    """Markdown whose single line breaks stay line breaks (as chats and GitHub comments draw them).

    Agents write artifacts line by line ("Day 1: …" newline "Day 2: …"); plain markdown would join
    such lines into one paragraph. Lines inside code fences are left alone.
    """
    lines = text.split("\n")
    fenced = False
    for i, line in enumerate(lines[:-1]):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and line.strip() and lines[i + 1].strip() and not line.endswith("  "):
            lines[i] = line + "  "
    return "\n".join(lines)


def settled_end(text: str, start: int) -> int:
    """End of the last finished paragraph of ``text`` after ``start`` (``start`` if none).

    A paragraph is finished at a blank line that is not inside a code fence.
    """
    end = text.rfind("\n\n", start)
    while end >= start:
        cut = end + 2
        if len(FENCE.findall(text, 0, cut)) % 2 == 0:
            return cut
        end = text.rfind("\n\n", start, end)
    return start
