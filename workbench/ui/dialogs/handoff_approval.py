"""The dialog asking the user to approve a handoff: who asks whom for what, Approve or Deny."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from workbench.core.handoff.events import USER
from workbench.core.handoff.policy import ApprovalDecision
from workbench.core.safe_text import escape_json_text, neutralise
from workbench.ui.dialogs.elicitation_form import message_view
from workbench.ui.dialogs.permission_buttons import permission_buttons, settle_permission_defaults
from workbench.ui.untrusted import plain_label


class HandoffApprovalRequest(Protocol):
    """What the dialog needs of an approval request (``workbench.core.handoff.policy.ApprovalRequest`` fits).

    The arguments shown are the request's ``arguments`` (the router's name) or ``detail``, whichever it has.
    """

    @property
    def source(self) -> str:
        """Who asks."""

    @property
    def target(self) -> str:
        """Who is asked."""

    @property
    def protocol(self) -> str:
        """The target's protocol."""

    @property
    def kind(self) -> Any:
        """A HopKind or its string value."""

    @property
    def summary(self) -> str:
        """One line: what is asked."""


def _who(name: str) -> str:
    return "You" if name == USER else name


def _text(value: Any) -> str:
    return str(getattr(value, "value", value) or "")


TITLE = "Approve handoff?"
TITLE_FRAME_PX = 160
"""Room the window manager's frame takes beside the title: the icon and three buttons (openbox: ~110 px)."""
MIN_WIDTH = 420
"""The dialog is never narrower than this, whatever the title (a route and its JSON need the width too)."""


def title_room(dialog: QWidget) -> int:
    """A width at which the window manager shows ``dialog``'s whole title ("Approve handoff? — Agent Workbench").

    Window managers add the application's name and draw titles in a bold, often larger font; a dialog
    sized only to its contents had its title cut to "Approve hando… gent Workbench".
    """
    app = QGuiApplication.applicationDisplayName() or QGuiApplication.applicationName() or "Agent Workbench"
    font = QFont(dialog.font())
    font.setBold(True)
    if font.pointSizeF() > 0:  # a font sized in pixels has no point size
        font.setPointSizeF(font.pointSizeF() * 1.15)
    title = f"{dialog.windowTitle() or TITLE} — {app}"
    return max(MIN_WIDTH, QFontMetrics(font).horizontalAdvance(title) + TITLE_FRAME_PX)


DECODE_LIMIT = 1_000_000
"""Text values longer than this are shown as sent, not decoded."""
_DECODE_DEPTH = 4


def _decoded(value: Any, depth: int, found: list[bool]) -> Any:
    """``value`` with every string that holds a JSON object or array replaced by what it holds."""
    if depth > _DECODE_DEPTH:
        return value
    if isinstance(value, str):
        text = value.strip()
        if len(text) < 2 or len(text) > DECODE_LIMIT or (text[0], text[-1]) not in (("{", "}"), ("[", "]")):
            return value
        try:
            inner = json.loads(text)
        except (ValueError, RecursionError):
            return value
        found[0] = True
        return _decoded(inner, depth + 1, found)
    if isinstance(value, Mapping):
        return {str(k): _decoded(v, depth + 1, found) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_decoded(v, depth + 1, found) for v in value]
    return value


def readable_arguments(arguments: Mapping[str, Any]) -> tuple[str, bool]:
    """The arguments as indented JSON for a person to judge, and whether any text value was decoded.

    A text value that is itself JSON (an A2A agent tool's ``message``, the MCP proxy's request) is
    shown as the object it encodes instead of one long line of escaped quotes.
    """
    found = [False]
    value = _decoded(dict(arguments), 0, found)
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        text = json.dumps(dict(arguments), ensure_ascii=False, default=str)
    return text, found[0]


