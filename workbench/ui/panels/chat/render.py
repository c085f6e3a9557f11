"""TranscriptRenderer: draws a Conversation into a QTextDocument and redraws only what changed.

Every item lives in its own ``QTextFrame``, so an item that changes in place (the streaming message,
a growing artifact, the turn's progress) is redrawn inside its frame and nothing else is touched
(qt-async §5.2: re-render markdown only for the message that is still streaming). Remote text is
only ever inserted as plain text, or as markdown parsed with HTML disabled into a scratch document
whose images are replaced by text before the fragment is copied in (§6). Actions on artifacts are
links with a per-renderer secret scheme, so agent markdown cannot forge them.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QBrush,
    QFont,
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFrame,
    QTextFrameFormat,
)

from workbench.core.conversation import (
    AgentMessage,
    Answer,
    AnyItem,
    Artifact,
    Completion,
    Conversation,
    Failure,
    LogLine,
    Progress,
    Question,
    StatusLine,
    ToolCall,
    UserMessage,
)
from workbench.core.safe_text import escape_json_text, neutralise
from workbench.core.schema_check import listed
from workbench.ui.errors import full_stop, hint_sentence
from workbench.ui.panels.chat.colours import colour
from workbench.ui.panels.chat.markdown import insert_markdown, is_markdown_artifact, line_breaks_kept, settled_end

LIVE_MARKDOWN_LIMIT = 4_000
"""A streaming paragraph longer than this gets its new text appended plainly (markdown once at the end)."""
FINAL_MARKDOWN_LIMIT = 16_000
"""A finished paragraph longer than this stays plain text (laying it out again would stall the window)."""
ARTIFACT_PREVIEW_CHARS = 600
"""Characters of a collapsed artifact shown (its tail, so a growing artifact shows what is new)."""
ARTIFACT_EXPANDED_CHARS = 200_000
"""Characters of an expanded artifact shown; the rest is one "Save as…" away."""

COMPLETION_TEXT_CHARS = 4_000
"""Characters of a result text shown under the final state when nothing else showed it."""
TOOL_RESULT_CHARS = 2_000
"""Characters of a tool call's result shown under it (the wire log has the whole answer)."""

STATE_COLOURS = {
    "submitted": "#6b7280",
    "working": "#2563eb",
    "input_required": "#d97706",
    "auth_required": "#d97706",
    "completed": "#15803d",
    "failed": "#b91c1c",
    "rejected": "#b91c1c",
    "canceled": "#6b7280",
    "incomplete": "#6b7280",
}
LOG_COLOURS = {"debug": "#6b7280", "info": "#374151", "notice": "#374151", "warning": "#b45309", "error": "#b91c1c"}


@dataclass(slots=True)
class _Drawn:
    """What is on screen for one item."""

    frame: QTextFrame
    chunks: int = 0  # agent messages and artifacts: chunks drawn
    settled: int = 0  # agent messages: characters of finished paragraphs drawn (never redrawn)
    tail: int = 0  # agent messages: where the tail starts, relative to the frame's first position
    chars: int = 0  # agent messages in plain-append mode: characters of the tail drawn
    plain: bool = False  # agent message tail drawn as plain text (too long for live markdown)
    final: bool = False  # agent message drawn in its finished form


