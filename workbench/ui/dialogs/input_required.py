"""The dialog answering an A2A agent that waits for input: a form, a JSON object or a text reply."""

from __future__ import annotations

import json
from typing import Any, Literal

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.core.safe_text import escape_json_text
from workbench.ui.dialog_rules import first_input
from workbench.ui.dialogs.elicitation_form import message_view
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label, plain_tooltip, shown

TASK_CANCELLED = 2
"""Result code of "Cancel task" (Send is ``QDialog.Accepted``, Close ``QDialog.Rejected``)."""

Mode = Literal["form", "data", "text"]


def _form_values(data: Any) -> dict[str, Any] | None:
    """Prefilled answers the agent sent next to its schema (``{"form": {"values": {...}}}``)."""
    form = data.get("form") if isinstance(data, dict) else None
    values = form.get("values") if isinstance(form, dict) else None
    return values if isinstance(values, dict) else None


class InputRequiredDialog(QDialog):
    """Answers an A2A ``input-required`` (or ``auth-required``) pause of a task.

    What the answer looks like depends on the request: a form when the agent supplied a JSON Schema,
    an editable JSON object prefilled with the agent's data when it sent a data object, otherwise a
    multi-line text (Enter sends, Shift+Enter starts a new line). Ctrl+Enter sends in every mode.
    With a schema, values in ``data["form"]["values"]`` (the workbench's A2A convention) prefill the form.

    Buttons: Send (enabled while the answer is valid; while it is greyed, a line beside it names the
    fields still to fill in or fix, by their labels), Cancel task (the task is cancelled), Close
    (answer later: the task keeps waiting; also Esc and closing the window). ``response()`` is the
    ``InputResponse`` to send, or None for "answer later"; ``draft()`` is what was typed so far, to
    open the form again with it (the chat's "Answer in a form…").

    Args:
        request: The agent's question.
        parent: Qt parent.
        draft: Values typed before (a form's fields or the data object), put over the agent's own.
        can_cancel_task: Offer "Cancel task" (not where the caller cannot cancel the task).

    Signals:
        shown: The dialog became visible.
    """

    shown = Signal()

    def __init__(
        self,
        request: InputRequest,
        parent: QWidget | None = None,
        *,
        draft: dict[str, Any] | None = None,
        can_cancel_task: bool = True,
    ) -> None:
        super().__init__(parent)
        self.request = request
        self._response: InputResponse | None = None
        who = request.agent or "The agent"
        asks = "needs you to sign in" if request.kind == "auth" else "needs your input"
        self.setWindowTitle(shown(f"{who} {asks}"))
        self.setModal(True)

        self.who_label = plain_label(f"{who} {asks}:")
        bold = QFont(self.who_label.font())
        bold.setBold(True)
        self.who_label.setFont(bold)
        question_area, self.question_label = message_view(request.text or "(no question text)")

        layout = QVBoxLayout(self)
        layout.addWidget(self.who_label)
        layout.addWidget(question_area)

        self.form: SchemaForm | None = None
        self.data_editor: QPlainTextEdit | None = None
        self.data_error: QLabel | None = None
        self.text_editor: QPlainTextEdit | None = None
        self.message_edit: QLineEdit | None = None
        self.mode: Mode
        if isinstance(request.schema, dict):
            self.mode = "form"
            self.form = SchemaForm(request.schema, lists_fields_to_fix=False)
            values = {**(_form_values(request.data) or {}), **(draft or {})}
            if values:
                self.form.set_value({**self.form.value(), **values})
            self.form.changed.connect(self._update_buttons)
            layout.addWidget(self.form, 1)
        elif isinstance(request.data, dict):
            self.mode = "data"
            layout.addWidget(plain_label("The agent sent this data; edit it and send it back:", selectable=False))
            self.data_editor = QPlainTextEdit()
            self.data_editor.setObjectName("dataEditor")
            self.data_editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            self.data_editor.setTabChangesFocus(True)
            # invisible characters as \uXXXX escapes: the JSON reads back as the agent's data exactly
            data = draft if draft is not None else request.data
            self.data_editor.setPlainText(escape_json_text(json.dumps(data, indent=2, ensure_ascii=False)))
            self.data_editor.textChanged.connect(self._update_buttons)
            self.data_error = plain_label("", wrap=True)
            set_tone(self.data_error, "error")
            self.data_error.hide()
            layout.addWidget(self.data_editor, 1)
            layout.addWidget(self.data_error)
        else:
            self.mode = "text"
            self.text_editor = QPlainTextEdit()
            self.text_editor.setObjectName("answerEditor")
            self.text_editor.setPlaceholderText("Your answer (Enter sends, Shift+Enter for a new line)")
            self.text_editor.setTabChangesFocus(True)
            self.text_editor.textChanged.connect(self._update_buttons)
            self.text_editor.installEventFilter(self)
            layout.addWidget(self.text_editor, 1)
        if self.mode != "text":
            self.message_edit = QLineEdit()
            self.message_edit.setPlaceholderText("Message to send along (optional)")
            layout.addWidget(self.message_edit)

        self.buttons = QDialogButtonBox()
        self.send_button = QPushButton("Send")
        self.cancel_task_button = QPushButton("Cancel task")
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Answer later: the task keeps waiting")
        self.buttons.addButton(self.send_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.cancel_task_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.cancel_task_button, self.close_button):
            button.setAutoDefault(False)
        self.cancel_task_button.setVisible(can_cancel_task)
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.on_send_clicked)
        self.cancel_task_button.clicked.connect(self.on_cancel_task_clicked)
        self.close_button.clicked.connect(self.reject)
        self.send_hint = plain_label("", wrap=True)
        self.send_hint.setObjectName("sendHint")
        button_row = QHBoxLayout()
        button_row.addWidget(self.send_hint, 1)
        button_row.addWidget(self.buttons)
        layout.addLayout(button_row)
        # a form with its JSON beside it needs the width for both (at 600 px the JSON's lines are cut)
        self.resize(720 if self.form is not None else 600, 460 if self.mode == "text" else 560)
        if self.form is not None and self.form.json_pane is not None:
            self.form.splitter.setSizes([3, 2])  # in proportion: the JSON gets two fifths
        self._update_buttons()

    def response(self) -> InputResponse | None:
        """The answer to send, ``InputResponse(cancel=True)`` for "Cancel task", None for "answer later"."""
        return self._response

    def draft(self) -> dict[str, Any] | None:
        """What was typed so far: the form's values or the data editor's JSON object (None: text, or JSON not valid)."""
        if self.form is not None:
            return self.form.value()
        if self.data_editor is not None:
            return self._parsed_data()[0]
        return None

    def first_focus(self) -> QWidget | None:
        """Where the answer is typed (dialog_rules, rule 2): the form's first field, the JSON, or the text."""
        if self.form is not None:
            return first_input(self.form) or self.message_edit
        return self.data_editor or self.text_editor

    def accept_action(self) -> QPushButton:
        """Send: what Ctrl+Enter presses in every mode, while the answer is valid (dialog_rules, rule 4)."""
        return self.send_button

    # ---------------------------------------------------------------- the answer

    def _parsed_data(self) -> tuple[dict[str, Any] | None, str | None]:
        assert self.data_editor is not None
        try:
            value = json.loads(self.data_editor.toPlainText())
        except json.JSONDecodeError as exc:
            return None, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        if not isinstance(value, dict):
            return None, "the answer must be a JSON object ({…})"
        return value, None

    def _answer(self) -> InputResponse | None:
        """The response the current input makes, or None when it is not valid yet."""
        message = self.message_edit.text().strip() if self.message_edit is not None else ""
        if self.form is not None:
            return InputResponse(text=message or None, data=self.form.value()) if self.form.is_valid() else None
        if self.data_editor is not None:
            data, problem = self._parsed_data()
            return None if problem else InputResponse(text=message or None, data=data)
        assert self.text_editor is not None
        text = self.text_editor.toPlainText()
        return InputResponse(text=text) if text.strip() else None

    def _update_buttons(self) -> None:
        if self.data_editor is not None and self.data_error is not None:
            _, problem = self._parsed_data()
            self.data_error.setText(problem or "")
            self.data_error.setVisible(problem is not None)
        ready = self._answer() is not None
        self.send_button.setEnabled(ready)
        hint = "" if ready else self._send_hint()
        self.send_hint.setText(hint)
        self.send_hint.setVisible(bool(hint))
        self.send_button.setToolTip(plain_tooltip(hint) if hint else "Send the answer (Ctrl+Enter)")

    def _send_hint(self) -> str:
        """Why Send is greyed: which fields still need a value or a fix (by their labels)."""
        if self.form is not None:
            return self.form.fix_hint() or "Some answers are not valid yet"
        if self.data_editor is not None:
            return "Fix the JSON above"
        return "Type your answer first"

    def _send_if_valid(self) -> None:
        if self.send_button.isEnabled():
            self.on_send_clicked()

    def on_send_clicked(self) -> None:
        """Send the answer, if it is valid (otherwise show what is wrong)."""
        answer = self._answer()
        if answer is None:
            if self.form is not None:
                self.form.reveal_errors()
            return
        self._response = answer
        self.accept()

    def on_cancel_task_clicked(self) -> None:
        """Cancel the waiting task."""
        self._response = InputResponse(cancel=True)
        self.done(TASK_CANCELLED)

    def reject(self) -> None:
        """Close, Esc and closing the window leave the task waiting (answer later)."""
        self._response = None
        super().reject()

    # ---------------------------------------------------------------- Qt

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """In the text answer, Enter sends and Shift+Enter inserts a new line."""
        if watched is self.text_editor and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                self._send_if_valid()
                return True
        return super().eventFilter(watched, event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        """Announce visibility (tests and callers wait for it)."""
        super().showEvent(event)
        self.shown.emit()
