"""Forms a person can live with: the wheel scrolls, each problem is said once in plain words, in the schema's order."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget

from workbench.ui.forms.schema_form import SchemaForm


def _form(qtbot: Any, schema: dict[str, Any], **kwargs: Any) -> SchemaForm:
    form = SchemaForm(schema, **kwargs)
    qtbot.addWidget(form)
    return form


def _wheel(widget: QWidget, steps: int = -3) -> bool:
    """Turn the mouse wheel over ``widget`` (negative: towards the user); whether ``widget`` took the turn.

    An event sent from code is not passed on to the parents as a real one is (Qt propagates only
    spontaneous wheel events), so a turn the widget leaves alone is handed to the form's scroll area here.
    """
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)
    if event.isAccepted():
        return True
    form = widget.parentWidget()
    while form is not None and not isinstance(form, SchemaForm):
        form = form.parentWidget()
    assert form is not None
    viewport = form.form_area.viewport()
    QApplication.sendEvent(
        viewport,
        QWheelEvent(
            QPointF(viewport.rect().center()),
            QPointF(viewport.mapToGlobal(viewport.rect().center())),
            QPoint(0, 0),
            QPoint(0, 120 * steps),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        ),
    )
    return False


def test_the_wheel_over_a_number_or_choice_scrolls_the_form_instead_of_changing_it(qtbot):
    props: dict[str, Any] = {f"note{i}": {"type": "string"} for i in range(20)}
    props["age"] = {"type": "integer", "minimum": 0, "maximum": 130}
    props["cabin"] = {"type": "string", "enum": ["economy", "business"]}
    props |= {f"more{i}": {"type": "string"} for i in range(20)}
    form = _form(qtbot, {"type": "object", "properties": props}, value={"age": 36, "cabin": "economy"}, show_json=False)
    form.resize(500, 300)
    form.show()
    qtbot.waitExposed(form)
    age, cabin = form.field("age"), form.field("cabin")
    bar = form.form_area.verticalScrollBar()
    before = bar.value()
    assert not _wheel(age.spin)
    assert form.value()["age"] == 36  # the wheel leaves the number under the pointer alone
    assert bar.value() > before  # the form scrolled instead
    before = bar.value()
    form.form_area.ensureWidgetVisible(cabin.combo)
    assert not _wheel(cabin.combo, -1)
    assert form.value()["cabin"] == "economy"
    age.spin.setFocus()
    qtbot.waitUntil(age.spin.hasFocus)
    assert _wheel(age.spin, 1)
    assert form.value()["age"] == 37  # a focused field still takes the wheel (the user is editing it)


def test_each_problem_is_said_once_in_plain_words(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email", "pattern": "^[^@]+@[^@]+$"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "examples": ["ABC-1234"]},
        },
        "required": ["email", "code"],
        "additionalProperties": False,
    }
    form = _form(qtbot, schema)
    form.set_value({"email": "nope", "code": "x", "extra": 1})
    form.reveal_errors()
    assert form.errors() == [
        "(root): unexpected field: extra",
        "email: is not an e-mail address (name@example.com)",
        "code: does not have the expected form (e.g. ABC-1234)",
    ]
    assert form.field("email").error_label.text() == "Is not an e-mail address (name@example.com)"
    summary = form.errors_label.text()
    assert summary.splitlines() == ["Unexpected field: extra", "2 fields to fix (marked above): Email, Code"]
    every_text = [form.field(name).error_label.text() for name in ("email", "code")] + [summary]
    assert not any("^" in text or "[A-Z]" in text for text in every_text)  # no regular expression shown
    assert form.root.error_label.isHidden()  # the root's problem is in the summary, not twice


def test_fields_and_problems_follow_the_schemas_order(qtbot):
    names = ["destination", "dates", "travellers", "cabin"]
    form = _form(qtbot, {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": names})
    assert list(form.root.fields) == names
    form.reveal_errors()
    assert [e.split(":")[0] for e in form.errors()] == names  # not alphabetical


def test_an_order_lost_in_transit_comes_back_from_the_schemas_hints(qtbot):
    # an A2A data part is a protobuf Struct: its keys arrive sorted by name
    lost = {
        "type": "object",
        "properties": {n: {"type": "string"} for n in sorted(["departure_date", "return_date", "travellers", "cabin"])},
        "required": ["departure_date", "return_date", "travellers"],
    }
    assert list(_form(qtbot, lost).root.fields) == ["departure_date", "return_date", "travellers", "cabin"]
    hinted = dict(lost, **{"x-order": ["travellers", "cabin"]})
    assert list(_form(qtbot, hinted).root.fields)[:2] == ["travellers", "cabin"]
    numbered = {
        "type": "object",
        "properties": {"a": {"type": "string", "propertyOrder": 2}, "b": {"type": "string", "propertyOrder": 1}},
    }
    assert list(_form(qtbot, numbered).root.fields) == ["b", "a"]