class TranscriptRenderer:
    """Keeps ``document`` showing a conversation; call ``render(conv, updated)`` after changes.

    Args:
        document: The (safe) browser's document; its image handler must load nothing.
    """

    def __init__(self, document: QTextDocument) -> None:
        self._doc = document
        self._drawn: list[_Drawn] = []
        self._expanded: set[int] = set()
        self._conv: Conversation | None = None
        self.action_scheme = "wb-" + secrets.token_hex(6)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._mono = QTextCharFormat()
        self._mono.setFont(mono)
        self._plain = QTextCharFormat()

    # ------------------------------------------------------------------ reading

    @property
    def drawn_chunks(self) -> int:
        """Chunks drawn across agent messages and artifacts (equals the chunks received once caught up)."""
        return sum(d.chunks for d in self._drawn)

    def is_expanded(self, index: int) -> bool:
        """Whether the artifact at ``index`` is shown in full."""
        return index in self._expanded

    def action_url(self, action: str, index: int) -> QUrl:
        """The link for an action on item ``index``: an artifact's ``toggle`` / ``save``, a question's ``form``."""
        return QUrl(f"{self.action_scheme}:{action}/{index}")

    def parse_action(self, url: QUrl) -> tuple[str, int] | None:
        """``(action, index)`` if ``url`` is one of this renderer's action links, else ``None``."""
        if url.scheme() != self.action_scheme:
            return None
        action, _, index = url.path().partition("/")
        return (action, int(index)) if index.isdigit() else None

    # ------------------------------------------------------------------ drawing

    def reset(self) -> None:
        """Forget everything drawn and clear the document."""
        self._drawn.clear()
        self._expanded.clear()
        self._doc.clear()

    def render(self, conv: Conversation, updated: set[int], *, budget: float | None = None) -> bool:
        """Redraw the ``updated`` items already drawn, then draw the items appended since last time.

        Args:
            conv: The conversation shown.
            updated: Indexes of items changed in place since the last call.
            budget: Seconds to spend drawing new items (at least one is drawn); ``None``: no limit.

        Returns:
            True when every item is drawn; False when the budget ran out (call again soon).
        """
        self._conv = conv
        deadline = time.perf_counter() + budget if budget is not None else None
        block = QTextCursor(self._doc)
        block.beginEditBlock()  # one layout pass for the whole batch, not one per insertion
        try:
            drawn = len(self._drawn)
            for index in sorted(updated):
                if index < drawn:
                    self._draw(index, conv[index], fresh=False)
            for index in range(drawn, len(conv)):
                if deadline is not None and index > drawn and time.perf_counter() > deadline:
                    return False
                cursor = QTextCursor(self._doc)
                cursor.movePosition(QTextCursor.MoveOperation.End)
                frame = cursor.insertFrame(self._frame_format(conv[index]))
                self._drawn.append(_Drawn(frame))
                self._draw(index, conv[index], fresh=True)
            return True
        finally:
            block.endEditBlock()

    def toggle(self, conv: Conversation, index: int) -> None:
        """Expand or collapse the artifact at ``index``."""
        self._conv = conv
        self._expanded.symmetric_difference_update({index})
        if index < len(self._drawn):
            self._draw(index, conv[index], fresh=False)

    # ------------------------------------------------------------------ per item

    def _cursor(self, drawn: _Drawn, *, clear: bool) -> QTextCursor:
        frame = drawn.frame
        if not clear:
            cursor = frame.lastCursorPosition()
            return cursor
        cursor = frame.firstCursorPosition()
        cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.setBlockCharFormat(self._plain)
        cursor.setCharFormat(self._plain)
        return cursor

    def _draw(self, index: int, item: AnyItem, *, fresh: bool) -> None:
        drawn = self._drawn[index]
        if isinstance(item, AgentMessage):
            self._draw_agent(drawn, item, fresh=fresh)
            return
        cursor = self._cursor(drawn, clear=not fresh)
        if isinstance(item, UserMessage | Answer):
            cursor.insertText("You", _fmt(bold=True, accent="#1e3a8a"))
            if isinstance(item, Answer):
                cursor.insertText("  answering the agent's question", _fmt(small=True, accent="#6b7280"))
            cursor.insertText("\n", self._plain)
            cursor.insertText(neutralise(item.text), self._plain)
        elif isinstance(item, StatusLine):
            shown = item.state.replace("_", " ")
            if item.message and item.state in ("input_required", "auth_required", "failed", "rejected", "canceled"):
                shown += f": {item.message}"
            cursor.insertText(
                f"● {neutralise(shown)}", _fmt(accent=STATE_COLOURS.get(item.state, "#6b7280"), small=True)
            )
        elif isinstance(item, Artifact):
            self._draw_artifact(cursor, index, item)
            drawn.chunks = item.chunks
        elif isinstance(item, Progress):
            cursor.insertText(_progress_text(item), self._mono_fmt("#2563eb"))
        elif isinstance(item, LogLine):
            who = f" {item.logger}" if item.logger else ""
            accent = LOG_COLOURS.get(item.level, "#374151")
            cursor.insertText(neutralise(f"[{item.level}]{who}: {item.text}"), self._mono_fmt(accent, small=True))
        elif isinstance(item, ToolCall):
            args = escape_json_text(json.dumps(item.arguments, ensure_ascii=False, default=str))
            cursor.insertText(f"tool call  {neutralise(item.name)}({args})", self._mono_fmt("#7c3aed"))
            if item.result is not None:
                shown = item.result if len(item.result) <= TOOL_RESULT_CHARS else item.result[:TOOL_RESULT_CHARS] + "…"
                word, accent = ("error", "#b91c1c") if item.is_error else ("result", "#374151")
                cursor.insertText(f"\n  {word}  {neutralise(shown)}", self._mono_fmt(accent, small=True))
        elif isinstance(item, Question):
            self._draw_request(cursor, index, item)
        elif isinstance(item, Completion):
            cursor.insertText(
                f"■ {item.state.replace('_', ' ')}", _fmt(accent=STATE_COLOURS.get(item.state), small=True)
            )
            if item.text and not item.echoed:
                shown = (
                    item.text if len(item.text) <= COMPLETION_TEXT_CHARS else item.text[:COMPLETION_TEXT_CHARS] + "…"
                )
                cursor.insertText("\n" + neutralise(shown), self._plain)
        elif isinstance(item, Failure):
            cursor.insertText(neutralise(f"✖ failed [{item.code}]: {item.message}"), _fmt(accent="#b91c1c", bold=True))
            if item.hint:
                cursor.insertText(f"\n{neutralise(hint_sentence(item.hint))}", _fmt(accent="#b91c1c"))

    def _draw_agent(self, drawn: _Drawn, item: AgentMessage, *, fresh: bool) -> None:
        """Draw a message: finished paragraphs once, then only the paragraph still streaming.

        Paragraphs that ended (a blank line outside a code fence) are parsed and drawn once; each
        flush redraws only the tail after them, so a long reply costs time in proportion to its
        length, not to its length squared. A tail longer than ``LIVE_MARKDOWN_LIMIT`` is appended
        as plain text while it streams and parsed once at the end (if not over ``FINAL_MARKDOWN_LIMIT``).
        """
        drawn.chunks = item.chunk_count
        if drawn.final:
            return  # finished messages are never parsed again
        if fresh:
            drawn.tail, drawn.settled, drawn.plain, drawn.chars = 0, 0, False, 0
        text = item.text
        if drawn.plain:
            if item.streaming or len(text) - drawn.settled > FINAL_MARKDOWN_LIMIT:
                cursor = drawn.frame.lastCursorPosition()
                cursor.insertText(neutralise(text[drawn.settled + drawn.chars :]), self._plain)
                drawn.chars = len(text) - drawn.settled
                drawn.final = not item.streaming
                return
            drawn.plain = False  # finished and short enough: parse the tail once
        split = settled_end(text, drawn.settled)
        if split > drawn.settled:
            cursor = self._tail_cursor(drawn)
            insert_markdown(cursor, text[drawn.settled : split])
            cursor.insertBlock(QTextBlockFormat(), self._plain)
            drawn.tail = cursor.position() - drawn.frame.firstPosition()
            drawn.settled = split
        tail = text[drawn.settled :]
        cursor = self._tail_cursor(drawn)
        if item.streaming and len(tail) > LIVE_MARKDOWN_LIMIT:
            cursor.insertText(neutralise(tail), self._plain)
            drawn.plain, drawn.chars = True, len(tail)
            return
        if tail:
            insert_markdown(cursor, tail)
        drawn.final = not item.streaming

    def _tail_cursor(self, drawn: _Drawn) -> QTextCursor:
        """A cursor at the start of the message's tail, with the old tail removed."""
        frame = drawn.frame
        cursor = QTextCursor(self._doc)
        cursor.setPosition(frame.firstPosition() + drawn.tail)
        cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.setBlockCharFormat(self._plain)
        return cursor

    def _draw_artifact(self, cursor: QTextCursor, index: int, item: Artifact) -> None:
        size = item.text_length
        turn = self._conv.turns[item.turn] if self._conv is not None and item.turn < len(self._conv.turns) else None
        done = ", streaming" if not item.last_chunk and turn is not None and turn.running else ""
        cursor.insertText(f"Artifact: {neutralise(item.title)}", _fmt(bold=True))
        amount = f"{size:,} chars" if size else f"{len(item.parts)} part{'s' if len(item.parts) != 1 else ''}"
        cursor.insertText(
            f"  ({item.chunks:,} chunk{'s' if item.chunks != 1 else ''}, {amount}{done})  ",
            _fmt(small=True, accent="#6b7280"),
        )
        expanded = index in self._expanded
        cursor.insertText("Collapse" if expanded else "Expand", _link(self.action_url("toggle", index)))
        cursor.insertText("  ", self._plain)
        cursor.insertText("Save as…", _link(self.action_url("save", index)))
        cursor.insertText("\n", self._plain)
        cut = False
        if expanded:
            body = item.tail(ARTIFACT_EXPANDED_CHARS + 1)
            if len(body) > ARTIFACT_EXPANDED_CHARS:
                cursor.insertText(
                    "… (the start is cut; Save as… writes all of it)\n", _fmt(small=True, accent="#6b7280")
                )
                body = body[-ARTIFACT_EXPANDED_CHARS:]
        else:
            body = item.tail(ARTIFACT_PREVIEW_CHARS + 1)
            if len(body) > ARTIFACT_PREVIEW_CHARS:
                body, cut = body[-ARTIFACT_PREVIEW_CHARS:], True
        if is_markdown_artifact(item) and len(body) <= FINAL_MARKDOWN_LIMIT:
            if cut:
                cursor.insertText("…\n", _fmt(small=True, accent="#6b7280"))
            insert_markdown(cursor, line_breaks_kept(body.rstrip("\n")))
            return
        cursor.insertText(("…" if cut else "") + neutralise(body.rstrip("\n")), self._mono)

    def _draw_request(self, cursor: QTextCursor, index: int, item: Question) -> None:
        what = {"elicitation": "asks for input", "sampling": "asks for a completion", "input": "needs input",
                "auth": "needs authorisation"}[item.request_kind]  # fmt: skip
        cursor.insertText(f"The agent {what}", _fmt(bold=True, accent="#b45309"))
        status = {"pending": "", "answered": " (answered)", "waiting": " — waiting for your answer"}[item.status]
        cursor.insertText(status + "\n", _fmt(accent="#b45309"))
        cursor.insertText(neutralise(item.text), self._plain)
        props = (item.schema or {}).get("properties") if isinstance(item.schema, dict) else None
        if isinstance(props, dict) and props:
            fields = neutralise(listed((str(k) for k in props), total=len(props), what="more fields"))
            cursor.insertText(f"\nAnswer fields: {fields}", _fmt(small=True, accent="#6b7280"))
            if item.status == "waiting":
                note = _fmt(small=True, accent="#6b7280")
                cursor.insertText("\nType the answer below (a JSON object for the fields) and send it, or ", note)
                link = "answer in a form…"
                cursor.insertText(link, _link(self.action_url("form", index)))
                cursor.insertText(full_stop(link)[len(link) :], note)  # the link's "…" ends the sentence

    def _frame_format(self, item: AnyItem) -> QTextFrameFormat:
        fmt = QTextFrameFormat()
        fmt.setMargin(0)
        fmt.setPadding(2)
        if isinstance(item, UserMessage | Answer):
            fmt.setBackground(colour("#eef2ff"))
            fmt.setPadding(6)
        elif isinstance(item, Artifact):
            fmt.setBorder(1)
            fmt.setBorderBrush(QBrush(colour("#9ca3af")))
            fmt.setPadding(6)
        elif isinstance(item, Question):
            fmt.setBackground(colour("#fff7ed"))
            fmt.setPadding(6)
        elif isinstance(item, AgentMessage):
            fmt.setPadding(4)
        return fmt

    def _mono_fmt(self, accent: str, *, small: bool = False) -> QTextCharFormat:
        fmt = QTextCharFormat(self._mono)
        fmt.setForeground(colour(accent))
        if small:
            fmt.setFontPointSize(max(6.0, self._mono.font().pointSizeF() - 1))
        return fmt


def _fmt(*, bold: bool = False, accent: str | None = None, small: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if accent:
        fmt.setForeground(colour(accent))
    if small:
        fmt.setFontPointSize(8.5)
    return fmt


def _link(url: QUrl) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setAnchor(True)
    fmt.setAnchorHref(url.toString())
    fmt.setForeground(colour("#2563eb"))
    fmt.setFontUnderline(True)
    return fmt


def _progress_text(item: Progress) -> str:
    fraction = item.fraction
    message = f"  {item.message}" if item.message else ""
    total = f"/{item.total:g}" if item.total else ""
    if fraction is None:
        return f"progress {item.progress:g}{total}{message}"
    filled = round(fraction * 20)
    return f"progress [{'█' * filled}{'░' * (20 - filled)}] {item.progress:g}{total}{message}"
