"""A form field keeps its height when its validation message appears: the message goes below it, whole.

An elicitation's e-mail field shrank to ~14 px when "is not an e-mail address" appeared (the form's
row kept its old height). Keys are typed into the field as a user types them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLineEdit, QWidget

from workbench.core.protocols.base import ElicitationRequest
from workbench.demo.mcp_server.schemas import BookingForm, Traveller
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.elicitation_form import ElicitationFormDialog
from workbench.ui.forms.field_base import Field

WAIT_MS = 5000

TRAVELLERS: dict[str, Any] = {
    "type": "object",
    "properties": {"travellers": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Traveller"}}},
    "required": ["travellers"],
    "$defs": {"Traveller": Traveller.model_json_schema()},
}
"""A tool's form with the e-mail nested in an array item's object (plan_trip's travellers)."""


def _below(field: Field, editor: QWidget) -> bool:
    """The field's message is shown whole, under its editor."""
    label = field.error_label
    editor_bottom = editor.mapTo(field, QPoint(0, editor.height())).y()
    label_top = label.mapTo(field, QPoint(0, 0)).y()
    whole = label.height() >= label.heightForWidth(label.width())
    inside = label.mapTo(field, QPoint(0, label.height())).y() <= field.height()
    return label.isVisible() and label_top >= editor_bottom and whole and inside


@pytest.mark.parametrize(
    ("schema", "path"),
    [(BookingForm.model_json_schema(), ("email",)), (TRAVELLERS, ("travellers", 0, "email"))],
    ids=["elicitation", "nested in a tool form"],
)
def test_an_email_field_keeps_its_height_when_its_message_appears_below_it(
    qtbot: Any, qloop: asyncio.AbstractEventLoop, schema: dict[str, Any], path: tuple[str | int, ...]
) -> None:
    dialog = ElicitationFormDialog(ElicitationRequest("form", "Book a table", requested_schema=schema, agent="demo"))
    qtbot.addWidget(dialog)
    present(dialog)
    qtbot.waitExposed(dialog)
    field = dialog.form.field(*path)
    assert field is not None
    editor = field.editor
    assert isinstance(editor, QLineEdit)
    height = editor.height()
    assert height >= editor.sizeHint().height()
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(editor, "ada")  # not an e-mail address yet
    # the layout settles with the editor as tall as before (it stayed at 15 px instead of 22)
    qtbot.waitUntil(lambda: _below(field, editor) and editor.height() == height, timeout=WAIT_MS)
    qtbot.keyClicks(editor, "@example.com")  # valid: the message goes, the field stays as it was
    qtbot.waitUntil(lambda: not field.error_label.isVisible() and editor.height() == height, timeout=WAIT_MS)
    dialog.reject()
