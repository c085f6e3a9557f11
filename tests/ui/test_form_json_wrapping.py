"""The tool form's raw-JSON editor wraps like the results: a line breaks only at white space, never inside a
value; what is copied from it and what the form sends are the exact JSON."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from tests.support.text_layout import screen_lines
from workbench.ui.forms.schema_form import SchemaForm

VALUE = {"url": "https://example.com/agent", "station": "central-station"}
SCHEMA = {"type": "object", "properties": {"url": {"type": "string"}, "station": {"type": "string"}}}


def test_the_forms_json_never_splits_a_value_and_copies_and_sends_it_exactly(qtbot: Any) -> None:
    form = SchemaForm(SCHEMA)
    qtbot.addWidget(form)
    form.resize(700, 300)
    form.show()
    qtbot.waitExposed(form)
    assert form.splitter is not None and form.json_editor is not None
    editor = form.json_editor
    wanted = editor.fontMetrics().horizontalAdvance('  "url": "https://example.com/ag')
    chrome = editor.width() - editor.viewport().width()
    form.splitter.setSizes([700 - wanted - chrome, wanted + chrome])
    qtbot.waitUntil(lambda: abs(editor.viewport().width() - wanted) <= 8, timeout=2000)
    form.set_value(VALUE)
    QApplication.processEvents()
    lines = [line.replace("\u2060", "") for line in screen_lines(editor)]
    assert any(line.strip() == '"https://example.com/agent",' for line in lines), lines  # moved down whole
    assert not any(line.rstrip().endswith(("-", "/")) for line in lines), lines
    assert form.value() == VALUE
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert json.loads(QGuiApplication.clipboard().text()) == VALUE
    assert "\u2060" not in QGuiApplication.clipboard().text()


def test_typing_in_the_forms_json_sets_exactly_what_was_typed(qtbot: Any) -> None:
    form = SchemaForm(SCHEMA)
    qtbot.addWidget(form)
    form.resize(500, 300)
    form.show()
    qtbot.waitExposed(form)
    assert form.json_editor is not None
    form.set_value(VALUE)
    editor = form.json_editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, '{"url": "https://example.org/a-b"}')
    assert form.value() == {"url": "https://example.org/a-b"}
