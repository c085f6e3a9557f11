"""A dialog's first field: a real field (never a form's raw JSON), found without touching Qt's ownership."""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QDialog, QLineEdit, QPlainTextEdit, QVBoxLayout

from workbench.ui.dialog_rules import SECONDARY_INPUT, first_input


def test_the_first_input_is_a_field_not_the_raw_json_and_removing_a_row_keeps_the_others(qtbot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    layout = QVBoxLayout(dialog)
    raw = QPlainTextEdit(dialog)
    raw.setProperty(SECONDARY_INPUT, True)
    rows = [QLineEdit(dialog) for _ in range(3)]
    for widget in (raw, *rows):
        layout.addWidget(widget)
    dialog.show()
    assert first_input(dialog) is rows[0]
    layout.removeWidget(rows[0])
    rows[0].setParent(None)
    rows[0].deleteLater()
    del rows[0]
    qtbot.waitUntil(lambda: True)
    assert all(shiboken6.isValid(row) for row in rows)
    assert shiboken6.isValid(raw)
    rows[0].setText("still here")
    assert rows[0].text() == "still here"