class HandoffApprovalDialog(QDialog):
    """Asks whether ``request.source`` may hand off to ``request.target``.

    Shows the route, protocol and kind, the message and the arguments (all as plain text: they come
    from agents). Approve accepts; Deny, Esc and closing the window deny. "Always allow this route"
    makes the answer stick for this source → target pair (``ApprovalDecision.remember``). The dialog
    opens focused on Deny, so a stray Enter denies; Enter presses whichever button has the focus, and
    Approve is the default (Deny never is). Tab runs content → "Always allow" → Approve → Deny. Open
    with ``open()`` and await ``asyncutil.open_dialog``; then read ``decision()``.
    """

    def __init__(self, request: HandoffApprovalRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        source, target = _text(getattr(request, "source", "")), _text(getattr(request, "target", ""))
        protocol, kind = _text(getattr(request, "protocol", "")), _text(getattr(request, "kind", ""))
        summary = _text(getattr(request, "summary", ""))
        detail = getattr(request, "arguments", None) or getattr(request, "detail", None) or {}
        if not isinstance(detail, Mapping):
            detail = {"arguments": detail}
        self.setWindowTitle(TITLE)
        self.setModal(True)
        self.setMinimumWidth(title_room(self))

        self.who_label = plain_label(f"{_who(source)} wants to hand off to {_who(target)}", wrap=True)
        bold = QFont(self.who_label.font())
        bold.setBold(True)
        self.who_label.setFont(bold)
        facts = QFormLayout()
        self.route_label = plain_label(f"{_who(source)} → {_who(target)}", wrap=True)
        self.protocol_label = plain_label(protocol or "—")
        self.kind_label = plain_label(kind or "—")
        facts.addRow(plain_label("Route", selectable=False), self.route_label)
        facts.addRow(plain_label("Protocol", selectable=False), self.protocol_label)
        facts.addRow(plain_label("Kind", selectable=False), self.kind_label)
        shown, decoded = readable_arguments(detail)
        if decoded and summary.lstrip()[:1] in ("{", "["):
            summary = "A JSON request: see the arguments below."  # the same JSON, cut to one line, said nothing
        message_area, self.message_label = message_view(summary or "(no message)")
        self.detail_view = QPlainTextEdit()
        self.detail_view.setObjectName("handoffDetail")
        self.detail_view.setReadOnly(True)
        self.detail_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail_view.setPlainText(escape_json_text(shown))  # invisible characters as \uXXXX
        self.detail_view.setVisible(bool(detail))
        self.decoded_note = plain_label("Text values holding JSON are shown decoded.", selectable=False)
        self.decoded_note.setEnabled(False)  # greyed: a remark, not content
        self.decoded_note.setVisible(decoded)
        self.always_check = QCheckBox(neutralise(f"Always allow this route ({_who(source)} → {_who(target)})"))

        self.buttons, self.approve_button, self.deny_button = permission_buttons(self, "Approve", "Deny")

        layout = QVBoxLayout(self)
        layout.addWidget(self.who_label)
        layout.addLayout(facts)
        layout.addWidget(plain_label("Message", selectable=False))
        layout.addWidget(message_area)
        if detail:
            layout.addWidget(plain_label("Arguments", selectable=False))
            layout.addWidget(self.detail_view, 1)
            layout.addWidget(self.decoded_note)
        layout.addWidget(self.always_check)
        layout.addWidget(self.buttons)
        # Tab runs content → "Always allow" → Approve → Deny, whatever order the platform lays the buttons in
        QWidget.setTabOrder(self.always_check, self.approve_button)
        QWidget.setTabOrder(self.approve_button, self.deny_button)
        settle_permission_defaults(self.approve_button, self.deny_button)  # Approve the default; opens on Deny

    def first_focus(self) -> QWidget:
        """Deny (dialog_rules, rule 2): a permission with nothing to type starts on its refusal."""
        return self.deny_button

    def approve(self, *, always: bool = False) -> None:
        """Answer Approve (as the button does), optionally ticking "always"."""
        self.always_check.setChecked(always)
        self.approve_button.click()

    def deny(self) -> None:
        """Answer Deny (as the button does)."""
        self.deny_button.click()

    def decision(self) -> ApprovalDecision:
        """The answer once closed: approved only when accepted; ``remember`` ("always") only with approval."""
        approved = self.result() == QDialog.DialogCode.Accepted
        return ApprovalDecision(
            approved,
            remember=approved and self.always_check.isChecked(),
            reason=None if approved else "denied in the approval dialog",
        )
