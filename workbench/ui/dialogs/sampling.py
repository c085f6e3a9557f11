"""Sampling: show a server's ``sampling/createMessage`` request in full, as plain text, and let a person answer.

Everything the server sent is visible before anything is approved: who asks, each message (text, images
as a note plus a thumbnail only if the bytes decode as a small image, audio as a note), the system
prompt, limits, model preferences, context inclusion, tools (schemas collapsed) and the raw metadata.
A router (the handoff seam) may be set: "Route to agent…" then asks another agent and puts its reply in
the editor for the user to review and approve.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt, Signal
from PySide6.QtGui import QFontDatabase, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.base import ContentPart, SamplingRequest, SamplingResponse
from workbench.core.safe_text import escape_json_text
from workbench.ui.asyncutil import spawn
from workbench.ui.dialog_rules import mark_destructive
from workbench.ui.dialogs.sampling_tool_use import ToolUseEditor
from workbench.ui.errors import describe_error
from workbench.ui.payload import TRUNCATE_AT, PayloadView
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label, set_plain_tooltip, shown

SamplingRouter = Callable[[SamplingRequest], Awaitable[SamplingResponse]]
"""Answers a sampling request with another agent (the handoff router)."""

DEFAULT_MODEL = "workbench-human"
STOP_REASONS = ("endTurn", "stopSequence", "maxTokens", "toolUse")
THUMBNAIL = QSize(160, 120)
_MAX_IMAGE_PIXELS = 8192 * 8192
_MAX_DECODE_BYTES = 20_000_000


def _json(value: Any) -> str:
    # invisible characters as \uXXXX escapes: still JSON, the same value
    return escape_json_text(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str))


def _decode_blob(blob: str | None) -> bytes | None:
    if blob is None or len(blob) > _MAX_DECODE_BYTES * 4 // 3 + 4:
        return None
    try:
        return base64.b64decode(blob, validate=False)
    except (binascii.Error, ValueError):
        return None


def _thumbnail(data: bytes) -> QPixmap | None:
    """A small pixmap if ``data`` is an image of sane dimensions; never decodes a pixel bomb."""
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setAllocationLimit(256)  # MB; Qt refuses bigger decodes
    size = reader.size()
    if not size.isValid() or size.width() * size.height() > _MAX_IMAGE_PIXELS:
        return None
    reader.setScaledSize(size.scaled(THUMBNAIL, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    buffer.close()
    if image.isNull():
        return None
    return QPixmap.fromImage(image)


def describe_part(part: ContentPart) -> str:
    """One content part as a plain line of text (the text itself for text parts)."""
    if part.type == "text":
        return part.text or ""
    mime = part.mime_type or "unknown type"
    if part.type in ("image", "audio"):
        data = _decode_blob(part.blob)
        size = f"{len(data):,} bytes" if data is not None else "undecodable data"
        note = "" if part.type == "image" else " — not played"
        return f"{part.type} ({mime}, {size}){note}"
    if part.type == "resource":
        if part.text is not None:
            return f"resource {part.uri or ''} ({mime}):\n{part.text}"
        data = _decode_blob(part.blob)
        size = f"{len(data):,} bytes" if data is not None else "undecodable data"
        return f"resource {part.uri or ''} ({mime}, {size})"
    if part.type == "resource_link":
        return f"resource link {part.name or ''} → {part.uri or ''} ({mime})"
    return f"{part.type}: {_json(part.to_dict())}"


def request_text(request: SamplingRequest) -> str:
    """The whole request as plain text (what the dialog shows, for copying and tests)."""
    lines = [f"From: {request.agent or '(unknown)'}"]
    if request.system_prompt is not None:
        lines += ["System prompt:", request.system_prompt]
    for i, message in enumerate(request.messages, 1):
        lines.append(f"Message {i} ({message.role}):")
        lines += [describe_part(p) for p in message.content]
    lines.append(f"Max tokens: {request.max_tokens}")
    for label, value in _settings(request):
        lines.append(f"{label}: {value}")
    for tool in request.tools or []:
        lines.append(f"Tool {tool.name}: {tool.description or ''}")
    if request.metadata is not None:
        lines += ["Metadata:", _json(request.metadata)]
    return "\n".join(lines)


def _settings(request: SamplingRequest) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    out.append(("Temperature", "(server default)" if request.temperature is None else f"{request.temperature:g}"))
    if request.stop_sequences:
        out.append(("Stop sequences", ", ".join(json.dumps(s, ensure_ascii=False) for s in request.stop_sequences)))
    else:
        out.append(("Stop sequences", "(none)"))
    prefs = request.model_preferences or {}
    hints = [h.get("name") for h in prefs.get("hints") or [] if isinstance(h, dict) and h.get("name")]
    out.append(("Model hints", ", ".join(str(h) for h in hints) if hints else "(none)"))
    priorities = [
        f"{key.removesuffix('Priority')} {prefs[key]:g}"
        for key in ("costPriority", "speedPriority", "intelligencePriority")
        if isinstance(prefs.get(key), int | float)
    ]
    out.append(("Priorities", ", ".join(priorities) if priorities else "(none)"))
    out.append(("Include context", request.include_context or "(none)"))
    if request.tool_choice is not None:
        out.append(("Tool choice", json.dumps(request.tool_choice, ensure_ascii=False)))
    return out


def _read_only_text(text: str, *, max_lines: int = 8, monospace: bool = False) -> QWidget:
    """Literal text, height-capped; huge text goes into a PayloadView (head + "Show all")."""
    if len(text) > TRUNCATE_AT:
        view = PayloadView(monospace=monospace)
        view.set_text(text)
        view.setMinimumHeight(160)
        return view
    edit = QPlainTextEdit()
    edit.setReadOnly(True)
    edit.setPlainText(shown(text))
    if monospace:
        edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    lines = min(max(text.count("\n") + 1, 1), max_lines)
    edit.setFixedHeight(text_pane_height(edit, lines))
    return edit


APPROVE_TIP = "Send the reply to the server (Ctrl+Enter)"
"""Approve's tooltip while it can be pressed."""


