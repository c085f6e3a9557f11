"""The dialog asking whether a tool call may go out: the tool, who asks, its hints and its arguments; Call or Don't."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from workbench.core.safe_text import escape_json_text
from workbench.core.tool_approval import ToolCallRequest
from workbench.ui.dialogs.handoff_approval import readable_arguments, title_room
from workbench.ui.dialogs.permission_buttons import permission_buttons, settle_permission_defaults
from workbench.ui.untrusted import plain_label

TITLE = "Call this tool?"
MAX_DESCRIPTION = 2_000
"""Characters of the tool's description shown (it comes from the server)."""


def caller_text(caller: str) -> str:
    """Who asks for the call, in words (``model:NAME`` → "the model NAME")."""
    if caller.startswith("model:"):
        return f"the model {caller.removeprefix('model:')}"
    if caller.startswith("app:"):
        return f"the app {caller.removeprefix('app:')}"
    return "you" if caller in ("you", "") else caller


class ToolApprovalDialog(QDialog):
    """Asks whether ``request``'s call may go out.

    Shows the tool's name, who asks, the connection, the tool's description, its hints (destructive,
    idempotent, open world, read-only: as the server said, or "not said") and the arguments, all as plain
    text. Call accepts; Don't call, Esc and closing refuse. It opens focused on Don't call, so a stray
    Enter refuses. Open with ``open()`` and await ``asyncutil.open_dialog``; then read ``approved()``.
    """

    def __init__(self, request: ToolCallRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setWindowTitle(TITLE)
        self.setModal(True)
        self.setMinimumWidth(title_room(self))
        tool = request.tool
        self.tool_label = plain_label(f"Call {tool.name!r}?", wrap=True)
        bold = QFont(self.tool_label.font())
        bold.setBold(True)
        self.tool_label.setFont(bold)
        facts = QFormLayout()
        self.caller_label = plain_label(caller_text(request.caller), wrap=True)
        self.connection_label = plain_label(request.connection or "—", wrap=True)
        facts.addRow(plain_label("Asked by", selectable=False), self.caller_label)
        facts.addRow(plain_label("Connection", selectable=False), self.connection_label)
        self.hint_labels: dict[str, QWidget] = {}
        for label, value in request.hints.lines():
            hint = plain_label(value)
            self.hint_labels[label] = hint
            facts.addRow(plain_label(label, selectable=False), hint)
        description = (tool.description or "").strip()
        if len(description) > MAX_DESCRIPTION:
            description = description[:MAX_DESCRIPTION] + "…"
        self.description_label = plain_label(description or "(no description)", wrap=True)
        shown, _decoded = readable_arguments(request.arguments)
        self.arguments_view = QPlainTextEdit()
        self.arguments_view.setObjectName("toolApprovalArguments")
        self.arguments_view.setReadOnly(True)
        self.arguments_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.arguments_view.setPlainText(escape_json_text(shown))

        self.buttons, self.call_button, self.cancel_button = permission_buttons(self, "Call", "Don't call")

        layout = QVBoxLayout(self)
        layout.addWidget(self.tool_label)
        layout.addWidget(self.description_label)
        layout.addLayout(facts)
        layout.addWidget(plain_label("Arguments", selectable=False))
        layout.addWidget(self.arguments_view, 1)
        layout.addWidget(self.buttons)
        settle_permission_defaults(self.call_button, self.cancel_button)  # Call the default; opens on Don't call

    def first_focus(self) -> QWidget:
        """Don't call (dialog_rules, rule 2): a permission with nothing to type starts on its refusal."""
        return self.cancel_button

    def call(self) -> None:
        """Answer Call (as the button does)."""
        self.call_button.click()

    def refuse(self) -> None:
        """Answer Don't call (as the button does)."""
        self.cancel_button.click()

    def approved(self) -> bool:
        """Whether the user pressed Call."""
        return self.result() == QDialog.DialogCode.Accepted