def approve_hint(*, written: bool, named: bool, tool_call: bool) -> str:
    """Why Approve is greyed, as a short sentence beside it: the reply (or tool call) to write, the model to name."""
    if not written:
        return "Fill in the tool call to approve." if tool_call else "Write a reply to approve."
    return "" if named else "Name the model to approve."


class _Collapsible(QWidget):
    """A title button that shows or hides a body widget (collapsed at first)."""

    def __init__(self, title: str, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setText(shown(title))
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.body = body
        body.setParent(self)
        body.hide()
        self.toggle.toggled.connect(self.on_toggle_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(body)

    def on_toggle_toggled(self, shown: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.body.setVisible(shown)


class SamplingDialog(QDialog):
    """Shows a sampling request and lets the user write (or route) the reply.

    Signals:
        route_failed(BaseException): Routing to another agent failed (also shown inline).
        routed(SamplingResponse): The router answered; its reply is now in the editor for review.

    Args:
        request: The sampling request.
        parent: Parent widget (the main window).
        suggestion: Text to prefill the reply editor with.
        router: Answers the request with another agent; "Route to agent…" is shown only when set.
        draft: A script's or model's reply, shown for review (the ``ask`` policy): approve, edit or reject it.
        drafters: Responders (``model:NAME``, ``script:PATH``) that may draft this one reply ("Draft with").
    """

    route_failed = Signal(object)  # BaseException
    routed = Signal(object)  # SamplingResponse

    def __init__(
        self,
        request: SamplingRequest,
        parent: QWidget | None = None,
        *,
        suggestion: str = "",
        router: SamplingRouter | None = None,
        draft: SamplingResponse | None = None,
        drafters: dict[str, SamplingRouter] | None = None,
    ) -> None:
        super().__init__(parent)
        self._request = request
        self._response: SamplingResponse | None = None
        self._router: SamplingRouter | None = None
        self._route_task: asyncio.Task[None] | None = None
        self.setWindowTitle("LLM completion requested (sampling)")

        who = request.agent or "The server"
        intro = f"{who} asks for an LLM completion. Nothing is sent until you approve."
        if draft is not None:
            intro += f" {draft.responder or 'The responder'} drafted the reply below: approve, edit or reject it."
        self.intro_label = plain_label(intro, wrap=True)
        details = QWidget()
        self._details_layout = QVBoxLayout(details)
        self._build_details()
        self._details_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(details)

        self.reply_edit = QPlainTextEdit(self)
        self.reply_edit.setPlaceholderText("Write the reply the server receives as the model's answer…")
        self.reply_edit.setPlainText(suggestion)
        self.model_edit = QLineEdit(DEFAULT_MODEL, self)
        self.stop_combo = QComboBox(self)
        self.stop_combo.setEditable(True)
        self.stop_combo.addItems(list(STOP_REASONS))
        self.status_label = plain_label("", wrap=True)
        self.status_label.hide()
        reply_box = QWidget(self)
        reply_form = QFormLayout()
        reply_form.addRow("Model name:", self.model_edit)
        reply_form.addRow("Stop reason:", self.stop_combo)
        reply_layout = QVBoxLayout(reply_box)
        reply_layout.setContentsMargins(0, 0, 0, 0)
        reply_layout.addWidget(plain_label("Reply:"))
        reply_layout.addWidget(self.reply_edit, 1)
        self.tool_use: ToolUseEditor | None = None
        if request.tools:
            self.tool_use = ToolUseEditor(request.tools, self)
            self.tool_use.changed.connect(self._update_buttons)
            reply_layout.addWidget(self.tool_use)
        reply_layout.addLayout(reply_form)
        reply_layout.addWidget(self.status_label)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(scroll)
        splitter.addWidget(reply_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)

        self.route_button = QPushButton("Route to agent…", self)
        self.route_button.setAutoDefault(False)
        # Enter approves the written reply (only once there is one); Reject throws the reply away and
        # fails the server's request, so it is never the default (dialog_rules, rule 3).
        self.approve_button = QPushButton("Approve", self)
        self.approve_button.setDefault(True)
        self.approve_button.setToolTip(APPROVE_TIP)
        self.approve_hint = plain_label("", selectable=False)
        self.approve_hint.setObjectName("approveHint")
        self.approve_hint.hide()
        self.reject_button = QPushButton("Reject", self)
        mark_destructive(self.reject_button)
        self.route_button.clicked.connect(self.on_route_clicked)
        self.approve_button.clicked.connect(self.on_approve_clicked)
        self.reject_button.clicked.connect(self.reject)
        self.reply_edit.textChanged.connect(self._update_buttons)
        self.model_edit.textChanged.connect(self._update_buttons)
        self.drafter_combo = QComboBox(self)
        self._drafters = dict(drafters or {})
        for name in self._drafters:
            self.drafter_combo.addItem(shown(name), name)
        self.draft_button = QPushButton("Draft with", self)
        self.draft_button.setAutoDefault(False)
        self.draft_button.clicked.connect(self.on_draft_clicked)
        for widget in (self.draft_button, self.drafter_combo):
            widget.setVisible(bool(self._drafters))
        buttons = QHBoxLayout()
        buttons.addWidget(self.route_button)
        buttons.addWidget(self.draft_button)
        buttons.addWidget(self.drafter_combo)
        buttons.addStretch(1)
        buttons.addWidget(self.approve_hint)  # why Approve is greyed, beside it
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.reject_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro_label)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self.set_router(router)
        if draft is not None:
            self.show_reply(draft)
        self._update_buttons()
        self.resize(720, 640)

    # ------------------------------------------------------------------ building the request view

    def _section(self, title: str) -> None:
        label = plain_label(title, selectable=False)
        font = label.font()
        font.setBold(True)
        label.setFont(font)
        self._details_layout.addWidget(label)

    def _build_details(self) -> None:
        request = self._request
        form = QFormLayout()
        form.addRow("From:", plain_label(request.agent or "(unknown)"))
        form.addRow("Max tokens:", plain_label(str(request.max_tokens)))
        for label, value in _settings(request):
            form.addRow(f"{label}:", plain_label(value, wrap=True))
        self._details_layout.addLayout(form)
        if request.system_prompt is not None:
            self._section("System prompt")
            self._details_layout.addWidget(_read_only_text(request.system_prompt))
        self._section(f"Messages ({len(request.messages)})")
        for i, message in enumerate(request.messages, 1):
            frame = QFrame()
            frame.setFrameShape(QFrame.Shape.StyledPanel)
            inner = QVBoxLayout(frame)
            inner.addWidget(plain_label(f"{i}. {message.role}", selectable=False))
            for part in message.content:
                inner.addWidget(self._part_widget(part))
            self._details_layout.addWidget(frame)
        if request.tools:
            self._section(f"Tools offered to the model ({len(request.tools)})")
            for tool in request.tools:
                schema = _read_only_text(_json(tool.input_schema), max_lines=16, monospace=True)
                title = tool.name if not tool.description else f"{tool.name} — {tool.description}"
                box = _Collapsible(title.replace("\n", " "), schema)
                set_plain_tooltip(box.toggle, tool.description or tool.name)
                self._details_layout.addWidget(box)
        if request.metadata is not None:
            self._section("Metadata (raw)")
            self._details_layout.addWidget(_read_only_text(_json(request.metadata), monospace=True))

    def _part_widget(self, part: ContentPart) -> QWidget:
        if part.type == "text":
            return _read_only_text(part.text or "", max_lines=12)
        text = describe_part(part)
        if part.type != "image":
            return _read_only_text(text) if "\n" in text else plain_label(text, wrap=True)
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        data = _decode_blob(part.blob)
        pixmap = _thumbnail(data) if data is not None else None
        if pixmap is not None:
            thumb = QLabel(box)
            thumb.setPixmap(pixmap)
            thumb.setObjectName("thumbnail")
            row.addWidget(thumb)
        row.addWidget(plain_label(text if pixmap is not None else f"{text} — not shown", wrap=True), 1)
        return box

    # ------------------------------------------------------------------ state

    @property
    def request(self) -> SamplingRequest:
        """The request shown."""
        return self._request

    def response(self) -> SamplingResponse | None:
        """The approved reply, or None when the user rejected (or closed) the request."""
        return self._response

    def first_focus(self) -> QWidget:
        """The reply editor: what the user is asked to write (dialog_rules, rule 2)."""
        return self.reply_edit

    def accept_action(self) -> QPushButton:
        """Approve: what Ctrl+Enter presses, once a reply is written (dialog_rules, rule 4).

        In the reply editor Enter writes a new line; Ctrl+Enter sends the reply as written.
        """
        return self.approve_button

    def set_router(self, router: SamplingRouter | None) -> None:
        """Offer (or stop offering) "Route to agent…" with ``router``."""
        self._router = router
        self.route_button.setVisible(router is not None)

    def _update_buttons(self) -> None:
        routing = self._route_task is not None and not self._route_task.done()
        tool_use = self.tool_use
        if tool_use is not None and tool_use.active:
            written = tool_use.part() is not None
        else:
            written = bool(self.reply_edit.toPlainText().strip())
        named = bool(self.model_edit.text().strip())
        ready = written and named
        self.approve_button.setEnabled(ready and not routing)
        hint = (
            ""
            if ready or routing
            else approve_hint(written=written, named=named, tool_call=tool_use is not None and tool_use.active)
        )
        self.approve_hint.setText(hint)
        self.approve_hint.setVisible(bool(hint))
        self.approve_button.setToolTip(hint or APPROVE_TIP)
        self.route_button.setEnabled(not routing)
        self.draft_button.setEnabled(not routing)

    # ------------------------------------------------------------------ slots

    def on_approve_clicked(self) -> None:
        """Send the reply as the model's answer: text, or a tool call (with any text written before it)."""
        text = self.reply_edit.toPlainText()
        model = self.model_edit.text().strip()
        if not self.approve_button.isEnabled() or not model:
            return
        stop = self.stop_combo.currentText().strip() or "endTurn"
        call = self.tool_use.part() if self.tool_use is not None and self.tool_use.active else None
        if call is None:
            self._response = SamplingResponse(text=text, model=model, stop_reason=stop)
        else:
            parts = (ContentPart("text", text=text), call) if text.strip() else (call,)
            self._response = SamplingResponse(text=text, model=model, stop_reason="toolUse", content=parts)
        self.accept()

    def on_route_clicked(self) -> None:
        """Ask the router's agent; its reply lands in the editor for review."""
        if self._router is None or (self._route_task is not None and not self._route_task.done()):
            return
        self._route_task = spawn(self._route(self._router), doing="routing a sampling request")
        self._update_buttons()

    def on_draft_clicked(self) -> None:
        """Ask the chosen script or model for a draft of this one reply; it lands in the editor for review."""
        handler = self._drafters.get(str(self.drafter_combo.currentData()))
        if handler is None or (self._route_task is not None and not self._route_task.done()):
            return
        self._route_task = spawn(self._route(handler, "Asking for a draft…"), doing="drafting a sampling reply")
        self._update_buttons()

    async def _route(self, router: SamplingRouter, doing: str = "Asking the other agent…") -> None:
        self.status_label.setText(doing)
        self.status_label.show()
        try:
            reply = await router(self._request)
        except asyncio.CancelledError:
            raise  # the dialog closed: leave its widgets alone
        except WorkbenchError as exc:
            self._route_task = None
            self._update_buttons()
            view = describe_error(exc, "routing the request")
            self.status_label.setText(f"Routing failed: {view.message}" + (f" ({view.hint})" if view.hint else ""))
            self.route_failed.emit(exc)
            return
        except BaseException:
            self._route_task = None
            self._update_buttons()
            self.status_label.setText("Routing failed; see the error report.")
            raise  # spawn() hands it to the ErrorPresenter
        self._route_task = None
        self.show_reply(reply)
        self.status_label.setText(f"Reply from {reply.model}: review it, then Approve to send it.")
        self._update_buttons()
        self.routed.emit(reply)

    def show_reply(self, reply: SamplingResponse) -> None:
        """Put a drafted or routed reply (text or tool call, model, stop reason) in the editor for review."""
        self.reply_edit.setPlainText(reply.text)
        if reply.tool_uses and self.tool_use is not None:
            self.tool_use.show_part(reply.tool_uses[0])
        self.model_edit.setText(reply.model)
        self.stop_combo.setCurrentText(reply.stop_reason)

    def done(self, code: int) -> None:
        """Close; a routing still in flight is cancelled."""
        task, self._route_task = self._route_task, None
        if task is not None and not task.done():
            task.cancel()
        super().done(code)
